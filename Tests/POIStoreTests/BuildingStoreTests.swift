import Foundation
import GRDB
import POIARCore
import Testing
@testable import POIStore

/// The `building` table, its R*Tree and the rings blob (`BuildingStore`, `BuildingRings`).
@Suite struct BuildingStoreTests {
    /// A square `size` degrees wide with its south-west corner at (lat, lon).
    func square(_ id: String, lat: Double, lon: Double, size: Double = 0.0005, height: Double = 12) -> Building {
        Building(id: id, outer: [[GeoCoordinate(latitude: lat, longitude: lon), GeoCoordinate(latitude: lat, longitude: lon + size),
                                  GeoCoordinate(latitude: lat + size, longitude: lon + size), GeoCoordinate(latitude: lat + size, longitude: lon)]],
                 height: height, heightSource: .height)
    }

    @Test func theRTreeFindsTheBuildingsWhoseBoxesMeetTheQuery() throws {
        let db = try POIDatabase()
        let a = square("a", lat: 60.0, lon: 25.0), b = square("b", lat: 60.001, lon: 25.0), c = square("c", lat: 60.01, lon: 25.01)
        #expect(try db.upsertBuildings([a, b, c]) == (inserted: 3, updated: 0))
        #expect(try db.buildingCount() == 3)
        // Inside a, around a and b, touching b's corner only, nothing.
        #expect(try db.buildings(south: 60.0002, west: 25.0002, north: 60.0003, east: 25.0003) == [a])
        #expect(try db.buildings(south: 59.99, west: 24.99, north: 60.002, east: 25.002) == [a, b])
        #expect(try db.buildings(south: 60.0015, west: 25.0005, north: 60.0016, east: 25.0006).map(\.id) == ["b"])
        #expect(try db.buildings(south: 61, west: 25, north: 62, east: 26).isEmpty)
        #expect(try db.buildings(south: 60.0, west: 25.0, north: 60.02, east: 25.02).map(\.id).sorted() == ["a", "b", "c"])
        // An empty or inverted box finds nothing.
        #expect(try db.buildings(south: 60.1, west: 25, north: 60, east: 26).isEmpty)
        // Replacing a building moves its box.
        #expect(try db.upsertBuildings([square("a", lat: 61.0, lon: 25.0, height: 30)]) == (inserted: 0, updated: 1))
        #expect(try db.buildings(south: 60.0002, west: 25.0002, north: 60.0003, east: 25.0003).isEmpty)
        #expect(try db.buildings(south: 61.0002, west: 25.0002, north: 61.0003, east: 25.0003).map(\.height) == [30])
        #expect(try db.buildingCount() == 3)
    }

    @Test func aQueryAcrossTheAntimeridian() throws {
        let db = try POIDatabase()
        let east = square("east", lat: -17.0, lon: 179.9), west = square("west", lat: -17.0, lon: -179.9995), mid = square("mid", lat: -17, lon: 0)
        try db.upsertBuildings([east, west, mid])
        #expect(try db.buildings(south: -17.1, west: 179.8, north: -16.9, east: -179.8).map(\.id).sorted() == ["east", "west"])
    }

    @Test func badBuildingsAreRefusedWhole() throws {
        let db = try POIDatabase()
        var tall = square("t", lat: 60, lon: 25)
        tall.minHeight = 20
        #expect(inputError { try db.upsertBuildings([square("ok", lat: 60, lon: 25), tall]) }?.location.field == "t")
        #expect(inputError { try db.upsertBuildings([Building(id: "e", outer: [], height: 5, heightSource: .assumed)]) }?.location.field == "e")
        #expect(try db.buildingCount() == 0)
    }

    @Test func ringsRoundTripExactly() throws {
        let building = try #require(try POIImport.parse(BuildingImportTests.xml).pois.buildings.buildings.first { $0.id == "osm:relation/1858248" })
        let data = BuildingRings.encode(outer: building.outer, inner: building.inner)
        let vertices = (building.outer + building.inner).map(\.count).reduce(0, +)
        #expect(data.count < vertices * 6)  // compact: neighbouring vertices take a few bytes
        let decoded = try #require(BuildingRings.decode(data))
        #expect(decoded.outer == building.outer && decoded.inner == building.inner)
        // Across ±180° and at the poles too.
        let far = [[GeoCoordinate(latitude: -90, longitude: 180), GeoCoordinate(latitude: 89.9999999, longitude: -180),
                    GeoCoordinate(latitude: 0.0000001, longitude: -0.0000001)]]
        #expect(BuildingRings.decode(BuildingRings.encode(outer: far, inner: []))?.outer == far)
    }

