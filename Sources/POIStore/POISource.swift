import Foundation
import Geodesy
import GeodesyData
import POIARCore

/// Bumped whenever importing the same file would give a different database (category table,
/// placement rules, schema), so caches built by older code are rebuilt. 3: `ele` heights
/// converted to ellipsoidal altitudes through the geoid; 4: POI sources from the wild (cut
/// ways placed at their present nodes, stable ids for GeoJSON features without one); 5:
/// buildings.
let poiCacheFormatVersion = 5

/// Meta keys of a cache database.
enum CacheMetaKey {
    static let fingerprint = "source_fingerprint"
    static let sourcePath = "source_path"
    /// How many `ele` heights the cache holds taken as ellipsoidal for want of a geoid grid.
    static let eleUnconverted = "ele_unconverted"
    /// The source's `POISourceFormat` (its raw value).
    static let sourceFormat = "source_format"
}

extension POIDatabase {
    /// The format of the file this database caches (`openPOISource`); nil for a database that
    /// is no cache (one `pois import` wrote, or a cache of older code).
    public func cachedSourceFormat() throws -> POISourceFormat? {
        try metaValue(forKey: CacheMetaKey.sourceFormat).flatMap(POISourceFormat.init(rawValue:))
    }

    /// The format of `source`, this database being what `openPOISource(source)` opened: nil
    /// when `source` is this poiar database itself (opened at its own path; a cache never is,
    /// `cacheURL`), else the format its cache was imported from. Known without opening
    /// `source` again.
    public func format(ofSource source: URL) throws -> POISourceFormat? {
        if path == source.path { return nil }
        return try cachedSourceFormat()
    }
}

/// Opens a POI SOURCE (contract section 4) for reading.
///
/// - A poiar SQLite database (recognised by the SQLite header and poiar's `meta` table) is
///   opened read-only.
/// - Any other file is imported (`POIImport`) into a cache database beside it,
///   `<file>.poiar.sqlite`, which is reused while the source's size and modification time
///   (its fingerprint, stored in the cache's `meta`) are unchanged, and rebuilt otherwise. The
///   The fingerprint also names the geoid that turned `ele` heights into ellipsoidal altitudes
///   (`Geoid.identity`), so a cache built without the grid is rebuilt once it is installed. The
///   cache is built in a temporary file in the same folder and renamed into place, so an
///   interrupted import never leaves a half-built cache, and concurrent builders each install
///   a complete one. When the source's folder is not writable, the cache goes to
///   `<temporary folder>/poiar-cache/` instead.
///
/// - Parameter onImport: called with the import report when the cache had to be (re)built.
/// - Parameter geoid: turns the source's heights above sea level (`ele`) into ellipsoidal
///   altitudes; without its grid, `onNotice` hears once that they are used as they are.
/// - Throws: `InputError` naming the file when it is missing, not readable, a database that is
///   not poiar's, or a source that does not import.
/// - Parameter role: what the file is to the caller, for messages ("POI source", "building source").
public func openPOISource(_ url: URL, role: String = "POI source", geoid: Geoid = .system, onImport: ((ImportReport) -> Void)? = nil,
                          onNotice: ((String) -> Void)? = nil) throws -> POIDatabase {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError(file: path, "no such \(role)")
    }
    if isDirectory.boolValue { throw InputError(file: path, "is a folder, expected a poiar database or a \(role) file") }
    try InputFile.checkRegular(path, what: "the \(role) (imported into a cache beside it)")
    if try hasSQLiteHeader(url) {
        if let note = try POIDatabase.recoverInterruptedWrite(path: path) { onNotice?(note) }
        return try POIDatabase(path: path, readOnly: true)
    }

    let fingerprint = try sourceFingerprint(url) + ";geoid=\(geoid.identity)"
    let cache = cacheURL(for: url)
    if FileManager.default.fileExists(atPath: cache.path),
       let db = try? POIDatabase(path: cache.path, readOnly: true) {
        if (try? db.metaValue(forKey: CacheMetaKey.fingerprint)) == fingerprint {
            // Built without the grid: its `ele` heights are unconverted, which is said again
            // (as the import said it) until the grid is installed.
            if let text = try? db.metaValue(forKey: CacheMetaKey.eleUnconverted), let count = Int(text), count > 0,
               case .unavailable(let reason) = geoid.availability {
                onNotice?("\(path): \(count) ele height\(count == 1 ? "" : "s") (above sea level) taken as ellipsoidal: no geoid model: \(reason) (docs/altitude.md)")
            }
            return db
        }
        try? db.close()
    }
    try buildCache(cache, from: url, fingerprint: fingerprint, geoid: geoid, onImport: onImport, onNotice: onNotice)
    return try POIDatabase(path: cache.path, readOnly: true)
}

