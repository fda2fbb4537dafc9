import Foundation
import Geodesy
import POIARCore
import Testing
@testable import POIStore

/// Hand-checked distances: along the equator (a geodesic) the distance is a·Δλ with
/// a = 6 378 137 m, so 0.001° is 111.319 491 m; along a meridian from the equator it is
/// a(1 − e²)·Δφ to first order (the next term is ~10⁻¹⁰ relative at 0.001°), so 0.001° is
/// 110.574 276 m. Tolerance 0.1 mm: Geodesy's Vincenty solution is accurate to ~0.5 mm.
@Suite struct RadiusQueryTests {
    static let east = 111.31949079327357     // 0.001° of longitude on the equator
    static let west = 55.65974539663679      // 0.0005° of longitude on the equator
    static let north = 110.57427582159436    // 0.001° of latitude from the equator

    func equatorStore() throws -> POIDatabase {
        let db = try POIDatabase()
        try db.upsert([
            makePOI("e", "cafe", lat: 0, lon: 0.001),
            makePOI("w", "restaurant", lat: 0, lon: -0.0005),
            makePOI("n", "cafe", lat: 0.001, lon: 0),
            makePOI("far", "cafe", lat: 0, lon: 0.002),
        ], source: "test")
        return db
    }

    @Test func nearestFirstWithExactDistancesAndBearings() throws {
        let db = try equatorStore()
        let hits = try db.query(near: GeoCoordinate(latitude: 0, longitude: 0), radius: 150)
        #expect(hits.map(\.poi.id) == ["w", "n", "e"])
        #expect(abs(hits[0].distance - Self.west) < 1e-4)
        #expect(abs(hits[1].distance - Self.north) < 1e-4)
        #expect(abs(hits[2].distance - Self.east) < 1e-4)
        #expect(abs(hits[0].bearing - 270) < 1e-9)
        #expect(abs(hits[1].bearing - 0) < 1e-9)
        #expect(abs(hits[2].bearing - 90) < 1e-9)
    }

    @Test func radiusIsInclusiveAndExact() throws {
        let db = try equatorStore()
        let origin = GeoCoordinate(latitude: 0, longitude: 0)
        #expect(try db.query(near: origin, radius: Self.east + 1e-3).map(\.poi.id) == ["w", "n", "e"])
        #expect(try db.query(near: origin, radius: Self.east - 1e-3).map(\.poi.id) == ["w", "n"])
        #expect(try db.query(near: origin, radius: 0).isEmpty)
        #expect(try db.query(near: origin, radius: 10_000).count == 4)
    }

    @Test func categoryFilterAndLimit() throws {
        let db = try equatorStore()
        let origin = GeoCoordinate(latitude: 0, longitude: 0)
        #expect(try db.query(near: origin, radius: 1000, categories: ["cafe"]).map(\.poi.id) == ["n", "e", "far"])
        #expect(try db.query(near: origin, radius: 1000, categories: ["restaurant", "cafe"], limit: 2).map(\.poi.id) == ["w", "n"])
        #expect(try db.query(near: origin, radius: 1000, categories: ["park"]).isEmpty)
        #expect(try db.query(near: origin, radius: 1000, categories: []).isEmpty)
        #expect(try db.query(near: origin, radius: 1000, limit: 0).isEmpty)
        #expect(try db.query(near: origin, radius: 1000, limit: 1).map(\.poi.id) == ["w"])
    }

    @Test func tiesAreOrderedById() throws {
        let db = try POIDatabase()
        try db.upsert([makePOI("b", lat: 1, lon: 1), makePOI("a", lat: 1, lon: 1), makePOI("c", lat: 1, lon: 1)], source: "t")
        #expect(try db.query(near: GeoCoordinate(latitude: 1.0001, longitude: 1), radius: 50).map(\.poi.id) == ["a", "b", "c"])
    }

