import ArgumentParser
import Foundation
import POIARCore
import Recordings
import Replay
import SensorLog

/// How a command fuses a log: offline or causal, and its north. Shared by `pose`, `replay`,
/// `map` and `evaluate`.
struct FusionArguments: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Fuse causally: each pose from the samples up to its time only, as a live app could have shown it.",
        discussion: "By default poses are estimated offline, with the whole recording at hand: the magnetometer's hard and soft iron, its delay and the gyro bias calibrated over the recording, then the filter run forward and backward and the two combined."))
    var causal = false

    @Option(name: .customLong("pose-source"),
            help: ArgumentHelp("Where the attitude comes from: auto, fused or phone.",
                               discussion: "auto (default): poiar's fusion; for a recording without a magnetometer, the phone's own orientation when the recording has it (Sensor Logger's Orientation.csv), else the heading from the GPS course while moving, else a relative heading. fused: poiar's fusion, never the phone's orientation. phone: the phone's own orientation."))
    var poseSource: String = "auto"

    /// `--pose-source` (checked by `validate`).
    var source: PoseSource { PoseSource(rawValue: poseSource.lowercased()) ?? .auto }

    @Flag(help: "Keep magnetic north even when the log has GPS fixes (default: true north from WMM2025).")
    var magnetic = false

    @Option(help: "Date for the magnetic model, YYYY-MM-DD; given, it wins over the log's start_utc. Default: the log's start_utc, else today (with a notice).")
    var date: String?

    @Option(parsing: .unconditional,
            help: "Where the recording was made, LAT,LON[,ALT] (degrees; metres above the WGS84 ellipsoid): the device stays there (the recording's GPS fixes are not used) and true north is taken there. For recordings without GPS.")
    var at: String?

    func validate() throws {
        if let date, TrueNorth.parseDate(date) == nil { throw ValidationError("--date: expected YYYY-MM-DD, got \"\(date)\"") }
        _ = try fixedPosition()
        guard PoseSource(rawValue: poseSource.lowercased()) != nil else {
            throw ValidationError("--pose-source: expected auto, fused or phone, got \"\(poseSource)\"")
        }
    }

    /// `--at` as a position (nil: not given).
    func fixedPosition() throws -> GeoCoordinate? { try at.map { try parseCoordinate($0, option: "--at", altitude: true) } }

    /// What `--magnetic`, `--date` and `--at` say about north (checked by `validate`).
    func northChoice() throws -> NorthChoice {
        NorthChoice(magnetic: magnetic, date: magneticModelDate, at: try fixedPosition())
    }

    /// `--date` as a date (nil: not given).
    var magneticModelDate: Date? { date.flatMap(TrueNorth.parseDate) }
}
