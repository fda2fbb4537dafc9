import Foundation
import Geodesy
import POIARCore
import SensorLog

/// What `poiar simulate` is told. Units: seconds, metres, rad/s, m/s², µT.
public struct SimulationConfig: Sendable {
    public enum Script: String, CaseIterable, Sendable {
        /// Standing at the first waypoint, phone held up in portrait, looking around: heading
        /// sweeps of ±90° and more, pitch ±12°, roll ±3°.
        case lookAround = "look-around"
        /// Walking the path at 1.35 m/s with the phone held up ahead (as the sample walk):
        /// 3 s standing, a 1.5 s start ramp, gentle head sweeps, step bounce, surge and sway,
        /// a stop ramp and 3 s standing at the end.
        case walking
        /// Walking the path with the phone upside down in a trouser pocket, screen to the leg:
        /// the leg swings it ±25° at half the step rate, with harder bounces.
        case pocket
    }

    public var waypoints: [GeoCoordinate]
    public var script: Script
    /// Length of the log; nil: 60 s for look-around, the walk's own length otherwise.
    public var duration: Double?
    public var seed: UInt64 = 1
    /// Synthetic frame rows per second (0: none).
    public var fps = 2.0
    public var imuRate = 100.0
    public var magRate = 50.0
    public var gpsRate = 1.0
    /// White-noise standard deviations.
    public var gyroNoise = 0.003
    public var accelNoise = 0.05
    public var magNoise = 0.3
    /// Constant gyro bias, rad/s (device frame).
    public var gyroBias = Vector3.zero
    /// Hard iron: a constant field in the device frame added to every mag sample, µT.
    public var hardIron = Vector3.zero
    /// A magnetic disturbance from t0 to t1 (1 s smooth on and off): a horizontal field of
    /// `microtesla` pointing east in the world frame, as from a car or a steel beam.
    public var magDisturbance: (t0: Double, t1: Double, microtesla: Double)?
    /// GPS error: the 68 % horizontal radius, m (Gauss–Markov, τ 20 s); also the accuracy
    /// written in the fixes. 0: exact fixes.
    public var gpsNoise = 3.0
    /// No GPS fixes from t0 to t1.
    public var gpsOutage: (t0: Double, t1: Double)?
    public var startUTC: Date
    /// Written as the log's `# pois:` line when given.
    public var pois: String?
    /// Height of the ground where the path has none (GeoJSON without z), m above the
    /// ellipsoid; the phone is 1.4 m above it.
    public var groundAltitude = 0.0

    public init(waypoints: [GeoCoordinate], script: Script, startUTC: Date) {
        self.waypoints = waypoints; self.script = script; self.startUTC = startUTC
    }
}

/// Summary of a simulation, for the command's report.
public struct SimulationSummary: Sendable {
    public var duration: Double
    public var rows: [String: Int]
    public var pathLength: Double
    public var fieldENU: Vector3
    public var declinationDeg: Double
}

/// The simulator: a known trajectory and attitude (`Trajectory`), sampled by ideal sensors
/// plus noise, written as a poiar-log/1 log and its truth. Conventions are the contract's
/// and tools/simulate_walk.py's:
///
/// - q = qz(−heading) ⊗ qx(90° + pitch) ⊗ qz(−roll), rotating device vectors into ENU;
/// - gyro: the mean body rate over [t − dt/2, t + dt/2], ω = 2·log(q(t−dt/2)⁻¹ ⊗ q(t+dt/2))/dt,
///   + bias + white noise;
/// - accel: Rᵀ(a_world + g·ẑ) + white noise, g = 9.81;
/// - mag: Rᵀ(m_world + disturbance) + hard iron + white noise, m_world from WMM2025 at the
///   start point and date;
/// - gps: the true position + a first-order Gauss–Markov error per axis (τ 20 s,
///   σ = noise/1.51 so the noise is the 68 % radius), altitude error 1.5×.
public struct Simulator: Sendable {
    public let config: SimulationConfig
    let trajectory: Trajectory
    public let fieldENU: Vector3
    public let declinationDeg: Double
    public static let gravity = 9.81

