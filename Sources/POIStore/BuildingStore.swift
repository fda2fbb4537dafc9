import Foundation
import GRDB
import POIARCore

/// Building footprints in the store: the `building` table (id, heights, the rings as a
/// `BuildingRings` blob) and `building_rtree`, an SQLite R*Tree over their bounding boxes
/// (schema v3, `POIDatabaseSchema.swift`). A v2 store opened read-only has neither: it has no
/// buildings.
extension POIDatabase {
    /// Inserts the buildings, or replaces those whose id is already stored, in one transaction.
    /// - Returns: how many ids were new and how many replaced existing rows.
    /// - Throws: `InputError` naming the database for a building with an invalid vertex or height.
    @discardableResult
    public func upsertBuildings(_ buildings: [Building]) throws -> (inserted: Int, updated: Int) {
        try write { db in try Self.upsertBuildings(buildings, db, path: path) }
    }

    /// Every building whose bounding box meets the box `south`…`north`, `west`…`east`
    /// (degrees; `west` > `east` is a box across ±180°), in the store's order (the same on every
    /// call: by row, rows written in Hilbert order of a vertex on import). The
    /// R*Tree keeps 32-bit bounds rounded outward, so buildings up to about a metre outside
    /// the box may come too.
    /// - Throws: `InputError` naming the database when it cannot be read or holds a corrupt
    ///   building.
    public func buildings(south: Double, west: Double, north: Double, east: Double) throws -> [Building] {
        guard south <= north, west.isFinite, east.isFinite else { return [] }
        let lonRanges = west <= east ? [(west, east)] : [(west, 180.0), (-180.0, east)]
        return try read { db in
            guard try db.tableExists("building") else { return [] }
            var seen = Set<Int64>()
            var found: [(rid: Int64, building: Building)] = []
            for (w, e) in lonRanges {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT b.rid, b.id, b.min_height, b.height, b.height_source, b.rings
                    FROM building_rtree r JOIN building b ON b.rid = r.rid
                    WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
                    """, arguments: [south, north, w, e])
                while let row = try rows.next() {
                    let rid: Int64 = row[0]
                    guard seen.insert(rid).inserted else { continue }
                    found.append((rid, try Self.building(from: row, path: path)))
                }
            }
            return found.sorted { $0.rid < $1.rid }.map(\.building)
        }
    }

    /// How many buildings are stored (0 for a store of schema v2).
    public func buildingCount() throws -> Int {
        try read { db in
            guard try db.tableExists("building") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM building") ?? 0
        }
    }

    /// A building from a row of (rid, id, min_height, height, height_source, rings).
    private static func building(from row: Row, path: String) throws -> Building {
        let id: String = row[1]
        guard let source = Building.HeightSource(rawValue: row[4] as String? ?? ""),
              let blob = row[5] as Data?, let rings = BuildingRings.decode(blob) else {
            throw InputError(file: path, field: id, "corrupt building row (height source or rings)")
        }
        return Building(id: id, outer: rings.outer, inner: rings.inner, minHeight: row[2], height: row[3],
                        heightSource: source)
    }

    /// `upsertBuildings`' work, inside the caller's transaction.
    @discardableResult
    static func upsertBuildings(_ buildings: [Building], _ db: Database, path: String) throws -> (inserted: Int, updated: Int) {
        for b in buildings {
            let vertices = (b.outer + b.inner).joined()
            guard !b.outer.isEmpty, vertices.allSatisfy(\.isValid) else {
                throw InputError(file: path, field: b.id, "a building needs an outer ring of valid coordinates")
            }
            guard b.minHeight.isFinite, b.height.isFinite, b.minHeight >= 0, b.height > b.minHeight else {
                throw InputError(file: path, field: b.id, "building heights \(b.minHeight)…\(b.height) m: expected 0 ≤ bottom < top")
            }
        }
        let find = try RawStatement(db, "SELECT rid FROM building WHERE id = ?")
        let upsert = RowUpsert(insert: try RawStatement(db, """
            INSERT INTO building (min_height, height, height_source, rings, id) VALUES (?, ?, ?, ?, ?)
            """), update: try RawStatement(db, """
            UPDATE building SET min_height = ?, height = ?, height_source = ?, rings = ? WHERE rid = ?
            """), keyIndex: 5)
        let box = try RawStatement(db, """
            INSERT OR REPLACE INTO building_rtree (rid, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)
            """)
        var inserted = 0, updated = 0
        // In Hilbert order of a vertex, so that nearby buildings share pages.
        let order = CellKey.hilbertOrder(buildings.map { $0.outer[0][0] })
        for b in order.map({ buildings[$0] }) {
            find.bind(1, b.id)
            let existing: Int64? = try find.step() ? find.int64(0) : nil
            find.reset()
            let statement = upsert.statement(existing: existing)
            statement.bindRow(b.minHeight, b.height, b.heightSource.rawValue, BuildingRings.encode(outer: b.outer, inner: b.inner))
            let rid = try upsert.run(existing: existing, id: b.id)
            if existing == nil { inserted += 1 } else { updated += 1 }
            // The outer rings bound the building (inner rings lie inside them).
            let outer = b.outer.joined()
            box.bindRow(rid, outer.map(\.latitude).min()!, outer.map(\.latitude).max()!,
                     outer.map(\.longitude).min()!, outer.map(\.longitude).max()!)
            try box.run()
        }
        return (inserted, updated)
    }
}