/// The 16 bytes every SQLite database file starts with.
let sqliteHeader = Array("SQLite format 3\0".utf8)

/// True when the file starts with the SQLite header (a poiar database, not a source to import).
public func hasSQLiteHeader(_ url: URL) throws -> Bool {
    try InputFile.checkRegular(url.path, what: "an OSM extract or a poiar database")
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
        throw InputError(file: url.path, "cannot read the file")
    }
    defer { try? handle.close() }
    SourceFileReads.record(url.path)
    // The throwing read: Foundation's `readData(ofLength:)` traps on a read error.
    do { return try handle.read(upToCount: sqliteHeader.count)?.elementsEqual(sqliteHeader) ?? false } catch {
        throw InputError(file: url.path, "cannot read: \(error.localizedDescription)")
    }
}

/// "size=…;mtime=…;format=…": changes when the source file (or poiar's import rules) change.
func sourceFingerprint(_ url: URL) throws -> String {
    let attributes: [FileAttributeKey: Any]
    do {
        attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    } catch {
        throw InputError(file: url.path, "cannot read the file's attributes: \(error.localizedDescription)")
    }
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
    let mtime = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "size=\(size);mtime=\(mtime);format=\(poiCacheFormatVersion)"
}

/// `<file>.poiar.sqlite` beside the source, or in the temporary folder when the source's
/// folder is not writable.
func cacheURL(for source: URL) -> URL {
    let folder = source.deletingLastPathComponent()
    let name = source.lastPathComponent + ".poiar.sqlite"
    if isWritableFolder(folder) { return folder.appendingPathComponent(name) }
    // FNV-1a (64-bit) of the absolute path keeps caches of same-named sources apart.
    var hash = FNV1a64()
    hash.add(source.standardizedFileURL.path)
    let hex = String(hash.value, radix: 16)
    return FileManager.default.temporaryDirectory.appendingPathComponent("poiar-cache")
        .appendingPathComponent("\(source.lastPathComponent)-\(hex).poiar.sqlite")
}

/// True when we may write in `folder`: the process has write access and the folder is not
/// marked read-only for everybody (which root, who has access anyway, should respect too).
func isWritableFolder(_ folder: URL) -> Bool {
    guard FileManager.default.isWritableFile(atPath: folder.path) else { return false }
    let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path)
    guard let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue else { return true }
    return mode & 0o222 != 0
}

/// Imports `source` into a temporary database beside `cache`, then renames it over `cache`.
private func buildCache(_ cache: URL, from source: URL, fingerprint: String, geoid: Geoid,
                        onImport: ((ImportReport) -> Void)?, onNotice: ((String) -> Void)?) throws {
    let folder = cache.deletingLastPathComponent()
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        throw InputError(file: folder.path, "cannot create the POI cache folder: \(error.localizedDescription)")
    }
    let temporary = AtomicFile.temporaryURL(for: cache)
    func removeTemporary() {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)
        }
    }
    do {
        let db = try POIDatabase(path: temporary.path)
        do {
            try db.useBulkBuildMode()
            let report = try POIImport.importFile(source, into: db, geoid: geoid)
            let note = geoid.takeNotice()
            try db.setMetaValue(fingerprint, forKey: CacheMetaKey.fingerprint)
            try db.setMetaValue(source.path, forKey: CacheMetaKey.sourcePath)
            if report.unconvertedHeights > 0 {
                try db.setMetaValue(String(report.unconvertedHeights), forKey: CacheMetaKey.eleUnconverted)
            }
            try db.setMetaValue(report.format.rawValue, forKey: CacheMetaKey.sourceFormat)
            try db.close()
            onImport?(report)
            if let note { onNotice?("\(source.path): \(note)") }
        } catch {
            try? db.close()
            throw error
        }
        try AtomicFile.replace(cache, with: temporary, failure: { InputError(file: cache.path, "cannot install the POI cache: \($0)") })
    } catch {
        removeTemporary()
        throw error
    }
}
