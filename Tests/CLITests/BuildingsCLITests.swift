import Foundation
import Testing

/// `pois import`'s building count and `--buildings SOURCE` of `replay`, `project` and `map`,
/// through the real executable. Bad building sources are in the bad-input catalogue.
@Suite struct BuildingsCLITests {
    static let fixture = packageRoot.appendingPathComponent("Tests/Fixtures/osm/helsinki-buildings.osm.pbf")

    /// `project` of one frame on the Esplanadi with POI source `pois` and `more` arguments, in `dir`.
    func project(_ pois: String, _ more: [String] = [], in dir: URL) throws -> RunResult {
        try runPoiar(["project", "--at", "60.16789,24.94932,21", "--heading", "270", "--pitch", "5", "--size", "720x1280",
                      "--hfov", "48", "--pois", pois] + more, cwd: dir)
    }

    /// A folder with the sample POIs (and buildings), a CSV of two cafés and the building fixture.
    func folder() throws -> URL {
        let dir = try makeTempDir()
        try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent("helsinki-esplanadi.osm"),
                                         to: dir.appendingPathComponent("helsinki-esplanadi.osm"))
        try FileManager.default.copyItem(at: Self.fixture, to: dir.appendingPathComponent("b.osm.pbf"))
        try writeFile("id,name,category,lat,lon\n1,Kappeli,cafe,60.1675,24.9495\n2,Strindberg,cafe,60.1679,24.9450\n",
                      to: "pois.csv", in: dir)
        return dir
    }

    @Test func importReportsTheBuildings() throws {
        let dir = try folder()
        defer { cleanUp(dir) }
        let r = try runPoiar(["pois", "import", "b.osm.pbf", "--db", "b.sqlite"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("(OSM PBF): 3 new, 0 updated POIs; skipped 29 (no known category: 29); "
                                  + "12 buildings (2 with a height, 7 with levels), skipped 2 (cut by the extract's edge: 2)\n"))
        // The database is then a building source too.
        let p = try project("pois.csv", ["--buildings", "b.sqlite"], in: dir)
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.stderr.contains("poiar: buildings: 12 from b.sqlite\n"))
    }

    @Test func theDefaultIsThePOISourceWhenItHoldsBuildings() throws {
        let dir = try folder()
        defer { cleanUp(dir) }
        let withBuildings = try project("helsinki-esplanadi.osm", in: dir)
        #expect(withBuildings.status == 0, "\(withBuildings.stderr)")
        #expect(withBuildings.stderr.contains("poiar: buildings: 446 from helsinki-esplanadi.osm (the POI source)\n"))
        let without = try project("pois.csv", in: dir)
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stderr.contains("poiar: no buildings in pois.csv: labels are not checked for line of sight\n"))
        // --buildings overrides; the POI source named again is not imported twice.
        let other = try project("helsinki-esplanadi.osm", ["--buildings", "b.osm.pbf"], in: dir)
        #expect(other.stderr.contains("poiar: b.osm.pbf: "))  // its import report
        #expect(other.stderr.contains("poiar: buildings: 12 from b.osm.pbf\n"))
        let same = try project("helsinki-esplanadi.osm", ["--buildings", "./helsinki-esplanadi.osm"], in: dir)
        #expect(same.stderr.contains("poiar: buildings: 446 from ./helsinki-esplanadi.osm\n"))
        #expect(!same.stderr.contains("poiar: ./helsinki-esplanadi.osm: "))
        // The same buildings give the same frame, checked for line of sight; other buildings may not.
        #expect(!withBuildings.stdout.isEmpty && withBuildings.stdout == same.stdout)
        #expect(withBuildings.stdout.contains("\"occluded\": ") && !without.stdout.contains("\"occluded\": "))
    }

    @Test func replayAndMapTakeBuildings() throws {
        let dir = try folder()
        defer { cleanUp(dir) }
        _ = try writeLog(try walkPrefix(seconds: 1.5), named: "walk.csv", in: dir)
        let plain = try runPoiar(["replay", "walk.csv", "--out", "plain", "--filter", "cafe"], cwd: dir)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("poiar: buildings: 446 from "))
        let r = try runPoiar(["replay", "walk.csv", "--out", "out", "--filter", "cafe", "--buildings", "b.osm.pbf"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: buildings: 12 from b.osm.pbf\n"))
        // Both replays checked the cafes against their buildings.
        for name in ["out", "plain"] {
            #expect(try String(contentsOf: dir.appendingPathComponent("\(name)/frames.jsonl"), encoding: .utf8).contains("\"occluded\": "))
        }
        let m = try runPoiar(["map", "walk.csv", "--out", "map.png", "--pois", "pois.csv", "--buildings", "b.osm.pbf"], cwd: dir)
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.stderr.contains("poiar: buildings: 12 from b.osm.pbf\n"))
        let none = try runPoiar(["map", "walk.csv", "--out", "map2.png", "--pois", "pois.csv"], cwd: dir)
        #expect(none.stderr.contains("poiar: no buildings in pois.csv: POIs are not checked for line of sight\n"))
    }
}
