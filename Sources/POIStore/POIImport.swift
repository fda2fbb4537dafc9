import Foundation
import Geodesy
import GeodesyData
import POIARCore

/// A POI source format by name ("OSM PBF", "CSV", …), each one `POISourceReader`'s.
public struct POISourceFormat: RawRepresentable, Hashable, Sendable {
    /// The format's name, as import reports and caches give it.
    public let rawValue: String
    /// OSM data (elements with tags, ways, relations): the formats that carry buildings.
    public let isOSM: Bool

    init(_ name: String, isOSM: Bool = false) {
        rawValue = name
        self.isOSM = isOSM
    }

    /// The format of this name among those poiar reads (`POISourceReaders.all`); nil for
    /// another (a cache written by other code).
    public init?(rawValue: String) {
        guard let reader = POISourceReaders.all.first(where: { $0.format.rawValue == rawValue }) else { return nil }
        self = reader.format
    }

    // The formats poiar reads, by name for callers that ask for one (a new format need not be here).
    public static var osmPBF: POISourceFormat { PBFImporter.format }
    public static var osmXML: POISourceFormat { OSMXMLImporter.format }
    public static var geoJSON: POISourceFormat { GeoJSONImporter.format }
    public static var overpassJSON: POISourceFormat { OverpassJSONImporter.format }
    public static var googlePlaces: POISourceFormat { GooglePlacesImporter.format }
    public static var csv: POISourceFormat { CSVImporter.format }
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
    /// `ele` heights (above sea level) used as ellipsoidal altitudes for want of a geoid grid.
    public var unconvertedHeights = 0
    /// Elements imported with a caveat, per caveat (e.g. a way cut at the extract's edge).
    public var notices: [String: Int] = [:]
    /// The category names skipped rows and features gave that poiar does not know, with how
    /// often each was seen.
    public var unknownCategories: [String: Int] = [:]

    public init(file: String, format: POISourceFormat, compression: String?, imported: Int, updated: Int,
                skipped: [String: Int], notices: [String: Int] = [:], unknownCategories: [String: Int] = [:],
                buildings: BuildingImportReport? = nil) {
        self.file = file; self.format = format; self.compression = compression
        self.imported = imported; self.updated = updated; self.skipped = skipped
        self.notices = notices; self.unknownCategories = unknownCategories
        self.buildings = buildings
    }

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// How many of the unknown category names the report lists.
    static let unknownCategoriesShown = 5

    /// One line, e.g. `West-Oakland.osm (OSM XML): 7 new, 0 updated POIs; skipped 60 (no
    /// known category: 58, no geometry: 2); 52 buildings (3 with a height, 10 with levels), none
    /// skipped`; then the notices, and the most frequent unknown category names (`unknown
    /// categories: bakery 7, kiosk 3, … and 4 more`).
    public var description: String {
        var s = "\(file) (\(format.rawValue)\(compression.map { ", \($0)" } ?? "")): \(imported) new, \(updated) updated POIs"
        s += skipped.isEmpty ? "; none skipped" : "; skipped \(skippedTotal) (\(Self.reasons(skipped)))"
        if !notices.isEmpty { s += "; notices (\(Self.reasons(notices)))" }
        if !unknownCategories.isEmpty {
            let top = unknownCategories.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            var listed = top.prefix(Self.unknownCategoriesShown).map { "\"\($0.key)\" \($0.value)" }.joined(separator: ", ")
            if top.count > Self.unknownCategoriesShown { listed += " and \(top.count - Self.unknownCategoriesShown) more" }
            s += "; unknown categories: \(listed) (see pois categories; --category-map maps them)"
        }
        if unconvertedHeights > 0 {
            s += "; \(unconvertedHeights) ele height\(unconvertedHeights == 1 ? "" : "s") taken as ellipsoidal (no geoid)"
        }
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

/// Importing POI source files into a `POIDatabase`: picks the reader by content
/// (`POISourceReaders.detect`; `.gz` and `.bz2` files are decompressed first), and refuses
/// plainly what it cannot read.
public enum POIImport {
    /// Imports each file in its own transaction, in order; stops at the first error, which
    /// leaves that file's changes out (files before it stay imported).
    @discardableResult
    public static func importFiles(_ urls: [URL], into db: POIDatabase, options: ImportOptions = ImportOptions(),
                                   geoid: Geoid = .system) throws -> [ImportReport] {
        try urls.map { try importFile($0, into: db, options: options, geoid: geoid) }
    }

    /// Reads the whole file (streamed where the format allows), then stores its POIs in one
    /// transaction: on any error the database is as it was. Heights above sea level (`ele`)
    /// become ellipsoidal through `geoid` (`ParsedPOIs.placeSeaLevelHeights`).
    @discardableResult
    public static func importFile(_ url: URL, into db: POIDatabase, options: ImportOptions = ImportOptions(),
                                  geoid: Geoid = .system) throws -> ImportReport {
        let (source, reader) = try open(url)
        let parsed = try parse(source, reader: reader, options: options, geoid: geoid)
        return try store(parsed, format: reader.format, compression: source.compression,
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
        var report = ImportReport(file: file, format: format, compression: compression, imported: inserted,
                                  updated: updated, skipped: parsed.skipped, notices: parsed.notices,
                                  unknownCategories: parsed.unknownCategories,
                                  buildings: format.isOSM ? BuildingImportReport(parsed.buildings) : nil)
        report.unconvertedHeights = parsed.unconvertedHeights
        return report
    }

    /// Reads a POI source file without storing anything.
    /// - Throws: `InputError` naming the file for a missing, unreadable, unsupported or
    ///   malformed file.
    public static func parse(_ url: URL, options: ImportOptions = ImportOptions(),
                             geoid: Geoid = .system) throws -> (format: POISourceFormat, pois: ParsedPOIs) {
        let (source, reader) = try open(url)
        return (reader.format, try parse(source, reader: reader, options: options, geoid: geoid))
    }

    /// Parses a source with its format's reader (OSM XML and the JSON forms as they stream in,
    /// OSM PBF and CSV whole); `ele` heights become ellipsoidal altitudes through `geoid`.
    static func parse(_ source: SourceStream, reader: any POISourceReader.Type, options: ImportOptions = ImportOptions(),
                      geoid: Geoid = .system) throws -> ParsedPOIs {
        try options.check(for: reader.format, file: source.file)
        var parsed = try reader.read(source, options: options)
        parsed.dropDuplicateIDs()
        parsed.cutLongTexts()
        parsed.placeSeaLevelHeights(geoid: geoid)
        return parsed
    }

    /// Opens a source file: its compression from its first bytes, its format's reader from its
    /// (decompressed) start.
    static func open(_ url: URL) throws -> (SourceStream, any POISourceReader.Type) {
        let source = try SourceStream(url: url)
        return (source, try POISourceReaders.detect(source.head(POISourceReaders.headSize), file: url.path))
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
