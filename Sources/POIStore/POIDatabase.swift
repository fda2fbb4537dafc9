import Foundation
import GRDB
import POIARCore

/// poiar's POI store: one SQLite file (or an in-memory database) holding POIs, a spatial
/// index over them, the log of web fetches, and a small key/value `meta` table.
///
/// Schema v3 (created by `POIDatabase.migrator`, `POIDatabaseSchema.swift`; v1 and v2 stores are
/// upgraded when opened writable, and a v2 store opens read-only as one without buildings):
/// - `poi(rid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, name, category, categories, lat,
///   lon, alt, address, phone, website, opening_hours, tags TEXT (JSON object), source TEXT)`;
///   `id` is the stable POI id (`osm:node/123`), `rid` the SQLite row id the index refers to,
///   `category` the primary category and `categories` all of them, comma-separated, primary
///   first.
/// - `category(code INTEGER PRIMARY KEY, name TEXT UNIQUE)`: a small code per category name.
/// - `poi_cell(cat, cell, rid, x, y, z)`, primary key `(cat, cell, rid)`, `WITHOUT ROWID`: the
///   spatial index, a B-tree keyed by category code and Hilbert cell (`CellKey`), with one
///   entry per POI and category (a query without a filter scans every category). Its rows carry the
///   POI's earth-centred coordinates (metres, on the ellipsoid), so a radius query measures
///   distances without reading `poi` and without trigonometry (`ChordGeodesic`).
///   docs/pois-performance.md says why this and not an R*Tree.
/// - `fetches(id, source, lat, lon, radius_m, categories, fetched_at, pois)`: one row per web
///   fetch (`POIFetcher`), so a later run knows what area is cached.
/// - `building(rid INTEGER PRIMARY KEY, id TEXT UNIQUE, min_height, height, height_source,
///   rings BLOB)` and `building_rtree(rid, min_lat, max_lat, min_lon, max_lon)`, an R*Tree over
///   their bounding boxes: building footprints for line-of-sight checks (`BuildingStore.swift`).
/// - `meta(key, value)`: `schema_version`, and whatever else callers store (source
///   fingerprints of a cache, see `openPOISource`).
///
/// All errors are `InputError`s naming the database file. SQL is always parameterised.
public final class POIDatabase: Sendable {
    /// The schema version this code reads and writes.
    public static let schemaVersion = 3

    /// The database file's path, or `":memory:"`.
    public let path: String
    /// True when opened read-only (`openPOISource` opens databases that way).
    public let isReadOnly: Bool
    let queue: DatabaseQueue
    /// `query`'s statements, prepared on first use (the queue serialises their use).
    nonisolated(unsafe) private var cachedQueryStatements: QueryStatements?
    /// POIs `query` has read, by row id (used only inside the queue's access blocks).
    nonisolated(unsafe) var rowCache = RowCache()
    private let statementLock = NSLock()

    /// An empty in-memory store (for tests and one-shot imports).
    public init() throws {
        path = ":memory:"
        isReadOnly = false
        queue = try DatabaseQueue()
        try Self.prepare(queue, path: path, readOnly: false)
    }

