import Foundation
import POIARCore

/// An item's values, read as GoPro documents the types (gpmf-parser README, "Type" table;
/// GPMF_common.h): signed and unsigned integers of 8 to 64 bits, 32- and 64-bit floats, the
/// fixed-point Q15.16 (`q`) and Q31.32 (`Q`), and `?` structures laid out by the stream's
/// `TYPE` string (e.g. GPS9's "lllllllSS"; `f[8]` repeats a field). All big-endian.
extension GPMFItem {
    /// The text of a `c`, `u` or `U` item (NUL padding and trailing spaces removed); bytes
    /// that are not UTF-8 (GoPro writes `°`, `²`, `µ` as single Latin-1 bytes) as Latin-1.
    public var text: String {
        let trimmed = data.prefix { $0 != 0 }
        let s = String(bytes: trimmed, encoding: .utf8) ?? String(bytes: trimmed, encoding: .isoLatin1) ?? ""
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// The item's samples, each an array of its elements as numbers; `complexType` is the
    /// stream's `TYPE` string, for a `?` item. Throws (naming `file`, `payload` and the item's byte) when
    /// the structure size does not fit the type.
    public func samples(complexType: String? = nil, file: String, payload: String) throws -> [[Double]] {
        func fail(_ message: String) -> InputError { InputError(file: file, "\(payload), byte \(offset): \(key) \(message)") }
        let fields: [UInt8]
        if type == GPMFType.complex {
            guard let complexType else { throw fail("is a structure (type ?) without a TYPE in its stream") }
            guard let expanded = GPMFType.expand(complexType) else { throw fail("has a TYPE \"\(complexType)\" poiar cannot read") }
            fields = expanded
        } else if let size = GPMFType.size(of: type), type != UInt8(ascii: "c"), type != UInt8(ascii: "u"), type != UInt8(ascii: "U") {
            guard structSize % size == 0 else {
                throw fail("has a structure of \(structSize) bytes, not a whole number of \(typeName) values (\(size) bytes each)")
            }
            fields = Array(repeating: type, count: structSize / size)
        } else {
            throw fail("of type \(typeName) holds no numbers")
        }
        let need = fields.reduce(0) { $0 + (GPMFType.size(of: $1) ?? 0) }
        guard need == structSize else {
            throw fail("has a structure of \(structSize) bytes, its TYPE \"\(complexType ?? "")\" needs \(need)")
        }
        var out: [[Double]] = []
        out.reserveCapacity(repeatCount)
        var at = 0
        for _ in 0..<repeatCount {
            var sample: [Double] = []
            sample.reserveCapacity(fields.count)
            for f in fields {
                sample.append(GPMFType.value(f, data, at))
                at += GPMFType.size(of: f) ?? 0
            }
            out.append(sample)
        }
        return out
    }
}

extension GPMFType {
    /// One value of basic type `type` at `at` in `bytes` (big-endian), as a number: integers
    /// exactly up to 2⁵³, Q numbers divided out, a FourCC or a 16-byte field as 0 (not numbers).
    static func value(_ type: UInt8, _ bytes: [UInt8], _ at: Int) -> Double {
        func unsigned(_ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        switch UnicodeScalar(type) {
        case "b": return Double(Int8(bitPattern: bytes[at]))
        case "B", "c": return Double(bytes[at])
        case "s": return Double(Int16(bitPattern: UInt16(unsigned(2))))
        case "S": return Double(unsigned(2))
        case "l": return Double(Int32(bitPattern: UInt32(unsigned(4))))
        case "L": return Double(unsigned(4))
        case "f": return Double(Float(bitPattern: UInt32(unsigned(4))))
        case "d": return Double(bitPattern: unsigned(8))
        case "j": return Double(Int64(bitPattern: unsigned(8)))
        case "J": return Double(unsigned(8))
        case "q": return Double(Int32(bitPattern: UInt32(unsigned(4)))) / 65536
        case "Q": return Double(Int64(bitPattern: unsigned(8))) / 4_294_967_296
        default: return 0
        }
    }

    /// A `TYPE` string's fields, one type character each, with `x[n]` repeated n times
    /// ("f[3]L" → f f f L); nil when it holds an unknown type or a malformed count.
    public static func expand(_ typeString: String) -> [UInt8]? {
        var out: [UInt8] = []
        let chars = Array(typeString.utf8)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == 0 || c == UInt8(ascii: " ") { i += 1; continue }
            guard size(of: c) != nil else { return nil }
            if i + 1 < chars.count, chars[i + 1] == UInt8(ascii: "[") {
                guard let close = chars[(i + 2)...].firstIndex(of: UInt8(ascii: "]")),
                      let n = Int(String(decoding: chars[(i + 2)..<close], as: UTF8.self)), n > 0, n <= 255 else { return nil }
                out.append(contentsOf: repeatElement(c, count: n))
                i = close + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return out.isEmpty ? nil : out
    }
}

/// `SCAL`: the divisor GoPro stores beside integer samples, one for all elements or one per
/// element (GPS5's "10000000, 10000000, 1000, 1000, 100").
public struct GPMFScale: Sendable, Equatable {
    public var divisors: [Double]

    public init(divisors: [Double]) { self.divisors = divisors }

    /// Each element of `sample` divided by its divisor (one divisor: all); nil when there are
    /// several divisors and not one per element.
    public func apply(_ sample: [Double]) -> [Double]? {
        if divisors.count > 1 && divisors.count != sample.count { return nil }
        return sample.enumerated().map { i, v in v / (divisors.count == 1 ? divisors[0] : divisors[i]) }
    }

    /// The first divisor that scales nothing (0, or not a finite number), and its index.
    public var unusable: (index: Int, value: Double)? {
        divisors.enumerated().first { !$0.element.isFinite || $0.element == 0 }.map { ($0.offset, $0.element) }
    }
}
