import Foundation
import POIARCore

/// The POI source formats poiar reads.
public enum POISourceFormat: String, Equatable, Sendable {
    case osmPBF = "OSM PBF"
    case osmXML = "OSM XML"
    case geoJSON = "GeoJSON"
    case overpassJSON = "Overpass JSON"
    case googlePlaces = "Google Places JSON"
    case csv = "CSV"

    /// OSM data (elements with tags, ways, relations): the formats that carry buildings.
    public var isOSM: Bool { self == .osmPBF || self == .osmXML || self == .overpassJSON }
}

/// The outcome of importing one file.
public struct ImportReport: Equatable, Sendable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    public var format: POISourceFormat
    /// How the file was compressed (`gzip`, `bzip2`), if it was.
    public var compression: String?
    /// POIs whose id was not stored before.
    public var imported: Int
    /// POIs whose id was already stored, now replaced.
    public var updated: Int
    /// Elements not imported, per reason.
    public var skipped: [String: Int]
    /// The buildings stored (OSM sources; nil for the others, which have none).
    public var buildings: BuildingImportReport?

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// One line, e.g. `West-Oakland.osm (OSM XML): 7 new, 0 updated POIs; skipped 60 (no
    /// known category: 58, no geometry: 2); 52 buildings (3 with a height, 10 with levels), none
    /// skipped`.
    public var description: String {
        var s = "\(file) (\(format.rawValue)\(compression.map { ", \($0)" } ?? "")): \(imported) new, \(updated) updated POIs"
        s += skipped.isEmpty ? "; none skipped" : "; skipped \(skippedTotal) (\(Self.reasons(skipped)))"
        if let buildings { s += "; \(buildings)" }
        return s
    }

    /// "reason: count, …", most common first.
    static func reasons(_ counts: [String: Int]) -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}

/// The buildings of one import (`ImportReport.buildings`).
public struct BuildingImportReport: Equatable, Sendable, CustomStringConvertible {
    /// Buildings stored (new or replacing one of the same id).
    public var stored: Int
    /// How many of them had their top from `height`/`building:height`, and from `building:levels`
    /// (the rest have the default height).
    public var withHeight: Int, withLevels: Int
    /// Buildings not stored, per reason.
    public var skipped: [String: Int]
    /// Height tags not understood (treated as missing).
    public var unreadableHeightTags: Int

    init(_ parsed: ParsedBuildings) {
        stored = parsed.buildings.count
        withHeight = parsed.buildings.count { $0.heightSource == .height }
        withLevels = parsed.buildings.count { $0.heightSource == .levels }
        skipped = parsed.skipped
        unreadableHeightTags = parsed.unreadableHeightTags
    }

    /// e.g. `433 buildings (17 with a height, 144 with levels), skipped 48 (cut by the extract's
    /// edge: 48), 2 height tags not understood`.
    public var description: String {
        var s = "\(stored) buildings (\(withHeight) with a height, \(withLevels) with levels)"
        s += skipped.isEmpty ? ", none skipped" : ", skipped \(skipped.values.reduce(0, +)) (\(ImportReport.reasons(skipped)))"
        if unreadableHeightTags > 0 { s += ", \(unreadableHeightTags) height tag\(unreadableHeightTags == 1 ? "" : "s") not understood" }
        return s
    }
}

/// Importing POI source files into a `POIDatabase`: picks the reader by content (`.gz` and
/// `.bz2` files are decompressed first), and refuses plainly what it cannot read.
public enum POIImport {
    /// Imports each file in its own transaction, in order; stops at the first error, which
    /// leaves that file's changes out (files before it stay imported).
    @discardableResult
    public static func importFiles(_ urls: [URL], into db: POIDatabase) throws -> [ImportReport] {
        try urls.map { try importFile($0, into: db) }
    }

    /// Reads the whole file, then stores its POIs in one transaction: on any error the
    /// database is as it was.
    @discardableResult
    public static func importFile(_ url: URL, into db: POIDatabase) throws -> ImportReport {
        let source = try read(url)
        let parsed = try parse(source.data, format: source.format, file: url.path)
        return try store(parsed, format: source.format, compression: source.compression,
                         file: url.path, sourceName: url.lastPathComponent, into: db)
    }

    /// Stores parsed POIs and, from an OSM source, its buildings (one transaction) and reports.
    static func store(_ parsed: ParsedPOIs, format: POISourceFormat, compression: String?, file: String,
                      sourceName: String, into db: POIDatabase) throws -> ImportReport {
        let (inserted, updated) = try db.write { conn in
            let counts = try POIDatabase.upsert(parsed.pois, source: sourceName, conn, path: db.path,
                                                idsAreUnique: parsed.idsAreUnique)
            try POIDatabase.upsertBuildings(parsed.buildings.buildings, conn, path: db.path)
            return counts
        }
        return ImportReport(file: file, format: format, compression: compression, imported: inserted,
                            updated: updated, skipped: parsed.skipped,
                            buildings: format.isOSM ? BuildingImportReport(parsed.buildings) : nil)
    }

    /// Reads a POI source file without storing anything.
    /// - Throws: `InputError` naming the file for a missing, unreadable, unsupported or
    ///   malformed file.
    public static func parse(_ url: URL) throws -> (format: POISourceFormat, pois: ParsedPOIs) {
        let source = try read(url)
        return (source.format, try parse(source.data, format: source.format, file: url.path))
    }