    public init(config: SimulationConfig) throws {
        guard let first = config.waypoints.first else { throw SimulationError("no waypoints") }
        guard config.waypoints.allSatisfy(\.isValid) else { throw SimulationError("a waypoint is not a valid latitude/longitude") }
        if let d = config.duration, !(d > 0 && d <= 86_400) { throw SimulationError("duration must be in (0, 86400] s, got \(d)") }
        guard config.imuRate > 0, config.magRate > 0, config.gpsRate > 0, config.fps >= 0 else {
            throw SimulationError("sample rates must be > 0")
        }
        self.config = config
        trajectory = try Trajectory(config: config)
        let alt = (first.altitude ?? config.groundAltitude) + Trajectory.handHeight
        let year = WorldMagneticModel.decimalYear(config.startUTC)
        let field = WorldMagneticModel.wmm2025.field(latitude: first.latitude, longitude: first.longitude, heightKm: alt / 1000, year: year)
        fieldENU = field.enuMicrotesla
        declinationDeg = field.declinationDeg
    }

    public var duration: Double { trajectory.duration }

    /// Writes the log (metadata, header, rows in time order) through `log` and, when given,
    /// the truth through `truth`: `time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement`
    /// at every gyro time (pose_eval.py reads it as a truth file; the first eight columns are
    /// the pose CSV's).
    @discardableResult
    public func run(log: (String) throws -> Void, truth: ((String) throws -> Void)?) throws -> SimulationSummary {
        let c = config
        var rng = SplitMix64(seed: c.seed)
        // Independent streams per sensor, so changing one option leaves the others' noise alone.
        var gyroRNG = SplitMix64(seed: rng.next()), accelRNG = SplitMix64(seed: rng.next())
        var magRNG = SplitMix64(seed: rng.next()), gpsRNG = SplitMix64(seed: rng.next())
        func noise(_ r: inout SplitMix64, _ sigma: Double) -> Vector3 {
            sigma > 0 ? Vector3(r.gaussian(), r.gaussian(), r.gaussian()) * sigma : .zero
        }

        var meta = LogMetadata()
        meta.entries.append(("format", SensorLogReader.formatName))
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        meta.entries.append(("start_utc", iso.string(from: c.startUTC)))
        meta.entries.append(("device", "poiar simulate (script \(c.script.rawValue), seed \(c.seed))"))
        if let pois = c.pois { meta.entries.append(("pois", pois)) }
        meta.entries.append(("sim_note", "SIMULATED sensor data (known path and attitude + noise)"))
        meta.entries.append(("sim_mag_field_enu_ut", String(format: "%.3f, %.3f, %.3f", fieldENU.x, fieldENU.y, fieldENU.z)))
        meta.entries.append(("sim_declination_deg", String(format: "%.3f", declinationDeg)))
        meta.entries.append(("sim_gyro_bias_rad_s", String(format: "%.4f, %.4f, %.4f", c.gyroBias.x, c.gyroBias.y, c.gyroBias.z)))
        meta.entries.append(("sim_noise_sigma", String(format: "gyro %.4f rad/s, accel %.3f m/s2, mag %.2f uT, gps %.1f m", c.gyroNoise, c.accelNoise, c.magNoise, c.gpsNoise)))
        if c.hardIron != .zero {
            meta.entries.append(("sim_hard_iron_ut", String(format: "%.2f, %.2f, %.2f", c.hardIron.x, c.hardIron.y, c.hardIron.z)))
        }
        if let d = c.magDisturbance {
            meta.entries.append(("sim_mag_disturbance", String(format: "%.2f-%.2f s, %.2f uT east", d.t0, d.t1, d.microtesla)))
        }
        if let o = c.gpsOutage { meta.entries.append(("sim_gps_outage", String(format: "%.2f-%.2f s", o.t0, o.t1))) }
        for line in SensorLogFormat.headerLines(meta) { try log(line) }
        try truth?("time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement")

        let T = trajectory.duration
        var rows: [String: Int] = [:]
        // Sample times of each sensor; rows are written in time order, at equal times in the
        // order gps, accel, mag, gyro, frame (so the filter has its first attitude at the
        // first gyro sample).
        var k = (gps: 0, imu: 0, mag: 0, frame: 0)
        func time(_ i: Int, _ rate: Double, _ t0: Double) -> Double { t0 + Double(i) / rate }
        let magT0 = 0.004, frameT0 = 0.1
        let dt = 1 / c.imuRate
        let plane = trajectory.plane
        var gpsError = Vector3(gpsRNG.gaussian(), gpsRNG.gaussian(), gpsRNG.gaussian())
        let phi = exp(-1 / (20 * c.gpsRate))
        let sigmaH = c.gpsNoise / 1.51

        func emit(_ s: SensorSample) throws {
            try log(SensorLogFormat.row(s))
            rows[s.sensorName, default: 0] += 1
        }
        func emitMag(_ t: Double) throws {
            let r = trajectory.attitude(t).matrix.transposed
            var world = fieldENU
            if let d = c.magDisturbance {
                let on = Trajectory.smoother(t - d.t0) - Trajectory.smoother(t - d.t1)
                world = world + Vector3(d.microtesla * on, 0, 0)
            }
            try emit(.mag(time: t, field: r * world + c.hardIron + noise(&magRNG, c.magNoise)))
        }

        while true {
            let tg = time(k.gps, c.gpsRate, 0), ti = time(k.imu, c.imuRate, 0)
            let tm = time(k.mag, c.magRate, magT0)
            let tf = c.fps > 0 ? time(k.frame, c.fps, frameT0) : .infinity
            let next = min(tg, ti, tm, tf)
            if next > T + 1e-9 { break }
            if tg == next {
                if k.gps > 0 {
                    gpsError = gpsError * phi + Vector3(gpsRNG.gaussian(), gpsRNG.gaussian(), gpsRNG.gaussian()) * (1 - phi * phi).squareRoot()
                }
                k.gps += 1
                if let o = c.gpsOutage, tg >= o.t0, tg < o.t1 { continue }
                let p = trajectory.position(tg)
                let err = Vector3(gpsError.x * sigmaH, gpsError.y * sigmaH, gpsError.z * sigmaH * 1.5)
                let geo = plane.geodetic(enu: p + err)
                try emit(.gps(GPSFix(time: tg, coordinate: GeoCoordinate(latitude: geo.latitude, longitude: geo.longitude, altitude: geo.altitude),
                                     horizontalAccuracy: c.gpsNoise)))
                continue
            }
            if ti == next {
                let q = trajectory.attitude(ti)
                let r = q.matrix.transposed
                let f = r * (trajectory.acceleration(ti) + Vector3(0, 0, Simulator.gravity))
                try emit(.accel(time: ti, force: f + noise(&accelRNG, c.accelNoise)))
                // Magnetometer samples due at the same time come before the gyro's.
                while abs(time(k.mag, c.magRate, magT0) - ti) < 1e-12 {
                    try emitMag(time(k.mag, c.magRate, magT0)); k.mag += 1
                }
                let dq = (trajectory.attitude(ti - dt / 2).conjugate * trajectory.attitude(ti + dt / 2)).canonical
                let w = Trajectory.log(dq) / dt
                try emit(.gyro(time: ti, rate: w + c.gyroBias + noise(&gyroRNG, c.gyroNoise)))
                if let truth {
                    let qc = q.canonical, a = Pose(q).angles
                    try truth(String(format: "%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f,1", ti, qc.w, qc.x, qc.y, qc.z, a.heading, a.pitch, a.roll))
                }
                k.imu += 1
                continue
            }
            if tm == next { try emitMag(tm); k.mag += 1; continue }
            try emit(.frame(time: tf, still: nil))
            k.frame += 1
        }

        return SimulationSummary(duration: T, rows: rows, pathLength: trajectory.pathLength, fieldENU: fieldENU, declinationDeg: declinationDeg)
    }
}

