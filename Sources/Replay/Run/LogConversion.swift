import Foundation
import PhoneImport
import Recordings
import SensorLog

/// `poiar convert`: a recording rewritten as a poiar-log/1 log.
public enum LogConversion {
    /// Writes the recording at `input` (a phone export, a GoPro clip, a poiar-log/1 log) to
    /// `output`: the header, then every row in time order with fixed formats, into a temporary
    /// file renamed into place. Returns what was written, for the command to say.
    public static func run(input: String, output: String, notice: @escaping (String) -> Void) throws -> String {
        let source = try openLogSource(path: input)
        source.onNotice = notice
        let writer = try AtomicTextWriter(url: URL(fileURLWithPath: output))
        let (metadata, footageNotice) = LogFolderPath.relocatingFootage(source.metadata, from: input, to: output)
        if let footageNotice { notice(footageNotice) }
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
        return "wrote \(output): \(summary.isEmpty ? "no rows" : summary.joined(separator: ", "))\(span)"
    }
}
