import Foundation

/// A minimal JSON writer with a fixed key order, so manifests are byte-stable across runs and
/// job counts (Foundation's encoders do not promise key order or number formatting).
public struct JSONWriter: Sendable {
    public private(set) var text = ""
    private var needsComma: [Bool] = [false]

    public init() {}

    public mutating func beginObject(_ key: String? = nil) { prefix(key); text += "{"; needsComma.append(false) }
    public mutating func endObject() { text += "}"; needsComma.removeLast() }
    public mutating func beginArray(_ key: String? = nil) { prefix(key); text += "["; needsComma.append(false) }
    public mutating func endArray() { text += "]"; needsComma.removeLast() }

    public mutating func string(_ key: String?, _ value: String?) {
        prefix(key)
        if let value { text += JSONWriter.quote(value) } else { text += "null" }
    }

    /// A number written with at most `decimals` decimals (trailing zeros dropped), or with
    /// full round-trip precision when `decimals` is nil. Non-finite and nil become null.
    public mutating func number(_ key: String?, _ value: Double?, decimals: Int? = nil) {
        prefix(key)
        guard let value, value.isFinite else { text += "null"; return }
        text += JSONWriter.format(value, decimals: decimals)
    }

    public mutating func int(_ key: String?, _ value: Int) { prefix(key); text += String(value) }
    public mutating func bool(_ key: String?, _ value: Bool) { prefix(key); text += value ? "true" : "false" }

    /// Raw, already-encoded JSON.
    public mutating func raw(_ key: String?, _ json: String) { prefix(key); text += json }

    private mutating func prefix(_ key: String?) {
        if needsComma[needsComma.count - 1] { text += ", " }
        needsComma[needsComma.count - 1] = true
        if let key { text += JSONWriter.quote(key) + ": " }
    }

    public static func format(_ value: Double, decimals: Int?) -> String {
        var v = value
        if let decimals {
            let scale = pow(10.0, Double(decimals))
            v = (value * scale).rounded() / scale
        }
        if v == 0 { return "0" }  // also turns −0 into 0
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    public static func quote(_ s: String) -> String {
        // Most strings need no escape: copied whole (a POI import quotes every tag).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        out += s.escaped { u in
            switch u {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default: return u.value < 0x20 ? String(format: "\\u%04x", u.value) : nil
            }
        }
        return out + "\""
    }
}

extension String {
    /// The text with each scalar `replacement` gives text for replaced by it, the others kept:
    /// the one escaping loop of JSON strings (`JSONWriter.quote`) and HTML (the report page).
    public func escaped(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