/// The true motion of a script: position and acceleration in the local ENU plane of the first
/// waypoint (at the phone's height), and the attitude, as functions of time.
struct Trajectory: Sendable {
    static let handHeight = 1.4
    static let speed = 1.35, ramp = 1.5, standStart = 3.0, standEnd = 3.0
    static let stepHz = 1.8

    let script: SimulationConfig.Script
    let plane: LocalTangentPlane
    let path: WalkPathBox?
    let duration: Double
    let walkStart: Double, walkEnd: Double
    let altitude: Double
    /// Random phases of the oscillations.
    let phase: [Double]
    let startBearing: Double

    var pathLength: Double { path?.path.length ?? 0 }

    init(config: SimulationConfig) throws {
        script = config.script
        var rng = SplitMix64(seed: config.seed ^ 0x5EED_5EED_5EED_5EED)
        phase = (0..<10).map { _ in 2 * .pi * rng.uniform() }
        let first = config.waypoints[0]
        altitude = (first.altitude ?? config.groundAltitude) + Trajectory.handHeight
        switch config.script {
        case .lookAround:
            plane = LocalTangentPlane(origin: GeoCoordinate(latitude: first.latitude, longitude: first.longitude, altitude: 0))
            path = nil
            duration = config.duration ?? 60
            walkStart = .infinity; walkEnd = .infinity
            if config.waypoints.count > 1 {
                let v = plane.enu(GeoCoordinate(latitude: config.waypoints[1].latitude, longitude: config.waypoints[1].longitude, altitude: 0))
                startBearing = atan2(v.x, v.y) * 180 / .pi
            } else { startBearing = 0 }
        case .walking, .pocket:
            let p = try WalkPath(waypoints: config.waypoints)
            plane = p.plane
            path = WalkPathBox(path: p)
            walkStart = Trajectory.standStart
            walkEnd = walkStart + p.length / Trajectory.speed + Trajectory.ramp
            duration = config.duration ?? (walkEnd + Trajectory.standEnd)
            startBearing = p.bearing(at: 0)
        }
    }

