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
        /// Walking the path at 1.35 m/s with the phone held up ahead: 3 s standing, a 1.5 s
        /// start ramp, gentle head sweeps, step bounce, surge and sway, a stop ramp and 3 s
        /// standing at the end.
        case walking
        /// Walking the path with the phone upside down in a trouser pocket, screen to the leg:
        /// the leg swings it ±25° at half the step rate, with harder bounces.
        case pocket
    }

    /// What the walker does: a named script or a timeline (from a script file).
    public enum Motion: Sendable {
        case script(Script)
        case timeline(Timeline)
    }

    public struct TimeRange: Sendable, Equatable {
        public var t0, t1: Double
        public init(t0: Double, t1: Double) { self.t0 = t0; self.t1 = t1 }
        func contains(_ t: Double) -> Bool { t >= t0 && t <= t1 }
    }

    /// From t0 to t1 (1 s smooth on and off): a horizontal field of `microtesla` pointing east in
    /// the world frame, as from a car or a steel beam.
    public struct MagDisturbance: Sendable, Equatable {
        public var t0, t1, microtesla: Double
        public init(t0: Double, t1: Double, microtesla: Double) { self.t0 = t0; self.t1 = t1; self.microtesla = microtesla }
    }

    public var waypoints: [GeoCoordinate]
    public var motion: Motion
    /// How the motion is named in the log's `device` line (default: the script's name).
    public var motionName: String?
    /// Length of the log; nil: 60 s for look-around, the walk's or the timeline's own length.
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
    public var magDisturbances: [MagDisturbance] = []
    /// A phone OS's own magnetometer calibration, re-estimated in steps: from each step's time
    /// on, `estimate` (µT, device frame) is its hard-iron estimate. When set, the `mag` rows are
    /// the OS-calibrated field (the hard iron minus the estimate in force) and `mag_uncal` rows
    /// carry the raw field with the whole hard iron (Sensor Logger's
    /// `MagnetometerUncalibrated.csv`). Empty: `mag` rows only, with the hard iron.
    public var osMagCalibration: [OSCalibrationStep] = []
    /// Only `mag_uncal` rows (the raw field with the hard iron), no `mag` rows: an export whose
    /// calibrated magnetometer was not recorded (Sensor Logger with only
    /// MagnetometerUncalibrated.csv).
    public var magUncalibratedOnly = false

    public struct OSCalibrationStep: Sendable, Equatable {
        public var time: Double
        public var estimate: Vector3
        public init(time: Double, estimate: Vector3) { self.time = time; self.estimate = estimate }
    }
    /// GPS error: the 68 % horizontal radius, m (Gauss–Markov, τ 20 s); also the accuracy
    /// written in the fixes. 0: exact fixes.
    public var gpsNoise = 3.0
    /// How much the GPS error (and the accuracy written) varies over time, as a fraction of
    /// `gpsNoise`: two slow sines (periods 70 s and 23 s). 0: constant.
    public var gpsNoiseVariation = 0.0
    /// No GPS fixes in these intervals.
    public var gpsOutages: [TimeRange] = []
    /// No gyro samples in these intervals, while the other sensors go on (an Android phone
    /// that pauses its gyroscope in a car: the drive in the team's real recordings).
    public var gyroOutages: [TimeRange] = []
    /// The wander's correlation time, white noise, multipath bursts, dropouts and stale fixes
    /// (default: τ 20 s and none of the rest).
    public var gpsErrors = GPSErrorModel()
    /// Fixes in these intervals are bad: 150–400 m off in a random direction (and up by 0.3×
    /// that), with an accuracy a little above the offset, as a phone's first fixes after a
    /// tunnel can be. A replay must reject them (poiar drops fixes worse than 100 m).
    public var badGPSFixes: [TimeRange] = []
    /// The order in which rows are written.
    public var delivery = Delivery.inOrder
    public var startUTC: Date
    /// Written as the log's `# pois:` line when given.
    public var pois: String?
    /// Written as the log's `# camera:` line when given (a camera JSON beside the log).
    public var camera: String?
    /// Height of the ground where the path has none (GeoJSON without z), m above the
    /// ellipsoid; the phone is 1.4 m above it.
    public var groundAltitude = 0.0

    public init(waypoints: [GeoCoordinate], script: Script, startUTC: Date) {
        self.waypoints = waypoints; self.motion = .script(script); self.startUTC = startUTC
    }

    public init(waypoints: [GeoCoordinate], timeline: Timeline, startUTC: Date) {
        self.waypoints = waypoints; self.motion = .timeline(timeline); self.startUTC = startUTC
    }
}

