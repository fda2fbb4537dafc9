import Foundation
import Geodesy
import POIARCore

/// A timeline (`MotionScript`) made ready to evaluate: when each segment starts, the walks it
/// makes, and the attitude as a function of time.
///
/// Each segment i has a target attitude A_i(t): a heading offset from the walking direction
/// (fixed, from a compass heading, or toward places as the walker moves) plus its head
/// sweeps, a pitch and a roll plus their sweeps. The phone starts at A_0 and moves to each
/// A_i in turn over the segment's transition τ_i, from its start t_i:
/// V_i(t) = V_{i−1}(t) + (A_i(t) − V_{i−1}(t))·smootherstep((t − t_i)/τ_i), so the attitude is C²
/// and the gyro, taken from the true quaternions, has no jumps.
struct ScriptedAttitude: Sendable {
    private enum Look: Sendable {
        case offset(Double)
        case heading(Double)
        case points([(e: Double, n: Double)])
    }

    private struct Segment: Sendable {
        var start: Double
        var transition: Double
        var look: Look
        /// Angles toward a heading or places start within ±180° of this offset (the attitude
        /// when the segment starts), so the phone turns the short way...
        var centre = 0.0
        /// ... and then follow them continuously: the look's value every `unwrapStep` seconds
        /// from the start, to pick the branch (± k·360°) nearest to.
        var unwrapped: [Double] = []
        var pitch, roll: Double
        /// (amplitude °, angular frequency rad/s, phase rad) for heading, pitch and roll.
        var sweeps: [[(a: Double, w: Double, ph: Double)]]
    }

    private let segments: [Segment]

    /// Segment start times, the walks and the timeline's length. Checks each walk's target.
    static func schedule(_ timeline: Timeline, path: WalkPath?, plane: LocalTangentPlane) throws
        -> (starts: [Double], walks: [Trajectory.Walk], duration: Double) {
        var t = 0.0, s = 0.0
        var starts: [Double] = [], walks: [Trajectory.Walk] = []
        for seg in timeline.segments {
            starts.append(t)
            switch seg.motion {
            case .stand(let d):
                t += d
            case .walk(let target, let speed, let vehicle):
                let field = "\(seg.field).walk_to"
                guard let path else { throw SimulationError(field: field, "walking needs a path of two or more waypoints") }
                let to: Double
                switch target {
                case .end: to = path.length
                case .distance(let d):
                    guard d <= path.length + 1e-6 else {
                        throw SimulationError(field: field, String(format: "%.2f m is beyond the path's end (%.2f m long)", d, path.length))
                    }
                    to = d
                case .point(let p):
                    let v = plane.enu(GeoCoordinate(latitude: p.latitude, longitude: p.longitude, altitude: 0))
                    to = path.nearest(e: v.x, n: v.y)
                }
                guard to > s + 0.01 else {
                    throw SimulationError(field: field, String(format: "the place is %.2f m along the path, not beyond where the walker is (%.2f m); the walker only walks forward", to, s))
                }
                let walk = Trajectory.Walk(start: t, end: t, speed: speed, vehicle: vehicle)
                let end = t + (to - s) / speed + walk.ramp
                walks.append(Trajectory.Walk(start: t, end: end, speed: speed, vehicle: vehicle))
                t = end
                s = to
            }
        }
        return (starts, walks, t)
    }

