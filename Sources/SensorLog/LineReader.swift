import CZlib
import Foundation
import POIARCore

/// Reads a text file line by line in constant memory. Plain and gzip-compressed files are
/// both read through zlib's gzread, which passes uncompressed input through unchanged.
/// Line endings LF and CRLF; a UTF-8 byte-order mark at the start is dropped.
package final class LineReader {
    package let path: String
    private let file: gzFile
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var atEOF = false
    package private(set) var lineNumber = 0
    /// A line longer than this is refused (a binary file or a corrupt log, not a CSV row).
    static let maxLineLength = 1 << 20
    /// True when the file is gzip-compressed (known after the first read).
    private(set) var isCompressed = false

    package init(path: String) throws {
        self.path = path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw InputError(file: path, "no such file")
        }
        if isDir.boolValue { throw InputError(file: path, "is a folder, expected a CSV file") }
        guard let f = gzopen(path, "rb") else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        file = f
        gzbuffer(f, 1 << 16)
        buffer = [UInt8](repeating: 0, count: 1 << 16)
    }

    deinit { gzclose(file) }

    /// The next line without its terminator, or nil at the end of the file.
    package func nextLine() throws -> String? {
        while true {
            if let nl = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                var lineEnd = nl
                if lineEnd > start && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                let line = makeString(start, lineEnd)
                start = nl + 1
                lineNumber += 1
                return line
            }
            if atEOF {
                if start == end { return nil }
                var lineEnd = end
                if buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                let line = makeString(start, lineEnd)
                start = end
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    private func makeString(_ from: Int, _ to: Int) -> String {
        var from = from
        if lineNumber == 0 && to - from >= 3 && buffer[from] == 0xEF && buffer[from + 1] == 0xBB && buffer[from + 2] == 0xBF {
            from += 3
        }
        return buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[from..<to]), as: UTF8.self) }
    }

    private func fill() throws {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count {
            if buffer.count >= LineReader.maxLineLength {
                throw InputError(file: path, line: lineNumber + 1, "line longer than \(LineReader.maxLineLength) bytes: not a poiar-log/1 CSV file")
            }
            buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
        }
        let capacity = buffer.count - end
        let n = buffer.withUnsafeMutableBufferPointer { b in
            gzread(file, b.baseAddress! + end, UInt32(capacity))
        }
        if lineNumber == 0 && end == 0 { isCompressed = gzdirect(file) == 0 }
        if n < 0 {
            var code: Int32 = 0
            let msg = String(cString: gzerror(file, &code))
            throw InputError(file: path, line: lineNumber + 1, "read failed: \(msg)")
        }
        if n == 0 {
            // gzread reports a truncated gzip stream as end of file with Z_BUF_ERROR set.
            var code: Int32 = 0
            _ = gzerror(file, &code)
            if code == Z_BUF_ERROR {
                throw InputError(file: path, line: lineNumber + 1, "gzip data is truncated (unexpected end of file)")
            }
            if code != Z_OK {
                throw InputError(file: path, line: lineNumber + 1, "gzip data is corrupt")
            }
            atEOF = true
        }
        end += Int(n)
    }
}
