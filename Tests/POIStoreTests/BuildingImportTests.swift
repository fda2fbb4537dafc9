import Foundation
import POIARCore
import Testing
@testable import POIStore

/// Building footprints and heights from OSM sources (`OSMBuildingCollector`, `BuildingHeights`).
@Suite struct BuildingHeightTests {
    func heights(_ tags: [String: String]) -> BuildingHeights.Result { BuildingHeights.of(tags.merging(["building": "yes"]) { a, _ in a }) }

    @Test func lengthsInMetresAndFeet() {
        for (text, metres) in [("12", 12.0), ("12.5", 12.5), ("12 m", 12), ("12m", 12), (" 7.25 m ", 7.25), (".5", 0.5),
                               ("40'", 12.192), ("40 ft", 12.192), ("40ft", 12.192), ("40'6\"", 12.3444), ("0", 0)] {
            let value = BuildingHeights.metres(text)
            #expect(value != nil && abs(value! - metres) < 1e-9, "\(text)")
        }
        for text in ["", "tall", "12,5", "12 km", "-3", "12 m 5", "m", "3;4", "12'x"] {
            #expect(BuildingHeights.metres(text) == nil, "\(text)")
        }
    }

    @Test func theTopComesFromHeightThenLevelsThenTheDefault() {
        #expect(heights(["height": "18", "building:levels": "9"]) == .init(minHeight: 0, height: 18, source: .height, unreadableTags: 0))
        #expect(heights(["building:height": "40 ft"]).height == 40 * 0.3048)
        #expect(heights(["height": "21", "building:height": "30"]).height == 21)
        // Levels × 3 m, roof levels added.
        #expect(heights(["building:levels": "5"]) == .init(minHeight: 0, height: 15, source: .levels, unreadableTags: 0))
        #expect(heights(["building:levels": "4", "roof:levels": "1"]).height == 15)
        #expect(heights(["building:levels": "2.5"]).height == 7.5)
        #expect(heights(["roof:levels": "2"]) == .init(minHeight: 0, height: BuildingHeights.defaultHeight, source: .assumed, unreadableTags: 0))
        // Neither: two storeys.
        #expect(BuildingHeights.defaultHeight == 6)
        #expect(heights([:]) == .init(minHeight: 0, height: 6, source: .assumed, unreadableTags: 0))
        // Zero levels (a roof on pillars) gives no height.
        #expect(heights(["building:levels": "0"]).source == .assumed)
    }

    @Test func unreadableTagsAreMissingAndCounted() {
        #expect(heights(["height": "tall", "building:levels": "4"]) == .init(minHeight: 0, height: 12, source: .levels, unreadableTags: 1))
        #expect(heights(["height": "unknown", "building:height": "9"]) == .init(minHeight: 0, height: 9, source: .height, unreadableTags: 1))
        #expect(heights(["height": "0", "building:levels": "many"]) == .init(minHeight: 0, height: 6, source: .assumed, unreadableTags: 2))
        #expect(heights(["height": "-5"]).unreadableTags == 1)
        #expect(heights(["height": "5000"]).unreadableTags == 1)
        #expect(heights(["height": "12", "min_height": "low"]) == .init(minHeight: 0, height: 12, source: .height, unreadableTags: 1))
    }

    @Test func theBottomComesFromMinHeightThenMinLevel() {
        #expect(heights(["height": "30", "min_height": "12.5 m"]) == .init(minHeight: 12.5, height: 30, source: .height, unreadableTags: 0))
        #expect(heights(["height": "30", "building:min_height": "10"]).minHeight == 10)
        #expect(heights(["height": "30", "min_height": "0"]) == .init(minHeight: 0, height: 30, source: .height, unreadableTags: 0))
        // Simple 3D Buildings: building:levels counts the skipped levels.
        #expect(heights(["building:levels": "8", "building:min_level": "7"]) == .init(minHeight: 21, height: 24, source: .levels, unreadableTags: 0))
        // A bottom at or above a tagged top contradicts it: dropped, counted.
        #expect(heights(["height": "10", "min_height": "10"]) == .init(minHeight: 0, height: 10, source: .height, unreadableTags: 1))
        #expect(heights(["building:levels": "2", "building:min_level": "3"]) == .init(minHeight: 0, height: 6, source: .levels, unreadableTags: 1))
        // Above the default top (a raised part, its own height untold): the default from the bottom.
        #expect(heights(["min_height": "18"]) == .init(minHeight: 18, height: 24, source: .assumed, unreadableTags: 0))
    }
}

