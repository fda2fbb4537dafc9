import Foundation
import GRDB
import POIARCore

/// poiar's POI store: one SQLite file (or an in-memory database) holding POIs, an R*Tree
/// spatial index over them, and a small key/value `meta` table.
///
/// Schema v1 (created by `POIDatabase.migrator`):
/// - `poi(rid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, name, category, lat, lon, alt,
///   address, phone, website, opening_hours, tags TEXT (JSON object), source TEXT)`;
///   `id` is the stable POI id (`osm:node/123`), `rid` the SQLite row id the index refers to.
/// - `poi_rtree(rid, min_lat, max_lat, min_lon, max_lon)`: an R*Tree virtual table with one
///   (point-sized) box per `poi` row, `poi_rtree.rid = poi.rid`.
/// - `meta(key, value)`: `schema_version`, and whatever else callers store (source
///   fingerprints of a cache, see `openPOISource`).
///
/// All errors are `InputError`s naming the database file. SQL is always parameterised.
public final class POIDatabase: Sendable {
    /// The schema version this code reads and writes.
    public static let schemaVersion = 1

    /// The database file's path, or `":memory:"`.
    public let path: String
    /// True when opened read-only (`openPOISource` opens databases that way).
    public let isReadOnly: Bool
    let queue: DatabaseQueue

    /// An empty in-memory store (for tests and one-shot imports).
    public init() throws {
        path = ":memory:"
        isReadOnly = false
        queue = try DatabaseQueue()
        try Self.prepare(queue, path: path, readOnly: false)
    }

