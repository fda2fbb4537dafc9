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
        if let gyroBias { _ = try parseNumbers(gyroBias, count: 3...3, option: "--gyro-bias", what: "X,Y,Z in rad/s") }
        if let hardIron { _ = try parseNumbers(hardIron, count: 3...3, option: "--hard-iron", what: "X,Y,Z in µT") }
        if let magDisturbance {
            let v = try parseNumbers(magDisturbance, count: 3...3, option: "--mag-disturbance", what: "T0,T1,µT")
            if v[1] <= v[0] { throw ValidationError("--mag-disturbance: T1 must be after T0") }
        }
        if let gpsOutage {
            let v = try parseNumbers(gpsOutage, count: 2...2, option: "--gps-outage", what: "T0,T1 in s")
            if v[1] <= v[0] { throw ValidationError("--gps-outage: T1 must be after T0") }
        }
        if Self.parseDate(startUTC) == nil { throw ValidationError("--start-utc: expected an ISO 8601 UTC time like 2025-06-14T10:02:11Z, got \"\(startUTC)\"") }
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
                points = try waypoints.split(separator: ";").map { part in
                    let v = try parseNumbers(String(part), count: 2...3, option: "--waypoints", what: "LAT,LON;LAT,LON;…")
                    return GeoCoordinate(latitude: v[0], longitude: v[1], altitude: v.count > 2 ? v[2] : nil)
                }
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
            if let gyroBias { let v = try parseNumbers(gyroBias, count: 3...3, option: "--gyro-bias", what: ""); config.gyroBias = Vector3(v[0], v[1], v[2]) }
            if let hardIron { let v = try parseNumbers(hardIron, count: 3...3, option: "--hard-iron", what: ""); config.hardIron = Vector3(v[0], v[1], v[2]) }
            if let magDisturbance { let v = try parseNumbers(magDisturbance, count: 3...3, option: "", what: ""); config.magDisturbance = (v[0], v[1], v[2]) }
            if let gpsOutage { let v = try parseNumbers(gpsOutage, count: 2...2, option: "", what: ""); config.gpsOutage = (v[0], v[1]) }

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
