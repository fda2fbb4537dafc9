import Foundation
import POIARCore

/// One POI source format: how a file of it is told from its start and how it is read. A new
/// format is one type conforming to this, listed in `POISourceReaders.all`. (`SendableMetatype`:
/// the list of readers is a constant any thread may read.)
protocol POISourceReader: SendableMetatype {
    /// The format's name in import reports and in a cache's meta.
    static var format: POISourceFormat { get }
    /// A binary format, told by a signature (or its file name): asked before zip archives and
    /// SQLite databases are refused, text formats after.
    static var isBinary: Bool { get }
    /// Whether `head`, the source's start, is this format's. Readers are asked in the order of
    /// `POISourceReaders.all`; the first that says yes reads the source.
    static func recognises(_ head: SourceHead) -> Bool
    /// What a JSON format looks for in an object, for the message about JSON no reader
    /// recognises; nil for the others.
    static var jsonForm: String? { get }
    /// Reads the whole source: its POIs (and an OSM source's buildings).
    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs
    /// The ways a map draws under a track (OSM data); nil for a format without streets.
    static func readBaseMap(_ source: SourceStream) throws -> [MapFeature]?
}

extension POISourceReader {
    static var isBinary: Bool { false }
    static var jsonForm: String? { nil }
    static func readBaseMap(_ source: SourceStream) throws -> [MapFeature]? { nil }
}

/// The start of a POI source (decompressed) as the readers look at it to tell its format.
struct SourceHead {
    /// The file as given; in lower case, for the formats also told by their extension.
    let file: String, lowercasedFile: String
    /// The bytes as read.
    let bytes: Data
    /// The bytes after a UTF-8 byte-order mark.
    let text: Data.SubSequence
    /// The first byte of `text` that is not white space; nil when there is none.
    let firstCharacter: UInt8?
    /// `text` as a string when it starts a JSON object (`{`), for the JSON forms' keys.
    let jsonObject: String?

    init(_ bytes: Data, file: String) {
        self.file = file
        lowercasedFile = file.lowercased()
        self.bytes = bytes
        text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        firstCharacter = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        jsonObject = firstCharacter == UInt8(ascii: "{") ? String(decoding: text, as: UTF8.self) : nil
    }

    /// True when the start is a JSON object holding `pattern` (a regular expression): the
    /// distinguishing top-level key in the first few kilobytes; the reader checks the
    /// structure properly.
    func jsonObjectHas(_ pattern: String) -> Bool {
        jsonObject?.range(of: pattern, options: .regularExpression) != nil
    }
}

/// The POI source formats poiar reads, and telling them apart.
enum POISourceReaders {
    /// Every format, in the order they are asked (`detect`).
    static let all: [any POISourceReader.Type] = [
        PBFImporter.self, OSMXMLImporter.self, GeoJSONImporter.self, OverpassJSONImporter.self,
        GooglePlacesImporter.self, CSVImporter.self,
    ]

    /// How much of a source's (decompressed) start `detect` is given.
    static let headSize = 65_536

    /// The reader of the source that starts with `head`: a binary format by its signature or
    /// name; then zip archives and SQLite databases refused; then a text format by its start.
    /// - Throws: `InputError` naming `file` when no reader recognises it.
    static func detect(_ head: Data, file: String) throws -> any POISourceReader.Type {
        let head = SourceHead(head, file: file)
        if let reader = all.first(where: { $0.isBinary && $0.recognises(head) }) { return reader }
        if head.bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.lowercasedFile.hasSuffix(".zip") {
            throw InputError(file: file, "zip archives are not supported; extract the POI file first")
        }
        if head.bytes.starts(with: sqliteHeader) {
            throw InputError(file: file, "is an SQLite database, not a POI source to import")
        }
        if let reader = all.first(where: { !$0.isBinary && $0.recognises(head) }) { return reader }
        if head.jsonObject != nil { throw InputError(file: file, "unrecognised JSON: \(expected); poiar reads \(jsonForms)") }
        if head.firstCharacter == nil { throw InputError(file: file, "empty file: \(expected)") }
        throw InputError(file: file, "unrecognised POI source format: \(expected)")
    }

    /// "expected OSM PBF, OSM XML, …, Google Places JSON or CSV".
    static var expected: String {
        let names = all.map { $0.format.rawValue }
        return "expected " + names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The JSON forms poiar reads, for the message about JSON it does not recognise.
    static var jsonForms: String { all.compactMap { $0.jsonForm }.joined(separator: "; ") }
}
