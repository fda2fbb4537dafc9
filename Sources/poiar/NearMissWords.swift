import ArgumentParser
import POIARCore

/// "Did you mean" for the words argument-parser leaves without one: a subcommand typed wrong
/// (`poiar replya`, `poiar help replya`, `poiar pois improt`) and a value not among an option's
/// words (`--occlusion hid`). Unknown option names argument-parser answers itself.
enum NearMissWords {
    /// The message for a command line whose subcommand is not one poiar has (after `help` too),
    /// or nil when every word that names a subcommand names one. argument-parser would print
    /// the top-level help for `help replya` and exit 0.
    static func unknownSubcommand(_ arguments: [String], root: ParsableCommand.Type) -> String? {
        var subcommands: [ParsableCommand.Type] = root.configuration.subcommands
        var path: [String] = [root.configuration.commandName ?? "poiar"]
        let words = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        for word in words {
            if word.hasPrefix("-") || subcommands.isEmpty { return nil }  // an option, or a positional argument
            let names: [String] = subcommands.map { name(of: $0) }
            guard let i = names.firstIndex(of: word) else {
                let said = "unknown command '\(word)' of '\(path.joined(separator: " "))'"
                if let meant = NearMiss.suggestion(for: word, among: names) {
                    return "\(said): did you mean '\(path.joined(separator: " ")) \(meant)'?"
                }
                return "\(said): its commands are \(names.joined(separator: ", "))"
            }
            subcommands = subcommands[i].configuration.subcommands
            path.append(word)
        }
        return nil
    }

    /// A subcommand's name as typed: its configured name, else its type's name in lower case
    /// (`POIsCommand.Import` → `import`), as argument-parser derives it.
    private static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// argument-parser's message for a value not among an option's words ("The value 'hid' is
    /// invalid for '--occlusion <mode>'. Please provide one of 'hide', 'dim' or 'off'."), with
    /// the word meant added to its first line; any other message as it is.
    static func suggestingValue(_ message: String) -> String {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first,
              let typed = first.firstMatch(of: /The value '([^']*)' is invalid for/)?.output.1,
              let offered = first.range(of: "Please provide one of ") else { return message }
        let words = first[offered.upperBound...].matches(of: /'([^']*)'/).map { String($0.output.1) }
        guard let meant = NearMiss.suggestion(for: String(typed), among: words) else { return message }
        lines[0] = first + " Did you mean '\(meant)'?"
        return lines.joined(separator: "\n")
    }
}
