import ArgumentParser
import Foundation
import Recordings
import Replay

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a phone recording (Sensor Logger or phyphox export: a folder or zip of CSV files) or a GoPro clip's telemetry to a poiar-log/1 log.",
        discussion: "Rows are written in time order with fixed formats; a poiar-log/1 input is rewritten sorted. See docs/formats.md.")

    @Argument(help: "The recording: a Sensor Logger or phyphox export (folder or .zip), a GoPro clip (.mp4/.mov with GPMF telemetry), or a poiar-log/1 log.")
    var input: String

    @Option(name: .shortAndLong, help: "Output poiar-log/1 CSV (written to a temporary file and renamed into place).")
    var out: String

    func run() throws {
        try reportingErrors {
            try checkOutputs(writes: [(out, "--out")], reads: [(input, "the recording")])
            printNotice(try LogConversion.run(input: input, output: out, notice: printNotice))
        }
    }
}