    /// Compiles the attitudes; `whereabouts(t)` is the walker's place on the path (ENU, m) and
    /// walking direction (°). Throws when the direction to a place turns faster than 900°/s
    /// (the walker passes through it).
    init(timeline: Timeline, starts: [Double], seed: UInt64, duration: Double, plane: LocalTangentPlane,
         whereabouts: (Double) -> (e: Double, n: Double, bearing: Double)) throws {
        var rng = SplitMix64(seed: seed ^ 0x7157_5C12_1A7E_0001)
        // The same random phase for the same term (channel, index) in every segment, so a sweep
        // kept from one segment to the next goes on unchanged.
        let phases = (0..<3).map { _ in (0..<Timeline.maxSweepTerms).map { _ in 2 * Double.pi * rng.uniform() } }
        var built: [Segment] = []
        for (i, seg) in timeline.segments.enumerated() {
            let a = seg.attitude
            let look: Look
            switch a.look {
            case .ahead(let o): look = .offset(o)
            case .heading(let h): look = .heading(h)
            case .points(let ps):
                look = .points(ps.map { p in
                    let v = plane.enu(GeoCoordinate(latitude: p.latitude, longitude: p.longitude, altitude: 0))
                    return (v.x, v.y)
                })
            }
            let sweeps = [a.headingSweeps, a.pitchSweeps, a.rollSweeps].enumerated().map { c, list in
                list.enumerated().map { k, s in
                    (a: s.amplitudeDeg, w: 2 * Double.pi / s.period, ph: s.phaseDeg.map { $0 * .pi / 180 } ?? phases[c][k])
                }
            }
            var segment = Segment(start: starts[i], transition: i == 0 ? 0 : a.transition, look: look,
                                  pitch: a.pitchDeg, roll: a.rollDeg, sweeps: sweeps)
            if i > 0 { segment.centre = ScriptedAttitude.value(built, starts[i], whereabouts(starts[i])).offset }
            if case .offset = segment.look {} else {
                // Follow the direction while the segment's attitude is in use (to the end of the
                // next transition), unwrapped step by step.
                let next = timeline.segments.indices.contains(i + 1) ? timeline.segments[i + 1].attitude.transition : 0
                let until = min(i + 1 < starts.count ? starts[i + 1] + next : duration, max(duration, starts[i]))
                var t = starts[i]
                while true {
                    var v = ScriptedAttitude.look(segment, whereabouts(t))
                    if let previous = segment.unwrapped.last {
                        v += 360 * ((previous - v) / 360).rounded()
                        if abs(v - previous) > ScriptedAttitude.maxLookStep {
                            let key = if case .heading = segment.look { "heading" } else { "look_at" }
                            throw SimulationError(field: "\(seg.field).\(key)", String(
                                format: "at %.2f s the direction turns by %.0f° in %.2f s: the walker passes (almost) through the place looked at",
                                t, abs(v - previous), ScriptedAttitude.unwrapStep))
                        }
                    }
                    segment.unwrapped.append(v)
                    if t >= until { break }
                    t = min(t + ScriptedAttitude.unwrapStep, until)
                }
            }
            built.append(segment)
        }
        segments = built
    }

    static let unwrapStep = 0.05
    /// Largest turn of a look between two unwrap steps (900°/s).
    static let maxLookStep = 45.0

    /// A segment's look, on the branch that continues its unwrapped values.
    private static func followedLook(_ seg: Segment, _ t: Double, _ here: (e: Double, n: Double, bearing: Double)) -> Double {
        let v = look(seg, here)
        guard !seg.unwrapped.isEmpty else { return v }
        let j = min(max(Int(((t - seg.start) / unwrapStep).rounded()), 0), seg.unwrapped.count - 1)
        return v + 360 * ((seg.unwrapped[j] - v) / 360).rounded()
    }

    /// The heading offset of a segment's look, degrees right of the walking direction.
    private static func look(_ seg: Segment, _ here: (e: Double, n: Double, bearing: Double)) -> Double {
        func near(_ x: Double) -> Double {
            let d = (x - seg.centre + 180).truncatingRemainder(dividingBy: 360)
            return seg.centre + (d < 0 ? d + 360 : d) - 180
        }
        switch seg.look {
        case .offset(let o): return o
        case .heading(let h): return near(h - here.bearing)
        case .points(let ps):
            let sum = ps.reduce(0.0) { acc, p in acc + near(atan2(p.e - here.e, p.n - here.n) * 180 / .pi - here.bearing) }
            return sum / Double(ps.count)
        }
    }

    private static func target(_ seg: Segment, _ t: Double, _ here: (e: Double, n: Double, bearing: Double)) -> (offset: Double, pitch: Double, roll: Double) {
        func sweep(_ c: Int) -> Double { seg.sweeps[c].reduce(0.0) { $0 + $1.a * sin($1.w * t + $1.ph) } }
        return (followedLook(seg, t, here) + sweep(0), seg.pitch + sweep(1), seg.roll + sweep(2))
    }

    private static func value(_ segments: [Segment], _ t: Double, _ here: (e: Double, n: Double, bearing: Double))
        -> (offset: Double, pitch: Double, roll: Double) {
        // The last segment begun, and the last one whose transition is over before it.
        var last = 0
        while last + 1 < segments.count && segments[last + 1].start <= t { last += 1 }
        var first = last
        while first > 0 && t < segments[first].start + segments[first].transition { first -= 1 }
        var v = target(segments[first], t, here)
        if first < last {
            for seg in segments[(first + 1)...last] {
                let a = target(seg, t, here)
                let w = Trajectory.smoother(seg.transition > 0 ? (t - seg.start) / seg.transition : 1)
                v = (v.offset + (a.offset - v.offset) * w, v.pitch + (a.pitch - v.pitch) * w, v.roll + (a.roll - v.roll) * w)
            }
        }
        return v
    }

    /// The attitude at t: heading offset from the walking direction, pitch and roll, degrees.
    func value(_ t: Double, _ here: (e: Double, n: Double, bearing: Double)) -> (offset: Double, pitch: Double, roll: Double) {
        ScriptedAttitude.value(segments, t, here)
    }
}
