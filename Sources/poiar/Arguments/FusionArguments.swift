import ArgumentParser
import Foundation
import POIARCore
import Recordings
import Replay
import SensorLog

/// How a command fuses a log: offline or causal, where the attitude comes from, and its north.
/// Shared by `pose`, `replay`, `map` and `evaluate`.
struct FusionArguments: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Fuse causally: each pose from the samples up to its time only, as a live app could have shown it.",
        discussion: "By default poses are estimated offline, with the whole recording at hand: the magnetometer's hard and soft iron, its delay and the gyro bias calibrated over the recording, then the filter run forward and backward and the two combined."))
    var causal = false

    @Option(name: .customLong("pose-source"),
            help: ArgumentHelp("Where the attitude comes from.",
                               discussion: "auto: poiar's fusion; for a recording without a magnetometer, the phone's own orientation when the recording has it (Sensor Logger's Orientation.csv), else the heading from the GPS course while moving, else a relative heading. fused: poiar's fusion, never the phone's orientation. phone: the phone's own orientation.", valueName: "source"))
    var source: PoseSource = .auto

    @Flag(help: "Keep magnetic north even when the log has GPS fixes. (default: true north from WMM2025)")
    var magnetic = false

    @Option(help: ArgumentHelp("Date for the magnetic model; given, it wins over the log's start_utc. (default: the log's start_utc, else today, with a notice)", valueName: "YYYY-MM-DD"))
    var date: ModelDate?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Where the recording was made (degrees; metres above the WGS84 ellipsoid): the device stays there (the recording's GPS fixes are not used) and true north is taken there. For recordings without GPS. (default: the GPS fixes)", valueName: "lat,lon[,alt]"))
    var at: Position?

    /// `--at` as a position (nil: not given).
    var fixedPosition: GeoCoordinate? { at?.coordinate }

    /// `--date` as a date (nil: not given).
    var magneticModelDate: Date? { date?.date }

    /// What `--magnetic`, `--date` and `--at` say about north.
    var northChoice: NorthChoice { NorthChoice(magnetic: magnetic, date: magneticModelDate, at: fixedPosition) }

    /// Sets how a replay or map fuses its log.
    func apply(to options: inout some FusionSettings) {
        options.magnetic = magnetic
        options.date = magneticModelDate
        options.causal = causal
        options.poseSource = source
        options.fixedPosition = fixedPosition
    }
}

/// The fusion settings of a run over a log: `replay`'s and `map`'s options.
protocol FusionSettings {
    var magnetic: Bool { get set }
    var date: Date? { get set }
    var causal: Bool { get set }
    var poseSource: PoseSource { get set }
    var fixedPosition: GeoCoordinate? { get set }
}
extension ReplayOptions: FusionSettings {}
extension MapOptions: FusionSettings {}
