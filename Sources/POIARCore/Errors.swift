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
    /// `FILE:LINE (FIELD): message` on one line: line breaks and other control characters that
    /// quoted input brings into the message or the name are shown escaped (`\n`, `\r`, `\u{0}`).
    public var description: String { InputError.oneLine("\(location): \(message)") }

    /// `text` with line breaks (`\n`, `\r`, U+0085, U+2028, U+2029) and other control characters
    /// (tab excepted) written as Swift escapes, so it prints as one line.
    public static func oneLine(_ text: String) -> String {
        func needsEscape(_ u: Unicode.Scalar) -> Bool {
            (u.properties.generalCategory == .control && u != "\t") || u == "\u{2028}" || u == "\u{2029}"
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            if needsEscape(u) { out.append(contentsOf: u.escaped(asASCII: true).unicodeScalars) } else { out.append(u) }
        }
        return String(out)
    }
}