    /// Opens (creating it if needed, unless `readOnly`) the store at `path`.
    /// - Parameter busyTimeout: how long to wait for another process's lock, seconds.
    /// - Throws: `InputError` naming the file when it is missing (read-only), not an SQLite
    ///   database, an SQLite database that is not poiar's, of a newer schema version, a file
    ///   without write permission (unless `readOnly`), or locked by another process.
    public init(path: String, readOnly: Bool = false, busyTimeout: Double = 5) throws {
        self.path = path
        isReadOnly = readOnly
        let exists = FileManager.default.fileExists(atPath: path)
        if readOnly, !exists {
            throw InputError(file: path, "no such POI database")
        }
        if !readOnly, exists, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o222 == 0 {
            // Checked by mode, not access(2), so that root respects it too.
            throw InputError(file: path, "the POI database is read-only (file mode \(String(mode & 0o777, radix: 8))): "
                             + "make it writable, or import into another database")
        }
        var config = Configuration()
        config.readonly = readOnly
        config.label = "poiar.POIDatabase"
        config.busyMode = .timeout(busyTimeout)
        config.prepareDatabase { db in
            // 64 MiB of page cache: bulk imports touch the id index all over. Reads go through
            // a memory map (up to 1 GiB), which saves a system call per page on queries.
            try db.execute(sql: "PRAGMA cache_size = -65536")
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw InputError(file: path, (exists ? "not a poiar POI database: " : "cannot create the POI database: ")
                             + Self.reason(error))
        }
        try Self.prepare(queue, path: path, readOnly: readOnly)
    }

    /// Call before opening: finds the rollback journal a killed writer (an import, say) left
    /// beside the database and makes sure none of that write remains. A journal SQLite calls
    /// hot (the write had begun to change the file) is rolled back by the first read of a
    /// writable connection; one that never became hot (killed before its commit began: the
    /// file was not touched) is deleted while holding the write lock. A journal of a writer
    /// still at work is left alone. Returns the notice to show, or nil when there was none.
    public static func recoverInterruptedWrite(path: String) throws -> String? {
        let journal = path + "-journal"
        guard (((try? FileManager.default.attributesOfItem(atPath: journal))?[.size] as? NSNumber)?.intValue ?? 0) > 0 else {
            return nil
        }
        let db = try POIDatabase(path: path)  // its first read rolls a hot journal back
        defer { try? db.close() }
        var recovered = !FileManager.default.fileExists(atPath: journal)
        if !recovered {
            recovered = try db.wrap {
                try db.queue.writeWithoutTransaction { conn -> Bool in
                    do { try conn.execute(sql: "BEGIN IMMEDIATE") } catch { return false }  // a writer at work
                    defer { try? conn.execute(sql: "ROLLBACK") }
                    // Not hot (SQLite would have rolled it back): its header was never written.
                    guard let handle = FileHandle(forReadingAtPath: journal) else { return true }
                    let magic = (try? handle.read(upToCount: 8)) ?? Data()  // not `readData`, which traps on an error
                    try? handle.close()
                    guard magic.allSatisfy({ $0 == 0 }) else { return false }
                    try FileManager.default.removeItem(atPath: journal)
                    return true
                }
            }
        }
        return recovered
            ? "\(path): an earlier write to this database did not finish (the process was killed?); none of it was kept"
            : nil
    }

    /// Closes the connection; the object must not be used afterwards.
    public func close() throws {
        dropCachedStatements()
        try wrap { try queue.close() }
    }

    deinit { dropCachedStatements() }

    /// No rollback journal and no syncing: only for a database file being built that is thrown
    /// away if anything fails (the POI cache's temporary file).
    func useBulkBuildMode() throws {
        try wrap {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
        }
    }

