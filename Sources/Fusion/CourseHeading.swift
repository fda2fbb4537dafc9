import Foundation
import POIARCore

/// The GPS course as a heading measurement for an absolute (magnetometer) heading (issue 26,
/// item 3), in the offline pass (`correction(_:courses:)`) and the causal one
/// (`CausalCourseHeading`), by the same rules.
///
/// While the user moves, the course measures the facing direction up to how the device is
/// held: facing = course − offset, the offset being a phone in a holder turned a little, a
/// phone held in front a little off the path. That offset cannot be told apart from a
/// constant error of the field, so it is learned per **steady segment** (the device held the
/// same way: no stop longer than `maxStop`, the device's tilt within `maxTiltChangeDeg` of
/// the segment's first), as a robust mean of z = course − facing over the segment. What the
/// course corrects is how z moves *within* a segment: a field that goes wrong for minutes
/// (an OS re-estimating its calibration, a disturbed span) while the holding stays. The
/// segment's mean facing stays the magnetometer's.
///
/// Each measurement is weighted (`weight`) by the speed (a walk's course wanders with its
/// steps, a car's does not), the course's spread from the fixes' accuracy, the path's
/// straightness (the course's turn since the sample before), and the device's steadiness
/// against the path (a user looking around turns the device, not the path). The residuals
/// z − offset are smoothed over `smoothing` seconds, robustly (Tukey's biweight,
/// c = `outlierScaleDeg`, drops a look aside), and shrunk toward 0 by their support (the
/// sum of weights against `priorWeight`): a few course samples never turn the heading far.
public enum CourseHeading {
    /// Gaussian σ (offline) and exponential τ (causal) of the residuals' smoothing, s.
    public static let smoothing = 20.0
    public static let outlierScaleDeg = 30.0
    public static let knotSpacing = 2.0
    /// A pause in the course samples longer than this (s) ends a steady segment: a user who
    /// stops may hold the phone another way when walking on.
    public static let maxStop = 15.0
    public static let maxTiltChangeDeg = 30.0
    /// A turn of the device against the path between two course samples larger than this
    /// (degrees) ends a steady segment.
    public static let maxDeviceTurnDeg = 20.0
    /// Samples a segment needs before its offset is learned (fewer: it corrects nothing).
    public static let minSegmentSamples = 5
    /// The support (sum of weights) at which a correction is taken at half its value.
    public static let priorWeight = 0.5
    /// See `applied`.
    public static let deadbandDeg = 4.0
    /// The previous course sample counts for the path's and device's turn when at most this
    /// far back, s.
    public static let turnWindow = 8.0

    /// One course sample against the fused attitude.
    public struct Measurement: Sendable, Equatable {
        public var time: Double
        /// z = course − facing, degrees.
        public var deltaDeg: Double
        public var weight: Double
        /// The direction of gravity's reaction (up) in the device frame: the device's tilt.
        public var up: Vector3
        /// How far the device turned against the path since the previous course sample
        /// (degrees; nil: none near enough).
        public var deviceTurnDeg: Double?
        /// How far the path turned since the previous course sample (degrees; nil: none near).
        public var pathTurnDeg: Double?
    }

    /// The facing direction of an attitude as the course is compared with it (the map cone's:
    /// `Pose.facingAzimuth`, held in portrait).
    @inline(__always)
    public static func facing(_ q: Quaternion) -> Double? { Pose(q).facingAzimuth() }

    /// The weight of a course sample: speed (0 at 0.5 m/s, 1 from 2 m/s), spread, the path's
    /// turn since the previous sample (`pathTurnDeg`) and the device's turn against it
    /// (`deviceTurnDeg`, facing's turn less the path's); nil previous: half weight.
    public static func weight(_ c: CourseAlignment.CourseSample, pathTurnDeg: Double?, deviceTurnDeg: Double?) -> Double {
        let speed = min(1, max(0, (c.speed - 0.5) / 1.5))
        let spread = 1 / (1 + pow(c.spreadDeg / 10, 2))
        guard let path = pathTurnDeg, let device = deviceTurnDeg else { return 0.5 * speed * spread }
        return speed * spread / (1 + pow(path / 20, 2)) / (1 + pow(device / 10, 2))
    }

