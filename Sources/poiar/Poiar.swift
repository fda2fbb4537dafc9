import ArgumentParser
import Foundation
import POIARCore

@main
struct Poiar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poiar",
        abstract: "Points-of-interest augmented reality: replays phone sensor logs and renders POI labels over the camera view.",
        discussion: "Formats and commands: docs/formats.md and docs/commands.md.",
        version: "0.1.0",
        subcommands: [ReplayCommand.self, PoseCommand.self, ProjectCommand.self, POIsCommand.self,
                      ConvertCommand.self, SimulateCommand.self, EvaluateCommand.self, MapCommand.self,
                      MergeCommand.self, ReportCommand.self, BenchRenderCommand.self, BenchFootageCommand.self])
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

func printError(_ message: String) {
    FileHandle.standardError.write(Data("poiar: error: \(message)\n".utf8))
}

func printNotice(_ message: String) {
    FileHandle.standardError.write(Data("poiar: \(message)\n".utf8))
}

let stderrIsTerminal = isatty(2) != 0

/// Parses "W×H" / "WxH": the size of the frames drawn, so each side at most `ImageLimits.maxSide`.
func parseSize(_ s: String, option: String) throws -> (width: Int, height: Int) {
    let parts = s.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
    let maxSide = ImageLimits.maxSide
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= maxSide, h <= maxSide else {
        throw ValidationError("\(option): expected WIDTHxHEIGHT in pixels, each side 1…\(maxSide), e.g. 1280x720, got \"\(s)\"")
    }
    return (w, h)
}

/// Parses comma-separated finite numbers.
func parseNumbers(_ s: String, count: ClosedRange<Int>, option: String, what: String) throws -> [Double] {
    let values = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard count.contains(values.count), values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
        throw ValidationError("\(option): expected \(what), got \"\(s)\"")
    }
    return values.map { $0! }
}

/// Parses "LAT,LON" (or "LAT,LON,ALT" when `altitude` is allowed) into a valid WGS84 position.
func parseCoordinate(_ s: String, option: String, altitude: Bool = false) throws -> GeoCoordinate {
    let v = try parseNumbers(s, count: altitude ? 2...3 : 2...2, option: option,
                             what: altitude ? "LAT,LON or LAT,LON,ALT" : "LAT,LON")
    let c = GeoCoordinate(latitude: v[0], longitude: v[1], altitude: v.count > 2 ? v[2] : nil)
    guard c.isValid else {
        throw ValidationError("\(option): latitude must be in −90…90 and longitude in −180…180, got \"\(s)\"")
    }
    return c
}
