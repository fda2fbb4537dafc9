import Foundation
import POIARCore
import SensorLog

/// A phone recording's files: a folder, or a zip archive. Files are named by their path
/// inside it, with "/" separators.
final class RecordingContainer {
    /// The folder or zip as the user named it.
    let path: String
    /// Every file inside (not folders), in sorted order.
    let files: [String]
    /// Files and folders (path inside, real path) that are symbolic links leading out of it.
    let linksOut: [(name: String, target: String)]
    private let zip: ZipArchive?
    private let zipEntries: [String: ZipArchive.Entry]

    init(path: String) throws {
        self.path = path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw InputError(file: path, "no such file or folder")
        }
        if isDir.boolValue {
            zip = nil
            zipEntries = [:]
            var found: [String] = []
            let base = URL(fileURLWithPath: path)
            // A file or folder that is a symbolic link out of the export (made by someone else)
            // is noted, not read: an export holding one is refused (`checkInside`).
            var out: [(name: String, target: String)] = []
            let real = base.standardizedFileURL.resolvingSymlinksInPath().path
            // Two levels deep is enough for an unpacked export (files at the top, or in one folder).
            func scan(_ url: URL, _ prefix: String, depth: Int) {
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
                for name in names where !name.hasPrefix(".") {
                    let child = url.appendingPathComponent(name)
                    var childIsDir: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: child.path, isDirectory: &childIsDir) else { continue }
                    let target = child.standardizedFileURL.resolvingSymlinksInPath().path
                    guard pathIsInside(target, real) else { out.append((prefix + name, target)); continue }
                    if childIsDir.boolValue {
                        if depth < 2 { scan(child, prefix + name + "/", depth: depth + 1) }
                    } else {
                        found.append(prefix + name)
                    }
                }
            }
            scan(base, "", depth: 0)
            files = found.sorted()
            linksOut = out
        } else {
            let archive = try ZipArchive(path: path)
            zip = archive
            var byName: [String: ZipArchive.Entry] = [:]
            for e in archive.entries where !e.isDirectory {
                let parts = e.name.split(separator: "/")
                if parts.contains(where: { $0 == "__MACOSX" || $0.hasPrefix(".") }) { continue }
                byName[e.name] = e
            }
            zipEntries = byName
            files = byName.keys.sorted()
            linksOut = []
        }
    }

    /// Refuses an export holding a symbolic link that leads out of it, as a path in a log
    /// that leads out is: its target would be read (and its first line quoted in an error)
    /// from anywhere (docs/security.md).
    func checkInside() throws {
        if let link = linksOut.first {
            throw InputError(file: display(link.name), "is a symbolic link to \(link.target), outside the recording \(path): a recording's files must stay inside it")
        }
    }

    /// `path/inner` for messages.
    func display(_ inner: String) -> String {
        (path.hasSuffix("/") ? path : path + "/") + inner
    }

    /// The file whose name (last path component) is `name`, case-insensitively; the one
    /// nearest the top when there are several at different depths. Two at the same depth
    /// (two recordings in one archive) is an error.
    func find(_ name: String) throws -> String? {
        let matches = files.filter { ($0.split(separator: "/").last.map(String.init) ?? $0).lowercased() == name.lowercased() }
        guard let best = matches.min(by: { depth($0) < depth($1) }) else { return nil }
        let tied = matches.filter { depth($0) == depth(best) }
        if tied.count > 1 {
            throw InputError(file: path, "holds more than one \(name) (\(tied.joined(separator: ", "))): give one recording at a time")
        }
        return best
    }

    private func depth(_ p: String) -> Int { p.filter { $0 == "/" }.count }

    /// The lines of the file `inner`, named `path/inner` in messages.
    func openLines(_ inner: String) throws -> LineReader {
        LineReader(stream: try openBytes(inner), display: display(inner), expected: "a CSV file")
    }

    /// The bytes of the file `inner` (a zip entry inflated as it is read).
    func openBytes(_ inner: String) throws -> ByteStream {
        if let zip {
            guard let entry = zipEntries[inner] else { throw InputError(file: display(inner), "no such file in the archive") }
            return try zip.open(entry)
        }
        return try FileByteStream(path: URL(fileURLWithPath: path).appendingPathComponent(inner).path)
    }

    /// The CSV table of the file `inner`, its header read; nil when the file is empty (no
    /// header: a phone writes 0-byte files for sensors it lacks).
    func openTable(_ inner: String) throws -> CSVTable? {
        try CSVTable(lines: openLines(inner))
    }
}

