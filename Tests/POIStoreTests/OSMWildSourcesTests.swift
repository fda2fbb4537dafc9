import Foundation
import POIARCore
@testable import POIStore
import Testing

/// OSM data as other tools and services write it (issue 15): large OSM XML streamed,
/// Overpass XML answers (`out center`, `out geom`, a `remark`), history files, ways cut at
/// the extract's edge.
struct OSMWildSourcesTests {
    /// An OSM XML extract of `nodes` untagged nodes on a grid (with full metadata, as the API
    /// writes them), every 50th a cafe, and a way over each 10 consecutive nodes, every 20th a
    /// park. About 130 bytes a node.
    static func writeExtract(nodes: Int, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var text = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\" generator=\"poiar test\">\n"
        text += " <bounds minlat=\"60\" minlon=\"24\" maxlat=\"61\" maxlon=\"25\"/>\n"
        for i in 1...nodes {
            let lat = 60 + Double(i % 1000) * 1e-4, lon = 24 + Double(i / 1000) * 1e-4
            let attributes = "id=\"\(i)\" version=\"3\" timestamp=\"2024-05-01T12:00:00Z\" uid=\"42\" user=\"mapper\" changeset=\"1234567\""
            if i % 50 == 0 {
                text += " <node \(attributes) lat=\"\(lat)\" lon=\"\(lon)\">\n  <tag k=\"amenity\" v=\"cafe\"/>\n  <tag k=\"name\" v=\"Cafe \(i)\"/>\n </node>\n"
            } else {
                text += " <node \(attributes) lat=\"\(lat)\" lon=\"\(lon)\"/>\n"
            }
            if text.utf8.count > 1 << 20 { handle.write(Data(text.utf8)); text = "" }
        }
        for w in 0..<(nodes / 10) {
            text += " <way id=\"\(w + 1)\" version=\"1\">\n"
            for k in 1...10 { text += "  <nd ref=\"\(w * 10 + k)\"/>\n" }
            text += w % 20 == 0 ? "  <tag k=\"leisure\" v=\"park\"/>\n </way>\n" : "  <tag k=\"highway\" v=\"footway\"/>\n </way>\n"
            if text.utf8.count > 1 << 20 { handle.write(Data(text.utf8)); text = "" }
        }
        text += "</osm>\n"
        handle.write(Data(text.utf8))
    }

