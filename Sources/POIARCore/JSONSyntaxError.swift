import Foundation

/// Where a JSON document stops being JSON, for one-line messages `FILE:LINE: invalid JSON …`.
///
/// Foundation's parsers say "Invalid value around character 66." or "Unexpected end of file"
/// (`JSONDecoder` on Linux only "The given data was not valid JSON."); this turns the byte
/// offset into a line and column, and the end of the file into its last line.
public struct JSONSyntaxError: Sendable, Equatable {
    /// 1-based line of the offending byte (the last line when the document is cut short).
    public var line: Int
    /// 1-based column (bytes) on that line.
    public var column: Int
    /// What went wrong, in words: "unexpected 'x' at column 7", "unexpected end of file: …".
    public var reason: String

    /// The syntax error in `data`, or nil when `data` is valid JSON.
    public static func locate(in data: Data) -> JSONSyntaxError? {
        let message: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            message = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        }
        if data.isEmpty { return JSONSyntaxError(line: 1, column: 1, reason: "empty file") }
        if let (offset, reason) = numberOutOfRange(in: data) {
            let (line, column) = position(of: offset, in: data)
            return JSONSyntaxError(line: line, column: column, reason: reason)
        }
        if let offset = characterOffset(in: message), offset < data.count {
            let (line, column) = position(of: offset, in: data)
            let byte = data[data.startIndex + offset]
            let shown = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
            return JSONSyntaxError(line: line, column: column, reason: "unexpected \(shown) at column \(column)")
        }
        if message.localizedCaseInsensitiveContains("end of file") || message.localizedCaseInsensitiveContains("unexpected end") {
            let (line, column) = position(of: data.count, in: data)
            return JSONSyntaxError(line: line, column: column, reason: "unexpected end of file: the JSON is cut short")
        }
        return JSONSyntaxError(line: 1, column: 1, reason: trimmed(message))
    }

    /// The first well-formed number too large for a Double (`1e400`), which Foundation calls
    /// invalid JSON ("Number 1e400 is not representable"): its offset and what it is, with its
    /// key when it has one. Numbers inside strings are passed over.
    static func numberOutOfRange(in data: Data) -> (offset: Int, reason: String)? {
        let bytes = [UInt8](data)
        let numberBytes = Set("0123456789+-.eE".utf8)
        var i = 0, inString = false
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == 0x5C { i += 2; continue }  // a backslash escapes the next byte
                if b == 0x22 { inString = false }
                i += 1
                continue
            }
            if b == 0x22 { inString = true; i += 1; continue }
            guard b == 0x2D || (0x30...0x39).contains(b) else { i += 1; continue }
            var end = i
            while end < bytes.count, numberBytes.contains(bytes[end]) { end += 1 }
            if let token = String(bytes: bytes[i..<end], encoding: .ascii), let value = Double(token), !value.isFinite {
                // The key before it: `"time": 1e400`.
                var k = i - 1
                while k >= 0, [0x20, 0x09, 0x0A, 0x0D, 0x3A].contains(bytes[k]) { k -= 1 }
                var key: String?
                if k > 0, bytes[k] == 0x22, let open = bytes[..<k].lastIndex(of: 0x22) {
                    key = String(decoding: bytes[(open + 1)..<k], as: UTF8.self)
                }
                return (i, "the number \(token)\(key.map { " (\"\($0)\")" } ?? "") is out of range: a JSON number poiar reads is at most ±1.8e308")
            }
            i = end
        }
        return nil
    }

    /// "around character 66" → 66 (a 0-based byte offset).
    static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix(while: \.isNumber))
    }

    /// 1-based line and column of byte `offset`.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for (i, byte) in data.prefix(offset).enumerated() where byte == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }

    private static func trimmed(_ message: String) -> String {
        var m = message.trimmingCharacters(in: .whitespaces)
        if m.hasSuffix(".") { m.removeLast() }
        return m
    }
}