    /// Finalizes `query`'s statements (SQLite will not close a connection with live ones).
    private func dropCachedStatements() {
        statementLock.lock()
        defer { statementLock.unlock() }
        if cachedQueryStatements != nil { queue.inDatabase { _ in cachedQueryStatements = nil; rowCache.removeAll() } }
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

    // MARK: Reading

    /// Category name → code, as stored.
    static func categoryCodes(_ db: Database) throws -> [String: Int64] {
        var codes: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT code, name FROM category") { codes[row[1]] = row[0] }
        return codes
    }

    /// The POI with this id, or nil.
    public func poi(id: String) throws -> POI? {
        try read { db in
            try Self.fetchPOIs(db, sql: "SELECT \(Self.poiColumns) FROM poi WHERE id = ?") { $0.bind(1, id) }.first
        }
    }

    /// Every stored POI, sorted by id.
    public func allPOIs() throws -> [POI] {
        try read { db in
            try Self.fetchPOIs(db, sql: "SELECT \(Self.poiColumns) FROM poi ORDER BY id")
        }
    }

    /// How many POIs are stored (having the category among theirs, when given).
    public func count(category: String? = nil) throws -> Int {
        try read { db in
            if let category {
                return try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM poi_cell WHERE cat = (SELECT code FROM category WHERE name = ?)
                    """, arguments: [category]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM poi") ?? 0
        }
    }

    /// Every category that has POIs, with how many POIs have it (among their categories) and
    /// how many have it as their primary category; sorted by name.
    public func categoryCounts() throws -> [(name: String, count: Int, primary: Int)] {
        try read { db in
            let primary = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT category, COUNT(*) FROM poi GROUP BY category
                """).map { ($0[0] as String, $0[1] as Int) })
            return try Row.fetchAll(db, sql: """
                SELECT category.name, COUNT(*) FROM poi_cell JOIN category ON category.code = poi_cell.cat
                GROUP BY poi_cell.cat ORDER BY category.name
                """).map { (name: $0[0], count: $0[1], primary: primary[$0[0] as String] ?? 0) }
        }
    }

    /// The columns `poi(from:)` reads, in order.
    static let poiColumns = "id, name, category, categories, lat, lon, alt, address, phone, website, opening_hours, tags"

    /// Builds a POI from a row of `poiColumns` (every read of a POI comes through here).
    static func poi(from row: RawStatement) -> POI {
        let category = row.text(2) ?? ""
        let list = row.text(3) ?? category
        let categories = list == category ? nil : list.split(separator: ",").map(String.init)
        return POI(id: row.text(0) ?? "", name: row.text(1) ?? "", category: category,
                   coordinate: GeoCoordinate(latitude: row.double(4), longitude: row.double(5),
                                             altitude: row.isNull(6) ? nil : row.double(6)),
                   address: row.text(7), phone: row.text(8), website: row.text(9),
                   openingHours: row.text(10), tags: TagCodec.decode(row.text(11)), categories: categories)
    }

    /// The POIs of `sql`, a query of `poiColumns` whose parameters `bind` sets.
    static func fetchPOIs(_ db: Database, sql: String, bind: (RawStatement) -> Void = { _ in }) throws -> [POI] {
        let statement = try RawStatement(db, sql)
        bind(statement)
        var pois: [POI] = []
        while try statement.step() { pois.append(poi(from: statement)) }
        return pois
    }

    func queryStatements(_ db: Database) throws -> QueryStatements {
        statementLock.lock()
        defer { statementLock.unlock() }
        if let cached = cachedQueryStatements { return cached }
        let made = QueryStatements(
            scan: try RawStatement(db, "SELECT rid, x, y, z FROM poi_cell WHERE cat = ? AND cell BETWEEN ? AND ?"),
            fetch: try RawStatement(db, "SELECT \(Self.poiColumns) FROM poi WHERE rid = ?"),
            dataVersion: try RawStatement(db, "PRAGMA data_version"))
        cachedQueryStatements = made
        return made
    }

    // MARK: Helpers

    /// Runs raw SQL (no arguments) in a transaction: for tests and maintenance only, never
    /// with text from input.
    func execute(sql: String) throws {
        try write { db in try db.execute(sql: sql) }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try wrap { try queue.read(body) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        if isReadOnly { throw InputError(file: path, "the POI database is open read-only") }
        return try wrap {
            try queue.write { db in
                rowCache.removeAll()  // (the queue serialises access to it)
                return try body(db)
            }
        }
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
        if let error = error as? DatabaseError {
            if isLocked(error) { return "the database is locked by another process (\(error.message ?? "busy")); try again when it is done" }
            if error.resultCode == .SQLITE_READONLY { return "the database is read-only (\(error.message ?? "read-only"))" }
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }

    static func isLocked(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}
