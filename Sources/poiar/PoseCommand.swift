import ArgumentParser
import Benchmarks
import Foundation
import Fusion
import PhoneImport
import Recordings
import Replay
import SensorLog

struct PoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Fuse a sensor log into poses: time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg (one row per gyro sample).")

    @Argument(help: "The sensor log (poiar-log/1, .csv or .csv.gz), a phone recording (Sensor Logger or phyphox export: folder or .zip), or a GoPro clip (.mp4/.mov with GPMF telemetry).")
    var log: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output CSV (written atomically). (default: stdout)", valueName: "file"))
    var out: String?

    @OptionGroup(title: "Fusion") var fusion: FusionArguments

    @Option(help: ArgumentHelp("Also write the poses, GPS fixes and raw gyro/accel/mag samples as an MCAP file for Foxglove (docs/mcap.md). (default: none)", valueName: "file"))
    var mcap: String?

    @Option(help: ArgumentHelp("Also write the smoothed position track as CSV: time,lat,lon,alt,sigma_m,gps_lat,gps_lon,gps_alt,gps_accuracy_m, one row per GPS fix (docs/position.md). (default: none)", valueName: "file"))
    var track: String?

    @Flag(name: .customLong("track-gps-only"),
          help: ArgumentHelp("Smooth the --track from the GPS fixes alone, without the IMU's steps (to measure what they bring).", visibility: .hidden))
    var trackGPSOnly = false

    @Option(name: .customLong("param"), help: ArgumentHelp("Set a filter parameter, NAME=VALUE (for experiments).", visibility: .hidden))
    var filterParams: [String] = []

    @Option(help: ArgumentHelp("Also write the filter's inner state per gyro sample to this CSV.", visibility: .hidden))
    var trace: String?

    @Option(name: .customLong("bench-filter"), parsing: .unconditional,
            help: ArgumentHelp("Time N passes of the filter alone over the log held in memory; write no poses.", visibility: .hidden))
    var benchFilter: Checked<PositiveCount>?

    func run() throws {
        try reportingErrors {
            try checkOutputs(writes: [(out, "--out"), (mcap, "--mcap"), (track, "--track"), (trace, "--trace")], reads: [(log, "the recording")])
            let recording = try Recording(path: log)
            if let benchFilter { return try benchmark(passes: benchFilter.value, recording: recording) }
            try PoseExport.run(recording: recording, output: out.map { URL(fileURLWithPath: $0) }, north: fusion.northChoice,
                               params: parameters, causal: fusion.causal, poseSource: fusion.source, trace: trace.map { URL(fileURLWithPath: $0) },
                               mcap: mcap.map { URL(fileURLWithPath: $0) }, track: track.map { URL(fileURLWithPath: $0) },
                               trackMotion: !trackGPSOnly, notice: printNotice)
        }
    }

    /// The filter's parameters for `north`, with `--param`'s changes.
    func parameters(_ north: NorthReference) throws -> ComplementaryFilterParams {
        var params = ComplementaryFilterParams()
        north.apply(to: &params)
        for assignment in filterParams {
            do { try params.set(assignment) } catch { throw ValidationError("--param: \(error)") }
        }
        return params
    }

    /// `--bench-filter N`: N passes of the filter alone, timed.
    func benchmark(passes: Int, recording: Recording) throws {
        let north = try TrueNorth.reference(for: recording, fusion.northChoice)
        printNotice("north: \(north.explanation)")
        let samples = try FilterBenchmark.load(recording)
        printNotice(FilterBenchmark.run(samples: samples, params: try parameters(north), passes: passes).report)
    }
}
