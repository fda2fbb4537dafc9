import Foundation
import POIARCore

/// The `poi.tags` column: a JSON object of strings, keys sorted (`{"amenity":"cafe",…}`).
///
/// Written and read by hand rather than through `JSONEncoder`/`JSONDecoder`, which cost several
/// microseconds per POI — as much as the whole radius query is allowed. Reading accepts any
/// JSON object of strings (it falls back to `JSONDecoder` for anything unusual).
enum TagCodec {
    static func encode(_ tags: [String: String]) -> String {
        if tags.isEmpty { return "{}" }
        var out = "{"
        for (i, key) in tags.keys.sorted().enumerated() {
            if i > 0 { out += "," }
            out += JSONWriter.quote(key)
            out += ":"
            out += JSONWriter.quote(tags[key]!)
        }
        return out + "}"
    }

    static func decode(_ json: String?) -> [String: String] {
        guard let json else { return [:] }
        if json == "{}" { return [:] }
        var copy = json
        if let fast = copy.withUTF8({ decodeFast($0) }) { return fast }
        return (try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))) ?? [:]
    }

    /// Parses `{"k":"v",…}` with standard escapes; nil for anything else.
    private static func decodeFast(_ b: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        var i = 0
        let n = b.count
        func skipSpace() { while i < n, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
        func string() -> String? {
            guard i < n, b[i] == 0x22 else { return nil }
            i += 1
            let start = i
            var plain = true
            while i < n, b[i] != 0x22 {
                if b[i] == 0x5C { plain = false; i += 2 } else { i += 1 }
            }
            guard i < n else { return nil }
            let end = i
            i += 1
            if plain { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self) }
            return unescape(UnsafeBufferPointer(rebasing: b[start..<end]))
        }
        skipSpace()
        guard i < n, b[i] == 0x7B else { return nil }
        i += 1
        var result: [String: String] = [:]
        skipSpace()
        if i < n, b[i] == 0x7D { return result }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard i < n, b[i] == 0x3A else { return nil }
            i += 1
            skipSpace()
            guard let value = string() else { return nil }
            result[key] = value
            skipSpace()
            guard i < n else { return nil }
            if b[i] == 0x2C { i += 1; continue }
            if b[i] == 0x7D { return result }
            return nil
        }
    }

    private static func unescape(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(b.count)
        var i = 0
        var pendingHigh: UInt32?
        func appendScalar(_ v: UInt32) {
            guard let scalar = Unicode.Scalar(v) else { return }
            bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        while i < b.count {
            let c = b[i]
            guard c == 0x5C else { bytes.append(c); i += 1; continue }
            guard i + 1 < b.count else { return nil }
            let e = b[i + 1]
            i += 2
            switch e {
            case 0x22: bytes.append(0x22)
            case 0x5C: bytes.append(0x5C)
            case 0x2F: bytes.append(0x2F)
            case 0x62: bytes.append(0x08)
            case 0x66: bytes.append(0x0C)
            case 0x6E: bytes.append(0x0A)
            case 0x72: bytes.append(0x0D)
            case 0x74: bytes.append(0x09)
            case 0x75:
                guard i + 4 <= b.count,
                      let v = UInt32(String(decoding: UnsafeBufferPointer(rebasing: b[i..<i + 4]), as: UTF8.self), radix: 16)
                else { return nil }
                i += 4
                if (0xD800..<0xDC00).contains(v) { pendingHigh = v; continue }
                if (0xDC00..<0xE000).contains(v), let high = pendingHigh {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00))
                } else {
                    appendScalar(v)
                }
            default:
                return nil
            }
            pendingHigh = nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