    /// Parses data of a known format.
    static func parse(_ data: Data, format: POISourceFormat, file: String) throws -> ParsedPOIs {
        var parsed: ParsedPOIs
        switch format {
        case .osmPBF: parsed = try PBFImporter.parse(data, file: file)
        case .osmXML: parsed = try OSMXMLImporter.parse(data, file: file)
        case .csv: parsed = try CSVImporter.parse(data, file: file)
        case .geoJSON, .overpassJSON, .googlePlaces:
            let root = try JSONValue.parse(data, file: file)
            switch format {
            case .geoJSON: parsed = try GeoJSONImporter.parse(root, file: file)
            case .overpassJSON: parsed = try OverpassJSONImporter.parse(root, file: file)
            default: parsed = try GooglePlacesImporter.parse(root, file: file)
            }
        }
        parsed.dropDuplicateIDs()
        return parsed
    }

    /// A source file's (decompressed) content and format.
    struct Source {
        var data: Data
        var format: POISourceFormat
        var compression: String?
    }

    static func read(_ url: URL) throws -> Source {
        let file = url.path
        var data = try readFile(url)
        var compression: String?
        if data.starts(with: [0x1F, 0x8B]) {
            compression = "gzip"
            do { data = try Decompression.gzip(data) } catch { throw InputError(file: file, "\(error)") }
        } else if data.starts(with: Array("BZh".utf8)) {
            compression = "bzip2"
            do { data = try Decompression.bzip2(data) } catch { throw InputError(file: file, "\(error)") }
        }
        return Source(data: data, format: try detectFormat(data, file: file), compression: compression)
    }

    /// The file's bytes, or an `InputError` naming it.
    static func readFile(_ url: URL) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(file: url.path, "no such file")
        }
        if isDirectory.boolValue { throw InputError(file: url.path, "is a folder, expected a POI source file") }
        do {
            return try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw InputError(file: url.path, "cannot read: \(error.localizedDescription)")
        }
    }

    /// Tells the format from the (decompressed) content: a PBF `OSMHeader` blob is OSM PBF;
    /// `<` is OSM XML; a JSON object with `"type": "FeatureCollection"`/`"Feature"` is
    /// GeoJSON, one with `"elements"` Overpass JSON, one with `"results"`, `"places"` or a
    /// Places `"status"` Google Places JSON; text whose first line has `id`, `lat` and `lon`
    /// columns is CSV. A `.pbf` file that is not a PBF is reported as a PBF problem.
    static func detectFormat(_ data: Data, file: String) throws -> POISourceFormat {
        let lower = file.lowercased()
        if PBFImporter.looksLikePBF(data) || lower.hasSuffix(".pbf") { return .osmPBF }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || lower.hasSuffix(".zip") {
            throw InputError(file: file, "zip archives are not supported; extract the POI file first")
        }
        if data.starts(with: sqliteHeader) {
            throw InputError(file: file, "is an SQLite database, not a POI source to import")
        }
        // Skip a UTF-8 byte-order mark and leading white space.
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let expected = "expected OSM PBF, OSM XML, GeoJSON, Overpass JSON, Google Places JSON or CSV"
        switch first {
        case UInt8(ascii: "<"):
            return .osmXML
        case UInt8(ascii: "{"):
            // Look for the distinguishing top-level key in the first few kilobytes; the
            // reader checks the structure properly.
            let head = String(decoding: bytes.prefix(65_536), as: UTF8.self)
            let featurePattern = #""type"\s*:\s*"(FeatureCollection|Feature)""#
            if head.range(of: featurePattern, options: .regularExpression) != nil { return .geoJSON }
            if head.range(of: #""elements"\s*:"#, options: .regularExpression) != nil { return .overpassJSON }
            if head.range(of: #""(results|places|html_attributions|error_message)"\s*:"#, options: .regularExpression) != nil
                || head.range(of: #""status"\s*:\s*"[A-Z_]+""#, options: .regularExpression) != nil {
                return .googlePlaces
            }
            throw InputError(file: file, "unrecognised JSON: \(expected) (a FeatureCollection, an Overpass \"elements\" or a Places \"results\" response)")
        case nil:
            throw InputError(file: file, "empty file: \(expected)")
        default:
            let firstLine = String(decoding: bytes.prefix(4096).prefix { $0 != 0x0A }, as: UTF8.self)
            let columns = Set(firstLine.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() })
            if columns.isSuperset(of: ["id", "lat", "lon"]) || lower.hasSuffix(".csv") { return .csv }
            throw InputError(file: file, "unrecognised POI source format: \(expected)")
        }
    }
}

extension ParsedPOIs {
    /// Keeps the first POI of each id; the others are counted as "duplicate id".
    mutating func dropDuplicateIDs() {
        if idsAreUnique { return }
        defer { idsAreUnique = true }
        var seen = Set<String>()
        seen.reserveCapacity(pois.count)
        let before = pois.count
        pois.removeAll { !seen.insert($0.id).inserted }
        if pois.count < before { skipped[SkipReason.duplicateID, default: 0] += before - pois.count }
    }
}
