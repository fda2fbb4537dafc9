import Foundation
import POIARCore
import Testing
@testable import POIStore

@Suite("Base map: OSM ways for drawing")
struct BaseMapTests {
    @Test("OSM XML, its .bz2 and PBF give streets and buildings; other sources none")
    func read() throws {
        let xml = try #require(try BaseMap.read(sharedOSMData.appendingPathComponent("West-Oakland.osm")))
        let buildings = xml.filter { $0.kind == .building }
        let streets = xml.filter { if case .street = $0.kind { true } else { false } }
        #expect(buildings.count > 5 && streets.count > 5, "\(buildings.count) buildings, \(streets.count) streets")
        // Buildings are closed rings of real coordinates near West Oakland.
        for b in buildings {
            #expect(b.points.count >= 4 && b.points.first == b.points.last)
            #expect(b.points.allSatisfy { abs($0.latitude - 37.81) < 0.05 && abs($0.longitude + 122.29) < 0.05 })
        }
        let bz2 = try #require(try BaseMap.read(sharedOSMData.appendingPathComponent("West-Oakland.osm.bz2")))
        #expect(bz2 == xml)
        let pbf = try #require(try BaseMap.read(sharedOSMData.appendingPathComponent("helsinki-slice.osm.pbf")))
        #expect(pbf.contains { $0.kind == .building || $0.kind == .green || { if case .street = $0.kind { true } else { false } }($0) })
        #expect(try BaseMap.read(fixtures.appendingPathComponent("pois/sample.csv")) == nil)
        // The POI import itself is unchanged by the base-map mode.
        let plain = try OSMXMLImporter.parse(try Data(contentsOf: sharedOSMData.appendingPathComponent("West-Oakland.osm")), file: "x")
        #expect(plain.baseMap.isEmpty)
        let withMap = try OSMXMLImporter.parse(try Data(contentsOf: sharedOSMData.appendingPathComponent("West-Oakland.osm")), file: "x", baseMap: true)
        #expect(withMap.pois == plain.pois && withMap.skipped == plain.skipped)
    }

    @Test("tags to kinds")
    func kinds() {
        #expect(MapFeature.Kind(tags: ["building": "yes"]) == .building)
        #expect(MapFeature.Kind(tags: ["building": "no", "highway": "footway"]) == .street(rank: 3))
        #expect(MapFeature.Kind(tags: ["highway": "primary"]) == .street(rank: 0))
        #expect(MapFeature.Kind(tags: ["highway": "residential"]) == .street(rank: 2))
        #expect(MapFeature.Kind(tags: ["leisure": "park"]) == .green)
        #expect(MapFeature.Kind(tags: ["natural": "water"]) == .water)
        #expect(MapFeature.Kind(tags: ["highway": "bus_stop"]) == nil)
        #expect(MapFeature.Kind(tags: ["amenity": "cafe"]) == nil)
    }
}
