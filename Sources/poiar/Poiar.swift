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
                  fuse the walk's pose, label the cafés and restaurants on its frames
              poiar pois import helsinki.osm.pbf --db helsinki.sqlite
                  import an OSM extract into a POI database a replay can name with --pois
              poiar map SampleLogs/walk.csv --out /tmp/walk-map.png
                  draw the walked track, the view cones and the POIs around it

            Formats and commands: docs/formats.md and docs/commands.md.
            """,
        version: "0.1.0",
        subcommands: [ReplayCommand.self, PoseCommand.self, ProjectCommand.self, POIsCommand.self,
                      ConvertCommand.self, SimulateCommand.self, EvaluateCommand.self, MapCommand.self,
                      MergeCommand.self, ReportCommand.self, BenchRenderCommand.self, BenchFootageCommand.self])

    /// As argument-parser's own, but a refused option value's message says why
    /// (`RefusedValue`).
    static func main() {
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
