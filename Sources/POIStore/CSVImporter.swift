import Foundation
import POIARCore

/// Reads POIs from CSV (RFC 4180: fields with separators, quotes or line breaks in double
/// quotes, `""` for a quote; UTF-8, an optional byte-order mark; LF or CRLF).
///
/// - Separator: the one of `,`, `;` (European spreadsheets) and tab that the header line has
///   most of, outside quotes.
/// - The header names the columns, in any order (case and surrounding spaces ignored):
///   `name`, `lat` (or `latitude`), `lon` (or `lng`, `long`, `longitude`) and `category` are
///   required — `category` not when `--category` or `--category-from` supplies categories;
///   `id`, `alt`, `address`, `phone`, `website`, `opening_hours` are optional; any other
///   column is kept as a tag of that name (empty values are left out). `ImportOptions.columns`
///   (`--columns lat=Y,lon=X`) names the file's column for any of poiar's.
/// - Id: `csv:<id>`; without an `id` column, `csv:<hash>` of the row's name and position, the
///   same on every import of the same row.
/// - Category: one or more names separated by `;` (`cafe;store`; also `|`, or `,` inside
///   quotes), the first the primary one, through `ImportOptions` (`--category-map`,
///   `--category-from`, `--category`); names poiar does not know are dropped, and a row left
///   with none is skipped ("unknown category", its names listed in the report; an empty field:
///   "no known category").
/// - A row whose id was already seen in the file is skipped ("duplicate id"); blank lines are
///   ignored.
/// - Errors (`InputError` with the line and column): a missing required column, a row with
///   the wrong number of fields, an empty id, a latitude, longitude or altitude that is not a
///   finite number or is out of range, an unterminated quoted field.
public enum CSVImporter {
    static let required = ["name", "category", "lat", "lon"]
    static let optional = ["id", "alt", "address", "phone", "website", "opening_hours"]
    /// Every column poiar reads by name (what `ImportOptions.columns` may map).
    public static let columns = required + optional
    /// Other header names read as poiar's columns.
    static let aliases = ["latitude": "lat", "lng": "lon", "long": "lon", "longitude": "lon"]

    public static func parse(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ParsedPOIs {
        var result = ParsedPOIs()
        result.idsAreUnique = true  // checked row by row below
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var bytes = UnsafeRawBufferPointer(rebasing: raw[...])
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeRawBufferPointer(rebasing: bytes[3...]) }
            let columns = "\(required.joined(separator: ","))[,\(optional.joined(separator: ","))]"
            var reader = CSVRecordReader(bytes: bytes, file: file, separator: CSVRecordReader.separator(of: bytes))
            guard let (headerLine, header) = try reader.next() else {
                throw InputError(file: file, "empty CSV file: expected a header line \(columns)")
            }
            let names = header.map { $0.trimmingWhitespace().lowercased() }
            var index: [String: Int] = [:]
            for (i, name) in names.enumerated() where !name.isEmpty {
                if index[name] != nil {
                    throw InputError(file: file, line: headerLine, field: name, "column \"\(name)\" appears twice in the header")
                }
                index[name] = i
            }
            // poiar's column → the file's: the column map, else the name itself, else an alias.
            var column: [String: Int] = [:]
            for wanted in required + optional {
                if let given = options.columns[wanted] {
                    guard let i = index[given.trimmingWhitespace().lowercased()] else {
                        throw InputError(file: file, line: headerLine, field: "header",
                                         "no column \"\(given)\" (given for \(wanted) by --columns); the header has \(names.joined(separator: ", "))")
                    }
                    column[wanted] = i
                } else if let i = index[wanted] ?? aliases.first(where: { $0.value == wanted && index[$0.key] != nil }).flatMap({ index[$0.key] }) {
                    column[wanted] = i
                }
            }
            let needed = options.suppliesCategories ? required.filter { $0 != "category" } : required
            let missing = needed.filter { column[$0] == nil }
            if !missing.isEmpty {
                throw InputError(file: file, line: headerLine, field: "header",
                                 "missing column(s) \(missing.joined(separator: ", ")): expected \(columns) (lat also as latitude; lon as lng, long or longitude; --columns maps other names)")
            }
            var propertyColumn: Int?
            if let property = options.categoryProperty {
                guard let i = index[property.lowercased()] else {
                    throw InputError(file: file, line: headerLine, field: "header",
                                     "no column \"\(property)\" (given by --category-from); the header has \(names.joined(separator: ", "))")
                }
                propertyColumn = i
            }
            let iName = column["name"]!, iLat = column["lat"]!, iLon = column["lon"]!
            let iID = column["id"], iCategory = column["category"], iAlt = column["alt"]
            let iAddress = column["address"], iPhone = column["phone"], iWebsite = column["website"], iHours = column["opening_hours"]
            let used = Set(column.values)
            let tagColumns = names.enumerated().filter { !$0.element.isEmpty && !used.contains($0.offset) }
            var seen = Set<String>()

            while let (line, fields) = try reader.next() {
                if fields.count == 1 && fields[0].isEmpty { continue }  // a blank line
                guard fields.count == names.count else {
                    throw InputError(file: file, line: line, "expected \(names.count) fields (as in the header), got \(fields.count)")
                }
                func number(_ index: Int, _ field: String, range: ClosedRange<Double>) throws -> Double {
                    let text = fields[index].trimmingWhitespace()
                    guard let value = Double(text), value.isFinite else {
                        throw InputError(file: file, line: line, field: field, "expected a finite number, got \"\(text)\"")
                    }
                    guard range.contains(value) else {
                        throw InputError(file: file, line: line, field: field, "\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
                    }
                    return value
                }
                let name = fields[iName].trimmingWhitespace()
                let lat = try number(iLat, names[iLat], range: -90...90)
                let lon = try number(iLon, names[iLon], range: -180...180)
                let id: String
                if let iID {
                    id = fields[iID].trimmingWhitespace()
                    guard !id.isEmpty else { throw InputError(file: file, line: line, field: names[iID], "empty id") }
                } else {
                    id = FNV1a64.hex(name, String(lat), String(lon))
                }
                let alt = try iAlt.flatMap { i in
                    fields[i].trimmingWhitespace().isEmpty ? nil : try number(i, names[i], range: -20_000...100_000)
                }
                let (categories, unknown) = options.categories(
                    declared: ImportOptions.values(iCategory.map { fields[$0] }),
                    property: ImportOptions.values(propertyColumn.map { fields[$0] }), fromTags: [])
                guard !categories.isEmpty else {
                    result.skipForCategories(unknown: unknown)
                    continue
                }
                guard seen.insert(id).inserted else {
                    result.skip(SkipReason.duplicateID)
                    continue
                }
                func optionalField(_ i: Int?) -> String? { i.flatMap { TagFields.nonEmpty(fields[$0]) } }
                var tags: [String: String] = [:]
                for (i, name) in tagColumns {
                    let value = fields[i]
                    if !value.isEmpty { tags[name] = value }
                }
                result.pois.append(POI(
                    id: "csv:\(id)", name: name, category: categories[0],
                    coordinate: GeoCoordinate(latitude: lat, longitude: lon, altitude: alt),
                    address: optionalField(iAddress), phone: optionalField(iPhone),
                    website: optionalField(iWebsite), openingHours: optionalField(iHours),
                    tags: tags, categories: categories))
            }
        }
        return result
    }
}