    /// Runs a system tool (gzip, bzip2) on `url`, keeping the original.
    static func compress(_ url: URL, with tool: String) throws -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool, "-k", "-f", "-1", url.path]
        try process.run()
        process.waitUntilExit()
        return URL(fileURLWithPath: url.path + (tool == "gzip" ? ".gz" : ".bz2"))
    }

    /// libxml2 refuses one buffer over 10,000,000 bytes; poiar feeds it in chunks, so larger
    /// extracts import, plain or compressed, and the base map reader reads them too.
    @Test func osmXMLOverTenMegabytesStreams() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let url = folder.appendingPathComponent("big.osm")
        try Self.writeExtract(nodes: 90_000, to: url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue
        #expect(size > 10_000_000, "\(size) bytes")
        for file in [url, try Self.compress(url, with: "gzip"), try Self.compress(url, with: "bzip2")] {
            let (format, parsed) = try POIImport.parse(file)
            #expect(format == .osmXML)
            #expect(parsed.pois.count == 90_000 / 50 + 90_000 / 10 / 20, "\(file.lastPathComponent)")
            #expect(parsed.pois.first { $0.id == "osm:node/89950" }?.name == "Cafe 89950")
            #expect(parsed.skipped == ["no known category": 90_000 / 10 - 90_000 / 10 / 20])
        }
        let map = try #require(try BaseMap.read(url))
        #expect(map.count == 90_000 / 10)  // the footways and the parks
        // Cut short: the error is at the line where the file ends, in words.
        let cut = folder.appendingPathComponent("cut.osm")
        try Data(try Data(contentsOf: url).prefix(size - 5000)).write(to: cut)
        let error = try #require(inputError { _ = try POIImport.parse(cut) })
        #expect(error.message.hasPrefix("malformed XML"), "\(error)")
        #expect((error.location.line ?? 0) > 100_000, "\(error)")
    }

    /// Overpass answers in XML: `out center` ways and relations carry a `<center>`, `out geom`
    /// ones their vertices on each `<nd>` (and `<member>`), without separate node elements.
    @Test func overpassXMLCenterAndGeometry() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="Overpass API 0.7.62">
        <note>The data included in this document is from www.openstreetmap.org.</note>
        <meta osm_base="2025-06-01T10:00:00Z"/>
          <way id="10">
            <center lat="60.1700000" lon="24.9400000"/>
            <nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/>
            <tag k="amenity" v="cafe"/><tag k="name" v="Centred"/>
          </way>
          <way id="11">
            <bounds minlat="60.0" minlon="24.0" maxlat="60.002" maxlon="24.002"/>
            <nd ref="4" lat="60.000" lon="24.000"/>
            <nd ref="5" lat="60.000" lon="24.003"/>
            <nd ref="6" lat="60.003" lon="24.000"/>
            <nd ref="4" lat="60.000" lon="24.000"/>
            <tag k="leisure" v="park"/>
          </way>
          <way id="12">
            <nd ref="7" lat="60.010" lon="24.010"/>
            <nd ref="8"/>
            <nd ref="9" lat="60.012" lon="24.012"/>
            <tag k="amenity" v="school"/>
          </way>
          <relation id="20">
            <member type="way" ref="30" role="outer">
              <nd lat="61.000" lon="25.000"/><nd lat="61.000" lon="25.003"/>
            </member>
            <member type="way" ref="31" role="outer">
              <nd lat="61.000" lon="25.003"/><nd lat="61.003" lon="25.000"/><nd lat="61.000" lon="25.000"/>
            </member>
            <tag k="type" v="multipolygon"/><tag k="leisure" v="park"/>
          </relation>
          <relation id="21">
            <center lat="62.5" lon="26.5"/>
            <member type="way" ref="40" role="outer"/>
            <tag k="tourism" v="museum"/>
          </relation>
        </osm>
        """
        let parsed = try OSMXMLImporter.parse(Data(xml.utf8), file: "answer.osm")
        let byID = Dictionary(uniqueKeysWithValues: parsed.pois.map { ($0.id, $0) })
        #expect(byID["osm:way/10"]?.coordinate == GeoCoordinate(latitude: 60.17, longitude: 24.94))
        let park = try #require(byID["osm:way/11"])  // triangle: centroid a third of the way in
        #expect(abs(park.coordinate.latitude - 60.001) < 1e-9 && abs(park.coordinate.longitude - 24.001) < 1e-9)
        let school = try #require(byID["osm:way/12"])  // cut: the mean of the two vertices given
        #expect(abs(school.coordinate.latitude - 60.011) < 1e-9 && abs(school.coordinate.longitude - 24.011) < 1e-9)
        let joined = try #require(byID["osm:relation/20"])  // two open outer ways joined into a triangle
        #expect(abs(joined.coordinate.latitude - 61.001) < 1e-9 && abs(joined.coordinate.longitude - 25.001) < 1e-9)
        #expect(byID["osm:relation/21"]?.coordinate == GeoCoordinate(latitude: 62.5, longitude: 26.5))
        #expect(parsed.pois.count == 5)
        #expect(parsed.skipped.isEmpty)
        #expect(parsed.notices == [NoticeReason.cutWay: 1])
    }

    /// An Overpass answer whose `remark` reports a runtime error is partial: importing it fails
    /// with the remark, in XML as in JSON; an informational remark does not.
    @Test func aFailedOverpassAnswerIsRefused() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="Overpass API">
          <node id="1" lat="60.1" lon="24.9"><tag k="amenity" v="cafe"/></node>
          <remark> runtime error: Query timed out in "query" at line 3 after 26 seconds. </remark>
        </osm>
        """
        let e1 = try #require(inputError { _ = try OSMXMLImporter.parse(Data(xml.utf8), file: "timeout.osm") })
        #expect(e1.description == #"timeout.osm:4 (remark): Overpass did not finish the query: runtime error: Query timed out in "query" at line 3 after 26 seconds."#)
        let json = #"{"version":0.6,"elements":[{"type":"node","id":1,"lat":60.1,"lon":24.9,"tags":{"amenity":"cafe"}}],"remark":"runtime error: Query ran out of memory in \"query\" at line 1."}"#
        let e2 = try #require(inputError { _ = try OverpassJSONImporter.parse(Data(json.utf8), file: "oom.json") })
        #expect(e2.location.field == "remark")
        #expect(e2.message.contains("ran out of memory"))
        let fine = #"{"elements":[{"type":"node","id":1,"lat":60.1,"lon":24.9,"tags":{"amenity":"cafe"}}],"remark":"Note: the area is large."}"#
        #expect(try OverpassJSONImporter.parse(Data(fine.utf8), file: "ok.json").pois.count == 1)
    }

    /// A history file lists every version of each object: the latest visible one is read, and
    /// an object whose latest version deleted it is not imported.
    @Test func historyFilesReadTheLatestVisibleVersion() throws {
        let xml = """
        <osm version="0.6">
          <node id="1" version="1" lat="60.0" lon="24.0"><tag k="amenity" v="cafe"/><tag k="name" v="Old"/></node>
          <node id="1" version="2" lat="60.1" lon="24.1"><tag k="amenity" v="cafe"/><tag k="name" v="New"/></node>
          <node id="2" version="1" lat="60.2" lon="24.2"><tag k="amenity" v="bar"/></node>
          <node id="2" version="2" visible="false"/>
          <node id="3" version="1" lat="60.3" lon="24.3"/>
          <node id="3" version="2" lat="60.4" lon="24.4"/>
          <node id="4" version="1" lat="60.5" lon="24.5"/>
          <way id="5" version="1"><nd ref="3"/><nd ref="4"/><tag k="amenity" v="school"/></way>
          <way id="5" version="2"><nd ref="3"/><nd ref="4"/><tag k="amenity" v="restaurant"/></way>
        </osm>
        """
        let parsed = try OSMXMLImporter.parse(Data(xml.utf8), file: "history.osh")
        #expect(parsed.pois.map(\.id) == ["osm:node/1", "osm:way/5"])
        #expect(parsed.pois[0].name == "New" && parsed.pois[0].coordinate == GeoCoordinate(latitude: 60.1, longitude: 24.1))
        #expect(parsed.pois[1].category == "restaurant")
        // The way is placed at its nodes' latest positions.
        #expect(abs(parsed.pois[1].coordinate.latitude - 60.45) < 1e-9)
        #expect(parsed.skipped == [SkipReason.deleted: 1])

        // The same in PBF (HistoricalInformation; DenseInfo's visible flags).
        let header = PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]))
        let block = PBFBuilder.block(strings: ["", "amenity", "cafe", "bar"], dense: [
            (id: 1, lat: 600_000_000, lon: 240_000_000, tags: [(1, 2)]),
            (id: 1, lat: 601_000_000, lon: 241_000_000, tags: [(1, 2)]),
            (id: 2, lat: 602_000_000, lon: 242_000_000, tags: [(1, 3)]),
            (id: 2, lat: 0, lon: 0, tags: []),
        ], versions: [1, 2, 1, 2], visible: [true, true, true, false])
        let pbf = try PBFImporter.parse(Data(PBFBuilder.file([header, PBFBuilder.blob("OSMData", block)])), file: "h.osh.pbf")
        #expect(pbf.pois.map(\.id) == ["osm:node/1"])
        #expect(pbf.pois.first?.coordinate == GeoCoordinate(latitude: 60.1, longitude: 24.1))
        #expect(pbf.skipped == [SkipReason.deleted: 1])
    }

    /// A way some of whose nodes are outside the extract is placed from the nodes present,
    /// and counted; the report says so.
    @Test func aWayCutAtTheEdgeIsPlacedWithANotice() throws {
        let xml = """
        <osm version="0.6">
          <node id="1" lat="60.0" lon="24.0"/>
          <node id="2" lat="60.0" lon="24.002"/>
          <way id="5"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/><tag k="leisure" v="park"/></way>
          <way id="6"><nd ref="8"/><nd ref="9"/><tag k="leisure" v="park"/></way>
        </osm>
        """
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let url = try write(xml, to: "cut.osm", in: folder)
        let db = try POIDatabase()
        let report = try POIImport.importFile(url, into: db)
        #expect(report.imported == 1)
        let park = try #require(try db.poi(id: "osm:way/5"))
        #expect(abs(park.coordinate.latitude - 60.0) < 1e-9 && abs(park.coordinate.longitude - 24.001) < 1e-9)
        #expect(report.skipped == [SkipReason.noGeometry: 1])
        #expect(report.description.contains("; skipped 1 (no geometry: 1); notices (ways cut at the extract's edge, placed from the nodes present: 1)"),
                "\(report)")
    }

    /// Overpass JSON: one element without a position (`"center": {}`, a node from `out tags`)
    /// is a counted skip, not a failed file; `out geom` relations are placed from their members.
    @Test func overpassJSONBadElementsAreCountedSkips() throws {
        let json = """
        {"elements": [
          {"type": "way", "id": 1, "center": {}, "tags": {"amenity": "cafe"}},
          {"type": "node", "id": 2, "tags": {"amenity": "bar"}},
          {"type": "way", "id": 3, "center": {"lat": 60.1, "lon": 24.9}, "tags": {"amenity": "pub"}},
          {"type": "way", "id": 4, "nodes": [7, 8, 9], "geometry": [{"lat": 60.0, "lon": 24.0}, null, {"lat": 60.002, "lon": 24.002}],
           "tags": {"amenity": "school"}},
          {"type": "relation", "id": 5, "members": [
             {"type": "way", "ref": 30, "role": "outer", "geometry": [{"lat": 61.0, "lon": 25.0}, {"lat": 61.0, "lon": 25.003},
                                                                       {"lat": 61.003, "lon": 25.0}, {"lat": 61.0, "lon": 25.0}]}],
           "tags": {"type": "multipolygon", "leisure": "park"}}
        ]}
        """
        let parsed = try OverpassJSONImporter.parse(Data(json.utf8), file: "a.json")
        #expect(parsed.pois.map(\.id) == ["osm:way/3", "osm:way/4", "osm:relation/5"])
        #expect(parsed.skipped == [SkipReason.noGeometry: 2])
        #expect(parsed.notices == [NoticeReason.cutWay: 1])
        let park = parsed.pois[2]
        #expect(abs(park.coordinate.latitude - 61.001) < 1e-9 && abs(park.coordinate.longitude - 25.001) < 1e-9)
        // A position that is there but wrong is still an error naming it.
        let bad = #"{"elements": [{"type": "way", "id": 1, "center": {"lat": "x", "lon": 2}, "tags": {"amenity": "cafe"}}]}"#
        #expect(inputError { _ = try OverpassJSONImporter.parse(Data(bad.utf8), file: "b.json") }?.location.field == "elements[0].center")
    }
}