    /// Opens (creating it if needed, unless `readOnly`) the store at `path`.
    /// - Throws: `InputError` naming the file when it is missing (read-only), not an SQLite
    ///   database, an SQLite database that is not poiar's, or of a newer schema version.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        isReadOnly = readOnly
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw InputError(file: path, "no such POI database")
        }
        var config = Configuration()
        config.readonly = readOnly
        config.label = "poiar.POIDatabase"
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw InputError(file: path, (exists ? "not a poiar POI database: " : "cannot create the POI database: ")
                             + Self.reason(error))
        }
        try Self.prepare(queue, path: path, readOnly: readOnly)
    }

    /// Closes the connection; the object must not be used afterwards.
    public func close() throws {
        try wrap { try queue.close() }
    }

    // MARK: Schema

    /// The schema migrations, oldest first. The last one's result is `schemaVersion`.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE poi (
                    rid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    category TEXT NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    alt REAL,
                    address TEXT,
                    phone TEXT,
                    website TEXT,
                    opening_hours TEXT,
                    tags TEXT NOT NULL DEFAULT '{}',
                    source TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX poi_category ON poi(category);
                CREATE VIRTUAL TABLE poi_rtree USING rtree(rid, min_lat, max_lat, min_lon, max_lon);
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                           arguments: ["1"])
        }
        return migrator
    }

    /// Checks that the file is an empty database or a poiar store this code can read, then
    /// (when writable) brings its schema up to date.
    private static func prepare(_ queue: DatabaseQueue, path: String, readOnly: Bool) throws {
        let version: Int?
        do {
            version = try queue.read { db in try storedSchemaVersion(db, path: path) }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: path, "not a poiar POI database: \(reason(error))")
        }
        if let version, version > schemaVersion {
            throw InputError(file: path, field: "schema_version",
                             "POI database schema version \(version) is newer than this poiar "
                             + "supports (\(schemaVersion)); upgrade poiar or re-import the sources")
        }
        if readOnly {
            if version == nil { throw InputError(file: path, "not a poiar POI database (it is empty)") }
            if version != schemaVersion {
                throw InputError(file: path, field: "schema_version",
                                 "POI database schema version \(version!) is too old to open "
                                 + "read-only; re-import the sources")
            }
            return
        }
        do {
            try migrator.migrate(queue)
        } catch {
            throw InputError(file: path, "cannot set up the POI database: \(reason(error))")
        }
    }

    /// The schema version stored in `meta`, or nil for a database with no tables at all.
    /// Throws when the database has tables but is not a poiar store.
    private static func storedSchemaVersion(_ db: Database, path: String) throws -> Int? {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            """)
        if tables.isEmpty { return nil }
        guard tables.contains("meta"), tables.contains("poi") else {
            throw InputError(file: path, "not a poiar POI database (an SQLite database without "
                             + "poiar's poi and meta tables)")
        }
        let value = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?",
                                        arguments: ["schema_version"])
        guard let value, let version = Int(value) else {
            throw InputError(file: path, field: "schema_version",
                             "not a poiar POI database (no valid schema version in its meta table)")
        }
        return version
    }

    // MARK: Meta

    /// The `meta` value for `key`, or nil.
    public func metaValue(forKey key: String) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// Sets (inserts or replaces) the `meta` value for `key`.
    public func setMetaValue(_ value: String, forKey key: String) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                           arguments: [key, value])
        }
    }

    // MARK: Writing

    /// Inserts the POIs, or replaces those whose id is already stored (keeping their row and
    /// updating their index box), all in one transaction: on error nothing is changed.
    /// - Parameter source: where they came from (stored in `poi.source`), e.g. a file name.
    /// - Returns: how many ids were new and how many replaced existing rows.
    @discardableResult
    public func upsert(_ pois: [POI], source: String) throws -> (inserted: Int, updated: Int) {
        if let bad = pois.first(where: { !$0.coordinate.isValid }) {
            throw InputError(file: path, field: bad.id, "invalid coordinate \(bad.coordinate)")
        }
        return try write { db in
            var inserted = 0, updated = 0
            let findRow = try db.cachedStatement(sql: "SELECT rid FROM poi WHERE id = ?")
            let insertRow = try db.cachedStatement(sql: """
                INSERT INTO poi (id, name, category, lat, lon, alt, address, phone, website,
                                 opening_hours, tags, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let updateRow = try db.cachedStatement(sql: """
                UPDATE poi SET id = ?, name = ?, category = ?, lat = ?, lon = ?, alt = ?,
                               address = ?, phone = ?, website = ?, opening_hours = ?, tags = ?,
                               source = ?
                WHERE rid = ?
                """)
            let indexRow = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO poi_rtree (rid, min_lat, max_lat, min_lon, max_lon)
                VALUES (?, ?, ?, ?, ?)
                """)
            for poi in pois {
                let c = poi.coordinate
                var values: [(any DatabaseValueConvertible)?] = [
                    poi.id, poi.name, poi.category, c.latitude, c.longitude, c.altitude,
                    poi.address, poi.phone, poi.website, poi.openingHours,
                    Self.encodeTags(poi.tags), source,
                ]
                let rid: Int64
                if let existing = try Int64.fetchOne(findRow, arguments: [poi.id]) {
                    values.append(existing)
                    try updateRow.execute(arguments: StatementArguments(values))
                    rid = existing
                    updated += 1
                } else {
                    try insertRow.execute(arguments: StatementArguments(values))
                    rid = db.lastInsertedRowID
                    inserted += 1
                }
                try indexRow.execute(arguments: [rid, c.latitude, c.latitude, c.longitude, c.longitude])
            }
            return (inserted, updated)
        }
    }

    // MARK: Reading

    /// The POI with this id, or nil.
    public func poi(id: String) throws -> POI? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM poi WHERE id = ?", arguments: [id]).map(Self.poi(from:))
        }
    }

    /// Every stored POI, sorted by id.
    public func allPOIs() throws -> [POI] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM poi ORDER BY id").map(Self.poi(from:))
        }
    }

    /// How many POIs are stored (of one category, when given).
    public func count(category: String? = nil) throws -> Int {
        try read { db in
            if let category {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM poi WHERE category = ?",
                                        arguments: [category]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM poi") ?? 0
        }
    }

    /// Builds a POI from a `poi` row.
    static func poi(from row: Row) -> POI {
        POI(id: row["id"], name: row["name"], category: row["category"],
            coordinate: GeoCoordinate(latitude: row["lat"], longitude: row["lon"], altitude: row["alt"]),
            address: row["address"], phone: row["phone"], website: row["website"],
            openingHours: row["opening_hours"], tags: decodeTags(row["tags"]))
    }

    // MARK: Helpers

    /// Runs raw SQL (no arguments) in a transaction: for tests and maintenance only, never
    /// with text from input.
    func execute(sql: String) throws {
        try write { db in try db.execute(sql: sql) }
    }

    static func encodeTags(_ tags: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(tags) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeTags(_ json: String?) -> [String: String] {
        guard let json, let tags = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        else { return [:] }
        return tags
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try wrap { try queue.read(body) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        if isReadOnly { throw InputError(file: path, "the POI database is open read-only") }
        return try wrap { try queue.write(body) }
    }

    /// Runs `body`, turning database errors into an `InputError` naming this file.
    func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: path, "POI database error: \(Self.reason(error))")
        }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}
