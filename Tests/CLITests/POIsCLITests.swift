import Foundation
import Testing

/// The `poiar pois` subcommands through the real executable.
@Suite struct POIsCLITests {
    let slice = packageRoot.appendingPathComponent("Tests/Fixtures/osm/helsinki-slice.osm.pbf")

    @Test func importShowCategoriesAndQueryFromAPBF() throws {
        let dir = try makeTempDir()
        let db = dir.appendingPathComponent("h.sqlite").path
        let imported = try runPoiar(["pois", "import", slice.path, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("(OSM PBF): "))
        #expect(imported.stderr.contains(" new, 0 updated POIs; skipped "))

        let show = try runPoiar(["pois", "show", "osm:node/307465178", "--db", db])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == """
            id:            osm:node/307465178
            name:          Cafe Engel
            categories:    cafe
            position:      60.1689130, 24.9517450
            address:       Aleksanterinkatu 26, 00170 Helsinki
            phone:         +3589652776
            opening hours: Mo-Fr 08:00-21:00; Sa 09:00-21:00; Su 10:00-19:00

            """)
        let json = try runPoiar(["pois", "show", "osm:node/311747780", "--db", db, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["categories"] as? [String] == ["cafe", "store"])
        #expect(object["category"] as? String == "cafe")
        let missing = try runPoiar(["pois", "show", "osm:node/1", "--db", db])
        #expect(missing.status == 1)
        #expect(missing.stderr == "poiar: error: \(db) (osm:node/1): no POI with this id\n")

        let categories = try runPoiar(["pois", "categories", "--db", db])
        #expect(categories.status == 0)
        #expect(categories.stdout.split(separator: "\n").contains { $0.split(separator: " ") == ["cafe", "89", "89"] })
        // Stores: the mall is one by its primary category, the tea shops only as their second.
        let store = try #require(categories.stdout.split(separator: "\n").first { $0.hasPrefix("store ") }?.split(separator: " "))
        #expect(Int(store[1])! > Int(store[2])!)
        let known = try runPoiar(["pois", "categories"])
        #expect(known.stdout.split(separator: "\n").contains("university"))

        // --lang picks name:<lang>; the filter matches any category (the tea shop is a store).
        let kiasma = try runPoiar(["pois", "query", "--db", db, "--near", "60.1720,24.9370", "--radius", "100",
                                   "--filter", "museum", "--lang", "en"])
        let hits = try JSONSerialization.jsonObject(with: Data(kiasma.stdout.utf8)) as! [[String: Any]]
        #expect(hits.first?["name"] as? String == "Museum of Modern Art Kiasma")
        let stores = try runPoiar(["pois", "query", "--db", db, "--near", "60.1664027,24.9378131", "--radius", "5", "--filter", "store"])
        let storeHits = try JSONSerialization.jsonObject(with: Data(stores.stdout.utf8)) as! [[String: Any]]
        #expect(storeHits.first?["id"] as? String == "osm:node/311747780")
        #expect(storeHits.first?["category"] as? String == "cafe")
        #expect(storeHits.first?["categories"] as? [String] == ["cafe", "store"])
    }

    @Test func aPBFIsAPOISourceForQueries() throws {
        // Straight from the PBF: imported into a cache beside it (a copy, in a temporary folder).
        let dir = try makeTempDir()
        let copy = dir.appendingPathComponent("slice.osm.pbf")
        try FileManager.default.copyItem(at: slice, to: copy)
        let r = try runPoiar(["pois", "query", "--db", copy.path, "--near", "60.1689,24.9517", "--radius", "50", "--filter", "cafe", "--limit", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"id\": \"osm:node/307465178\""))
        #expect(FileManager.default.fileExists(atPath: copy.path + ".poiar.sqlite"))
    }

    /// Open data without OSM tags: `--category` gives every POI a category, `--category-from`
    /// with `--category-map` takes it from a column; `--columns` names other columns; bad
    /// option values are refused before anything is written.
    @Test func importOptionsForOpenData() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = try writeFile("OBJECTID;TITLE;KIND;Y;X\n1;Kallio;Bibliothek;60.1841;24.9502\n2;Oodi;Bibliothek;60.1738;24.9381\n3;Puisto;Spielplatz;60.17;24.93\n",
                                to: "open.csv", in: dir)
        let db = dir.appendingPathComponent("o.sqlite").path
        let columns = ["--columns", "id=OBJECTID,name=TITLE,lat=Y,lon=X"]
        let plain = try runPoiar(["pois", "import", csv.path, "--db", db, "--category", "library"] + columns)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("(CSV): 3 new, 0 updated POIs; none skipped"), "\(plain.stderr)")
        let mapped = try runPoiar(["pois", "import", csv.path, "--db", db, "--category-from", "KIND",
                                   "--category-map", "bibliothek=library,Spielplatz=playground"] + columns)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stderr.contains("0 new, 3 updated POIs; none skipped"), "\(mapped.stderr)")
        let show = try runPoiar(["pois", "show", "csv:3", "--db", db])
        #expect(show.stdout.contains("playground"), "\(show.stdout)")
        for bad in [["--category", "libraries"], ["--category-map", "x=nope"], ["--category-map", "novalue"], ["--columns", "latitude=Y"]] {
            let r = try runPoiar(["pois", "import", csv.path, "--db", dir.appendingPathComponent("no.sqlite").path] + bad)
            #expect(r.status != 0, "\(bad)")
            #expect(r.stderr.contains(bad[0]), "\(bad): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no.sqlite").path))
        }
    }

    @Test func fetchOptionsAreChecked() throws {
        let dir = try makeTempDir()
        let db = dir.appendingPathComponent("f.sqlite").path
        let badSource = try runPoiar(["pois", "fetch", "--near", "60,25", "--source", "bing", "--db", db])
        #expect(badSource.status == 64)
        #expect(badSource.stderr.contains("The value 'bing' is invalid for '--source <source>'. Please provide one of 'overpass' and 'google-places'."),
                "\(badSource.stderr)")
        let badEndpoint = try runPoiar(["pois", "fetch", "--near", "60,25", "--endpoint", "ftp://x", "--db", db])
        #expect(badEndpoint.status == 64)
        // Without the key in the environment (the test runner has none).
        if ProcessInfo.processInfo.environment["POIAR_GOOGLE_PLACES_KEY"] == nil {
            let noKey = try runPoiar(["pois", "fetch", "--near", "60,25", "--source", "google-places", "--filter", "cafe", "--db", db])
            #expect(noKey.status == 1)
            #expect(noKey.stderr.contains("POIAR_GOOGLE_PLACES_KEY"))
        }
        let replayWithoutDB = try runPoiar(["replay", sampleLogs.appendingPathComponent("walk.csv").path, "--fetch",
                                            "--out", dir.appendingPathComponent("out").path])
        #expect(replayWithoutDB.status == 64)  // a usage error, from validate()
        #expect(replayWithoutDB.stderr.contains("give --pois DB"))
        let refreshAlone = try runPoiar(["replay", sampleLogs.appendingPathComponent("walk.csv").path, "--refresh"])
        #expect(refreshAlone.status == 64)
    }
}
