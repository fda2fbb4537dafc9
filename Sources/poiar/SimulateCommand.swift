import ArgumentParser
import Foundation
import POIARCore
import Replay
import Simulation

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a phone recording along a path: a poiar-log/1 log and its ground-truth poses.",
        discussion: "Scripts: look-around (standing at the first point), walking (phone held up ahead), pocket (phone in a trouser pocket), or a script file (a timeline of stands, turns and walks; SampleLogs/walk.script.json). Deterministic for a given --seed. See docs/commands.md.")

    @Option(help: ArgumentHelp("The path: a GeoJSON file with a LineString (or Point) feature or geometry. (default: a script file's own waypoints; with a named script, this or --waypoints is needed)", valueName: "file"))
    var path: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The path (degrees). (default: as --path)", valueName: "lat,lon;lat,lon;…"))
    var waypoints: Waypoints?

    @Option(help: ArgumentHelp("What the phone does: look-around, walking, pocket, or a script file (JSON, poiar-sim-script/1).", valueName: "script"))
    var script: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output poiar-log/1 CSV.", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("Also write the true poses (time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement) to this CSV. (default: none)", valueName: "file"))
    var truth: String?

    @Option(help: ArgumentHelp("Also write the true track at frame times (time,lat,lon,alt,heading_deg,pitch_deg,roll_deg) to this CSV. (default: none)", valueName: "file"))
    var track: String?

    @OptionGroup(title: "Sensors and log (the command line wins over a script file)") var settings: SimulatedLogArguments

    func validate() throws {
        if path != nil && waypoints != nil { throw ValidationError("give --path FILE or --waypoints \"LAT,LON;…\", not both") }
        if SimulationConfig.Script(rawValue: script) == nil {
            guard FileManager.default.fileExists(atPath: script) else {
                let names = SimulationConfig.Script.allCases.map(\.rawValue)
                // A bare word is a script's name typed wrong ("walkin"); a path, a file that is not there.
                let meant = script.contains("/") || script.contains(".") ? nil : NearMiss.suggestion(for: script, among: names)
                throw ValidationError("--script: expected one of \(names.joined(separator: ", ")) or a script file, got \"\(script)\" (no such file)"
                                      + (meant.map { ". Did you mean '\($0)'?" } ?? ""))
            }
        } else if path == nil && waypoints == nil {
            throw ValidationError("give --path FILE or --waypoints \"LAT,LON;…\" (one of them)")
        }
    }

    func run() throws {
        try reportingErrors {
            // The log's `# pois:` and `# camera:` name files beside it that a replay reads:
            // writing the truth or track over one would leave the log naming that instead.
            let logFolder = URL(fileURLWithPath: out).deletingLastPathComponent()
            let named = { (path: String?) in path.map { $0.hasPrefix("/") ? $0 : logFolder.appendingPathComponent($0).path } }
            try checkOutputs(writes: [(out, "--out"), (truth, "--truth"), (track, "--track")],
                             reads: [(path, "the path"), (FileManager.default.fileExists(atPath: script) ? script : nil, "the script"),
                                     (named(settings.pois), "the POI source the log names"),
                                     (named(settings.camera), "the camera file the log names")])
            var config = try SimulationSetup.config(script: script, waypoints: waypoints?.points, pathFile: path,
                                                    startUTC: SimulatedLogArguments.defaultStart)
            settings.apply(to: &config)
            let simulator = try SimulationSetup.simulator(config, script: script, pathSource: path ?? waypoints.map { _ in "--waypoints" } ?? script)
            let writers = try [out, truth, track].map { try $0.map { try AtomicTextWriter(url: URL(fileURLWithPath: $0)) } }
            let summary = try simulator.run(log: { try writers[0]!.write($0) }, truth: writers[1].map { w in { try w.write($0) } },
                                            track: writers[2].map { w in { try w.write($0) } })
            for writer in writers { try writer?.commit() }
            printNotice(summary.report(log: out, also: [truth, track].compactMap { $0 }))
        }
    }
}

