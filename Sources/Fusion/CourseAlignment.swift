import Foundation
import Geodesy
import POIARCore

/// Heading from the GPS course, for a recording without a usable magnetometer: the attitude is
/// fused from the gyroscope and accelerometer (tilt true, heading relative: it starts at an
/// arbitrary azimuth and drifts slowly with the gyro's residual bias), and while the user
/// moves, the direction they face is assumed to be the direction of travel. The offset
/// between the two, δ(t) = course − facing, is estimated continuously and added to the
/// heading (`CourseAlignment.Correction`).
///
/// - Course: from pairs of GPS fixes at least `minDisplacement` apart (and `accuracyMultiple`
///   times their accuracy, so the noise of the two fixes turns the bearing by about
///   √2/5 rad ≈ 16° at one sigma, less for most pairs), at most
///   `maxSpan` seconds apart, at a speed of at least `minSpeed` (standing still, or creeping
///   in a car park, gives no course). Each pair gives one course sample at its middle time.
/// - Accuracy: what turns a course is the error of one fix *relative to* the other, not the
///   error of each against the truth: a stated accuracy is absolute (DOP × range error, or a
///   phone's 68 % radius), and most of it — satellite geometry, the atmosphere, multipath
///   that changes over tens of seconds — is common to fixes a few seconds apart, so it moves
///   both and leaves their bearing. Where the track shows its relative error, that is used
///   (`relativeAccuracy`): a high-rate track (fixes at most `highRateInterval` apart, at
///   least `minJitterFixes` of them, a GoPro's 18 Hz) shows it in its fix-to-fix jitter,
///   measured robustly from the second differences (the error of predicting each fix from
///   the two before, median absolute deviation), floored at `relativeAccuracyFloor` because
///   a receiver's filter hides the slow part of it. A 1 Hz phone track does not show it (the
///   OS smooths its fixes, so their jitter is far below their error over seconds): its
///   stated accuracy is used, as it always was. `minDisplacement` holds either way.
/// - Offset: at knots every `knotSpacing` seconds, a robust circular mean of the samples'
///   δ weighted by a Gaussian in time (σ = `smoothing`): a user who looks at a shop window
///   for a few seconds while walking on does not turn the whole heading, and the gyro's slow
///   drift is followed. Two re-weightings (Tukey's biweight, c = `outlierScaleDeg`) drop the
///   samples taken while looking aside. Between knots δ is interpolated linearly; before the
///   first and after the last it is held.
public enum CourseAlignment {
    public static let minSpeed = 1.0           // m/s: a slow walk is 1.1–1.4
    public static let minDisplacement = 8.0    // m
    public static let accuracyMultiple = 5.0
    public static let maxSpan = 30.0           // s
    public static let knotSpacing = 5.0        // s
    public static let smoothing = 20.0         // s
    public static let outlierScaleDeg = 60.0   // deg
    /// A track is high-rate when its median interval between fixes is at most this…
    public static let highRateInterval = 0.25  // s
    /// …and it has at least this many fixes, enough for a robust spread.
    public static let minJitterFixes = 20
    /// The least relative accuracy a measured jitter gives: a receiver's filter hides the
    /// slow part of its error from fix-to-fix differences.
    public static let relativeAccuracyFloor = 1.0  // m

    /// One course sample: the direction of travel at `time` (degrees from north).
    public struct CourseSample: Sendable, Equatable {
        public var time: Double
        public var courseDeg: Double
        public var speed: Double
        /// The course's own 1-σ spread from the two fixes' accuracy over their distance,
        /// degrees (0 when the fixes state no accuracy).
        public var spreadDeg: Double = 0
    }

    /// δ(t) at knots, degrees (unwrapped: consecutive knots differ by less than 180°).
    public struct Correction: Sendable {
        public var knots: [(time: Double, offsetDeg: Double)]
        /// Course samples used, and how far the corrected facing direction stays from them.
        public var samples: Int
        public var medianResidualDeg: Double

        /// δ at `time`, degrees.
        public func offset(at time: Double) -> Double {
            guard let first = knots.first, let last = knots.last else { return 0 }
            if time <= first.time { return first.offsetDeg }
            if time >= last.time { return last.offsetDeg }
            let lo = knots.interpolationInterval(for: time, by: \.time)
            let a = knots[lo], b = knots[lo + 1]
            return a.offsetDeg + (b.offsetDeg - a.offsetDeg) * (time - a.time) / (b.time - a.time)
        }

        /// The attitude turned about the vertical so that its azimuths grow by δ(time).
        public func apply(_ q: Quaternion, at time: Double) -> Quaternion {
            // A rotation about up by +θ turns azimuths (clockwise from north) by −θ.
            Quaternion(axis: Vector3(0, 0, 1), angle: -offset(at: time) * .pi / 180) * q
        }
    }

