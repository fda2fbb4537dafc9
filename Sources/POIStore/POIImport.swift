import Foundation
import POIARCore

/// The POI source formats poiar reads.
public enum POISourceFormat: String, Equatable, Sendable {
    case osmXML = "OSM XML"
    case geoJSON = "GeoJSON"
    case overpassJSON = "Overpass JSON"
}

/// The outcome of importing one file.
public struct ImportReport: Equatable, Sendable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    public var format: POISourceFormat
    /// POIs whose id was not stored before.
    public var imported: Int
    /// POIs whose id was already stored, now replaced.
    public var updated: Int
    /// Elements not imported, per reason.
    public var skipped: [String: Int]

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// One line, e.g. `West-Oakland.osm (OSM XML): 7 new, 0 updated POIs; skipped 60 (no
    /// known category: 58, no geometry: 2)`.
    public var description: String {
        var s = "\(file) (\(format.rawValue)): \(imported) new, \(updated) updated POIs"
        if skipped.isEmpty { return s + "; none skipped" }
        let reasons = skipped.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        s += "; skipped \(skippedTotal) (\(reasons))"
        return s
    }
}

/// Importing POI source files into a `POIDatabase`: picks the reader by content (and, for
/// formats poiar cannot read, by extension, to say so plainly).
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
        let (format, parsed) = try parse(url)
        let (inserted, updated) = try db.upsert(parsed.pois, source: url.lastPathComponent)
        return ImportReport(file: url.path, format: format, imported: inserted, updated: updated,
                            skipped: parsed.skipped)
    }

    /// Reads a POI source file without storing anything.
    /// - Throws: `InputError` naming the file for a missing, unreadable, unsupported or
    ///   malformed file.
    public static func parse(_ url: URL) throws -> (format: POISourceFormat, pois: ParsedPOIs) {
        let file = url.path
        let data = try readFile(url)
        let format = try detectFormat(data, file: file)
        switch format {
        case .osmXML:
            return (format, try OSMXMLImporter.parse(data, file: file))
        case .geoJSON, .overpassJSON:
            let root = try JSONValue.parse(data, file: file)
            if format == .geoJSON { return (format, try GeoJSONImporter.parse(root, file: file)) }
            return (format, try OverpassJSONImporter.parse(root, file: file))
        }
    }

    /// The file's bytes, or an `InputError` naming it.
    static func readFile(_ url: URL) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(file: url.path, "no such file")
        }
        if isDirectory.boolValue { throw InputError(file: url.path, "is a folder, expected a POI source file") }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw InputError(file: url.path, "cannot read: \(error.localizedDescription)")
        }
    }

    /// Tells the format from the first bytes: `<` is OSM XML; a JSON object with `"type":
    /// "FeatureCollection"`/`"Feature"` is GeoJSON, one with `"elements"` is Overpass JSON.
    static func detectFormat(_ data: Data, file: String) throws -> POISourceFormat {
        let lower = file.lowercased()
        let unsupported: [(suffix: String, advice: String)] = [
            (".pbf", "OSM PBF is not supported yet; convert it to OSM XML first (e.g. osmium cat FILE.osm.pbf -o FILE.osm)"),
            (".bz2", "compressed files are not supported; decompress it first (bunzip2 -k FILE)"),
            (".gz", "compressed files are not supported; decompress it first (gunzip -k FILE)"),
            (".zip", "zip archives are not supported; extract the POI file first"),
        ]
        if let match = unsupported.first(where: { lower.hasSuffix($0.suffix) }) {
            throw InputError(file: file, match.advice)
        }
        // Skip a UTF-8 byte-order mark and leading white space.
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let expected = "expected OSM XML, GeoJSON or Overpass JSON"
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
            throw InputError(file: file, "unrecognised JSON: \(expected) (a FeatureCollection or an Overpass \"elements\" response)")
        case nil:
            throw InputError(file: file, "empty file: \(expected)")
        default:
            if data.starts(with: Array("SQLite format 3\0".utf8)) {
                throw InputError(file: file, "is an SQLite database, not a POI source to import")
            }
            throw InputError(file: file, "unrecognised POI source format: \(expected)")
        }
    }
}