/// `simulate`'s sensors and log settings; each given one overrides a script file's.
struct SimulatedLogArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Length of the log, s. (default: 60 for look-around, the walk's or the script's own length otherwise)", valueName: "s"))
    var duration: Checked<LogDuration>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed of the noise and of the motion's phases. (default: 1)", valueName: "n"))
    var seed: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Synthetic frame rows per second (0: none). (default: 2)", valueName: "n"))
    var fps: Checked<FrameRateOrNone>?

    @Option(name: .customLong("gyro-noise"), parsing: .unconditional, help: ArgumentHelp("Gyro white noise, rad/s (standard deviation). (default: 0.003)", valueName: "sd"))
    var gyroNoise: Checked<StandardDeviation>?

    @Option(name: .customLong("gyro-bias"), parsing: .unconditional, help: ArgumentHelp("Constant gyro bias, rad/s. (default: none)", valueName: "x,y,z"))
    var gyroBias: DeviceVector?

    @Option(name: .customLong("accel-noise"), parsing: .unconditional, help: ArgumentHelp("Accelerometer white noise, m/s². (default: 0.05)", valueName: "sd"))
    var accelNoise: Checked<StandardDeviation>?

    @Option(name: .customLong("mag-noise"), parsing: .unconditional, help: ArgumentHelp("Magnetometer white noise, µT. (default: 0.3)", valueName: "sd"))
    var magNoise: Checked<StandardDeviation>?

    @Option(name: .customLong("hard-iron"), parsing: .unconditional, help: ArgumentHelp("Hard-iron offset added to every mag sample, µT, device frame. (default: none)", valueName: "x,y,z"))
    var hardIron: DeviceVector?

    @Option(name: .customLong("mag-disturbance"), parsing: .unconditionalSingleValue, help: ArgumentHelp("From T0 to T1 s an extra horizontal field of UT µT pointing east (repeatable). (default: none)", valueName: "t0,t1,ut"))
    var magDisturbance: [FieldDisturbance] = []

    @Option(name: .customLong("gps-noise"), parsing: .unconditional, help: ArgumentHelp("GPS error, m: the 68 % horizontal radius (slowly varying), also the fixes' accuracy. (default: 3)", valueName: "m"))
    var gpsNoise: Checked<StandardDeviation>?

    @Option(name: .customLong("gps-noise-variation"), parsing: .unconditional, help: ArgumentHelp("How much the GPS error and accuracy vary over time, a fraction 0…0.9 of --gps-noise. (default: 0)", valueName: "f"))
    var gpsNoiseVariation: Checked<NoiseVariation>?

    @Option(name: .customLong("gps-outage"), parsing: .unconditionalSingleValue, help: ArgumentHelp("No GPS fixes from T0 to T1 s (repeatable). (default: none)", valueName: "t0,t1"))
    var gpsOutage: [TimeSpan] = []

    @Option(name: .customLong("gyro-outage"), parsing: .unconditionalSingleValue, help: ArgumentHelp("No gyro samples from T0 to T1 s, the other sensors going on (repeatable). (default: none)", valueName: "t0,t1"))
    var gyroOutage: [TimeSpan] = []

    @Option(name: .customLong("gps-bad"), parsing: .unconditionalSingleValue, help: ArgumentHelp("The fixes from T0 to T1 s are bad, 150–400 m off with an accuracy to match (repeatable). (default: none)", valueName: "t0,t1"))
    var gpsBad: [TimeSpan] = []

    @Option(help: "Row order: in-order (time order) or phone (sensor batches, out of order across sensors by up to 0.3 s).")
    var delivery: RowDelivery = .notGiven

    @Option(name: .customLong("start-utc"), help: ArgumentHelp("UTC time of the log's time 0 (ISO 8601), dating the magnetic model. (default: 2025-06-14T10:02:11Z)", valueName: "time"))
    var startUTC: UTCTime?

    @Option(help: ArgumentHelp("POI source written as the log's `# pois:` line. (default: none)", valueName: "source"))
    var pois: String?

    @Option(help: ArgumentHelp("Camera JSON written as the log's `# camera:` line. (default: none)", valueName: "file"))
    var camera: String?

    /// The log's time 0 when neither the command line nor a script file gives one.
    static let defaultStart = try! UTCTime(checking: "2025-06-14T10:02:11Z").date

    /// Overrides `config` with the settings given.
    func apply(to config: inout SimulationConfig) {
        if let startUTC { config.startUTC = startUTC.date }
        config.duration = duration?.value
        if let seed { config.seed = seed }
        if let fps { config.fps = fps.value }
        if let gyroNoise { config.gyroNoise = gyroNoise.value }
        if let accelNoise { config.accelNoise = accelNoise.value }
        if let magNoise { config.magNoise = magNoise.value }
        if let gpsNoise { config.gpsNoise = gpsNoise.value }
        if let gpsNoiseVariation { config.gpsNoiseVariation = gpsNoiseVariation.value }
        if let delivery = delivery.delivery { config.delivery = delivery }
        if let pois { config.pois = pois }
        if let camera { config.camera = camera }
        if let gyroBias { config.gyroBias = gyroBias.vector }
        if let hardIron { config.hardIron = hardIron.vector }
        if !magDisturbance.isEmpty {
            config.magDisturbances = magDisturbance.map { .init(t0: $0.span.start, t1: $0.span.end, microtesla: $0.microtesla) }
        }
        if !gpsOutage.isEmpty { config.gpsOutages = gpsOutage.map { .init(t0: $0.start, t1: $0.end) } }
        if !gyroOutage.isEmpty { config.gyroOutages = gyroOutage.map { .init(t0: $0.start, t1: $0.end) } }
        if !gpsBad.isEmpty { config.badGPSFixes = gpsBad.map { .init(t0: $0.start, t1: $0.end) } }
    }
}
