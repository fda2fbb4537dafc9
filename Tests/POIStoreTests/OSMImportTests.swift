import Foundation
import POIARCore
import Testing
@testable import POIStore

@Suite struct OSMImportTests {
    @Test func westOaklandRevolutionCafe() throws {
        let url = sharedOSMData.appendingPathComponent("West-Oakland.osm")
        let (format, parsed) = try POIImport.parse(url)
        #expect(format == .osmXML)
        let cafe = try #require(parsed.pois.first { $0.id == "osm:node/1747162566" })
        #expect(cafe.name == "Revolution Cafe")
        #expect(cafe.category == "cafe")
        #expect(cafe.coordinate == GeoCoordinate(latitude: 37.8062641, longitude: -122.2984609))
        #expect(cafe.address == "7th Street 1612, 94607")
        #expect(cafe.phone == "+1 (510) 625-0149")
        #expect(cafe.website == "http://revcafeoak.com")
        #expect(cafe.tags["amenity"] == "cafe")
        #expect(parsed.pois.filter { $0.category == "cafe" }.count == 1)
        // The README's named school is a way: placed at its centroid, inside the extract.
        let school = try #require(parsed.pois.first { $0.id.hasPrefix("osm:way/") && $0.category == "school" })
        #expect((37.80...37.82).contains(school.coordinate.latitude))
        #expect(parsed.skipped[SkipReason.noCategory, default: 0] > 0)
    }

    @Test func aguascalientesElBuenSazon() throws {
        let url = sharedOSMData.appendingPathComponent("aguascalientes-excerpt.osm")
        let db = try POIDatabase()
        let report = try POIImport.importFile(url, into: db)
        #expect(report.updated == 0)
        #expect(report.imported == (try db.count()))
        let restaurant = try #require(try db.poi(id: "osm:node/13470999001"))
        #expect(restaurant.name == "El Buen Sazón")
        #expect(restaurant.category == "restaurant")
        #expect(restaurant.coordinate == GeoCoordinate(latitude: 21.8675743, longitude: -102.2771035))
        #expect(restaurant.openingHours == "Mo-Sa 09:00-15:00")
        #expect(try db.count(category: "restaurant") == 1)
        #expect(try db.count(category: "school") >= 14)
        #expect(try db.poi(id: "osm:node/13470999501")?.category == "store")  // Bodega Aurrera
    }

    @Test func reimportUpdatesInsteadOfDuplicating() throws {
        let url = sharedOSMData.appendingPathComponent("West-Oakland.osm")
        let db = try POIDatabase()
        let first = try POIImport.importFile(url, into: db)
        let count = try db.count()
        #expect(first.imported == count && count > 0)
        let second = try POIImport.importFile(url, into: db)
        #expect(second.imported == 0)
        #expect(second.updated == count)
        #expect(try db.count() == count)
        let near = GeoCoordinate(latitude: 37.8062641, longitude: -122.2984609)
        let hits = try db.query(near: near, radius: 1, categories: ["cafe"])
        #expect(hits.map(\.poi.id) == ["osm:node/1747162566"])
    }

    @Test func overpassJSONWaysArePlacedAtTheirCentroid() throws {
        let url = sharedOSMData.appendingPathComponent("SanFrancisco-InnerSunset-excerpt.overpass.json")
        let (format, parsed) = try POIImport.parse(url)
        #expect(format == .overpassJSON)
        let starbucks = try #require(parsed.pois.first { $0.id == "osm:way/267038748" })
        #expect(starbucks.name == "Starbucks")
        #expect(starbucks.category == "cafe")
        // The README gives the mean of the building's nodes; its centroid is a few metres off.
        let offset = geodesicDistance(starbucks.coordinate, GeoCoordinate(latitude: 37.7643081, longitude: -122.4660279))
        #expect(offset < 10)
        #expect(parsed.pois.filter { $0.category == "restaurant" }.count == 5)
    }

