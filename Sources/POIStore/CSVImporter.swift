import Foundation
import POIARCore

/// Reads POIs from CSV (RFC 4180: comma-separated, fields with commas, quotes or line breaks in
/// double quotes, `""` for a quote; UTF-8, an optional byte-order mark; LF or CRLF).
///
/// The first line names the columns, in any order: `id`, `name`, `category`, `lat`, `lon` are
/// required; `alt`, `address`, `phone`, `website`, `opening_hours` are optional; any other
/// column is kept as a tag of that name (empty values are left out).
///
/// - Id: `csv:<id>`.
/// - Category: one or more known category names separated by `;` (`cafe;store`), the first
///   the primary one; names poiar does not know are dropped, and a row left with none is
///   skipped ("unknown category"; an empty field: "no known category").
/// - A row whose id was already seen in the file is skipped ("duplicate id"); blank lines are
///   ignored.
/// - Errors (`InputError` with the line and column): a missing required column, a row with
///   the wrong number of fields, an empty id, a latitude, longitude or altitude that is not a
///   finite number or is out of range, an unterminated quoted field.
public enum CSVImporter {
    static let required = ["id", "name", "category", "lat", "lon"]
    static let optional = ["alt", "address", "phone", "website", "opening_hours"]

    public static func parse(_ data: Data, file: String) throws -> ParsedPOIs {
        var result = ParsedPOIs()
        result.idsAreUnique = true  // checked row by row below
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var bytes = UnsafeRawBufferPointer(rebasing: raw[...])
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeRawBufferPointer(rebasing: bytes[3...]) }
            var reader = CSVRecordReader(bytes: bytes, file: file)
            guard let (headerLine, header) = try reader.next() else {
                throw InputError(file: file, "empty CSV file: expected a header line \(required.joined(separator: ","))[,\(optional.joined(separator: ","))]")
            }
            let names = header.map { $0.trimmingWhitespace().lowercased() }
            var column: [String: Int] = [:]
            for (i, name) in names.enumerated() where !name.isEmpty {
                if column[name] != nil {
                    throw InputError(file: file, line: headerLine, field: name, "column \"\(name)\" appears twice in the header")
                }
                column[name] = i
            }
            let missing = required.filter { column[$0] == nil }
            if !missing.isEmpty {
                throw InputError(file: file, line: headerLine, field: "header",
                                 "missing column(s) \(missing.joined(separator: ", ")): expected \(required.joined(separator: ","))[,\(optional.joined(separator: ","))]")
            }
            let iID = column["id"]!, iName = column["name"]!, iCategory = column["category"]!
            let iLat = column["lat"]!, iLon = column["lon"]!
            let iAlt = column["alt"], iAddress = column["address"], iPhone = column["phone"]
            let iWebsite = column["website"], iHours = column["opening_hours"]
            let known = Set(required + optional)
            let tagColumns = names.enumerated().filter { !$0.element.isEmpty && !known.contains($0.element) }
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
                let id = fields[iID].trimmingWhitespace()
                guard !id.isEmpty else { throw InputError(file: file, line: line, field: "id", "empty id") }
                let lat = try number(iLat, "lat", range: -90...90)
                let lon = try number(iLon, "lon", range: -180...180)
                let alt = try iAlt.flatMap { i in
                    fields[i].trimmingWhitespace().isEmpty ? nil : try number(i, "alt", range: -20_000...100_000)
                }
                let rawCategories = fields[iCategory].split(separator: ";")
                    .map { String($0).trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
                var categories: [String] = []
                for c in rawCategories where POICategory.isKnown(c) && !categories.contains(c) { categories.append(c) }
                guard !categories.isEmpty else {
                    result.skip(rawCategories.isEmpty ? SkipReason.noCategory : SkipReason.unknownCategory)
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
                    id: "csv:\(id)", name: fields[iName].trimmingWhitespace(), category: categories[0],
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
    private var position = 0
    private var line = 1

    init(bytes: UnsafeRawBufferPointer, file: String) {
        self.bytes = bytes
        self.file = file
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
                while tail < n, bytes[tail] != 0x2C, bytes[tail] != 0x0A, bytes[tail] != 0x0D { tail += 1 }
                if tail > position {
                    throw InputError(file: file, line: line, field: "field \(fields.count + 1)",
                                     "unexpected text after a quoted field's closing quote")
                }
                fields.append(String(decoding: value, as: UTF8.self))
            } else {
                while position < n, bytes[position] != 0x2C, bytes[position] != 0x0A { position += 1 }
                var end = position
                if end > fieldStart, bytes[end - 1] == 0x0D, position >= n || bytes[position] == 0x0A { end -= 1 }
                fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[fieldStart..<end]), as: UTF8.self))
            }
            if position >= n { return (startLine, fields) }
            let c = bytes[position]
            if c == 0x2C {
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
