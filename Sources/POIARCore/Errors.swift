/// Where in an input a problem was found: the file, and the line and/or field when known.
public struct InputLocation: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?
    public init(file: String, line: Int? = nil, field: String? = nil) {
        self.file = file; self.line = line; self.field = field
    }
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let field { s += " (\(field))" }
        return s
    }
}

/// A problem with user input, reported as one line: `FILE:LINE (FIELD): message`.
/// Every reader throws this (or its own error type conforming to CustomStringConvertible)
/// so the CLI can print one plain line and exit non-zero.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: InputLocation
    public var message: String
    public init(_ location: InputLocation, _ message: String) {
        self.location = location; self.message = message
    }
    public init(file: String, line: Int? = nil, field: String? = nil, _ message: String) {
        self.init(InputLocation(file: file, line: line, field: field), message)
    }
    public var description: String { "\(location): \(message)" }
}
