import Foundation
import POIARCore

/// JSON (RFC 8259) read as it streams in from a `SourceStream`: a value at a time, and the
/// members of an object or the items of an array one by one (`members`, `items`), so the
/// importers hold one feature or element at a time, never the document. Also reads a sequence
/// of JSON texts, as GeoJSONSeq (RFC 8142: each text after an ASCII record separator, 0x1E)
/// and newline-delimited JSON write them (`nextText`).
///
/// Syntax errors are `InputError`s with the line: `invalid JSON: unexpected '}' at column 5`,
/// `invalid JSON: unexpected end of file: the JSON is cut short`. Nesting deeper than 512
/// levels is refused rather than recursed into.
final class JSONStreamReader {
    static let maxDepth = 512

    let file: String
    private let source: SourceStream
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 16
    private var position = 0, end = 0
    private var atEndOfSource = false
    /// Bytes before `buffer[0]`, and where the current line starts (for columns).
    private var bufferOffset = 0, lineStart = 0
    private(set) var line = 1
    private var depth = 0
    private var scratch: [UInt8] = []

    init(_ source: SourceStream) {
        self.source = source
        file = source.file
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    // MARK: Bytes

    private func refill() throws {
        guard !atEndOfSource else { return }
        bufferOffset += end
        position = 0
        end = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
        if end == 0 { atEndOfSource = true }
    }

    @inline(__always) private func peekByte() throws -> UInt8? {
        if position == end {
            try refill()
            if position == end { return nil }
        }
        return buffer[position]
    }

    /// The next byte that is not white space (nor a record separator, between texts).
    @inline(__always) private func peekToken() throws -> UInt8? {
        while true {
            if position == end {
                try refill()
                if position == end { return nil }
            }
            let b = buffer[position]
            switch b {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = bufferOffset + position
            default: return b
            }
        }
    }

    func error(_ reason: String) -> InputError {
        InputError(file: file, line: line, "invalid JSON: \(reason)")
    }

    private func unexpected(_ byte: UInt8?) -> InputError {
        guard let byte else { return error("unexpected end of file: the JSON is cut short") }
        let column = bufferOffset + position - lineStart + 1
        let shown = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
        return error("unexpected \(shown) at column \(column)")
    }

    private func expect(_ byte: UInt8) throws {
        let b = try peekToken()
        guard b == byte else { throw unexpected(b) }
        position += 1
    }

    // MARK: Texts

    /// Moves to the start of the next JSON text; false at the end of the source. Record
    /// separators (GeoJSONSeq) count as white space here.
    func nextText() throws -> Bool {
        while let b = try peekToken() {
            guard b == 0x1E else { return true }
            position += 1
        }
        return false
    }

    /// The first byte of the next value (`{`, `[`, `"`, …), not consumed.
    func peek() throws -> UInt8? { try peekToken() }

    // MARK: Values

    /// The next value, parsed whole.
    func value() throws -> JSONValue {
        guard let b = try peekToken() else { throw unexpected(nil) }
        switch b {
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            try self.members { key in members[key] = try self.value() }
            return .object(members)
        case UInt8(ascii: "["):
            var items: [JSONValue] = []
            try self.items { _ in items.append(try self.value()) }
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpected(b)
        }
    }

    /// Reads an object, calling `body` with each key; `body` must read the member's value
    /// (with `value`, `members`, `items` or `skipValue`).
    func members(_ body: (String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        try nest()
        defer { depth -= 1 }
        if try peekToken() == UInt8(ascii: "}") { position += 1; return }
        while true {
            let b = try peekToken()
            guard b == UInt8(ascii: "\"") else { throw unexpected(b) }
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try body(key)
            if try atClose(UInt8(ascii: "}")) { return }
        }
    }

    /// Reads an array, calling `body` with each item's index; `body` must read the item.
    func items(_ body: (Int) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        try nest()
        defer { depth -= 1 }
        if try peekToken() == UInt8(ascii: "]") { position += 1; return }
        var index = 0
        while true {
            try body(index)
            index += 1
            if try atClose(UInt8(ascii: "]")) { return }
        }
    }

    /// After a member or item: consumes `,` (false: another follows) or `closer` (true).
    private func atClose(_ closer: UInt8) throws -> Bool {
        let next = try peekToken()
        guard next == UInt8(ascii: ",") || next == closer else { throw unexpected(next) }
        position += 1
        return next == closer
    }

    /// Reads the next value without keeping it.
    func skipValue() throws { _ = try value() }

    private func nest() throws {
        depth += 1
        if depth > Self.maxDepth { throw error("nested deeper than \(Self.maxDepth) levels") }
    }

    private func literal(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            let b = try peekByte()
            guard b == expected else { throw unexpected(b) }
            position += 1
        }
    }

    private func number() throws -> JSONValue {
        scratch.removeAll(keepingCapacity: true)
        while let b = try peekByte() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                scratch.append(b)
                position += 1
            default:
                return try numberValue()
            }
        }
        return try numberValue()
    }

    /// The number in `scratch`, checked against JSON's grammar:
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private func numberValue() throws -> JSONValue {
        let n = scratch.count
        var i = 0
        func digits() -> Int {
            let from = i
            while i < n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scratch[i]) { i += 1 }
            return i - from
        }
        if i < n, scratch[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        let intDigits = digits()
        var integral = true
        var valid = intDigits > 0 && !(intDigits > 1 && scratch[intStart] == UInt8(ascii: "0"))
        if valid, i < n, scratch[i] == UInt8(ascii: ".") {
            i += 1; integral = false
            valid = digits() > 0
        }
        if valid, i < n, scratch[i] == UInt8(ascii: "e") || scratch[i] == UInt8(ascii: "E") {
            i += 1; integral = false
            if i < n, scratch[i] == UInt8(ascii: "+") || scratch[i] == UInt8(ascii: "-") { i += 1 }
            valid = digits() > 0
        }
        guard valid, i == n else {
            throw error("\"\(String(decoding: scratch, as: UTF8.self))\" is not a number")
        }
        scratch.append(0)
        return scratch.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in
                if integral {
                    errno = 0
                    let v = strtoll(c.baseAddress!, nil, 10)
                    if errno == 0 { return .int(Int64(v)) }
                }
                return .double(strtod(c.baseAddress!, nil))
            }
        }
    }

    /// A string (the reader is at its opening quote).
    func string() throws -> String {
        position += 1  // the opening quote
        // Fast path: the whole string in the buffer, without escapes.
        var i = position
        while i < end {
            let b = buffer[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(start: buffer + position, count: i - position), as: UTF8.self)
                position = i + 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            i += 1
        }
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard let b = try peekByte() else { throw unexpected(nil) }
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = try peekByte() else { throw unexpected(nil) }
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate: its low half follows as another \u escape.
                        guard try peekByte() == UInt8(ascii: "\\") else { throw error("a lone UTF-16 surrogate in a string") }
                        position += 1
                        guard try peekByte() == UInt8(ascii: "u") else { throw error("a lone UTF-16 surrogate in a string") }
                        position += 1
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    scratch.append(contentsOf: Array(String(character).utf8))
                default:
                    position -= 1
                    throw unexpected(e)
                }
            case 0..<0x20:
                position -= 1
                throw error("a control character (byte 0x\(String(format: "%02X", b))) inside a string")
            default:
                scratch.append(b)
            }
        }
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try peekByte() else { throw unexpected(nil) }
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw unexpected(b)
            }
            position += 1
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Checks that nothing but white space follows the document's one value.
    func expectEnd() throws {
        if let b = try peekToken() { throw unexpected(b) }
    }
}