    /// The relative accuracy of a high-rate track (the type's Accuracy), metres, as a
    /// horizontal 1-σ radius like a stated accuracy (√2 × the per-axis σ); nil for a track
    /// that is not high-rate, whose fixes' stated accuracy stands.
    ///
    /// Each fix is predicted from the two before by a straight line; for independent errors of
    /// σ per axis the prediction error has the variance σ²(1 + (1 + r)² + r²), r being the
    /// ratio of the two intervals (6σ² for even ones). σ is 1.4826 × the median absolute
    /// deviation of the normalised errors, east and north together, so turns and the odd
    /// jump do not inflate it.
    public static func relativeAccuracy(_ fixes: [GPSFix]) -> (measured: Double, used: Double)? {
        guard fixes.count >= minJitterFixes else { return nil }
        let intervals = zip(fixes, fixes.dropFirst()).map { $1.time - $0.time }.sorted()
        guard intervals[intervals.count / 2] <= highRateInterval else { return nil }
        let plane = LocalTangentPlane(origin: fixes[0].coordinate)
        let points = fixes.map { f -> Vector3 in
            var c = f.coordinate
            c.altitude = nil
            return plane.enu(c)
        }
        var errors: [Double] = []
        for i in 2..<fixes.count {
            let dt0 = fixes[i - 1].time - fixes[i - 2].time, dt1 = fixes[i].time - fixes[i - 1].time
            guard dt0 > 0, dt1 > 0, dt0 <= 2 * highRateInterval, dt1 <= 2 * highRateInterval else { continue }
            let r = dt1 / dt0
            let predicted = points[i - 1] + (points[i - 1] - points[i - 2]) * r
            let e = (points[i] - predicted) / (1 + (1 + r) * (1 + r) + r * r).squareRoot()
            errors.append(e.x)
            errors.append(e.y)
        }
        guard errors.count >= minJitterFixes else { return nil }
        let median = errors.sorted()[errors.count / 2]
        let deviations = errors.map { abs($0 - median) }.sorted()
        let measured = 2.0.squareRoot() * 1.4826 * deviations[deviations.count / 2]
        return (measured, max(relativeAccuracyFloor, measured))
    }

    /// Course samples from GPS fixes in time order.
    public static func courses(_ fixes: [GPSFix]) -> [CourseSample] {
        let relative = relativeAccuracy(fixes)?.used
        func accuracy(_ f: GPSFix) -> Double { relative ?? f.horizontalAccuracy ?? 0 }
        var out: [CourseSample] = []
        var j = 0
        for i in fixes.indices {
            let a = fixes[i]
            if j <= i { j = i + 1 }
            while j < fixes.count {
                let b = fixes[j]
                if b.time - a.time > maxSpan { break }
                if let paired = pair(a, b, accuracyA: accuracy(a), accuracyB: accuracy(b)) {
                    if let sample = paired { out.append(sample) }
                    break
                }
                j += 1
            }
        }
        return out
    }

    /// Fix `a` paired with a later fix `b` (at most `maxSpan` later): nil while `b` is too near
    /// for the two accuracies (a later fix may do); else `a` is settled: its course sample, or
    /// nil inside when the pair moved slower than `minSpeed`. One rule for the whole-recording
    /// pairing above and the streaming one (`CausalCourseHeading`).
    public static func pair(_ a: GPSFix, _ b: GPSFix, accuracyA: Double, accuracyB: Double) -> CourseSample?? {
        let d = geodesicInverse(from: a.coordinate, to: b.coordinate)
        guard d.distance >= max(minDisplacement, accuracyMultiple * max(accuracyA, accuracyB)), b.time > a.time else { return nil }
        let speed = d.distance / (b.time - a.time)
        guard speed >= minSpeed else { return .some(nil) }
        let spread = degrees(atan2(2.0.squareRoot() * max(accuracyA, accuracyB), d.distance))
        return .some(CourseSample(time: (a.time + b.time) / 2, courseDeg: d.azimuthDeg, speed: speed, spreadDeg: spread))
    }

    /// The correction for a relative heading `facing(t)` (degrees, the direction the user
    /// faces by the fused attitude) against the course samples; nil when there are fewer than
    /// `minSamples` (the recording hardly moves).
    public static func estimate(courses: [CourseSample], facing: (Double) -> Double?, minSamples: Int = 5) -> Correction? {
        var samples: [(t: Double, delta: Double)] = []
        for c in courses {
            guard let f = facing(c.time) else { continue }
            samples.append((c.time, wrap180(c.courseDeg - f)))
        }
        guard samples.count >= minSamples, let t0 = samples.first?.t, let t1 = samples.last?.t else { return nil }
        var knots: [(time: Double, offsetDeg: Double)] = []
        var t = t0
        while true {
            if let d = robustMean(samples, at: t) { knots.append((t, d)) }
            if t >= t1 { break }
            t = min(t1, t + knotSpacing)
        }
        guard !knots.isEmpty else { return nil }
        // Unwrap, so interpolation between knots never goes the long way round.
        for k in 1..<knots.count {
            knots[k].offsetDeg = knots[k - 1].offsetDeg + wrap180(knots[k].offsetDeg - knots[k - 1].offsetDeg)
        }
        var correction = Correction(knots: knots, samples: samples.count, medianResidualDeg: 0)
        let residuals = samples.map { abs(wrap180($0.delta - correction.offset(at: $0.t))) }.sorted()
        correction.medianResidualDeg = residuals[residuals.count / 2]
        return correction
    }

    /// The Gaussian-weighted circular mean of δ around `time`, re-weighted twice with Tukey's
    /// biweight about the current estimate; nil when no sample is near enough to weigh.
    static func robustMean(_ samples: [(t: Double, delta: Double)], at time: Double) -> Double? {
        let near = samples.filter { abs($0.t - time) <= 4 * smoothing }
        guard !near.isEmpty else { return nil }
        let timeWeights = near.map { exp(-0.5 * pow(($0.t - time) / smoothing, 2)) }
        var estimate: Double?
        for _ in 0..<3 {
            var sx = 0.0, sy = 0.0
            for (k, s) in near.enumerated() {
                var w = timeWeights[k]
                if let e = estimate {
                    let u = wrap180(s.delta - e) / outlierScaleDeg
                    w *= abs(u) < 1 ? (1 - u * u) * (1 - u * u) : 0
                }
                sx += w * sin(s.delta * .pi / 180); sy += w * cos(s.delta * .pi / 180)
            }
            guard hypot(sx, sy) > 1e-9 else { return estimate }
            estimate = atan2(sx, sy) * 180 / .pi
        }
        return estimate
    }
}