    @Test func corruptBlobsAreRefused() throws {
        let good = BuildingRings.encode(outer: square("a", lat: 60, lon: 25).outer, inner: [])
        #expect(BuildingRings.decode(good.dropLast()) == nil)        // truncated
        #expect(BuildingRings.decode(good + Data([0])) == nil)       // trailing bytes
        #expect(BuildingRings.decode(Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0])) == nil)  // a huge count
        #expect(BuildingRings.decode(Data([1, 0, 1, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0])) == nil)  // latitude out of range
        // Read through the store: an error naming the database and the building.
        let db = try POIDatabase()
        try db.upsertBuildings([square("a", lat: 60, lon: 25)])
        try db.execute(sql: "UPDATE building SET rings = x'0102'")
        let error = try #require(inputError { _ = try db.buildings(south: 59, west: 24, north: 61, east: 26) })
        #expect(error.location.field == "a")
        #expect(error.message.contains("corrupt building"))
    }

    @Test func importedBuildingsComeBackAsParsed() throws {
        let db = try POIDatabase()
        try POIImport.importFile(BuildingImportTests.pbf, into: db)
        let parsed = try POIImport.parse(BuildingImportTests.pbf).pois.buildings.buildings
        #expect(try db.buildingCount() == parsed.count)
        let all = try db.buildings(south: -90, west: -180, north: 90, east: 180)
        #expect(all.sorted { $0.id < $1.id } == parsed.sorted { $0.id < $1.id })
        // Re-importing replaces, it does not duplicate.
        try POIImport.importFile(BuildingImportTests.xml, into: db)
        #expect(try db.buildingCount() == parsed.count)
    }

    @Test func aCacheRemembersItsSourceFormat() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let source = folder.appendingPathComponent("b.osm")
        try FileManager.default.copyItem(at: BuildingImportTests.xml, to: source)
        let db = try openPOISource(source)
        #expect(try db.cachedSourceFormat() == .osmXML)
        #expect(try db.buildingCount() == 12)
        let plain = try POIDatabase(path: folder.appendingPathComponent("plain.sqlite").path)
        #expect(try plain.cachedSourceFormat() == nil)
    }
}

@Suite struct BuildingSchemaTests {
    /// A schema v2 store (poiar before buildings): read-only it has no buildings; writable it
    /// is upgraded to v3, its POIs kept.
    @Test func aVersion2StoreReadsWithoutBuildingsAndUpgrades() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("v2.sqlite").path
        do {
            let db = try POIDatabase(path: path)
            try db.upsert([makePOI("osm:node/1", lat: 60, lon: 25)], source: "t")
            try db.execute(sql: """
                DROP TABLE building; DROP TABLE building_rtree;
                DELETE FROM grdb_migrations WHERE identifier = 'v3';
                UPDATE meta SET value = '2' WHERE key = 'schema_version';
                """)
            try db.close()
        }
        let reader = try POIDatabase(path: path, readOnly: true)
        #expect(try reader.buildingCount() == 0)
        #expect(try reader.buildings(south: 59, west: 24, north: 61, east: 26).isEmpty)
        #expect(try reader.count() == 1)
        try reader.close()
        let writer = try POIDatabase(path: path)
        #expect(try writer.metaValue(forKey: "schema_version") == "3")
        try writer.upsertBuildings([Building(id: "b", outer: [[GeoCoordinate(latitude: 60, longitude: 25), GeoCoordinate(latitude: 60, longitude: 25.001),
                                                              GeoCoordinate(latitude: 60.001, longitude: 25)]], height: 9, heightSource: .levels)])
        #expect(try writer.buildingCount() == 1)
        #expect(try writer.count() == 1)
    }

    /// A cache built by older poiar (no buildings, an older fingerprint) is rebuilt.
    @Test func anOldCacheIsRebuiltWithBuildings() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let source = folder.appendingPathComponent("b.osm")
        try FileManager.default.copyItem(at: BuildingImportTests.xml, to: source)
        do {
            let old = try openPOISource(source)
            try old.close()
            let writer = try POIDatabase(path: cacheURL(for: source).path)
            let fingerprint = try #require(try writer.metaValue(forKey: CacheMetaKey.fingerprint))
            try writer.setMetaValue(fingerprint.replacingOccurrences(of: "format=\(poiCacheFormatVersion)", with: "format=2"),
                                    forKey: CacheMetaKey.fingerprint)
            try writer.execute(sql: "DELETE FROM building; DELETE FROM building_rtree")
            try writer.close()
        }
        var rebuilt = false
        let db = try openPOISource(source, onImport: { _ in rebuilt = true })
        #expect(rebuilt)
        #expect(try db.buildingCount() == 12)
    }
}
