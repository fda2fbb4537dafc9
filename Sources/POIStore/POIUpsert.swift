import Foundation
import GRDB
import POIARCore

/// Writing POIs into the store: the bulk upsert (imports and web fetches) and the `poi_cell`
/// index entries it keeps in step with the rows. Reading and the schema are in
/// `POIDatabase.swift`; the radius query in `RadiusQuery.swift`.
extension POIDatabase {
    /// Inserts the POIs, or replaces those whose id is already stored (keeping their row and
    /// moving their index entries), all in one transaction: on error nothing is changed. An id
    /// given twice is stored once, as its last occurrence.
    /// - Parameter source: where they came from (stored in `poi.source`), e.g. a file name.
    /// - Returns: how many ids were new and how many replaced existing rows.
    @discardableResult
    public func upsert(_ pois: [POI], source: String) throws -> (inserted: Int, updated: Int) {
        try upsert(pois, source: source, idsAreUnique: false)
    }

    func upsert(_ pois: [POI], source: String, idsAreUnique: Bool) throws -> (inserted: Int, updated: Int) {
        try write { db in try Self.upsert(pois, source: source, db, path: path, idsAreUnique: idsAreUnique) }
    }

    /// `upsert`'s work, inside the caller's transaction. With `idsAreUnique` the caller
    /// promises that no id is given twice.
    static func upsert(_ pois: [POI], source: String, _ db: Database, path: String,
                       idsAreUnique: Bool = false) throws -> (inserted: Int, updated: Int) {
        if let bad = pois.first(where: { !$0.coordinate.isValid }) {
            throw InputError(file: path, field: bad.id, "invalid coordinate \(bad.coordinate)")
        }
        if let bad = pois.first(where: { $0.categories.contains(where: \.isEmpty) }) {
            throw InputError(file: path, field: bad.id, "empty category")
        }
        // The index of each id's last occurrence (nil: every id occurs once).
        var last: [String: Int]?
        if !idsAreUnique {
            var map: [String: Int] = [:]
            map.reserveCapacity(pois.count)
            for (i, poi) in pois.enumerated() { map[poi.id] = i }
            if map.count < pois.count { last = map }
        }
        // Into an empty table every row is new: no need to look each id up, and the id index is
        // made once at the end (a sort) rather than grown row by row.
        let wasEmpty = try Int.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM poi)") == 1
        let rebuildIDIndex = wasEmpty && pois.count >= 10_000
        if rebuildIDIndex { try db.execute(sql: "DROP INDEX poi_id") }
        var codes = try Self.categoryCodes(db)
        let addCategory = try RawStatement(db, "INSERT INTO category (name) VALUES (?)")
        let findRow = try RawStatement(db, "SELECT rid, categories, lat, lon FROM poi WHERE id = ?")
        let upsert = RowUpsert(insert: try RawStatement(db, """
            INSERT INTO poi (name, category, categories, lat, lon, alt, address, phone, website,
                             opening_hours, tags, source, id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """), update: try RawStatement(db, """
            UPDATE poi SET name = ?, category = ?, categories = ?, lat = ?, lon = ?, alt = ?,
                           address = ?, phone = ?, website = ?, opening_hours = ?, tags = ?,
                           source = ?
            WHERE rid = ?
            """), keyIndex: 13)
        let deleteEntry = try RawStatement(db, "DELETE FROM poi_cell WHERE cat = ? AND cell = ? AND rid = ?")
        var inserted = 0, updated = 0
        var entries: [IndexEntry] = []
        entries.reserveCapacity(pois.count * 2 + 16)
        var poiCodes: [Int64] = []
        // New rows are inserted in Hilbert order, so row ids (and pages) of nearby POIs are
        // close: the query's row lookups then hit few pages.
        let order = CellKey.hilbertOrder(pois.map(\.coordinate))
        for i in order where last == nil || last![pois[i].id] == i {
            let poi = pois[i]
            poiCodes.removeAll(keepingCapacity: true)
            for name in poi.categories {
                if let code = codes[name] {
                    poiCodes.append(code)
                } else {
                    addCategory.bind(1, name)
                    try addCategory.run()
                    codes[name] = db.lastInsertedRowID
                    poiCodes.append(db.lastInsertedRowID)
                }
            }
            var existing: (rid: Int64, categories: String, lat: Double, lon: Double)?
            if !wasEmpty {
                findRow.bind(1, poi.id)
                if try findRow.step() {
                    existing = (findRow.int64(0), findRow.text(1) ?? "", findRow.double(2), findRow.double(3))
                }
                findRow.reset()
            }
            let statement = upsert.statement(existing: existing?.rid)
            let c = poi.coordinate
            statement.bindRow(poi.name, poi.category, poi.categories.count == 1 ? poi.category : poi.categories.joined(separator: ","),
                           c.latitude, c.longitude, c.altitude, poi.address, poi.phone, poi.website, poi.openingHours,
                           TagCodec.encode(poi.tags), source)
            let rid = try upsert.run(existing: existing?.rid, id: poi.id)
            if let old = existing {
                // Remove the old index entries (keyed by the old position and categories).
                let oldCell = CellKey.key(latitude: old.lat, longitude: old.lon)
                for code in old.categories.split(separator: ",").compactMap({ codes[String($0)] }) {
                    deleteEntry.bindRow(code, oldCell, rid)
                    try deleteEntry.run()
                }
                updated += 1
            } else {
                inserted += 1
            }
            IndexEntry.append(rid: rid, codes: poiCodes, lat: c.latitude, lon: c.longitude, to: &entries)
        }
        if rebuildIDIndex { try db.execute(sql: "CREATE UNIQUE INDEX poi_id ON poi(id)") }
        try Self.insertIndexEntries(entries, db)
        return (inserted, updated)
    }

    /// One row of `poi_cell`.
    struct IndexEntry {
        var cat: Int64, cell: Int64, rid: Int64, x: Double, y: Double, z: Double

        /// The entries of one POI: one per category code.
        static func entries(rid: Int64, codes: [Int64], lat: Double, lon: Double) -> [IndexEntry] {
            var entries: [IndexEntry] = []
            append(rid: rid, codes: codes, lat: lat, lon: lon, to: &entries)
            return entries
        }

        static func append(rid: Int64, codes: [Int64], lat: Double, lon: Double, to entries: inout [IndexEntry]) {
            let cell = CellKey.key(latitude: lat, longitude: lon)
            let (x, y, z) = ChordGeodesic.ecef(latitude: lat, longitude: lon)
            for code in codes { entries.append(IndexEntry(cat: code, cell: cell, rid: rid, x: x, y: y, z: z)) }
        }
    }

    /// Inserts index entries in key order (B-tree appends instead of scattered inserts).
    static func insertIndexEntries(_ entries: [IndexEntry], _ db: Database) throws {
        let sorted = entries.sorted { a, b in
            a.cat != b.cat ? a.cat < b.cat : a.cell != b.cell ? a.cell < b.cell : a.rid < b.rid
        }
        let insert = try RawStatement(db, "INSERT OR REPLACE INTO poi_cell (cat, cell, rid, x, y, z) VALUES (?, ?, ?, ?, ?, ?)")
        for e in sorted {
            insert.bindRow(e.cat, e.cell, e.rid, e.x, e.y, e.z)
            try insert.run()
        }
    }
}
