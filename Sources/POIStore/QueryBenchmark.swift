import Dispatch
import Foundation
import Geodesy
import GRDB
import POIARCore

/// In-process timing of radius queries (`poiar pois bench`), so that process start-up is not
/// measured: the same random queries run against poiar's index and, for comparison, against
/// R*Tree indexes built from it in a temporary table (how docs/pois-performance.md chose).
public enum QueryBenchmark {
    /// The index a query goes through.
    public enum Index: String, Sendable, CaseIterable {
        /// poiar's `poi_cell` B-tree (category, Hilbert cell) — what `query` uses.
        case cell
        /// The same, with the row cache emptied before every query (every POI read from SQLite).
        case cellCold = "cell-cold"
        /// An R*Tree over (category code, lat, lon) with the exact coordinates as auxiliary
        /// columns: the same plan as `cell`, another index.
        case rtree
        /// An R*Tree over (lat, lon) only, joined to `poi` for the category (schema v1's way).
        case rtree2d
    }

    public struct Query: Sendable {
        public var center: GeoCoordinate
        public var categories: [String]?
    }

    public struct Result: Sendable {
        public var index: Index
        /// Per query, wall-clock microseconds, in query order.
        public var micros: [Double]
        /// Per query, the thread's CPU time in microseconds (what the query cost, whatever else
        /// the machine was doing).
        public var cpuMicros: [Double]
        public var hits: [Int]
        public var setupSeconds: Double

        public var median: Double { percentile(0.5) }
        public var p99: Double { percentile(0.99) }
        public var cpuMedian: Double { Self.percentile(cpuMicros, 0.5) }
        public var cpuP99: Double { Self.percentile(cpuMicros, 0.99) }
        public var meanHits: Double { hits.isEmpty ? 0 : Double(hits.reduce(0, +)) / Double(hits.count) }

        public func percentile(_ p: Double) -> Double { Self.percentile(micros, p) }