/// One CSV file of a recording: its header's columns and its rows, split on a separator
/// (`,`, `;` or tab, told from the header) with double-quoted fields. A decimal comma is
/// accepted when the separator is not a comma. Rows are read straight from the line reader's
/// bytes (`withNextRow`): no String or array is made per row.
final class CSVTable {
    let display: String
    let columns: [String]
    let separator: UInt8
    /// Numbers may have a decimal comma (the separator is not a comma: phyphox's
    /// "semicolon, decimal comma" export).
    let decimalComma: Bool
    /// The header's line number.
    let headerLine: Int
    private let lines: LineReader
    /// Where each field of the current row starts and ends (quotes excluded), reused.
    private var bounds = FieldBounds()

    /// Reads the header (the first non-blank line); nil for a file without one.
    init?(lines: LineReader) throws {
        self.lines = lines
        display = lines.path
        var header: [String]?
        var separator: UInt8 = 0x2C
        while header == nil, try lines.withNextLine({ bytes in
            guard !CSVTable.isBlank(bytes) else { return }
            separator = CSVTable.guessSeparator(bytes)
            var fields = FieldBounds()
            defer { fields.deallocate() }
            CSVTable.split(bytes, separator, &fields)
            header = (0..<fields.count).map {
                CSVTable.unquoted(UnsafeBufferPointer(rebasing: bytes[fields.start($0)..<fields.end($0)]))
                    .trimmingCharacters(in: .whitespaces)
            }
        }) != nil {}
        guard let header else { return nil }
        columns = header
        self.separator = separator
        decimalComma = separator != 0x2C
        headerLine = lines.lineNumber
    }

    deinit { bounds.deallocate() }

    /// The index of the first column whose name satisfies `match`.
    func column(_ match: (String) -> Bool) -> Int? { columns.firstIndex(where: match) }

    /// Calls `body` with the next non-blank row and returns its result; nil at the end of the
    /// file. The row's bytes are valid only during the call.
    @inline(__always)
    func withNextRow<R>(_ body: (CSVRow) throws -> R) throws -> R? {
        while let outcome: RowOutcome<R> = try lines.withNextLine({ bytes in
            if CSVTable.isBlank(bytes) { return .blank }
            CSVTable.split(bytes, separator, &bounds)
            return .row(try body(CSVRow(table: self, bytes: bytes, bounds: bounds, line: lines.lineNumber)))
        }) {
            if case .row(let r) = outcome { return r }
        }
        return nil
    }

    private enum RowOutcome<R> { case blank, row(R) }

    /// The fields of the next non-blank row as strings (for small files: metadata), and its
    /// line number.
    func nextRow() throws -> (fields: [String], line: Int)? {
        try withNextRow { row in ((0..<row.count).map { row.string($0) }, row.line) }
    }

