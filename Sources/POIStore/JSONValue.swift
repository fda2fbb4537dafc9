import Foundation
import POIARCore

/// A parsed JSON document, keeping booleans, integers and other numbers apart (which
/// `JSONSerialization` does not do the same way on every platform).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data` (one JSON text), reporting a syntax error as an `InputError` naming
    /// `file` and the line.
    static func parse(_ data: Data, file: String) throws -> JSONValue {
        let reader = JSONStreamReader(try SourceStream(data: data, file: file))
        let value = try reader.value()
        try reader.expectEnd()
        return value
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s }; return nil }
    var object: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }

    /// A number as a Double (integers included).
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
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
