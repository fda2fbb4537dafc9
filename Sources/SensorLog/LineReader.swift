import CZlib
import Foundation
import POIARCore

/// Bytes read in order into a caller's buffer: a file inside a phone recording's folder or
/// zip archive (`PhoneImport`), for `LineReader`.
package protocol ByteStream: AnyObject {
    /// Fills the start of `buffer` (never empty) and returns how many bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Reads a text file line by line in constant memory. Plain and gzip-compressed files are
/// both read through zlib's gzread, which passes uncompressed input through unchanged, except
/// a gzip file of modest size, inflated at once by libdeflate (`GzipWhole`); or the bytes come
/// from a `ByteStream`. Line endings LF and CRLF; a UTF-8 byte-order mark at
/// the start is dropped.
package final class LineReader {
    /// The file as messages name it.
    package let path: String
    private enum Input { case gz(gzFile), stream(ByteStream), inflated(UnsafeMutableRawBufferPointer) }
    private let input: Input
    /// What a file with an over-long line is not (for the message).
    private let expected: String
    /// The read buffer: bytes `start..<end` are read but not yet handed out.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0, end = 0
    private var atEOF = false
    package private(set) var lineNumber = 0
    /// A line longer than this is refused (a binary file or a corrupt log, not a CSV row).
    static let maxLineLength = 1 << 20
    /// True when the file is gzip-compressed (known after the first read).
    private(set) var isCompressed = false

    /// - Parameter descriptor: the file already open (read from its start), which the reader
    ///   takes over and closes; nil: the reader opens `path`.
    package init(path: String, descriptor: Int32? = nil) throws {
        self.path = path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            if let descriptor { close(descriptor) }
            throw InputError(file: path, "no such file")
        }
        if isDir.boolValue {
            if let descriptor { close(descriptor) }
            throw InputError(file: path, "is a folder, expected a CSV file")
        }
        expected = "a poiar-log/1 CSV file"
        capacity = 1 << 16
        buffer = .allocate(capacity: capacity)
        let fd = descriptor ?? open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0, let whole = GzipWhole.inflate(fd: fd) {
            close(fd)
            input = .inflated(whole)
            isCompressed = true
            // The lines are handed out from the inflated bytes themselves, not copied.
            buffer.deallocate()
            buffer = whole.baseAddress!.assumingMemoryBound(to: UInt8.self)
            capacity = whole.count
            end = whole.count
            atEOF = true
            return
        }
        // Anything else is read through zlib from the start (the descriptor was read with pread only).
        guard let f = fd >= 0 ? gzdopen(fd, "rb") : nil else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            buffer.deallocate()
            throw InputError(file: path, "cannot open: \(reason)")
        }
        input = .gz(f)
        gzbuffer(f, 1 << 16)
    }

    /// Lines of `stream`, named `display` in messages; `expected` says what the file should be
    /// ("a CSV file"), for the message about an over-long line.
    package init(stream: ByteStream, display: String, expected: String) {
        path = display
        input = .stream(stream)
        self.expected = expected
        capacity = 1 << 16
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        switch input {
        case .gz(let file): gzclose(file); buffer.deallocate()
        case .inflated(let bytes): bytes.deallocate()  // (the buffer)
        case .stream: buffer.deallocate()
        }
    }

    /// The next line without its terminator, or nil at the end of the file.
    package func nextLine() throws -> String? {
        try withNextLine { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the next line's bytes (without its terminator; without the BOM on
    /// the first line) and returns its result, or nil at the end of the file. The bytes are
    /// valid only during the call.
    @inline(__always)
    package func withNextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        while true {
            let available = end - start
            if available > 0, let hit = memchr(buffer + start, 0x0A, available) {
                let nl = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if nl - start >= LineReader.maxLineLength { throw overLongLine() }
                let line = lineBytes(start, nl)
                start = nl + 1
                return try body(line)
            }
            if atEOF {
                if start == end { return nil }
                if end - start >= LineReader.maxLineLength { throw overLongLine() }
                let line = lineBytes(start, end)
                start = end
                return try body(line)
            }
            try fill()
        }
    }

    /// Bytes `from..<to` as a line (CR before the LF and a leading BOM removed); counts it.
    @inline(__always)
    private func lineBytes(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        var from = from, to = to
        if to > from && buffer[to - 1] == 0x0D { to -= 1 }
        if lineNumber == 0 && to - from >= 3 && buffer[from] == 0xEF && buffer[from + 1] == 0xBB && buffer[from + 2] == 0xBF {
            from += 3
        }
        lineNumber += 1
        return UnsafeBufferPointer(start: buffer + from, count: to - from)
    }

    /// A line longer than `maxLineLength` (from a buffer that holds the whole file: any line
    /// that long; else one that fills the largest buffer).
    private func overLongLine() -> InputError {
        InputError(file: path, line: lineNumber + 1, "line longer than \(LineReader.maxLineLength) bytes: not \(expected)")
    }

    private func fill() throws {
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        if end == capacity {
            if capacity >= LineReader.maxLineLength { throw overLongLine() }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        switch input {
        case .inflated:
            atEOF = true  // (the buffer is the whole file: never filled)
        case .stream(let stream):
            let n = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            if n == 0 { atEOF = true }
            end += n
        case .gz(let file):
            let n = gzread(file, buffer + end, UInt32(capacity - end))
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
}
