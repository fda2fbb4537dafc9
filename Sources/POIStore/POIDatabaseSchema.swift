import Foundation
import GRDB
import POIARCore

/// The store's schema: its migrations, and the checks made when a file is opened.
extension POIDatabase {
    /// The oldest schema a read-only connection (which cannot migrate) reads: v2 differs from
    /// v3 only by having no buildings (`buildingCount()` is 0).
    static let oldestReadableSchemaVersion = 2

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
        migrator.registerMigration("v2") { db in
            // poi is rebuilt with its id index as a separate, named index (dropped and made again
            // around bulk imports into an empty table, which is faster than growing it row by row).
            try db.execute(sql: """
                CREATE TABLE poi_v2 (
                    rid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    category TEXT NOT NULL,
                    categories TEXT NOT NULL,
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
                INSERT INTO poi_v2 SELECT rid, id, name, category, category, lat, lon, alt, address, phone,
                                          website, opening_hours, tags, source FROM poi;
                DROP INDEX poi_category;
                DROP TABLE poi;
                ALTER TABLE poi_v2 RENAME TO poi;
                CREATE UNIQUE INDEX poi_id ON poi(id);
                CREATE TABLE category (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                INSERT INTO category (name) SELECT DISTINCT category FROM poi ORDER BY category;
                CREATE TABLE poi_cell (
                    cat INTEGER NOT NULL,
                    cell INTEGER NOT NULL,
                    rid INTEGER NOT NULL,
                    x REAL NOT NULL,
                    y REAL NOT NULL,
                    z REAL NOT NULL,
                    PRIMARY KEY (cat, cell, rid)
                ) WITHOUT ROWID;
                CREATE TABLE fetches (
                    id INTEGER PRIMARY KEY,
                    source TEXT NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    radius_m REAL NOT NULL,
                    categories TEXT NOT NULL,
                    fetched_at TEXT NOT NULL,
                    pois INTEGER NOT NULL
                );
                DROP TABLE poi_rtree;
                """)
            let codes = try Self.categoryCodes(db)
            var entries: [IndexEntry] = []
            for row in try Row.fetchAll(db, sql: "SELECT rid, category, lat, lon FROM poi") {
                let lat: Double = row[2], lon: Double = row[3]
                entries += IndexEntry.entries(rid: row[0], codes: [codes[row[1] as String]!], lat: lat, lon: lon)
            }
            try Self.insertIndexEntries(entries, db)
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'schema_version'", arguments: ["2"])
        }
        migrator.registerMigration("v3") { db in
            // Building footprints (`BuildingStore.swift`): a sibling table and an R*Tree over
            // their bounding boxes. A v2 store has none; its POIs are unchanged.
            try db.execute(sql: """
                CREATE TABLE building (
                    rid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    min_height REAL NOT NULL,
                    height REAL NOT NULL,
                    height_source TEXT NOT NULL,
                    rings BLOB NOT NULL
                );
                CREATE VIRTUAL TABLE building_rtree USING rtree(rid, min_lat, max_lat, min_lon, max_lon);
                UPDATE meta SET value = '3' WHERE key = 'schema_version';
                """)
        }
        return migrator
    }

    /// Checks that the file is an empty database or a poiar store this code can read, then
    /// (when writable) brings its schema up to date.
    static func prepare(_ queue: DatabaseQueue, path: String, readOnly: Bool) throws {
        let version: Int?
        do {
            version = try queue.read { db in try storedSchemaVersion(db, path: path) }
        } catch let error as InputError {
            throw error
        } catch {
            if isLocked(error) { throw InputError(file: path, "POI database error: \(reason(error))") }
            throw InputError(file: path, "not a poiar POI database: \(reason(error))")
        }
        if let version, version > schemaVersion {
            throw InputError(file: path, field: "schema_version",
                             "POI database schema version \(version) is newer than this poiar "
                             + "supports (\(schemaVersion)); upgrade poiar or re-import the sources")
        }
        if readOnly {
            if version == nil { throw InputError(file: path, "not a poiar POI database (it is empty)") }
            if version! < oldestReadableSchemaVersion {
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
}
