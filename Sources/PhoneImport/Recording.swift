import Foundation
import POIARCore

/// Lines of text from a byte source: LF or CRLF ends, a UTF-8 byte-order mark dropped.
final class TextLineReader {
    /// The file as shown in messages (`rec.zip/Gyroscope.csv`).
    let display: String
    private let source: ByteChunkSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEOF = false
    private(set) var lineNumber = 0
    static let maxLineLength = 1 << 20

    init(source: ByteChunkSource, display: String) {
        self.source = source; self.display = display
    }

    func nextLine() throws -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = makeString(start, nl)
                start = nl + 1
                return line
            }
            if atEOF {
                if start >= buffer.count { return nil }
                let line = makeString(start, buffer.count)
                start = buffer.count
                return line
            }
            if buffer.count - start > TextLineReader.maxLineLength {
                throw InputError(file: display, line: lineNumber + 1, "line longer than \(TextLineReader.maxLineLength) bytes: not a CSV file")
            }
            if let chunk = try source.nextChunk() {
                if start > 0 { buffer.removeFirst(start); start = 0 }
                buffer.append(contentsOf: chunk)
            } else {
                atEOF = true
            }
        }
    }

    private func makeString(_ from: Int, _ to: Int) -> String {
        lineNumber += 1
        var from = from, to = to
        if to > from && buffer[to - 1] == UInt8(ascii: "\r") { to -= 1 }
        if lineNumber == 1 && to - from >= 3 && buffer[from] == 0xEF && buffer[from + 1] == 0xBB && buffer[from + 2] == 0xBF {
            from += 3
        }
        return buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<to]), as: UTF8.self) }
    }
}

/// A phone recording's files: a folder, or a zip archive. Files are named by their path
/// inside it, with "/" separators.
final class RecordingContainer {
    /// The folder or zip as the user named it.
    let path: String
    /// Every file inside (not folders), in sorted order.
    let files: [String]
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
            // Two levels deep is enough for an unpacked export (files at the top, or in one folder).
            func scan(_ url: URL, _ prefix: String, depth: Int) {
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
                for name in names where !name.hasPrefix(".") {
                    let child = url.appendingPathComponent(name)
                    var childIsDir: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: child.path, isDirectory: &childIsDir) else { continue }
                    if childIsDir.boolValue {
                        if depth < 2 { scan(child, prefix + name + "/", depth: depth + 1) }
                    } else {
                        found.append(prefix + name)
                    }
                }
            }
            scan(base, "", depth: 0)
            files = found.sorted()
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

    func openLines(_ inner: String) throws -> TextLineReader {
        let source: ByteChunkSource
        if let zip {
            guard let entry = zipEntries[inner] else { throw InputError(file: display(inner), "no such file in the archive") }
            source = try zip.open(entry)
        } else {
            source = try FileChunkSource(path: URL(fileURLWithPath: path).appendingPathComponent(inner).path)
        }
        return TextLineReader(source: source, display: display(inner))
    }
}

/// One CSV file of a recording: its header's columns and its rows, split on a separator
/// (`,`, `;` or tab, told from the header) with double-quoted fields. A decimal comma is
/// accepted when the separator is not a comma.
final class CSVTable {
    let display: String
    let columns: [String]
    let separator: Character
    private let lines: TextLineReader

    init(_ lines: TextLineReader) throws {
        self.lines = lines
        display = lines.display
        var header: String?
        while let line = try lines.nextLine() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            header = line
            break
        }
        guard let header else { throw InputError(file: lines.display, "empty file, expected a CSV header") }
        separator = CSVTable.guessSeparator(header)
        columns = CSVTable.split(header, separator).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    var headerLine: Int { 1 }

    /// The index of the first column whose name satisfies `match`.
    func column(_ match: (String) -> Bool) -> Int? { columns.firstIndex(where: match) }

    /// The next non-empty row's fields and line number.
    func nextRow() throws -> (fields: [String], line: Int)? {
        while let line = try lines.nextLine() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            return (CSVTable.split(line, separator).map { $0.trimmingCharacters(in: .whitespaces) }, lines.lineNumber)
        }
        return nil
    }

    /// A number from a field; nil for an empty field or NaN (phyphox pads short columns with NaN).
    func number(_ fields: [String], _ index: Int, line: Int) throws -> Double? {
        guard index < fields.count else {
            throw InputError(file: display, line: line, "expected \(columns.count) columns, found \(fields.count)")
        }
        var s = fields[index]
        if s.isEmpty || s == "NaN" || s.lowercased() == "nan" { return nil }
        if separator != "," { s = s.replacingOccurrences(of: ",", with: ".") }
        guard let v = Double(s), v.isFinite else {
            throw InputError(file: display, line: line, field: columns[index], "\"\(fields[index])\" is not a number")
        }
        return v
    }

    static func guessSeparator(_ header: String) -> Character {
        // Quoted header (phyphox): the separator follows the first closing quote.
        if header.hasPrefix("\"") {
            var inQuotes = false
            for c in header {
                if c == "\"" { inQuotes.toggle(); continue }
                if !inQuotes { return c }
            }
        }
        for c: Character in [",", ";", "\t"] where header.contains(c) { return c }
        return ","
    }

    static func split(_ line: String, _ sep: Character) -> [String] {
        var out: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" { field.append("\"") } else { inQuotes = false; pending = n }
                    } else { inQuotes = false }
                } else { field.append(c) }
            } else if c == "\"" {
                inQuotes = true
            } else if c == sep {
                out.append(field); field = ""
            } else {
                field.append(c)
            }
        }
        out.append(field)
        return out
    }
}