/// Summary of a simulation, for the command's report.
public struct SimulationSummary: Sendable {
    public var duration: Double
    public var rows: [String: Int]
    public var pathLength: Double
    public var fieldENU: Vector3
    public var declinationDeg: Double
    /// Times of the bad GPS fixes written.
    public var badFixTimes: [Double]
    /// The largest step back in time from one row to a later one (any sensors), s.
    public var maxDisorder: Double
}

/// The simulator: a known trajectory and attitude (`Trajectory`), sampled by ideal sensors
/// plus noise, written as a poiar-log/1 log, its truth and its track. Conventions are the
/// contract's:
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
        if let d = config.duration, !(d > 0 && d <= 604_800) { throw SimulationError("duration must be in (0, 604800] s (a week), got \(d)") }
        guard config.imuRate > 0, config.magRate > 0, config.gpsRate > 0, config.fps >= 0 else {
            throw SimulationError("sample rates must be > 0")
        }
        for (sensor, b) in config.delivery.batching {
            let rate = [.gyro: config.imuRate, .accel: config.imuRate, .mag: config.magRate, .gps: config.gpsRate][sensor] ?? config.fps
            let span = rate > 0 ? Double(b.batch - 1) / rate : 0
            guard b.batch >= 1, b.latency >= 0, span + b.latency <= Delivery.maxLatency else {
                throw SimulationError(String(format: "delivery of %@: a batch of %d and %.3f s latency hold rows back more than %.1f s",
                                             sensor.rawValue, b.batch, b.latency, Delivery.maxLatency))
            }
        }
        self.config = config
        trajectory = try Trajectory(config: config)
        let alt = (first.altitude ?? config.groundAltitude) + Trajectory.handHeight
        let field = WorldMagneticModel.field(at: GeoCoordinate(latitude: first.latitude, longitude: first.longitude, altitude: alt),
                                             on: config.startUTC)
        fieldENU = field.enuMicrotesla
        declinationDeg = field.declinationDeg
    }

    public var duration: Double { trajectory.duration }

    private var motionName: String {
        if let n = config.motionName { return n }
        switch config.motion {
        case .script(let s): return s.rawValue
        case .timeline: return "timeline"
        }
    }

    /// Times of the GPS fixes that will be bad (in a bad interval, not in an outage).
    public var badFixTimes: [Double] {
        let c = config
        guard !c.badGPSFixes.isEmpty else { return [] }
        var times: [Double] = []
        var k = 0
        while Double(k) / c.gpsRate <= duration + 1e-9 {
            let t = Double(k) / c.gpsRate
            if c.badGPSFixes.contains(where: { $0.contains(t) }), !c.gpsOutages.contains(where: { t >= $0.t0 && t < $0.t1 }) { times.append(t) }
            k += 1
        }
        return times
    }

    /// Column header of the track file.
    public static let trackHeader = "time,lat,lon,alt,heading_deg,pitch_deg,roll_deg"

    /// Writes the log (metadata, header, rows in the delivery order) through `log`; when given,
    /// the truth through `truth` (`time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement` at
    /// every gyro time: pose_eval.py reads it as a truth file; the first eight columns are the
    /// pose CSV's) and the track through `track` (`trackHeader` at every frame time: the true
    /// position, ellipsoidal altitude, and angles).
    @discardableResult
    public func run(log: (String) throws -> Void, truth: ((String) throws -> Void)?,
                    track: ((String) throws -> Void)? = nil) throws -> SimulationSummary {
        let c = config
        try SimulatedLogCheck.checkSpans(c, duration: trajectory.duration)
        var check = SimulatedLogCheck()
        var rng = SplitMix64(seed: c.seed)
        // Independent streams per sensor, so changing one option leaves the others' noise alone.
        var gyroRNG = SplitMix64(seed: rng.next()), accelRNG = SplitMix64(seed: rng.next())
        var magRNG = SplitMix64(seed: rng.next()), gpsRNG = SplitMix64(seed: rng.next())
        var badRNG = SplitMix64(seed: rng.next()), variationRNG = SplitMix64(seed: rng.next())
        func noise(_ r: inout SplitMix64, _ sigma: Double) -> Vector3 {
            sigma > 0 ? Vector3(r.gaussian(), r.gaussian(), r.gaussian()) * sigma : .zero
        }
        let badTimes = badFixTimes

        var meta = LogMetadata()
        meta.entries.append(("format", SensorLogReader.formatName))
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        meta.entries.append(("start_utc", iso.string(from: c.startUTC)))
        meta.entries.append(("device", "poiar simulate (script \(motionName), seed \(c.seed))"))
        if let camera = c.camera { meta.entries.append(("camera", camera)) }
        if let pois = c.pois { meta.entries.append(("pois", pois)) }
        meta.entries.append(("sim_note", "SIMULATED sensor data (known path and attitude + noise)"))
        meta.entries.append(("sim_mag_field_enu_ut", String(format: "%.3f, %.3f, %.3f", fieldENU.x, fieldENU.y, fieldENU.z)))
        meta.entries.append(("sim_declination_deg", String(format: "%.3f", declinationDeg)))
        meta.entries.append(("sim_gyro_bias_rad_s", String(format: "%.4f, %.4f, %.4f", c.gyroBias.x, c.gyroBias.y, c.gyroBias.z)))
        meta.entries.append(("sim_noise_sigma", String(format: "gyro %.4f rad/s, accel %.3f m/s2, mag %.2f uT, gps %.1f m", c.gyroNoise, c.accelNoise, c.magNoise, c.gpsNoise)))
        if c.gpsNoiseVariation > 0 { meta.entries.append(("sim_gps_noise_variation", String(format: "%.2f", c.gpsNoiseVariation))) }
        for step in c.osMagCalibration {
            meta.entries.append(("sim_os_mag_calibration", String(format: "%.2f s: %.2f, %.2f, %.2f uT", step.time, step.estimate.x, step.estimate.y, step.estimate.z)))
        }
        // A stream of its own, drawn after the others: logs without the model are unchanged.
        var gpsModel = GPSErrorModel.Run(c.gpsErrors, duration: trajectory.duration, seed: rng.next())
        if c.gpsErrors != GPSErrorModel() { meta.entries += c.gpsErrors.metadata(gpsModel) }
        if c.magUncalibratedOnly { meta.entries.append(("sim_mag_rows", "mag_uncal only (the raw field, hard iron included)")) }
        if c.hardIron != .zero {
            meta.entries.append(("sim_hard_iron_ut", String(format: "%.2f, %.2f, %.2f", c.hardIron.x, c.hardIron.y, c.hardIron.z)))
        }
        for d in c.magDisturbances {
            meta.entries.append(("sim_mag_disturbance", String(format: "%.2f-%.2f s, %.2f uT east", d.t0, d.t1, d.microtesla)))
        }
        for o in c.gpsOutages { meta.entries.append(("sim_gps_outage", String(format: "%.2f-%.2f s", o.t0, o.t1))) }
        for o in c.gyroOutages { meta.entries.append(("sim_gyro_outage", String(format: "%.2f-%.2f s", o.t0, o.t1))) }
        if !badTimes.isEmpty {
            meta.entries.append(("sim_bad_gps_fixes", badTimes.map { String(format: "%.3f", $0) }.joined(separator: ", ") + " (accuracy > 100 m, positions off by as much)"))
        }
        if !c.delivery.isInOrder { meta.entries.append(("sim_delivery", c.delivery.name)) }
        for line in SensorLogFormat.headerLines(meta) { try log(line) }
        try truth?("time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement")
        try track?(Simulator.trackHeader)

        let T = trajectory.duration
        var rows: [String: Int] = [:]
        // Sample times of each sensor. In time order, rows at equal times come in the order
        // gps, accel, mag, gyro, frame (so the filter has its first attitude at the first gyro
        // sample); other deliveries hold them in a queue until their batch is written.
        var k = (gps: 0, imu: 0, mag: 0, frame: 0)
        func time(_ i: Int, _ rate: Double, _ t0: Double) -> Double { t0 + Double(i) / rate }
        let magT0 = 0.004, frameT0 = 0.1
        func lastIndex(_ rate: Double, _ t0: Double) -> Int { Int(((T - t0) * rate + 1e-9).rounded(.down)) }
        let dt = 1 / c.imuRate
        let plane = trajectory.plane
        var gpsError = Vector3(gpsRNG.gaussian(), gpsRNG.gaussian(), gpsRNG.gaussian())
        let phi = exp(-1 / (c.gpsErrors.wanderSeconds * c.gpsRate))
        let variationPhase = (2 * Double.pi * variationRNG.uniform(), 2 * Double.pi * variationRNG.uniform())
        var queue = c.delivery.isInOrder ? nil : DeliveryQueue(delivery: c.delivery)
        var latest = -Double.infinity, maxDisorder = 0.0

        func write(_ line: String, _ t: Double) throws {
            maxDisorder = max(maxDisorder, latest - t)
            latest = max(latest, t)
            try log(line)
        }
        func emit(_ s: SensorSample, _ sensor: Delivery.Sensor, index: Int, rate: Double, t0: Double) throws {
            try check.check(s)
            let line = SensorLogFormat.row(s)
            rows[s.sensorName, default: 0] += 1
            if queue != nil {
                let wt = queue!.writeTime(sensor, index: index, t0: t0, rate: rate, lastIndex: lastIndex(rate, t0))
                queue!.add(line, time: s.time, sensor: sensor, seq: index, writeTime: wt)
            } else {
                try write(line, s.time)
            }
        }
        func emitMag(_ i: Int) throws {
            let t = time(i, c.magRate, magT0)
            let r = trajectory.attitude(t).matrix.transposed
            var world = fieldENU
            for d in c.magDisturbances {
                let on = Trajectory.smoother(t - d.t0) - Trajectory.smoother(t - d.t1)
                world = world + Vector3(d.microtesla * on, 0, 0)
            }
            let raw = r * world + c.hardIron + noise(&magRNG, c.magNoise)
            if c.magUncalibratedOnly {
                try emit(.vector(.magUncal, time: t, value: raw), .mag, index: i, rate: c.magRate, t0: magT0)
                return
            }
            guard !c.osMagCalibration.isEmpty else {
                try emit(.mag(time: t, field: raw), .mag, index: i, rate: c.magRate, t0: magT0)
                return
            }
            let estimate = c.osMagCalibration.last { $0.time <= t }?.estimate ?? .zero
            try emit(.mag(time: t, field: raw - estimate), .mag, index: i, rate: c.magRate, t0: magT0)
            try emit(.vector(.magUncal, time: t, value: raw), .mag, index: i, rate: c.magRate, t0: magT0)
        }
        func normalized(_ deg: Double) -> Double { let h = deg.truncatingRemainder(dividingBy: 360); return h < 0 ? h + 360 : h }

        while true {
            let tg = time(k.gps, c.gpsRate, 0), ti = time(k.imu, c.imuRate, 0)
            let tm = time(k.mag, c.magRate, magT0)
            let tf = c.fps > 0 ? time(k.frame, c.fps, frameT0) : .infinity
            let next = min(tg, ti, tm, tf)
            if next > T + 1e-9 { break }
            try queue?.flush(before: next, write)
            if tg == next {
                if k.gps > 0 {
                    gpsError = gpsError * phi + Vector3(gpsRNG.gaussian(), gpsRNG.gaussian(), gpsRNG.gaussian()) * (1 - phi * phi).squareRoot()
                }
                let index = k.gps
                k.gps += 1
                if c.gpsOutages.contains(where: { tg >= $0.t0 && tg < $0.t1 }) || gpsModel.isDropped(tg) { continue }
                let p = trajectory.position(tg)
                var accuracy = c.gpsNoise * (1 + c.gpsNoiseVariation * (0.67 * sin(2 * .pi * tg / 70 + variationPhase.0)
                                                                        + 0.33 * sin(2 * .pi * tg / 23 + variationPhase.1)))
                let sigmaH = accuracy / 1.51
                var err = Vector3(gpsError.x * sigmaH, gpsError.y * sigmaH, gpsError.z * sigmaH * 1.5)
                let extra = gpsModel.error(at: tg)
                err = err + Vector3(extra.east, extra.north, 0)
                if let claimed = extra.claimed { accuracy = claimed }
                if badTimes.contains(tg) {
                    let off = 150 + 250 * badRNG.uniform(), bearing = 2 * Double.pi * badRNG.uniform()
                    err = err + Vector3(off * sin(bearing), off * cos(bearing), 0.3 * off)
                    accuracy = (off * (1.03 + 0.07 * badRNG.uniform()) * 10).rounded() / 10
                }
                let geo = plane.geodetic(enu: p + err)
                // The receiver's velocity: the trajectory's (its step oscillations included).
                let velocity = (trajectory.position(tg + 0.05) - trajectory.position(tg - 0.05)) * 10
                let measured = GPSFix(time: tg, coordinate: GeoCoordinate(latitude: geo.latitude, longitude: geo.longitude, altitude: geo.altitude),
                                      horizontalAccuracy: accuracy)
                let fix = gpsModel.written(gpsModel.withSpeed(measured, east: velocity.x, north: velocity.y))
                try emit(.gps(fix), .gps, index: index, rate: c.gpsRate, t0: 0)
                continue
            }
            if ti == next {
                let q = trajectory.attitude(ti)
                let r = q.matrix.transposed
                let f = r * (trajectory.acceleration(ti) + Vector3(0, 0, Simulator.gravity))
                try emit(.accel(time: ti, force: f + noise(&accelRNG, c.accelNoise)), .accel, index: k.imu, rate: c.imuRate, t0: 0)
                // Magnetometer samples due at the same time come before the gyro's.
                while abs(time(k.mag, c.magRate, magT0) - ti) < 1e-12 { try emitMag(k.mag); k.mag += 1 }
                let dq = (trajectory.attitude(ti - dt / 2).conjugate * trajectory.attitude(ti + dt / 2)).canonical
                let w = dq.rotationVector / dt
                // The noise is drawn in an outage too, so the rest of the log is the same with or without it.
                let rate = w + c.gyroBias + noise(&gyroRNG, c.gyroNoise)
                if !c.gyroOutages.contains(where: { ti >= $0.t0 && ti < $0.t1 }) {
                    try emit(.gyro(time: ti, rate: rate), .gyro, index: k.imu, rate: c.imuRate, t0: 0)
                }
                if let truth {
                    let qc = q.canonical, a = Pose(q).angles
                    try truth(String(format: "%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f,1", ti, qc.w, qc.x, qc.y, qc.z, normalized(a.heading), a.pitch, a.roll))
                }
                k.imu += 1
                continue
            }
            if tm == next { try emitMag(k.mag); k.mag += 1; continue }
            try emit(.frame(time: tf, still: nil), .frame, index: k.frame, rate: c.fps, t0: frameT0)
            if let track {
                let geo = plane.geodetic(enu: trajectory.position(tf))
                let a = Pose(trajectory.attitude(tf)).angles
                try track(String(format: "%.6f,%.9f,%.9f,%.4f,%.4f,%.4f,%.4f", tf, geo.latitude, geo.longitude, geo.altitude ?? 0,
                                 normalized(a.heading), a.pitch, a.roll))
            }
            k.frame += 1
        }
        try queue?.flushAll(write)

        return SimulationSummary(duration: T, rows: rows, pathLength: trajectory.pathLength, fieldENU: fieldENU,
                                 declinationDeg: declinationDeg, badFixTimes: badTimes, maxDisorder: maxDisorder)
    }
}
