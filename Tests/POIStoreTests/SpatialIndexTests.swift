import Foundation
import Geodesy
import POIARCore
import Testing
@testable import POIStore

@Suite struct SpatialIndexTests {
    /// The chord formula against Vincenty on random pairs up to 50 km, everywhere (poles and
    /// the antimeridian included): distances within 0.1 mm, azimuths within 10⁻⁵° (the output
    /// shows 10⁻⁴°; Vincenty itself stops iterating at 10⁻¹² rad, ~6 µm).
    @Test func chordGeodesicAgreesWithVincenty() {
        var rng = SplitMix64(seed: 7)
        for i in 0..<20_000 {
            let lat = i % 10 == 0 ? (rng.uniform() < 0.5 ? 89.99 : -89.99) : rng.uniform() * 180 - 90
            let lon = i % 7 == 0 ? 179.999 : rng.uniform() * 360 - 180
            let center = GeoCoordinate(latitude: lat, longitude: lon)
            let distance = 50_000 * pow(rng.uniform(), 3), azimuth = rng.uniform() * 360
            // A point roughly `distance` away (the exact distance does not matter here).
            let dLat = distance * cos(azimuth * .pi / 180) / 111_000
            let dLon = distance * sin(azimuth * .pi / 180) / (111_000 * max(0.001, cos(lat * .pi / 180)))
            let p = GeoCoordinate(latitude: max(-90, min(90, lat + dLat)), longitude: wrap180(lon + dLon))
            let expected = geodesicInverse(from: center, to: p)
            guard expected.distance <= ChordGeodesic.maxDistance, expected.distance > 0.01 else { continue }
            let chord = ChordGeodesic(center: center)
            let (x, y, z) = ChordGeodesic.ecef(latitude: p.latitude, longitude: p.longitude)
            let c2 = chord.chordSquared(x, y, z)
            #expect(c2.squareRoot() <= expected.distance + 1e-5)
            let got = chord.inverse(x, y, z, chordSquared: c2)
            #expect(abs(got.distance - expected.distance) < 1e-4, "\(center) → \(p)")
            // Azimuths are ill-defined right at a pole; elsewhere they agree closely. (Under
            // ~100 m Vincenty's own azimuth is the less exact one: its 10⁻¹² rad stopping test
            // is a few µm sideways.)
            if abs(lat) < 89.9 {
                let dAz = abs(wrap180(got.azimuthDeg - expected.azimuthDeg))
                #expect(dAz < 1e-5 || expected.distance < 100, "\(center) → \(p): \(got.azimuthDeg) vs \(expected.azimuthDeg)")
            }
        }
    }