        static func percentile(_ values: [Double], _ p: Double) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            let rank = min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))
            return sorted[rank]
        }
    }

    /// `count` queries centred uniformly in a disc of `spread` m around `near`, each for one
    /// category drawn from `categories` (nil: no filter), from a fixed seed.
    public static func randomQueries(near: GeoCoordinate, spread: Double, categories: [String]?, count: Int,
                                     seed: UInt64) -> [Query] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let r = spread * rng.uniform().squareRoot(), angle = 2 * Double.pi * rng.uniform()
            let lat = near.latitude + r * cos(angle) / 111_320
            let lon = near.longitude + r * sin(angle) / (111_320 * max(0.01, cos(near.latitude * .pi / 180)))
            let category = categories.map { [$0[Int(rng.next() % UInt64($0.count))]] }
            return Query(center: GeoCoordinate(latitude: max(-90, min(90, lat)), longitude: wrap180(lon)), categories: category)
        }
    }

    /// Runs `queries` (after `warmUp` untimed ones) through `index`.
    public static func run(_ queries: [Query], radius: Double, index: Index, warmUp: Int = 200,
                           on db: POIDatabase) throws -> Result {
        let setupStart = DispatchTime.now().uptimeNanoseconds
        var query: (Query) throws -> Int
        switch index {
        case .cell:
            query = { q in try db.query(near: q.center, radius: radius, categories: q.categories).count }
        case .cellCold:
            query = { q in
                try db.read { _ in db.rowCache.removePOIs() }
                return try db.query(near: q.center, radius: radius, categories: q.categories).count
            }
        case .rtree, .rtree2d:
            let table = try RTreeIndex(db: db, threeD: index == .rtree)
            query = { q in try table.query(near: q.center, radius: radius, categories: q.categories).count }
        }
        let setup = Double(DispatchTime.now().uptimeNanoseconds - setupStart) / 1e9
        for q in queries.prefix(warmUp) { _ = try query(q) }
        var micros: [Double] = [], cpu: [Double] = [], hits: [Int] = []
        micros.reserveCapacity(queries.count); cpu.reserveCapacity(queries.count); hits.reserveCapacity(queries.count)
        for q in queries {
            let c0 = threadCPUNanoseconds()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let n = try query(q)
            let t1 = DispatchTime.now().uptimeNanoseconds
            let c1 = threadCPUNanoseconds()
            micros.append(Double(t1 - t0) / 1000)
            cpu.append(Double(c1 - c0) / 1000)
            hits.append(n)
        }
        return Result(index: index, micros: micros, cpuMicros: cpu, hits: hits, setupSeconds: setup)
    }

    /// An R*Tree built from `poi_cell` in a private in-memory database, queried like `query`.
    final class RTreeIndex {
        let queue: DatabaseQueue
        let threeD: Bool
        let source: POIDatabase

        init(db: POIDatabase, threeD: Bool) throws {
            source = db
            self.threeD = threeD
            queue = try DatabaseQueue()
            try queue.writeWithoutTransaction { mem in
                try mem.execute(sql: "ATTACH DATABASE ? AS src", arguments: [db.path])
                try mem.inTransaction {
                    if threeD {
                        try mem.execute(sql: """
                            CREATE VIRTUAL TABLE bench_rtree USING rtree(id, min_cat, max_cat, min_lat, max_lat, min_lon, max_lon, +rid, +x, +y, +z);
                            INSERT INTO bench_rtree SELECT NULL, c.cat, c.cat, p.lat, p.lat, p.lon, p.lon, c.rid, c.x, c.y, c.z
                                FROM src.poi_cell c JOIN src.poi p ON p.rid = c.rid;
                            CREATE TABLE category AS SELECT * FROM src.category;
                            """)
                    } else {
                        try mem.execute(sql: """
                            CREATE VIRTUAL TABLE bench_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                            INSERT INTO bench_rtree SELECT rid, lat, lat, lon, lon FROM src.poi;
                            """)
                    }
                    return .commit
                }
            }
        }

        func query(near center: GeoCoordinate, radius: Double, categories: [String]?) throws -> [POIHit] {
            let boxes = GeoBox.covering(center: center, radius: radius)
            return try queue.read { db in
                var found: [(rid: Int64, distance: Double, bearing: Double)] = []
                // The same distance test as `POIDatabase.query` (radii up to 50 km).
                let chord = ChordGeodesic(center: center)
                func consider(_ rid: Int64, _ x: Double, _ y: Double, _ z: Double) {
                    let c2 = chord.chordSquared(x, y, z)
                    guard c2 <= radius * radius * (1 + 1e-9) else { return }
                    let inverse = chord.inverse(x, y, z, chordSquared: c2)
                    if inverse.distance <= radius { found.append((rid, inverse.distance, inverse.azimuthDeg)) }
                }
                if threeD {
                    let codes = try Row.fetchAll(db, sql: "SELECT code FROM category WHERE name IN (\(Array(repeating: "?", count: categories?.count ?? 0).joined(separator: ",")))",
                                                 arguments: StatementArguments(categories ?? [])).map { $0[0] as Int64 }
                    let scan = try db.cachedStatement(sql: """
                        SELECT rid, x, y, z FROM bench_rtree WHERE min_cat <= ? AND max_cat >= ?
                          AND max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
                        """)
                    // Without categories: one scan over every code.
                    let codeRanges: [(Int64, Int64)] = categories == nil ? [(1, 1 << 40)] : codes.map { ($0, $0) }
                    for (low, high) in codeRanges {
                        for box in boxes {
                            let rows = try Row.fetchCursor(scan, arguments: [high, low, box.minLat, box.maxLat, box.minLon, box.maxLon])
                            while let row = try rows.next() { consider(row[0], row[1], row[2], row[3]) }
                        }
                    }
                } else {
                    var sql = """
                        SELECT p.rid, p.lat, p.lon FROM bench_rtree r JOIN src.poi p ON p.rid = r.id
                        WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
                        """
                    if let categories {
                        sql += " AND p.category IN (\(Array(repeating: "?", count: categories.count).joined(separator: ",")))"
                    }
                    for box in boxes {
                        let arguments = StatementArguments([box.minLat, box.maxLat, box.minLon, box.maxLon]) + StatementArguments(categories ?? [])
                        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                        while let row = try rows.next() {
                            let (x, y, z) = ChordGeodesic.ecef(latitude: row[1], longitude: row[2])
                            consider(row[0], x, y, z)
                        }
                    }
                }
                var seen = Set<Int64>()
                found = found.filter { seen.insert($0.rid).inserted }
                let fetch = try RawStatement(db, "SELECT \(POIDatabase.poiColumns) FROM src.poi WHERE rid = ?")
                var hits = try found.compactMap { f -> POIHit? in
                    fetch.bind(1, f.rid)
                    defer { fetch.reset() }
                    guard try fetch.step() else { return nil }
                    return POIHit(poi: POIDatabase.poi(from: fetch), distance: f.distance, bearing: f.bearing)
                }
                hits.sort { ($0.distance, $0.poi.id) < ($1.distance, $1.poi.id) }
                return hits
            }
        }
    }
}

/// CPU time of the calling thread, ns.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
