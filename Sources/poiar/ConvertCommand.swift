import ArgumentParser
import Foundation
import PhoneImport
import Recordings
import Replay
import SensorLog

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a phone recording (Sensor Logger or phyphox export: a folder or zip of CSV files) or a GoPro clip's telemetry to a poiar-log/1 log.",
        discussion: "Rows are written in time order with fixed formats; a poiar-log/1 input is rewritten sorted. See docs/formats.md.")

    @Argument(help: "The recording: a Sensor Logger or phyphox export (folder or .zip), a GoPro clip (.mp4/.mov with GPMF telemetry), or a poiar-log/1 log.")
    var input: String

    @Option(help: "Output poiar-log/1 CSV (written to a temporary file and renamed into place).")
    var out: String

    func run() throws {
        try reportingErrors {
            let source = try openLogSource(path: input)
            source.onNotice = { printNotice($0) }
            let writer = try AtomicTextWriter(url: URL(fileURLWithPath: out))
            let (metadata, footageNotice) = LogFolderPath.relocatingFootage(source.metadata, from: input, to: out)
            if let footageNotice { printNotice(footageNotice) }
            for line in SensorLogFormat.headerLines(metadata) { try writer.write(line) }
            var counts: [String: Int] = [:]
            var first: Double?, last: Double?
            while let record = try source.nextRecord() {
                try writer.write(SensorLogFormat.row(record.sample))
                counts[record.sample.sensorName, default: 0] += 1
                first = first ?? record.sample.time
                last = record.sample.time
            }
            try writer.commit()
            let summary = ["gyro", "accel", "mag", "gps", "frame", "orientation"].compactMap { n in counts[n].map { "\($0) \(n)" } }
            let span = first.map { f in String(format: ", %.1f s", (last ?? f) - f) } ?? ""
            printNotice("wrote \(out): \(summary.isEmpty ? "no rows" : summary.joined(separator: ", "))\(span)")
        }
    }
}
