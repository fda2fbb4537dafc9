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

    @Option(help: "The path: a GeoJSON file with a LineString (or Point) feature or geometry.")
    var path: String?

    @Option(parsing: .unconditional, help: "The path as \"LAT,LON;LAT,LON;…\" (degrees).")
    var waypoints: String?

    @Option(help: "What the phone does: look-around, walking, pocket, or a script file (JSON, poiar-sim-script/1).")
    var script: String

    @Option(help: "Output poiar-log/1 CSV.")
    var out: String

    @Option(help: "Also write the true poses (time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement) to this CSV.")
    var truth: String?

    @Option(help: "Also write the true track at frame times (time,lat,lon,alt,heading_deg,pitch_deg,roll_deg) to this CSV.")
    var track: String?

    @Option(parsing: .unconditional, help: "Length of the log, s. Default: 60 for look-around, the walk's or the script's own length otherwise.")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Seed of the noise and of the motion's phases (default 1).")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Synthetic frame rows per second (0: none; default 2).")
    var fps: Double?

    @Option(name: .customLong("gyro-noise"), parsing: .unconditional, help: "Gyro white noise, rad/s (standard deviation; default 0.003).")
    var gyroNoise: Double?

    @Option(name: .customLong("gyro-bias"), parsing: .unconditional, help: "Constant gyro bias X,Y,Z, rad/s.")
    var gyroBias: String?

    @Option(name: .customLong("accel-noise"), parsing: .unconditional, help: "Accelerometer white noise, m/s² (default 0.05).")
    var accelNoise: Double?

    @Option(name: .customLong("mag-noise"), parsing: .unconditional, help: "Magnetometer white noise, µT (default 0.3).")
    var magNoise: Double?

    @Option(name: .customLong("hard-iron"), parsing: .unconditional, help: "Hard-iron offset X,Y,Z added to every mag sample, µT (device frame).")
    var hardIron: String?

    @Option(name: .customLong("mag-disturbance"), parsing: .unconditionalSingleValue, help: "T0,T1,UT: from T0 to T1 s an extra horizontal field of UT µT pointing east (repeatable).")
    var magDisturbance: [String] = []

    @Option(name: .customLong("gps-noise"), parsing: .unconditional, help: "GPS error, m: the 68 % horizontal radius (slowly varying), also the fixes' accuracy (default 3).")
    var gpsNoise: Double?

    @Option(name: .customLong("gps-noise-variation"), parsing: .unconditional, help: "How much the GPS error and accuracy vary over time, a fraction 0…0.9 of --gps-noise (default 0).")
    var gpsNoiseVariation: Double?

    @Option(name: .customLong("gps-outage"), parsing: .unconditionalSingleValue, help: "T0,T1: no GPS fixes from T0 to T1 s (repeatable).")
    var gpsOutage: [String] = []

    @Option(name: .customLong("gps-bad"), parsing: .unconditionalSingleValue, help: "T0,T1: the fixes from T0 to T1 s are bad, 150–400 m off with an accuracy to match (repeatable).")
    var gpsBad: [String] = []

    @Option(help: "Row order: in-order (time order) or phone (sensor batches, out of order across sensors by up to 0.3 s). Default in-order.")
    var delivery: String?

    @Option(name: .customLong("start-utc"), help: "UTC time of the log's time 0 (ISO 8601), dating the magnetic model (default 2025-06-14T10:02:11Z).")
    var startUTC: String?

    @Option(help: "POI source written as the log's `# pois:` line.")
    var pois: String?

    @Option(help: "Camera JSON written as the log's `# camera:` line.")
    var camera: String?

    static let defaultStartUTC = "2025-06-14T10:02:11Z"

    var namedScript: SimulationConfig.Script? { SimulationConfig.Script(rawValue: script) }

    func validate() throws {
        if path != nil && waypoints != nil { throw ValidationError("give --path FILE or --waypoints \"LAT,LON;…\", not both") }
        if namedScript == nil {
            guard FileManager.default.fileExists(atPath: script) else {
                throw ValidationError("--script: expected one of \(SimulationConfig.Script.allCases.map(\.rawValue).joined(separator: ", ")) or a script file, got \"\(script)\" (no such file)")
            }
        } else if path == nil && waypoints == nil {
            throw ValidationError("give --path FILE or --waypoints \"LAT,LON;…\" (one of them)")
        }
        if let duration, !(duration > 0 && duration <= 604_800) { throw ValidationError("--duration: expected seconds in (0, 604800] (a week), got \(duration)") }
        if let fps, !(fps >= 0 && fps <= 1000) { throw ValidationError("--fps: expected 0…1000, got \(fps)") }
        for (name, v) in [("--gyro-noise", gyroNoise), ("--accel-noise", accelNoise), ("--mag-noise", magNoise), ("--gps-noise", gpsNoise)]
        where v != nil && !(v! >= 0 && v!.isFinite) {
            throw ValidationError("\(name): expected a standard deviation ≥ 0, got \(v!)")
        }
        if let v = gpsNoiseVariation, !(v >= 0 && v <= 0.9) { throw ValidationError("--gps-noise-variation: expected a fraction 0…0.9, got \(v)") }
        if let delivery, Delivery.named(delivery) == nil {
            throw ValidationError("--delivery: expected \(Delivery.names.joined(separator: " or ")), got \"\(delivery)\"")
        }
        _ = try parsedVectors()
        if let waypoints { _ = try parsedWaypoints(waypoints) }
        if let startUTC, Self.parseDate(startUTC) == nil {
            throw ValidationError("--start-utc: expected an ISO 8601 UTC time like 2025-06-14T10:02:11Z, got \"\(startUTC)\"")
        }
    }

    /// --gyro-bias, --hard-iron, --mag-disturbance, --gps-outage and --gps-bad, parsed and checked once.
    func parsedVectors() throws -> (gyroBias: Vector3?, hardIron: Vector3?, magDisturbances: [SimulationConfig.MagDisturbance],
                                    gpsOutages: [SimulationConfig.TimeRange], badFixes: [SimulationConfig.TimeRange]) {
        let bias = try gyroBias.map { try parseNumbers($0, count: 3...3, option: "--gyro-bias", what: "X,Y,Z in rad/s") }
        let iron = try hardIron.map { try parseNumbers($0, count: 3...3, option: "--hard-iron", what: "X,Y,Z in µT") }
        let mags = try magDisturbance.map { s -> SimulationConfig.MagDisturbance in
            let m = try parseNumbers(s, count: 3...3, option: "--mag-disturbance", what: "T0,T1,µT")
            if m[1] <= m[0] { throw ValidationError("--mag-disturbance: T1 must be after T0, got \"\(s)\"") }
            return SimulationConfig.MagDisturbance(t0: m[0], t1: m[1], microtesla: m[2])
        }
        func ranges(_ list: [String], _ option: String) throws -> [SimulationConfig.TimeRange] {
            try list.map { s in
                let r = try parseNumbers(s, count: 2...2, option: option, what: "T0,T1 in s")
                if r[1] <= r[0] { throw ValidationError("\(option): T1 must be after T0, got \"\(s)\"") }
                return SimulationConfig.TimeRange(t0: r[0], t1: r[1])
            }
        }
        return (bias.map { Vector3($0[0], $0[1], $0[2]) }, iron.map { Vector3($0[0], $0[1], $0[2]) }, mags,
                try ranges(gpsOutage, "--gps-outage"), try ranges(gpsBad, "--gps-bad"))
    }

    func parsedWaypoints(_ s: String) throws -> [GeoCoordinate] {
        try s.split(separator: ";").map { try parseCoordinate(String($0), option: "--waypoints", altitude: true) }
    }

    static func parseDate(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: s) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: s)
    }

    func run() throws {
        try reportingErrors {
            // A script file first: it may give the path and the sensors' settings.
            var motionScript: MotionScript?
            if namedScript == nil {
                guard let data = FileManager.default.contents(atPath: script) else {
                    throw InputError(file: script, "cannot read the script file")
                }
                motionScript = try MotionScript.parse(data, file: script)
            }
            let points: [GeoCoordinate]
            if let waypoints {
                points = try parsedWaypoints(waypoints)
            } else if let path {
                points = try GeoJSONPath.read(path)
            } else if let w = motionScript?.waypoints {
                points = w
            } else {
                throw InputError(file: script, field: "waypoints", "missing: give the path in the script or with --path or --waypoints")
            }
            let start = Self.parseDate(startUTC ?? Self.defaultStartUTC)!
            var config: SimulationConfig
            if let motionScript {
                config = SimulationConfig(waypoints: points, timeline: motionScript.timeline, startUTC: start)
                config.motionName = URL(fileURLWithPath: script).lastPathComponent
                motionScript.apply(to: &config)
            } else {
                config = SimulationConfig(waypoints: points, script: namedScript!, startUTC: start)
            }
            // The command line overrides the script.
            if let startUTC { config.startUTC = Self.parseDate(startUTC)! }
            config.duration = duration
            if let seed { config.seed = seed }
            if let fps { config.fps = fps }
            if let gyroNoise { config.gyroNoise = gyroNoise }
            if let accelNoise { config.accelNoise = accelNoise }
            if let magNoise { config.magNoise = magNoise }
            if let gpsNoise { config.gpsNoise = gpsNoise }
            if let gpsNoiseVariation { config.gpsNoiseVariation = gpsNoiseVariation }
            if let delivery { config.delivery = Delivery.named(delivery)! }
            if let pois { config.pois = pois }
            if let camera { config.camera = camera }
            let vectors = try parsedVectors()
            if let v = vectors.gyroBias { config.gyroBias = v }
            if let v = vectors.hardIron { config.hardIron = v }
            if !vectors.magDisturbances.isEmpty { config.magDisturbances = vectors.magDisturbances }
            if !vectors.gpsOutages.isEmpty { config.gpsOutages = vectors.gpsOutages }
            if !vectors.badFixes.isEmpty { config.badGPSFixes = vectors.badFixes }

            let simulator: Simulator
            do { simulator = try Simulator(config: config) } catch let e as SimulationError {
                if let field = e.field { throw InputError(file: script, field: field, e.message) }
                throw InputError(file: path ?? waypoints.map { _ in "--waypoints" } ?? script, e.message)
            }
            let logWriter = try AtomicTextWriter(url: URL(fileURLWithPath: out))
            let truthWriter = try truth.map { try AtomicTextWriter(url: URL(fileURLWithPath: $0)) }
            let trackWriter = try track.map { try AtomicTextWriter(url: URL(fileURLWithPath: $0)) }
            let summary = try simulator.run(log: { try logWriter.write($0) }, truth: truthWriter.map { w in { try w.write($0) } },
                                            track: trackWriter.map { w in { try w.write($0) } })
            try logWriter.commit()
            try truthWriter?.commit()
            try trackWriter?.commit()
            let rows = ["gyro", "accel", "mag", "gps", "frame"].compactMap { n in summary.rows[n].map { "\($0) \(n)" } }.joined(separator: ", ")
            let also = [truth, track].compactMap { $0 }
            var notes: [String] = []
            if !summary.badFixTimes.isEmpty { notes.append("\(summary.badFixTimes.count) bad GPS fixes") }
            if summary.maxDisorder > 0 { notes.append(String(format: "rows up to %.3f s out of time order across sensors", summary.maxDisorder)) }
            printNotice(String(format: "wrote %@ (%.1f s, path %.1f m: %@)%@%@", out, summary.duration, summary.pathLength, rows,
                               also.isEmpty ? "" : " and " + also.joined(separator: ", "),
                               notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")))
        }
    }
}