    @inline(__always)
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b != 0x20 && b != 0x09 { return false }
        return true
    }

    /// The separator of a header line: after a quoted first name (phyphox), the byte that
    /// follows its closing quote; otherwise the first of `,`, `;`, tab found.
    static func guessSeparator(_ header: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if header.first == 0x22 {
            var inQuotes = false
            for c in header {
                if c == 0x22 { inQuotes.toggle(); continue }
                if !inQuotes { return c }
            }
        }
        for c: UInt8 in [0x2C, 0x3B, 0x09] where header.contains(c) { return c }
        return 0x2C
    }

    /// Splits `line` into fields: `fields.start(k)..<fields.end(k)` is field k, without
    /// surrounding spaces and quotes (a quoted field's doubled quotes stay doubled: `unquoted`
    /// undoes them).
    @inline(__always)
    static func split(_ line: UnsafeBufferPointer<UInt8>, _ sep: UInt8, _ fields: inout FieldBounds) {
        fields.removeAll()
        let n = line.count
        var i = 0
        while true {
            while i < n, line[i] == 0x20 || (line[i] == 0x09 && sep != 0x09) { i += 1 }
            var start = i, end: Int
            if i < n, line[i] == 0x22 {
                // Quoted: up to the closing quote (a doubled quote is part of the field).
                start = i + 1
                var j = start
                while j < n {
                    if line[j] == 0x22 {
                        if j + 1 < n, line[j + 1] == 0x22 { j += 2; continue }
                        break
                    }
                    j += 1
                }
                end = j
                i = min(j + 1, n)
                while i < n, line[i] != sep { i += 1 }
            } else {
                while i < n, line[i] != sep { i += 1 }
                end = i
                while end > start, line[end - 1] == 0x20 || (line[end - 1] == 0x09 && sep != 0x09) { end -= 1 }
            }
            fields.append(start, end)
            if i >= n { break }
            i += 1  // past the separator
            if i == n { fields.append(n, n); break }
        }
    }

    /// A field's text with doubled quotes made single.
    static func unquoted(_ field: UnsafeBufferPointer<UInt8>) -> String {
        let s = String(decoding: field, as: UTF8.self)
        return field.contains(0x22) ? s.replacingOccurrences(of: "\"\"", with: "\"") : s
    }
}

/// Where a row's fields start and end: a buffer reused from row to row (allocated at the first
/// field, freed by `deallocate`).
struct FieldBounds {
    private var pointer: UnsafeMutablePointer<Int>?
    private var capacity = 0
    private(set) var count = 0

    @inline(__always) func start(_ k: Int) -> Int { pointer![2 * k] }
    @inline(__always) func end(_ k: Int) -> Int { pointer![2 * k + 1] }

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ start: Int, _ end: Int) {
        if count == capacity {
            capacity = max(16, 2 * capacity)
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity)
            if let pointer {
                bigger.update(from: pointer, count: 2 * count)
                pointer.deallocate()
            }
            pointer = bigger
        }
        pointer![2 * count] = start
        pointer![2 * count + 1] = end
        count += 1
    }

    func deallocate() { pointer?.deallocate() }
}

/// One row of a `CSVTable`, valid during `withNextRow`'s call.
struct CSVRow {
    unowned(unsafe) let table: CSVTable
    let bytes: UnsafeBufferPointer<UInt8>
    let bounds: FieldBounds
    let line: Int

    var count: Int { bounds.count }

    @inline(__always)
    func field(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[bounds.start(i)..<bounds.end(i)])
    }

    func string(_ i: Int) -> String { CSVTable.unquoted(field(i)) }

    /// Throws unless the row has column `i`.
    @inline(__always)
    func require(_ i: Int) throws {
        guard i < count else {
            throw InputError(file: table.display, line: line, "expected \(table.columns.count) columns, found \(count)")
        }
    }

    /// A number from a field (`DecimalText.parse`); nil for an empty field or NaN (phyphox pads
    /// short columns with NaN).
    @inline(__always)
    func number(_ i: Int) throws -> Double? {
        try require(i)
        let f = field(i)
        if f.isEmpty || CSVRow.isNaN(f) { return nil }
        guard let v = DecimalText.parse(f, decimalComma: table.decimalComma), v.isFinite else {
            throw InputError(file: table.display, line: line, field: table.columns[i], "\"\(string(i))\" is not a number")
        }
        return v
    }

    /// Integer nanoseconds (Sensor Logger's `time`: "1698501144401773000", or a float form);
    /// nil for an empty field.
    @inline(__always)
    func nanoseconds(_ i: Int) throws -> Int64? {
        try require(i)
        let f = field(i)
        if f.isEmpty { return nil }
        if let v = DecimalText.integer(f) { return v }
        if let d = DecimalText.parse(f), d.isFinite, abs(d) < 9.2e18 { return Int64(d) }
        throw InputError(file: table.display, line: line, field: table.columns[i], "\"\(string(i))\" is not a time in nanoseconds")
    }

    @inline(__always)
    static func isNaN(_ f: UnsafeBufferPointer<UInt8>) -> Bool {
        f.count == 3 && f[0] | 0x20 == 0x6E && f[1] | 0x20 == 0x61 && f[2] | 0x20 == 0x6E
    }
}