    // MARK: speed profile

    /// Smootherstep: 0 below 0, 1 above 1, C² in between.
    static func smoother(_ x: Double) -> Double {
        let v = min(max(x, 0), 1)
        return v * v * v * (v * (v * 6 - 15) + 10)
    }
    private static func smootherD(_ x: Double) -> Double { x <= 0 || x >= 1 ? 0 : 30 * x * x * (x - 1) * (x - 1) }
    private static func smootherD2(_ x: Double) -> Double { x <= 0 || x >= 1 ? 0 : 60 * x * (2 * x - 1) * (x - 1) }
    /// ∫₀ˣ smoother.
    private static func smootherI(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 0.5 + (x - 1) }
        return x * x * x * x * (x * (x - 3) + 2.5)
    }

    /// Walking weight 0…1 (0 standing, 1 at full speed) and its first two derivatives.
    func weight(_ t: Double) -> (w: Double, d: Double, d2: Double) {
        guard path != nil else { return (0, 0, 0) }
        let R = Trajectory.ramp
        let x1 = (t - walkStart) / R, x2 = (t - walkEnd + R) / R
        return (Trajectory.smoother(x1) - Trajectory.smoother(x2),
                (Trajectory.smootherD(x1) - Trajectory.smootherD(x2)) / R,
                (Trajectory.smootherD2(x1) - Trajectory.smootherD2(x2)) / (R * R))
    }

    /// Distance walked, m.
    func distance(_ t: Double) -> Double {
        guard let path else { return 0 }
        let R = Trajectory.ramp
        let s = Trajectory.speed * R * (Trajectory.smootherI((t - walkStart) / R) - Trajectory.smootherI((t - walkEnd + R) / R))
        return min(max(s, 0), path.path.length)
    }

    // MARK: position and acceleration

    /// Step oscillations: (amplitude of acceleration m/s², angular frequency, phase) for the
    /// bounce (up), the surge (forward) and the sway (right).
    private var oscillations: [(a: Double, w: Double, ph: Double)] {
        let ws = 2 * Double.pi * Trajectory.stepHz
        let bounce = script == .pocket ? 2.0 : 1.0
        return [(bounce, ws, phase[0]), (0.4, ws, phase[1]), (0.25, ws / 2, phase[2])]
    }

    func position(_ t: Double) -> Vector3 {
        guard let path else { return Vector3(0, 0, altitude) }
        let s = distance(t)
        let p = path.path.position(at: s), tan = path.path.tangent(at: s)
        let right = (e: tan.n, n: -tan.e)
        let w = weight(t).w
        let o = oscillations.map { -$0.a / ($0.w * $0.w) * sin($0.w * t + $0.ph) * w }
        return Vector3(p.e + tan.e * o[1] + right.e * o[2], p.n + tan.n * o[1] + right.n * o[2], altitude + o[0])
    }

    /// The true acceleration (second derivative of `position`), m/s²: along the path
    /// v̇·T + v²·dT/ds, plus the step oscillations (with the ramps' product-rule terms).
    func acceleration(_ t: Double) -> Vector3 {
        guard let path else { return .zero }
        let s = distance(t)
        let (w, wd, wd2) = weight(t)
        let v = Trajectory.speed * w, vd = Trajectory.speed * wd
        let tan = path.path.tangent(at: s), k = path.path.curvatureVector(at: s)
        let right = (e: tan.n, n: -tan.e)
        var a = Vector3(vd * tan.e + v * v * k.e, vd * tan.n + v * v * k.n, 0)
        let o = oscillations.map { osc -> Double in
            let f = -osc.a / (osc.w * osc.w) * sin(osc.w * t + osc.ph)
            let fd = -osc.a / osc.w * cos(osc.w * t + osc.ph)
            let fd2 = osc.a * sin(osc.w * t + osc.ph)
            return fd2 * w + 2 * fd * wd + f * wd2
        }
        a = a + Vector3(tan.e * o[1] + right.e * o[2], tan.n * o[1] + right.n * o[2], o[0])
        return a
    }

    // MARK: attitude

    /// Heading, pitch and roll in degrees (the contract's definitions).
    func angles(_ t: Double) -> (heading: Double, pitch: Double, roll: Double) {
        let ph = phase
        func sinp(_ period: Double, _ p: Double) -> Double { sin(2 * .pi * t / period + p) }
        let step = 2 * Double.pi * Trajectory.stepHz
        switch script {
        case .lookAround:
            let heading = startBearing + 90 * sin(2 * .pi * t / 24 + ph[3]) - 90 * sin(ph[3]) + 30 * sinp(7.3, ph[4]) - 30 * sin(ph[4])
            let pitch = 5 + 12 * sinp(11, ph[5])
            let roll = 3 * sinp(6.1, ph[6])
            return (heading, pitch, roll)
        case .walking:
            let w = weight(t).w
            let heading = path!.path.bearing(at: distance(t)) + (14 * sinp(9, ph[3]) + 7 * sinp(5.3, ph[4])) * w
            let pitch = 5 + 1.5 * sinp(13, ph[5]) + 0.8 * sinp(4.3, ph[6]) + 0.6 * sin(step * t + ph[0] + 0.5) * w
            let roll = 1.2 * sinp(11, ph[7]) + 0.6 * sinp(3.7, ph[3] + 1) + 1.0 * sin(step / 2 * t + ph[2] + 0.3) * w
            return (heading, pitch, roll)
        case .pocket:
            // Upside down (roll 180°), screen to the right thigh: the back camera looks out
            // to the walker's right; the leg swings it about that axis.
            let w = weight(t).w
            let heading = path!.path.bearing(at: distance(t)) + 90 + 4 * sinp(7, ph[3])
            let pitch = 2 * sinp(9, ph[5]) + 3 * sin(step * t + ph[0]) * w
            let roll = 180 + 5 * sinp(13, ph[6]) + 25 * sin(step / 2 * t + ph[2]) * w
            return (heading, pitch, roll)
        }
    }

    func attitude(_ t: Double) -> Quaternion {
        let a = angles(t)
        return Pose(headingDeg: a.heading, pitchDeg: a.pitch, rollDeg: a.roll).orientation
    }

    /// Rotation vector of a unit quaternion (w ≥ 0 taken).
    static func log(_ q: Quaternion) -> Vector3 {
        let c = q.canonical
        let s = c.vector.norm
        if s < 1e-15 { return c.vector * 2 }
        return c.vector * (2 * atan2(s, c.w) / s)
    }
}

/// The path behind a reference, so `Trajectory` stays cheap to copy.
final class WalkPathBox: Sendable {
    let path: WalkPath
    init(path: WalkPath) { self.path = path }
}