/// Splits CSV bytes into records of fields, with the line number each record starts on.
struct CSVRecordReader {
    let bytes: UnsafeRawBufferPointer
    let file: String
    /// `,` (0x2C), `;` (0x3B) or tab (0x09).
    let separator: UInt8
    private var position = 0
    private var line = 1

    init(bytes: UnsafeRawBufferPointer, file: String, separator: UInt8 = 0x2C) {
        self.bytes = bytes
        self.file = file
        self.separator = separator
    }

    /// The separator the first line uses most, outside quotes: `,`, `;` or tab (`,` on a tie
    /// or when there is none).
    static func separator(of bytes: UnsafeRawBufferPointer) -> UInt8 {
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var quoted = false
        for byte in bytes {
            if byte == 0x22 { quoted.toggle() } else if !quoted {
                if byte == 0x0A { break }
                if counts[byte] != nil { counts[byte]! += 1 }
            }
        }
        return [UInt8(0x2C), 0x3B, 0x09].max { counts[$0]! < counts[$1]! } ?? 0x2C
    }

    mutating func next() throws -> (line: Int, fields: [String])? {
        guard position < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        var fieldStart = position
        let n = bytes.count
        while true {
            // One field.
            if position < n, bytes[position] == 0x22 {
                let quoteLine = line
                position += 1
                var value: [UInt8] = []
                while true {
                    guard position < n else {
                        throw InputError(file: file, line: quoteLine, field: "field \(fields.count + 1)",
                                         "a quoted field is not closed before the end of the file")
                    }
                    let c = bytes[position]
                    if c == 0x22 {
                        if position + 1 < n, bytes[position + 1] == 0x22 { value.append(0x22); position += 2; continue }
                        position += 1
                        break
                    }
                    if c == 0x0A { line += 1 }
                    value.append(c)
                    position += 1
                }
                // After the closing quote: a separator, a line end or the end of the file.
                var tail = position
                while tail < n, bytes[tail] != separator, bytes[tail] != 0x0A, bytes[tail] != 0x0D { tail += 1 }
                if tail > position {
                    throw InputError(file: file, line: line, field: "field \(fields.count + 1)",
                                     "unexpected text after a quoted field's closing quote")
                }
                fields.append(String(decoding: value, as: UTF8.self))
            } else {
                while position < n, bytes[position] != separator, bytes[position] != 0x0A { position += 1 }
                var end = position
                if end > fieldStart, bytes[end - 1] == 0x0D, position >= n || bytes[position] == 0x0A { end -= 1 }
                fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[fieldStart..<end]), as: UTF8.self))
            }
            if position >= n { return (startLine, fields) }
            let c = bytes[position]
            if c == separator {
                position += 1
                fieldStart = position
                if position >= n { fields.append(""); return (startLine, fields) }
                continue
            }
            if c == 0x0D { position += 1 }
            if position < n, bytes[position] == 0x0A { position += 1 }
            line += 1
            return (startLine, fields)
        }
    }
}

extension CSVImporter: POISourceReader {
    static let format = POISourceFormat("CSV")

    /// Text (not a JSON object) whose first line has latitude and longitude columns, or a
    /// `.csv`/`.tsv` name.
    static func recognises(_ head: SourceHead) -> Bool {
        guard let first = head.firstCharacter, first != UInt8(ascii: "{") else { return false }
        let firstLine = String(decoding: head.text.prefix(4096).prefix { $0 != 0x0A }, as: UTF8.self)
        let columns = Set(firstLine.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\t" })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() })
        let latitude = columns.contains("lat") || columns.contains("latitude")
        let longitude = !columns.isDisjoint(with: ["lon", "lng", "long", "longitude"])
        return (latitude && longitude) || head.lowercasedFile.hasSuffix(".csv") || head.lowercasedFile.hasSuffix(".tsv")
    }

    /// Read whole (a plain file mapped, not copied).
    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs {
        try parse(source.readAll(), file: source.file, options: options)
    }
}