    /// Hilbert keys: a coarse cell's index is the prefix of its points' keys, so an aligned
    /// square is one key range; `ranges` covers every point of the box.
    @Test func hilbertKeysAndRanges() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let x = Int(rng.next() % UInt64(CellKey.side)), y = Int(rng.next() % UInt64(CellKey.side))
            let key = CellKey.hilbert(x: x, y: y, order: CellKey.bits)
            for level in [1, 5, 12, 20] {
                let shift = CellKey.bits - level
                #expect(key >> (2 * Int64(shift)) == CellKey.hilbert(x: x >> shift, y: y >> shift, order: level))
            }
        }
        for _ in 0..<300 {
            let minLat = rng.uniform() * 170 - 85, minLon = rng.uniform() * 350 - 175
            let maxLat = min(90, minLat + rng.uniform() * 0.5), maxLon = min(180, minLon + rng.uniform() * 1.0)
            let ranges = CellKey.ranges(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon)
            #expect(ranges.count <= 12)
            for _ in 0..<50 {
                let lat = minLat + rng.uniform() * (maxLat - minLat), lon = minLon + rng.uniform() * (maxLon - minLon)
                let key = CellKey.key(latitude: lat, longitude: lon)
                #expect(ranges.contains { $0.contains(key) })
            }
        }
    }

    /// Queries against brute force (Vincenty over every POI) on random points: dense clusters
    /// in a city, at the antimeridian and at both poles, random radii and categories.
    @Test func queriesMatchBruteForce() throws {
        var rng = SplitMix64(seed: 11)
        let centers = [GeoCoordinate(latitude: 60.17, longitude: 24.94), GeoCoordinate(latitude: 0.5, longitude: 179.99),
                       GeoCoordinate(latitude: -16.5, longitude: -179.995), GeoCoordinate(latitude: 89.995, longitude: 40),
                       GeoCoordinate(latitude: -89.99, longitude: -120), GeoCoordinate(latitude: 0, longitude: 0)]
        let categories = ["cafe", "restaurant", "store", "park"]
        var pois: [POI] = []
        for (c, center) in centers.enumerated() {
            for i in 0..<400 {
                let r = 3000 * rng.uniform().squareRoot(), a = rng.uniform() * 2 * .pi
                let lat = max(-90, min(90, center.latitude + r * cos(a) / 111_000))
                let lon = wrap180(center.longitude + r * sin(a) / (111_000 * max(0.002, cos(center.latitude * .pi / 180))))
                let primary = categories[Int(rng.next() % 4)]
                let extra = rng.uniform() < 0.2 ? [categories[Int(rng.next() % 4)]] : []
                pois.append(POI(id: "p\(c)-\(i)", name: "P", category: primary,
                                coordinate: GeoCoordinate(latitude: lat, longitude: lon), categories: [primary] + extra))
            }
        }
        let db = try POIDatabase()
        try db.upsert(pois, source: "t")
        for _ in 0..<120 {
            let base = centers[Int(rng.next() % UInt64(centers.count))]
            let q = GeoCoordinate(latitude: max(-90, min(90, base.latitude + (rng.uniform() - 0.5) * 0.02)),
                                  longitude: wrap180(base.longitude + (rng.uniform() - 0.5) * 0.04))
            let radius = [50.0, 300, 1500, 4000][Int(rng.next() % 4)]
            let filter: [String]? = rng.uniform() < 0.3 ? nil : [categories[Int(rng.next() % 4)]]
            let hits = try db.query(near: q, radius: radius, categories: filter)
            let expected = pois.filter { p in filter.map { f in p.categories.contains { f.contains($0) } } ?? true }
                .map { ($0, geodesicInverse(from: q, to: $0.coordinate)) }
                .filter { $0.1.distance <= radius }
            let found = Dictionary(uniqueKeysWithValues: hits.map { ($0.poi.id, $0) })
            for (poi, inverse) in expected where inverse.distance < radius - 1e-3 {
                let hit = try #require(found[poi.id], "\(poi.id) at \(inverse.distance) m of \(q), r \(radius)")
                #expect(abs(hit.distance - inverse.distance) < 1e-4)
                if abs(q.latitude) < 89.9, inverse.distance > 100 { #expect(abs(wrap180(hit.bearing - inverse.azimuthDeg)) < 1e-5) }
            }
            #expect(hits.allSatisfy { $0.distance <= radius })
            #expect(hits.count <= expected.count + 2)
            // Nearest first, ties (equal to 1 µm: many points sit exactly on a pole) by id.
            let keys = hits.map { (($0.distance * 1e6).rounded(), $0.poi.id) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
            let limited = try db.query(near: q, radius: radius, categories: filter, limit: 5)
            #expect(limited.map(\.poi.id) == Array(hits.prefix(5)).map(\.poi.id))
        }
    }

    /// Radii beyond the chord formula's 50 km use Vincenty.
    @Test func longRadii() throws {
        let db = try POIDatabase()
        try db.upsert([makePOI("near", lat: 60, lon: 25), makePOI("far", lat: 61, lon: 25), makePOI("farther", lat: 62.5, lon: 25)], source: "t")
        let hits = try db.query(near: GeoCoordinate(latitude: 60, longitude: 25), radius: 200_000)
        #expect(hits.map(\.poi.id) == ["near", "far"])
        #expect(abs(hits[1].distance - geodesicInverse(from: GeoCoordinate(latitude: 60, longitude: 25),
                                                        to: GeoCoordinate(latitude: 61, longitude: 25)).distance) < 1e-6)
    }

    @Test func tagsRoundTrip() {
        let tags = ["name": "Café \"Ö\" \\ / \n\t\u{1}", "emoji": "☕️🍰", "": "empty key", "k": ""]
        #expect(TagCodec.decode(TagCodec.encode(tags)) == tags)
        #expect(TagCodec.decode(#"{"a":"\u00e9\ud83c\udf70","b":"x\/y"}"#) == ["a": "é🍰", "b": "x/y"])
        #expect(TagCodec.decode(#"{ "a" : "b" , "c":"d" }"#) == ["a": "b", "c": "d"])
        #expect(TagCodec.decode("{}") == [:])
        #expect(TagCodec.decode(nil) == [:])
    }
}

