import Foundation
import POIARCore

/// A phone's GPS errors beyond the slow wander every simulated fix has (`SimulationConfig`'s
/// `gpsNoise`, a first-order Gauss–Markov error): its correlation time, white noise, multipath
/// bursts whose stated accuracy stays optimistic, random dropouts and stale (repeated) fixes.
/// A script file gives it as `sensors.gps_errors` (docs/position.md has the defaults' sources).
///
/// The default is what the simulator always did (τ 20 s and nothing else), so logs simulated
/// without `gps_errors` are unchanged.
public struct GPSErrorModel: Sendable, Equatable {
    /// Correlation time of the wander, s.
    public var wanderSeconds = 20.0
    /// White noise added to each fix, per-axis standard deviation, m.
    public var whiteNoise = 0.0
    public var multipath: Bursts?
    public var dropouts: Bursts?
    /// The share of fixes that repeat the fix before them exactly (a stale fix, re-sent).
    public var staleFraction = 0.0
    /// When set, each fix carries the receiver's ground speed and course (from its Doppler
    /// velocity: the true velocity plus white noise of this per-axis σ, m/s; no wander, no
    /// multipath), as Sensor Logger's `speed` and `bearing` and a log's `gps_velocity` row do.
    public var speedNoise: Double?
    /// Below this speed, m/s, no course is given (a receiver standing still has none).
    static let minCourseSpeed = 1.0

    /// Events at random (a Poisson process): their rate, how long each lasts, and for
    /// multipath how far off it puts the fixes and the accuracy they still claim.
    public struct Bursts: Sendable, Equatable {
        public var perMinute: Double
        public var seconds: ClosedRange<Double>
        /// Multipath: the offset's size, m, and the stated accuracy during the burst, m.
        public var offset: ClosedRange<Double> = 0...0
        public var claimed: ClosedRange<Double> = 0...0
        public init(perMinute: Double, seconds: ClosedRange<Double>, offset: ClosedRange<Double> = 0...0,
                    claimed: ClosedRange<Double> = 0...0) {
            self.perMinute = perMinute; self.seconds = seconds; self.offset = offset; self.claimed = claimed
        }
    }

    public init() {}

    /// One event of a schedule: from `t0` to `t1`, with its offset (east, north, m) and the
    /// accuracy it claims (multipath).
    struct Event {
        var t0, t1: Double
        var east = 0.0, north = 0.0
        var claimed = 0.0
    }

    /// A schedule of `bursts` over `duration` s: exponential gaps at the rate, then a uniform
    /// length, offset (random direction) and claimed accuracy each.
    static func schedule(_ bursts: Bursts?, duration: Double, rng: inout SplitMix64) -> [Event] {
        guard let b = bursts, b.perMinute > 0 else { return [] }
        func uniform(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.uniform() }
        var events: [Event] = []
        var t = 0.0
        while true {
            t += -log(max(1e-12, 1 - rng.uniform())) * 60 / b.perMinute
            guard t < duration else { return events }
            let length = uniform(b.seconds), size = uniform(b.offset), bearing = 2 * Double.pi * rng.uniform()
            events.append(Event(t0: t, t1: t + length, east: size * sin(bearing), north: size * cos(bearing),
                                claimed: uniform(b.claimed)))
            t += length
        }
    }

    /// What the model does to the fixes of one simulation: its schedules drawn once.
    struct Run {
        let model: GPSErrorModel
        let multipath: [Event]
        let dropouts: [Event]
        var rng: SplitMix64
        /// The speed's noise, drawn apart so that the rest of a log is the same with or without it.
        var speedRNG: SplitMix64
        /// The last fix written, for stale repeats.
        var last: GPSFix?

        init(_ model: GPSErrorModel, duration: Double, seed: UInt64) {
            self.model = model
            var r = SplitMix64(seed: seed)
            multipath = GPSErrorModel.schedule(model.multipath, duration: duration, rng: &r)
            dropouts = GPSErrorModel.schedule(model.dropouts, duration: duration, rng: &r)
            rng = r
            speedRNG = SplitMix64(seed: seed ^ 0x5BEE_D5BE_ED5B_EED5)
        }

        /// `fix` with the ground speed, its accuracy and the course the receiver states when
        /// the true horizontal velocity is `east`, `north` (m/s); unchanged without `speedNoise`.
        mutating func withSpeed(_ fix: GPSFix, east: Double, north: Double) -> GPSFix {
            guard let sigma = model.speedNoise else { return fix }
            var out = fix
            let e = east + sigma * speedRNG.gaussian(), n = north + sigma * speedRNG.gaussian()
            out.speed = (e * e + n * n).squareRoot()
            out.speedAccuracy = sigma
            if out.speed! >= GPSErrorModel.minCourseSpeed {
                let deg = atan2(e, n) * 180 / .pi
                out.course = deg < 0 ? deg + 360 : deg
            }
            return out
        }

        func isDropped(_ t: Double) -> Bool { dropouts.contains { t >= $0.t0 && t < $0.t1 } }

        /// The horizontal error to add at `t` beyond the wander (east, north), and the accuracy a
        /// multipath burst claims instead of the fix's own.
        mutating func error(at t: Double) -> (east: Double, north: Double, claimed: Double?) {
            var e = 0.0, n = 0.0
            if model.whiteNoise > 0 { e += rng.gaussian() * model.whiteNoise; n += rng.gaussian() * model.whiteNoise }
            if let burst = multipath.first(where: { t >= $0.t0 && t < $0.t1 }) {
                return (e + burst.east, n + burst.north, (burst.claimed * 10).rounded() / 10)
            }
            return (e, n, nil)
        }

        /// The fix written: `fix`, or (a stale repeat) the one before at this time.
        mutating func written(_ fix: GPSFix) -> GPSFix {
            var out = fix
            if model.staleFraction > 0, rng.uniform() < model.staleFraction, let previous = last {
                out = GPSFix(time: fix.time, coordinate: previous.coordinate, horizontalAccuracy: previous.horizontalAccuracy)
            }
            last = out
            return out
        }
    }

    /// The header lines that say what the model did (`sim_gps_*`).
    func metadata(_ run: Run) -> [(String, String)] {
        var out: [(String, String)] = []
        out.append(("sim_gps_wander_tau_s", String(format: "%.1f", wanderSeconds)))
        if whiteNoise > 0 { out.append(("sim_gps_white_noise_m", String(format: "%.2f", whiteNoise))) }
        if !run.multipath.isEmpty {
            out.append(("sim_gps_multipath", run.multipath.map {
                String(format: "%.1f-%.1f s %.1f m claiming %.1f m", $0.t0, $0.t1, ($0.east * $0.east + $0.north * $0.north).squareRoot(), $0.claimed)
            }.joined(separator: "; ")))
        }
        if !run.dropouts.isEmpty {
            out.append(("sim_gps_dropouts", run.dropouts.map { String(format: "%.1f-%.1f s", $0.t0, $0.t1) }.joined(separator: ", ")))
        }
        if staleFraction > 0 { out.append(("sim_gps_stale_fraction", String(format: "%.3f", staleFraction))) }
        if let speedNoise { out.append(("sim_gps_speed_noise_mps", String(format: "%.2f", speedNoise))) }
        return out
    }
}
