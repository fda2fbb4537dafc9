import Foundation

/// The one way poiar reads a small JSON document (a manifest line, a camera file): `Decodable`
/// through `JSONDecoder`, its errors made `InputError`s that name the file, the line and the
/// field (`camera.width`, `annotations[3].id`) and say what was expected.
public enum JSONInput {
    /// `T` decoded from `data`, the document at `file` (`line`: the line it starts on, for a
    /// document that is one line of a larger file).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, line: Int? = nil) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw inputError(error, data: data, file: file, line: line)
        }
    }

    /// A decoding error in the field's words. A syntax error (the decoder's path is empty) is
    /// located by `JSONSyntaxError`, JSONDecoder on Linux saying only that the data is not JSON.
    static func inputError(_ error: DecodingError, data: Data, file: String, line: Int?) -> InputError {
        func at(_ path: [any CodingKey], _ message: String) -> InputError {
            InputError(file: file, line: line, field: fieldName(path), message)
        }
        switch error {
        case .typeMismatch(let type, let context):
            return at(context.codingPath, "expected \(kind(type))")
        case .valueNotFound(let type, let context):
            return at(context.codingPath, "expected \(kind(type)), found null")
        case .keyNotFound(let key, let context):
            return at(context.codingPath + [key], "missing")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            if let syntax = JSONSyntaxError.locate(in: data) {
                let syntaxLine = (line ?? 1) + syntax.line - 1
                return InputError(file: file, line: syntaxLine, "not valid JSON: \(syntax.reason)")
            }
            return InputError(file: file, line: line, "not valid JSON: \(context.debugDescription)")
        case .dataCorrupted(let context):
            return at(context.codingPath, context.debugDescription)
        @unknown default:
            return InputError(file: file, line: line, "\(error)")
        }
    }

    /// "camera.width", "annotations[3].id"; nil for the document itself.
    public static func fieldName(_ path: [any CodingKey]) -> String? {
        var name = ""
        for key in path {
            if let index = key.intValue { name += "[\(index)]" } else { name += name.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return name.isEmpty ? nil : name
    }

    /// What a Swift type is called in JSON.
    static func kind(_ type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self): return "a number"
        case ObjectIdentifier(Int.self): return "a whole number"
        case ObjectIdentifier(String.self): return "a string"
        case ObjectIdentifier(Bool.self): return "true or false"
        case ObjectIdentifier([Any].self): return "an array"
        case ObjectIdentifier([String: Any].self): return "an object"
        default: return "\(type)"
        }
    }
}
