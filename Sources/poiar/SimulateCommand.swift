import ArgumentParser
import Foundation
import POIARCore
import Replay
import Simulation

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a phone recording along a path: a poiar-log/1 log and its ground-truth poses.",
        discussion: "Scripts: look-around (standing at the first point), walking (phone held up ahead), pocket (phone in a trouser pocket). Deterministic for a given --seed. See docs/commands.md.")

    @Option(help: "The path: a GeoJSON file with a LineString (or Point) feature or geometry.")
    var path: String?

    @Option(help: "The path as \"LAT,LON;LAT,LON;…\" (degrees).")
    var waypoints: String?

    @Option(help: "What the phone does: look-around, walking or pocket.")
    var script: String

    @Option(help: "Output poiar-log/1 CSV.")
    var out: String

    @Option(help: "Also write the true poses (time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement) to this CSV.")
    var truth: String?

    @Option(help: "Length of the log, s. Default: 60 for look-around, the walk's own length otherwise.")
    var duration: Double?

    @Option(help: "Seed of the noise and of the motion's phases.")
    var seed: UInt64 = 1

    @Option(help: "Synthetic frame rows per second (0: none).")
    var fps: Double = 2

    @Option(name: .customLong("gyro-noise"), help: "Gyro white noise, rad/s (standard deviation).")
    var gyroNoise: Double = 0.003

    @Option(name: .customLong("gyro-bias"), help: "Constant gyro bias X,Y,Z, rad/s.")
    var gyroBias: String?

    @Option(name: .customLong("accel-noise"), help: "Accelerometer white noise, m/s².")
    var accelNoise: Double = 0.05

    @Option(name: .customLong("mag-noise"), help: "Magnetometer white noise, µT.")
    var magNoise: Double = 0.3

    @Option(name: .customLong("hard-iron"), help: "Hard-iron offset X,Y,Z added to every mag sample, µT (device frame).")
    var hardIron: String?

    @Option(name: .customLong("mag-disturbance"), help: "T0,T1,UT: from T0 to T1 s an extra horizontal field of UT µT pointing east.")
    var magDisturbance: String?

    @Option(name: .customLong("gps-noise"), help: "GPS error, m: the 68 % horizontal radius (slowly varying), also the fixes' accuracy.")
    var gpsNoise: Double = 3

    @Option(name: .customLong("gps-outage"), help: "T0,T1: no GPS fixes from T0 to T1 s.")
    var gpsOutage: String?

    @Option(name: .customLong("start-utc"), help: "UTC time of the log's time 0 (ISO 8601), dating the magnetic model.")
    var startUTC: String = "2025-06-14T10:02:11Z"

    @Option(help: "POI source written as the log's `# pois:` line.")
    var pois: String?

    func validate() throws {
        if (path == nil) == (waypoints == nil) { throw ValidationError("give --path FILE or --waypoints \"LAT,LON;…\" (one of them)") }
        if SimulationConfig.Script(rawValue: script) == nil {
            throw ValidationError("--script: expected one of \(SimulationConfig.Script.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(script)\"")
        }
        if let duration, !(duration > 0 && duration <= 86_400) { throw ValidationError("--duration: expected seconds in (0, 86400], got \(duration)") }
        if !(fps >= 0 && fps <= 1000) { throw ValidationError("--fps: expected 0…1000, got \(fps)") }
        for (name, v) in [("--gyro-noise", gyroNoise), ("--accel-noise", accelNoise), ("--mag-noise", magNoise), ("--gps-noise", gpsNoise)]
        where !(v >= 0 && v.isFinite) {
            throw ValidationError("\(name): expected a standard deviation ≥ 0, got \(v)")
        }
        _ = try parsedVectors()
        if let waypoints { _ = try parsedWaypoints(waypoints) }
        if Self.parseDate(startUTC) == nil { throw ValidationError("--start-utc: expected an ISO 8601 UTC time like 2025-06-14T10:02:11Z, got \"\(startUTC)\"") }
    }

    /// --gyro-bias, --hard-iron, --mag-disturbance and --gps-outage, parsed and checked once.
    func parsedVectors() throws -> (gyroBias: Vector3?, hardIron: Vector3?, magDisturbance: (Double, Double, Double)?,
                                    gpsOutage: (Double, Double)?) {
        let bias = try gyroBias.map { try parseNumbers($0, count: 3...3, option: "--gyro-bias", what: "X,Y,Z in rad/s") }
        let iron = try hardIron.map { try parseNumbers($0, count: 3...3, option: "--hard-iron", what: "X,Y,Z in µT") }
        let mag = try magDisturbance.map { try parseNumbers($0, count: 3...3, option: "--mag-disturbance", what: "T0,T1,µT") }
        if let mag, mag[1] <= mag[0] { throw ValidationError("--mag-disturbance: T1 must be after T0") }
        let gps = try gpsOutage.map { try parseNumbers($0, count: 2...2, option: "--gps-outage", what: "T0,T1 in s") }
        if let gps, gps[1] <= gps[0] { throw ValidationError("--gps-outage: T1 must be after T0") }
        return (bias.map { Vector3($0[0], $0[1], $0[2]) }, iron.map { Vector3($0[0], $0[1], $0[2]) },
                mag.map { ($0[0], $0[1], $0[2]) }, gps.map { ($0[0], $0[1]) })
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
            let points: [GeoCoordinate]
            if let waypoints {
                points = try parsedWaypoints(waypoints)
            } else {
                points = try PathFile.read(path!)
            }
            var config = SimulationConfig(waypoints: points, script: SimulationConfig.Script(rawValue: script)!,
                                          startUTC: Self.parseDate(startUTC)!)
            config.duration = duration
            config.seed = seed
            config.fps = fps
            config.gyroNoise = gyroNoise
            config.accelNoise = accelNoise
            config.magNoise = magNoise
            config.gpsNoise = gpsNoise
            config.pois = pois
            let vectors = try parsedVectors()
            if let v = vectors.gyroBias { config.gyroBias = v }
            if let v = vectors.hardIron { config.hardIron = v }
            if let v = vectors.magDisturbance { config.magDisturbance = v }
            if let v = vectors.gpsOutage { config.gpsOutage = v }

            let simulator: Simulator
            do { simulator = try Simulator(config: config) } catch let e as SimulationError {
                throw InputError(file: path ?? "--waypoints", e.description)
            }
            let logWriter = try AtomicTextWriter(url: URL(fileURLWithPath: out))
            let truthWriter = try truth.map { try AtomicTextWriter(url: URL(fileURLWithPath: $0)) }
            let summary = try simulator.run(log: { try logWriter.write($0) }, truth: truthWriter.map { w in { try w.write($0) } })
            try logWriter.commit()
            try truthWriter?.commit()
            let rows = ["gyro", "accel", "mag", "gps", "frame"].compactMap { n in summary.rows[n].map { "\($0) \(n)" } }.joined(separator: ", ")
            printNotice(String(format: "wrote %@ (%.1f s, path %.1f m: %@)%@", out, summary.duration, summary.pathLength, rows,
                               truth.map { " and \($0)" } ?? ""))
        }
    }
}

