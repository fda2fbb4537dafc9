import Foundation
import Geodesy
import POIARCore

/// The true motion of a script: position and acceleration in the local ENU plane of the first
/// waypoint (at the phone's height), and the attitude, as functions of time.
///
/// The walker's speed is a sum of walks, each a trapezoid with smootherstep ramps of 1.5 s
/// (so the distance, the speed and its derivatives are closed-form); the step oscillations
/// (bounce, surge, sway) are scaled by the walking weight 0…1.
struct Trajectory: Sendable {
    static let handHeight = 1.4
    static let speed = 1.35, ramp = 1.5, standStart = 3.0, standEnd = 3.0
    static let stepHz = 1.8

    /// One walk: full speed between the ramps, from `start` to `end` (s). A `vehicle` (a drive:
    /// the phone in a car) has no step oscillations and ramps its speed at 2 m/s² (a car's
    /// gentle start and stop) rather than over a walker's 1.5 s.
    struct Walk: Sendable {
        var start, end, speed: Double
        var vehicle = false
        static let vehicleAcceleration = 2.0
        /// The start and the stop ramp's length, s.
        var ramp: Double { vehicle ? max(Trajectory.ramp, speed / Walk.vehicleAcceleration) : Trajectory.ramp }
    }

    enum Kind: Sendable {
        case lookAround, walking, pocket
        case scripted(ScriptedAttitude)
    }

    private(set) var kind: Kind
    let plane: LocalTangentPlane
    let path: WalkPathBox?
    let duration: Double
    let walks: [Walk]
    let altitude: Double
    /// Random phases of the oscillations.
    let phase: [Double]
    let startBearing: Double

    var pathLength: Double { path?.path.length ?? 0 }

    init(config: SimulationConfig) throws {
        var rng = SplitMix64(seed: config.seed ^ 0x5EED_5EED_5EED_5EED)
        phase = (0..<10).map { _ in 2 * .pi * rng.uniform() }
        let first = config.waypoints[0]
        altitude = (first.altitude ?? config.groundAltitude) + Trajectory.handHeight
        let flat = LocalTangentPlane(origin: GeoCoordinate(latitude: first.latitude, longitude: first.longitude, altitude: 0))
        switch config.motion {
        case .script(.lookAround):
            kind = .lookAround
            plane = flat
            path = nil
            duration = config.duration ?? 60
            walks = []
            if config.waypoints.count > 1 {
                let v = plane.enu(GeoCoordinate(latitude: config.waypoints[1].latitude, longitude: config.waypoints[1].longitude, altitude: 0))
                startBearing = atan2(v.x, v.y) * 180 / .pi
            } else { startBearing = 0 }
        case .script(let named):
            kind = named == .pocket ? .pocket : .walking
            let p = try WalkPath(waypoints: config.waypoints)
            plane = p.plane
            path = WalkPathBox(path: p)
            let start = Trajectory.standStart
            let end = start + p.length / Trajectory.speed + Trajectory.ramp
            walks = [Walk(start: start, end: end, speed: Trajectory.speed)]
            duration = config.duration ?? (end + Trajectory.standEnd)
            startBearing = p.bearing(at: 0)
        case .timeline(let timeline):
            // With one waypoint there is no path: standing only (`schedule` refuses a walk).
            let p: WalkPath? = config.waypoints.count > 1 ? try WalkPath(waypoints: config.waypoints) : nil
            plane = p?.plane ?? flat
            path = p.map(WalkPathBox.init)
            let schedule = try ScriptedAttitude.schedule(timeline, path: p, plane: plane)
            walks = schedule.walks
            duration = config.duration ?? schedule.duration
            startBearing = p?.bearing(at: 0) ?? 0
            kind = .lookAround  // placeholder while the attitude is compiled below
            let copy = self
            let scripted = try ScriptedAttitude(timeline: timeline, starts: schedule.starts, seed: config.seed, duration: duration,
                                                plane: plane, whereabouts: { copy.here($0) })
            kind = .scripted(scripted)
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

    /// Walking weight 0…1 (0 standing or driven, 1 walking at full speed), its first two
    /// derivatives, and the speed (m/s) with its derivative (walked or driven).
    func weight(_ t: Double) -> (w: Double, d: Double, d2: Double, v: Double, vd: Double) {
        var r = (w: 0.0, d: 0.0, d2: 0.0, v: 0.0, vd: 0.0)
        for walk in walks where t > walk.start && t < walk.end {
            let R = walk.ramp
            let x1 = (t - walk.start) / R, x2 = (t - walk.end + R) / R
            let w = Trajectory.smoother(x1) - Trajectory.smoother(x2)
            let d = (Trajectory.smootherD(x1) - Trajectory.smootherD(x2)) / R
            r.v += walk.speed * w; r.vd += walk.speed * d
            guard !walk.vehicle else { continue }
            r.w += w; r.d += d
            r.d2 += (Trajectory.smootherD2(x1) - Trajectory.smootherD2(x2)) / (R * R)
        }
        return r
    }

    /// Distance walked, m.
    func distance(_ t: Double) -> Double {
        guard let path else { return 0 }
        var s = 0.0
        for walk in walks where t > walk.start {
            let R = walk.ramp
            s += walk.speed * R * (Trajectory.smootherI((t - walk.start) / R) - Trajectory.smootherI((t - walk.end + R) / R))
        }
        return min(max(s, 0), path.path.length)
    }

    /// Where the walker is on the path at t (no step oscillations) and the walking direction.
    func here(_ t: Double) -> (e: Double, n: Double, bearing: Double) {
        guard let path else { return (0, 0, startBearing) }
        let s = distance(t)
        let p = path.path.position(at: s)
        return (p.e, p.n, path.path.bearing(at: s))
    }

    // MARK: position and acceleration

    /// Step oscillations: (amplitude of acceleration m/s², angular frequency, phase) for the
    /// bounce (up), the surge (forward) and the sway (right).
    private var oscillations: [(a: Double, w: Double, ph: Double)] {
        let ws = 2 * Double.pi * Trajectory.stepHz
        let bounce: Double
        if case .pocket = kind { bounce = 2 } else { bounce = 1 }
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
        let (w, wd, wd2, v, vd) = weight(t)
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
        switch kind {
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
        case .scripted(let scripted):
            // The timeline's attitude, with the hand's step-synchronous nod and rock while walking
            // (as the walking script).
            let w = weight(t).w
            let at = self.here(t)
            let a = scripted.value(t, at)
            return (at.bearing + a.offset,
                    a.pitch + 0.6 * sin(step * t + ph[0] + 0.5) * w,
                    a.roll + 1.0 * sin(step / 2 * t + ph[2] + 0.3) * w)
        }
    }

    func attitude(_ t: Double) -> Quaternion {
        let a = angles(t)
        return Pose(headingDeg: a.heading, pitchDeg: a.pitch, rollDeg: a.roll).orientation
    }
}

/// The path behind a reference, so `Trajectory` stays cheap to copy.
final class WalkPathBox: Sendable {
    let path: WalkPath
    init(path: WalkPath) { self.path = path }
}
