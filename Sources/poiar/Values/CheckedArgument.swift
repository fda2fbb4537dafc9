import ArgumentParser
import Foundation
import POIARCore

/// A command-line value whose parsing and checks live in its type, once: `init(checking:)`
/// takes the text as typed and throws what is wrong with it (`RefusedValue`), in words that
/// follow "The value '…' is invalid for '--option <…>':".
protocol CheckedArgument: ExpressibleByArgument {
    init(checking text: String) throws(RefusedValue)
}

/// Why a command-line value was refused, e.g. "expected WIDTHxHEIGHT in pixels".
struct RefusedValue: Error, CustomStringConvertible {
    let description: String
    init(_ reason: String) { description = reason }

    /// A word not among `words`, with the one meant after the reason when it is near one
    /// (`--hud compas`: "… Did you mean 'compass'?", as argument-parser says it for the options
    /// whose words it checks itself). A word that is among them (`jpeg:500`) is wrong elsewhere.
    init(_ reason: String, typed: some StringProtocol, among words: [String]) {
        let typed = String(typed)
        let known = words.contains { $0.lowercased() == typed.lowercased() }
        let meant = known ? nil : NearMiss.suggestion(for: typed, among: words)
        description = reason + (meant.map { ". Did you mean '\($0)'?" } ?? "")
    }
}

extension CheckedArgument {
    /// argument-parser asks through a failable initializer, which cannot say why: the reason is
    /// noted for `RefusedValue.explained(_:)`, which adds it to the parser's message.
    init?(argument: String) {
        guard let value = Self.checked(argument) else { return nil }
        self = value
    }

    /// The value `argument` gives, or nil with the reason noted. (A library type made an
    /// option value here declares its public `init?(argument:)` with it.)
    static func checked(_ argument: String) -> Self? {
        do {
            return try Self(checking: argument)
        } catch {
            RefusedValue.last.note(argument, error.description)
            return nil
        }
    }
}

extension RefusedValue {
    /// The value last refused and why (parsing stops at the first refused value).
    fileprivate static let last = Note()

    fileprivate final class Note: @unchecked Sendable {
        private let lock = NSLock()
        private var refused: (value: String, reason: String)?
        func note(_ value: String, _ reason: String) { lock.withLock { refused = (value, reason) } }
        var value: (value: String, reason: String)? { lock.withLock { refused } }
    }

    /// The parser's full message for a refused value, with the reason after its first line
    /// ("Error: The value '0x5' is invalid for '--size <WxH>': expected …"); any other message
    /// as it is.
    static func explained(_ message: String) -> String {
        guard let refused = last.value else { return message }
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = lines.first, first.contains("The value '\(refused.value)' is invalid for ") else { return message }
        return first + ": " + refused.reason + (lines.count > 1 ? "\n" + lines[1] : "")
    }
}