    /// The measurement of course sample `c` (the one before it: `previous`), with the facing
    /// direction and tilt at any time of the fused attitude; nil where the attitude has none.
    public static func measurement(_ c: CourseAlignment.CourseSample, previous: CourseAlignment.CourseSample?,
                                   attitude: (Double) -> Quaternion?) -> Measurement? {
        guard let q = attitude(c.time), let f = facing(q) else { return nil }
        var path: Double?, device: Double?
        if let p = previous, c.time - p.time <= turnWindow, let qp = attitude(p.time), let fp = facing(qp) {
            path = wrap180(c.courseDeg - p.courseDeg)
            device = abs(wrap180(f - fp) - path!)
            path = abs(path!)
        }
        return Measurement(time: c.time, deltaDeg: wrap180(c.courseDeg - f),
                           weight: weight(c, pathTurnDeg: path, deviceTurnDeg: device), up: q.conjugate.rotate(Vector3(0, 0, 1)),
                           deviceTurnDeg: device, pathTurnDeg: path)
    }

    /// Whether `m` starts a new steady segment after the segment's first measurement `first`
    /// and its last `last`: after a stop, a change of tilt, or a turn of the device against
    /// a straight path (the user turned the phone to look elsewhere: the holding changed, and
    /// a field going wrong never turns the fused facing that fast; where the path turns, the
    /// course, a chord over seconds, lags the facing, and says nothing of the holding). A user who keeps looking
    /// around makes segments too short to learn an offset, and is not corrected.
    public static func startsSegment(_ m: Measurement, first: Measurement, last: Measurement) -> Bool {
        m.time - last.time > maxStop || degrees(acos(max(-1, min(1, m.up.dot(first.up))))) > maxTiltChangeDeg
            || ((m.deviceTurnDeg ?? 0) > maxDeviceTurnDeg && (m.pathTurnDeg ?? 0) < maxDeviceTurnDeg / 2)
    }

    /// The holding offset of a segment: the weighted circular median of its z (about their
    /// circular mean, so the wrap at ±180° does not split them), refined by two weighted means
    /// re-weighted with Tukey's biweight at half `outlierScaleDeg`: a span where the field
    /// was wrong (a minority of the segment) neither pulls it nor widens it. nil with fewer
    /// than `least` samples or no weight.
    public static func holdingOffset<S: Collection>(_ segment: S, least: Int = minSegmentSamples) -> Double? where S.Element == Measurement {
        guard segment.count >= least, least > 0 else { return nil }
        var sx = 0.0, sy = 0.0, total = 0.0
        for m in segment { sx += m.weight * sin(radians(m.deltaDeg)); sy += m.weight * cos(radians(m.deltaDeg)); total += m.weight }
        guard hypot(sx, sy) > 1e-9 else { return nil }
        let mean = degrees(atan2(sx, sy))
        let around = segment.map { (wrap180($0.deltaDeg - mean), $0.weight) }.sorted { $0.0 < $1.0 }
        var cumulative = 0.0
        var estimate = around.last!.0
        for (r, w) in around {
            cumulative += w
            if cumulative >= total / 2 { estimate = r; break }
        }
        for _ in 0..<2 {
            var sum = 0.0, weights = 0.0
            for (r, w) in around {
                let v = w * tukey((r - estimate) / (outlierScaleDeg / 2))
                sum += v * r; weights += v
            }
            guard weights > 1e-9 else { break }
            estimate = sum / weights
        }
        return wrap180(mean + estimate)
    }

    /// The correction applied for a smoothed residual: less `deadbandDeg` (soft threshold),
    /// so the course's own wander (its fixes' slow errors turn it a few degrees for tens of
    /// seconds) never turns a right heading, and a field wrong by more is still corrected.
    @inline(__always)
    public static func applied(_ residual: Double) -> Double {
        residual > deadbandDeg ? residual - deadbandDeg : residual < -deadbandDeg ? residual + deadbandDeg : 0
    }

    @inline(__always)
    static func tukey(_ u: Double) -> Double { abs(u) < 1 ? (1 - u * u) * (1 - u * u) : 0 }