    /// A closed square way is placed at its centre, an open way at its nodes' mean, a
    /// multipolygon relation at its outer ring's centroid; ways may come before their nodes.
    @Test func waysAndRelationsInOSMXML() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
          <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/>
            <tag k="amenity" v="school"/><tag k="name" v="Square School"/></way>
          <way id="11"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="shop" v="kiosk"/></way>
          <way id="12"><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="5"/></way>
          <relation id="20"><member type="way" ref="12" role="outer"/>
            <tag k="type" v="multipolygon"/><tag k="leisure" v="park"/></relation>
          <node id="1" lat="10.0" lon="20.0"/>
          <node id="2" lat="10.0" lon="20.002"/>
          <node id="3" lat="10.002" lon="20.002"/>
          <node id="4" lat="10.002" lon="20.0"/>
          <node id="5" lat="0.0" lon="0.0"/>
          <node id="6" lat="0.0" lon="0.003"/>
          <node id="7" lat="0.003" lon="0.0"/>
          <node id="8" lat="1" lon="1" action="delete"><tag k="amenity" v="cafe"/></node>
          <node id="9" lat="1" lon="1"><tag k="amenity" v="cafe"/></node>
        </osm>
        """
        let parsed = try OSMXMLImporter.parse(Data(xml.utf8), file: "t.osm")
        #expect(parsed.pois.map(\.id) == ["osm:node/9", "osm:way/10", "osm:way/11", "osm:relation/20"])
        #expect(parsed.pois[0].name == "")
        let school = parsed.pois[1]
        #expect(abs(school.coordinate.latitude - 10.001) < 1e-10 && abs(school.coordinate.longitude - 20.001) < 1e-10)
        let kiosk = parsed.pois[2]
        #expect(abs(kiosk.coordinate.latitude - (10.0 + 10.0 + 10.002) / 3) < 1e-10)
        #expect(abs(kiosk.coordinate.longitude - (20.0 + 20.002 + 20.002) / 3) < 1e-10)
        let park = parsed.pois[3]  // triangle (0,0), (0.003,0), (0,0.003): centroid at 0.001, 0.001
        #expect(abs(park.coordinate.latitude - 0.001) < 1e-10 && abs(park.coordinate.longitude - 0.001) < 1e-10)
        #expect(parsed.skipped == ["deleted": 1])
    }

    @Test func malformedXMLGivesTheLineNumber() throws {
        let xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n  <node id=\"1\" lat=\"1\" lon=\"2\">\n    <tag k=\"amenity\" v=\"cafe\">\n  </node>\n</osm>\n"
        let error = try #require(inputError { _ = try OSMXMLImporter.parse(Data(xml.utf8), file: "broken.osm") })
        #expect(error.location.file == "broken.osm")
        let line = try #require(error.location.line)
        #expect((4...6).contains(line))
        #expect(error.message.hasPrefix("malformed XML"))
        #expect(error.description.hasPrefix("broken.osm:\(line)"))
    }

    @Test func badCoordinatesAndForeignXMLAreErrors() {
        let badLat = "<osm>\n<node id=\"1\" lat=\"north\" lon=\"2\"/>\n</osm>"
        let e1 = inputError { _ = try OSMXMLImporter.parse(Data(badLat.utf8), file: "a.osm") }
        #expect(e1?.location.line == 2)
        #expect(e1?.location.field == "node 1")
        let html = "<html><body>hi</body></html>"
        #expect(inputError { _ = try OSMXMLImporter.parse(Data(html.utf8), file: "b.osm") }?.message.hasPrefix("not OSM XML") == true)
    }

    @Test func unsupportedAndUnknownFormatsAreNamed() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // The start of a real PBF file: a BlobHeader length and "OSMHeader".
        let pbfURL = folder.appendingPathComponent("extract.osm.pbf")
        try (Data([0, 0, 0, 13, 0x0A, 9]) + Data("OSMHeader".utf8)).write(to: pbfURL)
        let pbf = inputError { _ = try POIImport.parse(pbfURL) }
        #expect(pbf?.message.contains("PBF") == true)
        let text = try write("hello world\n", to: "notes.txt", in: folder)
        let error = inputError { _ = try POIImport.parse(text) }
        #expect(error?.location.file == text.path)
        #expect(error?.message.hasPrefix("unrecognised POI source format") == true)
        let missing = inputError { _ = try POIImport.parse(folder.appendingPathComponent("nope.osm")) }
        #expect(missing?.message == "no such file")
    }

    @Test func aFailedImportLeavesTheStoreAsItWas() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let good = try write(#"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"amenity":"cafe"}}"#,
                             to: "good.geojson", in: folder)
        let bad = try write("<osm>\n<node id=\"5\" lat=\"1\" lon=\"1\"><tag k=\"amenity\" v=\"bar\"/></node>\n<node id=\"x\"/>\n</osm>",
                            to: "bad.osm", in: folder)
        let db = try POIDatabase(path: folder.appendingPathComponent("store.sqlite").path)
        #expect(throws: InputError.self) { try POIImport.importFiles([good, bad], into: db) }
        #expect(try db.allPOIs().map(\.id) == ["geojson:a"])
    }
}

/// Approximate distance in metres (equirectangular; fine for a few hundred metres).
func geodesicDistance(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
    let metresPerDegree = 111_195.0
    let dLat = (a.latitude - b.latitude) * metresPerDegree
    let dLon = (a.longitude - b.longitude) * metresPerDegree * cos(a.latitude * .pi / 180)
    return (dLat * dLat + dLon * dLon).squareRoot()
}