/// Reads a path from GeoJSON: the first LineString (or MultiLineString's first line, or
/// Point) of a FeatureCollection, Feature or bare geometry. Coordinates are [lon, lat(, alt)].
enum PathFile {
    static func read(_ path: String) throws -> [GeoCoordinate] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(file: path, "cannot read: \(error.localizedDescription)")
        }
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw InputError(file: path, "not JSON: expected a GeoJSON LineString")
        }
        func coordinates(_ any: Any) -> [[Double]]? {
            guard let obj = any as? [String: Any], let type = obj["type"] as? String else { return nil }
            switch type {
            case "FeatureCollection":
                for f in obj["features"] as? [Any] ?? [] { if let c = coordinates(f), c.count > 1 { return c } }
                for f in obj["features"] as? [Any] ?? [] { if let c = coordinates(f) { return c } }
                return nil
            case "Feature": return obj["geometry"].flatMap(coordinates)
            case "LineString": return (obj["coordinates"] as? [[Any]])?.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
            case "MultiLineString": return (obj["coordinates"] as? [[[Any]]])?.first?.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
            case "Point": return (obj["coordinates"] as? [Any]).map { [$0.compactMap { ($0 as? NSNumber)?.doubleValue }] }
            default: return nil
            }
        }
        guard let coords = coordinates(json), !coords.isEmpty else {
            throw InputError(file: path, "no LineString or Point found: expected a GeoJSON path")
        }
        return try coords.enumerated().map { i, c in
            guard c.count >= 2, abs(c[1]) <= 90, abs(c[0]) <= 180 else {
                throw InputError(file: path, field: "coordinates[\(i)]", "expected [longitude, latitude(, altitude)] in degrees")
            }
            return GeoCoordinate(latitude: c[1], longitude: c[0], altitude: c.count > 2 ? c[2] : nil)
        }
    }
}