@Suite struct DatabaseRobustnessTests {
    /// A schema v1 store (as poiar 0.1 wrote) is upgraded when opened writable, and queries work.
    @Test func upgradesAVersion1Store() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("v1.sqlite").path
        try DatabaseMigratorV1.create(path: path)
        #expect(inputError { _ = try POIDatabase(path: path, readOnly: true) }?.message.contains("too old") == true)
        let db = try POIDatabase(path: path)
        #expect(try db.metaValue(forKey: "schema_version") == "3")
        #expect(try db.buildingCount() == 0)
        let hits = try db.query(near: GeoCoordinate(latitude: 60, longitude: 25), radius: 100, categories: ["cafe"])
        #expect(hits.map(\.poi.id) == ["osm:node/1"])
        #expect(hits[0].poi.categories == ["cafe"])
        #expect(hits[0].poi.tags == ["amenity": "cafe"])
    }

    @Test func aReadOnlyFileIsRefusedForWriting() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("ro.sqlite").path
        try POIDatabase(path: path).upsert([makePOI("a", lat: 1, lon: 1)], source: "t")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let error = try #require(inputError { _ = try POIDatabase(path: path) })
        #expect(error.location.file == path)
        #expect(error.message.hasPrefix("the POI database is read-only (file mode 444)"))
        #expect(try POIDatabase(path: path, readOnly: true).count() == 1)  // reading still works
    }

    @Test func aLockedDatabaseIsAClearError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("locked.sqlite").path
        let holder = try POIDatabase(path: path)
        try holder.upsert([makePOI("a", lat: 1, lon: 1)], source: "t")
        let writer = try POIDatabase(path: path, busyTimeout: 0.2)
        // Another connection holds the write lock while this one tries to import.
        try holder.write { db in
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('x', 'y')")
            let error = inputError { try writer.upsert([makePOI("b", lat: 2, lon: 2)], source: "t") }
            #expect(error?.location.file == path)
            #expect(error?.message.contains("locked") == true)
        }
        #expect(try writer.count() == 1)
        try writer.upsert([makePOI("b", lat: 2, lon: 2)], source: "t")
        #expect(try holder.count() == 2)
    }

    @Test func invalidCoordinatesAreRefusedWhole() throws {
        let db = try POIDatabase()
        let error = inputError {
            try db.upsert([makePOI("ok", lat: 1, lon: 1), makePOI("bad", lat: .nan, lon: 1)], source: "t")
        }
        #expect(error?.location.field == "bad")
        #expect(try db.count() == 0)
    }

    @Test func theRowCacheSeesOtherConnectionsWrites() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("shared.sqlite").path
        let writer = try POIDatabase(path: path)
        try writer.upsert([makePOI("a", lat: 1, lon: 1, name: "Old")], source: "t")
        let reader = try POIDatabase(path: path, readOnly: true)
        let center = GeoCoordinate(latitude: 1, longitude: 1)
        #expect(try reader.query(near: center, radius: 10).map(\.poi.name) == ["Old"])
        try writer.upsert([makePOI("a", lat: 1, lon: 1, name: "New")], source: "t")
        #expect(try reader.query(near: center, radius: 10).map(\.poi.name) == ["New"])
    }
}

/// Writes a schema v1 store by hand (the v1 migration's SQL), as an older poiar left it.
enum DatabaseMigratorV1 {
    static func create(path: String) throws {
        let db = try POIDatabase(path: path)
        try db.execute(sql: """
            DROP TABLE poi; DROP TABLE category; DROP TABLE poi_cell; DROP TABLE fetches;
            DROP TABLE building; DROP TABLE building_rtree;
            DELETE FROM grdb_migrations WHERE identifier IN ('v2', 'v3');
            CREATE TABLE poi (
                rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, category TEXT NOT NULL,
                lat REAL NOT NULL, lon REAL NOT NULL, alt REAL, address TEXT, phone TEXT, website TEXT,
                opening_hours TEXT, tags TEXT NOT NULL DEFAULT '{}', source TEXT NOT NULL DEFAULT '');
            CREATE INDEX poi_category ON poi(category);
            CREATE VIRTUAL TABLE poi_rtree USING rtree(rid, min_lat, max_lat, min_lon, max_lon);
            INSERT INTO poi (rid, id, name, category, lat, lon, tags) VALUES (1, 'osm:node/1', 'One', 'cafe', 60, 25, '{"amenity":"cafe"}');
            INSERT INTO poi_rtree VALUES (1, 60, 60, 25, 25);
            UPDATE meta SET value = '1' WHERE key = 'schema_version';
            """)
        try db.close()
    }
}
