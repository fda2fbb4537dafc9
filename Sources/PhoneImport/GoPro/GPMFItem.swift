import Foundation
import POIARCore

/// One KLV item of GoPro's GPMF telemetry ("GoPro Metadata Format"), as GoPro documents it in
/// the gpmf-parser README (github.com/gopro/gpmf-parser): a 4-character key, then a 1-byte type,
/// a 1-byte structure size and a 2-byte big-endian repeat count, then structure size × repeat
/// bytes of big-endian data padded to a multiple of 4. Type 0 nests more KLV items (`DEVC` →
/// `STRM` → the sensor's items).
public struct GPMFItem: Sendable, Equatable {
    /// The 4-character key (`DEVC`, `STRM`, `ACCL`, …).
    public var key: String
    /// The type character (`s`, `f`, `c`, `?`, …); 0 for a nest.
    public var type: UInt8
    /// Bytes of one sample (a structure: e.g. 6 for x, y, z as 16-bit integers).
    public var structSize: Int
    /// Number of samples.
    public var repeatCount: Int
    /// Where the item's header starts in its payload (for messages).
    public var offset: Int
    /// The item's data bytes (structSize × repeatCount, without the padding).
    public var data: [UInt8]
    /// The items inside a nest (type 0); empty otherwise.
    public var children: [GPMFItem]

    public var isNest: Bool { type == 0 }
    /// The type as a character, for messages (`nest` for 0).
    public var typeName: String { type == 0 ? "nest" : String(UnicodeScalar(type)) }
}

/// The KLV parser: one payload's bytes (one `gpmd` packet) into its item tree, checking every
/// length against what is left, so a truncated or damaged payload is an error naming the byte
/// where it goes wrong, never a read past its end.
public enum GPMFParser {
    /// Nests deeper than this are refused (GoPro's own parser allows 16; real files use 3).
    public static let maxDepth = 16

    /// The items of `bytes`; `payload` names it in messages (`GPMF payload 3 (at 2.002 s)`).
    public static func parse(_ bytes: [UInt8], file: String, payload: String) throws -> [GPMFItem] {
        try parse(bytes, range: 0..<bytes.count, depth: 0, file: file, payload: payload)
    }

    static func parse(_ bytes: [UInt8], range: Range<Int>, depth: Int, file: String, payload: String) throws -> [GPMFItem] {
        func fail(_ offset: Int, _ message: String) -> InputError {
            InputError(file: file, "\(payload), byte \(offset): \(message)")
        }
        guard depth <= maxDepth else { throw fail(range.lowerBound, "GPMF nests deeper than \(maxDepth) levels: the payload is damaged") }
        var items: [GPMFItem] = []
        var at = range.lowerBound
        while at < range.upperBound {
            // GPMF pads a nest's end with zero words.
            if range.upperBound - at >= 4, bytes[at] == 0, bytes[at + 1] == 0, bytes[at + 2] == 0, bytes[at + 3] == 0 {
                at += 4
                continue
            }
            guard range.upperBound - at >= 8 else {
                throw fail(at, "an item header needs 8 bytes, only \(range.upperBound - at) remain: the telemetry is truncated")
            }
            let keyBytes = bytes[at..<at + 4]
            guard keyBytes.allSatisfy(isKeyByte) else {
                let shown = keyBytes.map { isKeyByte($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                throw fail(at, "\"\(shown)\" is not a GPMF key (4 letters, digits or spaces): the payload is damaged")
            }
            let key = String(decoding: keyBytes, as: UTF8.self)
            let type = bytes[at + 4]
            let structSize = Int(bytes[at + 5])
            let repeatCount = Int(bytes[at + 6]) << 8 | Int(bytes[at + 7])
            let size = structSize * repeatCount
            let start = at + 8
            guard size <= range.upperBound - start else {
                throw fail(at, "\(key) claims \(size) bytes (\(repeatCount) × \(structSize)), only \(range.upperBound - start) remain: the telemetry is truncated")
            }
            guard type == 0 || GPMFType.size(of: type) != nil || type == GPMFType.complex || type == GPMFType.compressed else {
                throw fail(at, "\(key) has the unknown GPMF type \(String(format: "0x%02X", type)): the payload is damaged")
            }
            var item = GPMFItem(key: key, type: type, structSize: structSize, repeatCount: repeatCount, offset: at,
                                data: type == 0 ? [] : Array(bytes[start..<start + size]), children: [])
            if type == 0 {
                item.children = try parse(bytes, range: start..<start + size, depth: depth + 1, file: file, payload: payload)
            }
            items.append(item)
            // The next item starts at the next multiple of 4 (the padding may be cut at the end).
            at = min(range.upperBound, start + (size + 3) / 4 * 4)
        }
        return items
    }

    /// GPMF keys are 7-bit ASCII letters, digits or spaces.
    static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x20
    }
}

/// GPMF's type characters and their sizes (the gpmf-parser README's "Type" table).
public enum GPMFType {
    /// `?`: a structure described by the stream's `TYPE` string.
    public static let complex = UInt8(ascii: "?")
    /// `#`: GoPro's Huffman-compressed samples, which poiar does not read.
    public static let compressed = UInt8(ascii: "#")

    /// Bytes of one value of a basic type; nil for nests, `?`, `#` and unknown types.
    public static func size(of type: UInt8) -> Int? {
        switch UnicodeScalar(type) {
        case "b", "B", "c", "u": return 1
        case "s", "S": return 2
        case "l", "L", "f", "F", "q": return 4
        case "j", "J", "d", "Q": return 8
        case "G", "U": return 16
        default: return nil
        }
    }
}