@Suite struct BuildingImportTests {
    static let pbf = sharedOSMData.appendingPathComponent("helsinki-buildings.osm.pbf")
    static let xml = sharedOSMData.appendingPathComponent("helsinki-buildings.osm")

    func parse(_ xml: String) throws -> ParsedPOIs { try OSMXMLImporter.parse(Data(xml.utf8), file: "t.osm") }

    /// Nodes 1…n on a small square grid near Helsinki: node k at (60 + k·1e-4, 25 + k·1e-4) would
    /// be a line, so the positions are given per test.
    func nodes(_ positions: [Int: (Double, Double)]) -> String {
        positions.sorted { $0.key < $1.key }.map { #"<node id="\#($0.key)" lat="\#($0.value.0)" lon="\#($0.value.1)"/>"# }.joined(separator: "\n")
    }

    /// A 100 m × 100 m block (nodes 1–6, its outer boundary split into two open ways 11 and 12)
    /// with a courtyard (nodes 7–10, way 13).
    var block: String {
        nodes([1: (60.0, 25.0), 2: (60.0, 25.001), 3: (60.0, 25.002), 4: (60.001, 25.002), 5: (60.001, 25.001), 6: (60.001, 25.0),
               7: (60.0003, 25.0005), 8: (60.0003, 25.0015), 9: (60.0007, 25.0015), 10: (60.0007, 25.0005)]) + """

        <way id="11"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/></way>
        <way id="12"><nd ref="6"/><nd ref="5"/><nd ref="4"/></way>
        <way id="13"><nd ref="7"/><nd ref="8"/><nd ref="9"/><nd ref="10"/><nd ref="7"/></way>
        """
    }

    @Test func aMultipolygonWithACourtyard() throws {
        let parsed = try parse("""
            <osm version="0.6">\(block)
            <way id="14"><nd ref="1"/><nd ref="6"/></way>
            <relation id="20"><member type="way" ref="11" role="outer"/><member type="way" ref="12" role="outer"/>
              <member type="way" ref="14" role=""/><member type="way" ref="13" role="inner"/><member type="node" ref="1" role="label"/>
              <tag k="type" v="multipolygon"/><tag k="building" v="apartments"/><tag k="building:levels" v="6"/></relation>
            </osm>
            """)
        #expect(parsed.pois.isEmpty)
        let b = try #require(parsed.buildings.buildings.first)
        #expect(parsed.buildings.buildings.count == 1)
        #expect(b.id == "osm:relation/20")
        // The three open ways joined end to end into one ring (1 2 3 4 5 6), the courtyard the inner ring.
        #expect(b.outer.count == 1 && b.inner.count == 1)
        #expect(Set(b.outer[0]) == Set([1, 2, 3, 4, 5, 6].map(position)))
        #expect(b.outer[0].count == 6)
        #expect(b.inner[0] == [7, 8, 9, 10].map(position))
        #expect(b.height == 18 && b.minHeight == 0 && b.heightSource == .levels)
        #expect(parsed.buildings.skipped.isEmpty)
    }

    func position(_ node: Int) -> GeoCoordinate {
        let table: [Int: (Double, Double)] = [1: (60.0, 25.0), 2: (60.0, 25.001), 3: (60.0, 25.002), 4: (60.001, 25.002), 5: (60.001, 25.001),
                                              6: (60.001, 25.0), 7: (60.0003, 25.0005), 8: (60.0003, 25.0015), 9: (60.0007, 25.0015), 10: (60.0007, 25.0005)]
        return GeoCoordinate(latitude: table[node]!.0, longitude: table[node]!.1)
    }

    @Test func cutAndBrokenBuildingsAreSkippedAndCounted() throws {
        let parsed = try parse("""
            <osm version="0.6">\(block)
            <way id="30"><nd ref="1"/><nd ref="2"/><nd ref="999"/><nd ref="1"/><tag k="building" v="yes"/></way>
            <way id="31"><nd ref="1"/><nd ref="2"/><nd ref="5"/><tag k="building" v="yes"/></way>
            <way id="32"><nd ref="1"/><nd ref="2"/><nd ref="2"/><nd ref="1"/><tag k="building" v="yes"/></way>
            <way id="33"><nd ref="7"/><nd ref="8"/><nd ref="9"/><nd ref="7"/><tag k="building" v="no"/></way>
            <way id="34"><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="2"/><tag k="building" v="garage"/></way>
            <relation id="40"><member type="way" ref="11" role="outer"/><member type="way" ref="99" role="outer"/>
              <tag k="type" v="multipolygon"/><tag k="building" v="yes"/></relation>
            <relation id="41"><member type="way" ref="11" role="outer"/>
              <tag k="type" v="multipolygon"/><tag k="building" v="yes"/></relation>
            <relation id="42"><member type="way" ref="13" role="inner"/>
              <tag k="type" v="multipolygon"/><tag k="building" v="yes"/></relation>
            <relation id="43"><member type="way" ref="11" role="outer"/><member type="way" ref="12" role="outer"/>
              <tag k="type" v="building"/><tag k="building" v="yes"/></relation>
            </osm>
            """)
        #expect(parsed.buildings.buildings.map(\.id) == ["osm:way/34"])
        #expect(parsed.buildings.skipped == [BuildingSkipReason.cut: 2, BuildingSkipReason.notClosed: 2,
                                             BuildingSkipReason.degenerate: 1, BuildingSkipReason.noOuter: 1])
        let report = BuildingImportReport(parsed.buildings)
        #expect(report.description == "1 buildings (0 with a height, 0 with levels), skipped 6 (cut by the extract's edge: 2, ring not closed: 2, fewer than 3 vertices: 1, no outer ring: 1)")
    }

    @Test func aBuildingThatIsAPOIIsBoth() throws {
        let parsed = try parse("""
            <osm version="0.6">\(block)
            <way id="50"><nd ref="7"/><nd ref="8"/><nd ref="9"/><nd ref="10"/><nd ref="7"/>
              <tag k="building" v="yes"/><tag k="amenity" v="cafe"/><tag k="name" v="Kiosk"/><tag k="height" v="4 m"/></way>
            </osm>
            """)
        #expect(parsed.pois.map(\.id) == ["osm:way/50"])
        #expect(parsed.buildings.buildings == [Building(id: "osm:way/50", outer: [[7, 8, 9, 10].map(position)],
                                                        height: 4, heightSource: .height)])
    }

    @Test func overpassGeometryInlineJoinsTheSameWay() throws {
        func point(_ n: Int) -> String { #"{"lat": \#(position(n).latitude), "lon": \#(position(n).longitude)}"# }
        func geometry(_ ns: [Int]) -> String { "[" + ns.map(point).joined(separator: ",") + "]" }
        let json = """
            {"elements": [
              {"type": "way", "id": 60, "nodes": [7, 8, 9, 10, 7], "geometry": \(geometry([7, 8, 9, 10, 7])),
               "tags": {"building": "yes", "building:levels": "2"}},
              {"type": "relation", "id": 61, "members": [
                 {"type": "way", "ref": 11, "role": "outer", "geometry": \(geometry([1, 2, 3, 4]))},
                 {"type": "way", "ref": 12, "role": "outer", "geometry": \(geometry([4, 5, 6, 1]))},
                 {"type": "way", "ref": 13, "role": "inner", "geometry": \(geometry([7, 8, 9, 10, 7]))}],
               "tags": {"type": "multipolygon", "building": "yes"}},
              {"type": "relation", "id": 62, "members": [
                 {"type": "way", "ref": 11, "role": "outer", "geometry": [\(point(1)), null, \(point(3)), \(point(1))]}],
               "tags": {"type": "multipolygon", "building": "yes"}}
            ]}
            """
        let parsed = try OverpassJSONImporter.parse(Data(json.utf8), file: "t.json")
        #expect(parsed.buildings.buildings.map(\.id) == ["osm:way/60", "osm:relation/61"])
        #expect(parsed.buildings.buildings[0].height == 6)
        #expect(parsed.buildings.buildings[1].outer == [[1, 2, 3, 4, 5, 6].map(position)])
        #expect(parsed.buildings.buildings[1].inner == [[7, 8, 9, 10].map(position)])
        #expect(parsed.buildings.skipped == [BuildingSkipReason.cut: 1])
    }

    /// The same elements as PBF and as OSM XML (tools/make_pbf_fixture.py) give the same buildings.
    @Test func xmlAndPBFGiveTheSameBuildings() throws {
        let fromPBF = try POIImport.parse(Self.pbf).pois.buildings
        let fromXML = try POIImport.parse(Self.xml).pois.buildings
        #expect(fromPBF == fromXML)
        #expect(fromPBF.buildings.count == 12)
        #expect(fromPBF.skipped == [BuildingSkipReason.cut: 2])  // way 17361610 and relation 6077 (its courtyard way is not in the PBF)
        #expect(fromPBF.unreadableHeightTags == 0)
        let byID = Dictionary(uniqueKeysWithValues: fromPBF.buildings.map { ($0.id, $0) })
        // A block with a courtyard, 6 levels.
        let block = try #require(byID["osm:relation/4198"])
        #expect(block.outer.count == 1 && block.inner.count == 1 && block.height == 18)
        // Three outer rings, one courtyard.
        let three = try #require(byID["osm:relation/1858248"])
        #expect(three.outer.count == 3 && three.inner.count == 1 && three.height == 27)
        // building:min_level 7 of 8 levels: 21–24 m.
        #expect(byID["osm:relation/1319473"].map { ($0.minHeight, $0.height) } ?? (0, 0) == (21, 24))
        // A canopy, height 4 and min_height 2.5; a church's raised part with min_height 18 only.
        #expect(byID["osm:way/31719985"].map { ($0.minHeight, $0.height, $0.heightSource) } ?? (0, 0, .assumed) == (2.5, 4, .height))
        #expect(byID["osm:way/234871779"].map { ($0.minHeight, $0.height, $0.heightSource) } ?? (0, 0, .height) == (18, 24, .assumed))
        // The Ateneum is a museum (a POI) and a building of 3.5 levels.
        #expect(byID["osm:way/8033120"]?.height == 10.5)
        #expect(try POIImport.parse(Self.pbf).pois.pois.contains { $0.id == "osm:way/8033120" })
        // Rings are stored without the closing vertex, with OSM's 7 decimals exactly.
        #expect(block.outer[0].first != block.outer[0].last)
        for c in fromPBF.buildings.flatMap({ ($0.outer + $0.inner).joined() }) {
            #expect((c.latitude * 1e7).rounded() / 1e7 == c.latitude)
        }
    }

    @Test func theImportReportCountsBuildings() throws {
        let report = try POIImport.importFile(Self.xml, into: POIDatabase())
        #expect(report.description.hasSuffix("; 12 buildings (2 with a height, 7 with levels), skipped 2 (cut by the extract's edge: 2)"))
        // Other formats have no building part.
        let csv = try POIImport.importFile(fixtures.appendingPathComponent("pois/sample.csv"), into: POIDatabase())
        #expect(csv.buildings == nil)
        #expect(!csv.description.contains(" buildings ("))
    }
}