    @Test func straddlesTheAntimeridian() throws {
        let db = try POIDatabase()
        try db.upsert([makePOI("east", lat: 0, lon: 179.999), makePOI("west", lat: 0, lon: -179.999),
                       makePOI("far", lat: 0, lon: 179.99)], source: "t")
        for lon in [180.0, -180.0] {
            let hits = try db.query(near: GeoCoordinate(latitude: 0, longitude: lon), radius: 200)
            #expect(hits.map(\.poi.id) == ["east", "west"])
            for hit in hits { #expect(abs(hit.distance - Self.east) < 1e-4) }
        }
        let fromWest = try db.query(near: GeoCoordinate(latitude: 0, longitude: -179.9995), radius: 200)
        #expect(fromWest.map(\.poi.id) == ["west", "east"])
        #expect(GeoBox.covering(center: GeoCoordinate(latitude: 0, longitude: 180), radius: 200).count == 2)
    }

    @Test func nearThePoleSearchesEveryLongitude() throws {
        let db = try POIDatabase()
        // Both ~55.7 m from the pole on nearly opposite meridians: ~111 m apart.
        try db.upsert([makePOI("across", lat: 89.9995, lon: 179), makePOI("here", lat: 89.9995, lon: 1)], source: "t")
        let hits = try db.query(near: GeoCoordinate(latitude: 89.9995, longitude: 0), radius: 200)
        #expect(hits.map(\.poi.id) == ["here", "across"])
        #expect(hits[1].distance > 100 && hits[1].distance < 120)
        let boxes = GeoBox.covering(center: GeoCoordinate(latitude: 89.9995, longitude: 0), radius: 200)
        #expect(boxes == [GeoBox(minLat: boxes[0].minLat, maxLat: 90, minLon: -180, maxLon: 180)])
    }

    /// The box must contain the geodesic circle: test points on the circle in many
    /// directions, at several latitudes, found with a radius a hair larger.
    @Test func boxContainsTheCircle() throws {
        let db = try POIDatabase()
        var pois: [POI] = []
        for (i, lat) in [0.0, 45, 70, 85].enumerated() {
            for k in 0..<8 {
                let angle = Double(k) * .pi / 4
                // ~1 km away: offsets in degrees (rough), the exact distance comes from the query.
                let dLat = 0.009 * cos(angle), dLon = 0.009 * sin(angle) / cos(lat * .pi / 180)
                pois.append(makePOI("p\(i)-\(k)", lat: lat + dLat, lon: 10 + dLon))
            }
        }
        try db.upsert(pois, source: "t")
        for (i, lat) in [0.0, 45, 70, 85].enumerated() {
            let center = GeoCoordinate(latitude: lat, longitude: 10)
            let all = try db.query(near: center, radius: 5000).filter { $0.poi.id.hasPrefix("p\(i)-") }
            #expect(all.count == 8)
            // Each POI is found with a radius just above its own distance.
            for hit in all {
                let again = try db.query(near: center, radius: hit.distance + 1e-6)
                #expect(again.contains { $0.poi.id == hit.poi.id })
            }
        }
    }

    @Test func upsertMovesTheIndexEntry() throws {
        let db = try POIDatabase()
        try db.upsert([makePOI("x", lat: 10, lon: 10)], source: "t")
        let result = try db.upsert([makePOI("x", "bar", lat: 20, lon: 20, name: "Moved")], source: "t")
        #expect(result.inserted == 0 && result.updated == 1)
        #expect(try db.count() == 1)
        #expect(try db.query(near: GeoCoordinate(latitude: 10, longitude: 10), radius: 1000).isEmpty)
        let hits = try db.query(near: GeoCoordinate(latitude: 20, longitude: 20), radius: 1000)
        #expect(hits.map(\.poi.name) == ["Moved"])
        #expect(hits.first?.poi.category == "bar")
    }

    @Test func badQueriesAreErrors() throws {
        let db = try POIDatabase()
        #expect(inputError { _ = try db.query(near: GeoCoordinate(latitude: 91, longitude: 0), radius: 1) }?.location.field == "near")
        #expect(inputError { _ = try db.query(near: GeoCoordinate(latitude: 0, longitude: 0), radius: -1) }?.location.field == "radius")
        #expect(inputError { _ = try db.query(near: GeoCoordinate(latitude: 0, longitude: 0), radius: .nan) }?.location.field == "radius")
    }
}
