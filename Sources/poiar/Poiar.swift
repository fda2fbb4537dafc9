import ArgumentParser
import Foundation

@main
struct Poiar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poiar",
        abstract: "Points-of-interest augmented reality: replays phone sensor logs and renders POI labels over the camera view.",
        discussion: """
            Examples:
              poiar replay SampleLogs/walk.csv --filter cafe,restaurant --out /tmp/walk
                  fuse the walk's pose and draw its frames with the cafés and restaurants
              poiar pois import SampleLogs/helsinki-esplanadi.osm --db /tmp/helsinki.sqlite
                  import OSM data into a POI database, which replay --pois then reads
              poiar pois query --db /tmp/helsinki.sqlite --near 60.1675,24.9495 --radius 300
                  the POIs within 300 m of a point, nearest first, as JSON

            Formats and commands: docs/formats.md and docs/commands.md.
            """,
        version: "0.1.0",
        subcommands: [ReplayCommand.self, PoseCommand.self, ProjectCommand.self, POIsCommand.self,
                      ConvertCommand.self, SimulateCommand.self, EvaluateCommand.self, MapCommand.self,
                      MergeCommand.self, ReportCommand.self, BenchRenderCommand.self, BenchFootageCommand.self])

    /// As argument-parser's own, but a refused option value's message says why
    /// (`RefusedValue`).
    static func main() {
        Interruption.install()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let explained = RefusedValue.explained(fullMessage(for: error))
            guard explained != fullMessage(for: error) else { exit(withError: error) }
            FileHandle.standardError.write(Data((explained + "\n").utf8))
            Foundation.exit(exitCode(for: error).rawValue)
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
    FileHandle.standardError.write(Data("poiar: error: \(message)\n".utf8))
}

@Sendable func printNotice(_ message: String) {
    FileHandle.standardError.write(Data("poiar: \(message)\n".utf8))
}

let stderrIsTerminal = isatty(2) != 0
