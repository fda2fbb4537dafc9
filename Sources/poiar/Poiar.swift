import ArgumentParser
import Foundation
import POIARCore

@main
struct Poiar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poiar",
        abstract: "Points-of-interest augmented reality: replays phone sensor logs and renders POI labels over the camera view.",
        discussion: """
            Examples (from the repository's folder, on its sample data):
              poiar replay SampleLogs/walk.csv -f cafe,restaurant -o Output/walk
                  fuse the walk's pose and draw its frames with the cafés and restaurants
              poiar map SampleLogs/walk.csv -f cafe -o Output/walk-map.png
                  the walked track, where the camera looked and the cafés, on a map
              poiar pose SampleLogs/walk.csv -o Output/walk-pose.csv
                  the walk's fused pose, one CSV row per gyro sample

            Formats and commands: docs/formats.md and docs/commands.md.
            """,
        version: "0.1.0",
        subcommands: [ReplayCommand.self, PoseCommand.self, ProjectCommand.self, POIsCommand.self,
                      ConvertCommand.self, SimulateCommand.self, EvaluateCommand.self, MapCommand.self,
                      MergeCommand.self, ReportCommand.self, BenchRenderCommand.self, BenchFootageCommand.self])

    /// As argument-parser's own, but a refused option value's message says why
    /// (`RefusedValue`), and a word typed wrong gets the one meant (`NearMissWords`).
    static func main() {
        StandardStreams.reopenClosed()
        Interruption.install()
        if let unknown = NearMissWords.unknownSubcommand(Array(CommandLine.arguments.dropFirst()), root: Poiar.self) {
            printError(unknown)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let explained = NearMissWords.suggestingValue(RefusedValue.explained(fullMessage(for: error)))
            guard explained != fullMessage(for: error) else { exit(withError: error) }
            StandardStreams.writeError(explained + "\n")
            Foundation.exit(exitCode(for: error).rawValue)
        }
        finishOutput()
    }

    /// What was printed is written, or the run fails saying it was not.
    static func finishOutput() {
        do { try StandardStreams.finish() } catch {
            printError("\(error)")
            Foundation.exit(1)
        }
    }
}

/// Runs a command body, printing any error as one plain line on stderr and exiting 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as ExitCode {
        throw e
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}

@Sendable func printError(_ message: String) {
    StandardStreams.writeError("poiar: error: \(message)\n")
}

@Sendable func printNotice(_ message: String) {
    StandardStreams.writeError("poiar: \(message)\n")
}

let stderrIsTerminal = isatty(2) != 0
