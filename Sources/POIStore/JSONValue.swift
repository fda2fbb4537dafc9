import Foundation
import POIARCore

/// POIStore's readings of a JSON value (`JSONValue` is Core's): parsed from a source stream,
/// and as OSM tags and ids.
extension JSONValue {
    /// Parses `data` (one JSON text), reporting a syntax error as an `InputError` naming
    /// `file` and the line.
    static func parse(_ data: Data, file: String) throws -> JSONValue {
        let reader = JSONStreamReader(try SourceStream(data: data, file: file))
        let value = try reader.value()
        try reader.expectEnd()
        return value
    }

    /// An integer, also from a string of digits (OSM ids come both ways).
    var integer: Int64? {
        switch self {
        case .int(let i): return i
        case .string(let s): return Int64(s)
        default: return nil
        }
    }

    /// The value as a tag string: strings as they are, numbers and booleans as written in
    /// JSON, arrays and objects as compact JSON; nil for null.
    var tagString: String? {
        switch self {
        case .null: return nil
        case .string(let s): return s
        default: return jsonText
        }
    }

    /// Compact JSON text (object keys sorted).
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .string(let s): return Self.quoted(s)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { Self.quoted($0) + ":" + members[$0]!.jsonText }
                .joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ s: String) -> String { JSONWriter.quote(s) }
}