    /// Measurements cut into steady segments, each with its residuals r = z − offset (segments
    /// whose offset cannot be learned left out).
    public static func residuals(_ measurements: [Measurement]) -> (residuals: [(time: Double, deg: Double, weight: Double)], segments: Int) {
        var out: [(time: Double, deg: Double, weight: Double)] = []
        var segments = 0
        var start = 0
        for i in 0...measurements.count {
            let ends = i == measurements.count || (i > start && startsSegment(measurements[i], first: measurements[start], last: measurements[i - 1]))
            guard ends else { continue }
            let segment = measurements[start..<i]
            if let offset = holdingOffset(segment) {
                segments += 1
                out += segment.map { ($0.time, wrap180($0.deltaDeg - offset), $0.weight) }
            }
            start = i
        }
        return (out, segments)
    }

    /// The correction of a whole recording's attitude, at knots every `knotSpacing` s, and the
    /// steady segments that learned their offset; nil when none did.
    public static func correction(_ series: AttitudeSeries, courses: [CourseAlignment.CourseSample]) -> (CourseAlignment.Correction, segments: Int)? {
        var measurements: [Measurement] = []
        for (k, c) in courses.enumerated() {
            guard let m = measurement(c, previous: k > 0 ? courses[k - 1] : nil, attitude: { covered(series, at: $0) }) else { continue }
            measurements.append(m)
        }
        let (r, segments) = residuals(measurements)
        guard segments > 0, let t0 = r.first?.time, let t1 = r.last?.time else { return nil }
        var knots: [(time: Double, offsetDeg: Double)] = []
        let reach = 4 * smoothing
        var t = t0 - reach
        var lo = 0
        while t <= t1 + reach {
            while lo < r.count && r[lo].time < t - reach { lo += 1 }
            var hi = lo
            while hi < r.count && r[hi].time <= t + reach { hi += 1 }
            knots.append((t, smoothed(r[lo..<hi], at: t)))
            t += knotSpacing
        }
        var out = CourseAlignment.Correction(knots: knots, samples: r.count, medianResidualDeg: 0)
        let left = r.map { abs(wrap180($0.deg - out.offset(at: $0.time))) }.sorted()
        out.medianResidualDeg = left[left.count / 2]
        return (out, segments)
    }

    /// The Gaussian-weighted robust mean of residuals around t, shrunk by its support.
    static func smoothed(_ r: ArraySlice<(time: Double, deg: Double, weight: Double)>, at t: Double) -> Double {
        var estimate = 0.0
        var support = 0.0
        for pass in 0..<3 {
            var sum = 0.0
            support = 0
            for x in r {
                var w = x.weight * exp(-0.5 * pow((x.time - t) / smoothing, 2))
                if pass > 0 { w *= tukey((x.deg - estimate) / outlierScaleDeg) }
                sum += w * x.deg; support += w
            }
            guard support > 1e-9 else { return 0 }
            estimate = sum / support
        }
        return applied(estimate * support / (support + priorWeight))
    }

    /// The attitude at t when the series covers t with samples (not across a gap); nil else.
    public static func covered(_ series: AttitudeSeries, at t: Double) -> Quaternion? {
        guard let first = series.times.first, let last = series.times.last, t >= first, t <= last else { return nil }
        let lo = series.times.interpolationInterval(for: t)
        guard lo + 1 >= series.count || series.times[lo + 1] - series.times[lo] <= series.maxInterpolationGap else { return nil }
        return series.orientation(at: t)
    }

    /// `series` with the correction applied to every sample.
    public static func apply(_ correction: CourseAlignment.Correction, to series: inout AttitudeSeries) {
        for i in 0..<series.count { series[i] = correction.apply(series[i], at: series.times[i]) }
    }

    /// The notice for a correction made: the course samples used, the segments that learned
    /// their offset, and the sizes of the correction (degrees).
    public static func notice(samples: Int, segments: Int, sizes: [Double], causal: Bool) -> String {
        let sorted = sizes.map(abs).sorted()
        return String(format: "heading: the GPS course corrected the facing direction%@ (%d course samples in %d steady segment%@, the holding offset learned in each; correction median %.1f°, largest %.1f°)",
                      causal ? " as it went" : "", samples, segments, segments == 1 ? "" : "s",
                      sorted.isEmpty ? 0 : sorted[sorted.count / 2], sorted.last ?? 0)
    }
}
