import ArgumentParser
import Foundation
import Fusion
import Replay
import SensorLog

struct PoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Fuse a sensor log into poses: time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg (one row per gyro sample).")

    @Argument(help: "The sensor log (poiar-log/1, .csv or .csv.gz).")
    var log: String

    @Option(help: "Output CSV (written atomically). Default: stdout.")
    var out: String?

    @Flag(help: "Keep magnetic north even when the log has GPS fixes (default: true north from WMM2025).")
    var magnetic = false

    func run() throws {
        try reportingErrors {
            let reader = try SensorLogReader(path: log)
            let north = try TrueNorth.reference(logPath: log, metadata: reader.metadata, magnetic: magnetic)
            printNotice("north: \(north.explanation)")
            var params = ComplementaryFilterParams()
            params.declinationDeg = north.declinationDeg
            try PoseExport.run(logPath: log, output: out.map { URL(fileURLWithPath: $0) }, params: params,
                               notice: { printNotice($0) })
        }
    }
}
