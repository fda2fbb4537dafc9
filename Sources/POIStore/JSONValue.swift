import Foundation
import POIARCore

/// A parsed JSON document, keeping booleans, integers and other numbers apart (which
/// `JSONSerialization` does not do the same way on every platform).
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .int(i) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Parses `data`, reporting a syntax error as an `InputError` naming `file`.
    static func parse(_ data: Data, file: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            if let syntax = JSONSyntaxError.locate(in: data) {
                throw InputError(file: file, line: syntax.line, "invalid JSON: \(syntax.reason)")
            }
            let detail = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
                ?? context.underlyingError.map { "\($0)" } ?? context.debugDescription
            throw InputError(file: file, line: Self.lineNumber(in: detail), "invalid JSON: \(detail)")
        } catch {
            throw InputError(file: file, "invalid JSON: \(error)")
        }
    }

    /// The "line N" a parser's message mentions, if any.
    private static func lineNumber(in message: String) -> Int? {
        guard let range = message.range(of: "line ") else { return nil }
        return Int(message[range.upperBound...].prefix(while: \.isNumber))
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
