import Foundation
import POIARCore

/// The magnetometer's hard iron where the device turned too little for `MagnetometerCalibration`
/// (a walk or a drive with the phone held roughly level, facing about one way): what such a
/// recording shows is fitted, with WMM2025's field for what it cannot show.
///
/// With u the up direction in the device frame (from the accelerometer, or the filter's tilt)
/// and b the offset, the field m − b has a vertical part u·(m − b) that must be the model's
/// (`up`, negative where the field dips down) and a horizontal part of the model's strength
/// (`horizontal`), whichever way the device faces:
///
///     u·(m − b) = up,   |(m − b) − u·(u·(m − b))| = horizontal.
///
/// The heading never enters, so neither does the gyro's drift. The vertical equation pins b
/// along gravity; the horizontal one pins it along the field's horizontal direction from a
/// single heading, and across it as far as the headings seen spread (the arc's curvature).
/// Gauss–Newton from twelve starts around the circle of the model's radius (an arc fits a
/// circle on either side; the start decides which), each refitted without the disturbed
/// samples: those whose calibrated norm or dip is off the model by more than
/// `magNormThreshold` or `magDipThresholdDeg` (a car, a building, a magnet passing). The fit
/// kept is the one the samples on the model support most (`Candidate.support`; not the least
/// squares over them all: a disturbed span can pull that to the arc's other side, whose
/// circle takes the span in). The fit is
/// used when at least `minInliers` of the samples agree with the model and the offset across
/// the field's direction is known to within `maxHeadingSigmaDeg` of heading (each second's
/// samples counted as one measurement: their errors are not independent).
public enum MagnetometerLevelFit {
    /// A span of time whose field was off the model, s (the log's clock).
    public struct Span: Sendable, Equatable {
        public var start: Double, end: Double
    }

    public struct Result: Sendable {
        public var offset: Vector3
        /// The heading error the offset's uncertainty across the field leaves, 68 %, degrees.
        public var headingSigmaDeg: Double
        /// Share of the samples whose calibrated field agrees with the model.
        public var inlierFraction: Double
        /// Where the calibrated field is off the model (merged across gaps under 1 s; runs
        /// under 0.5 s are noise and left out).
        public var disturbed: [Span]
        /// Share of the samples inside `disturbed`.
        public var disturbedFraction: Double
        /// The median calibrated norm, µT.
        public var measuredFieldUT: Double
    }

    /// One magnetometer sample as the fit sees it.
    public struct Point: Sendable {
        public var time: Double
        public var field: Vector3
        /// Unit up direction, device frame.
        public var up: Vector3
        public init(time: Double, field: Vector3, up: Vector3) { self.time = time; self.field = field; self.up = up }
    }

    /// Fewest samples agreeing with the model for the fit to be used.
    static let minInliers = 0.6
    /// Largest heading error (68 %) the offset's uncertainty may leave, degrees.
    static let maxHeadingSigmaDeg = 4.0
    /// Fewest points (and seconds) a fit needs.
    static let minPoints = 50
    static let minSeconds = 20.0
    /// Most points a fit works on (a longer recording is sampled evenly).
    static let maxPoints = 20_000

    /// The points of `mag` with the up direction of the mean specific force over the second
    /// around each sample (a step's accelerations average out over it).
    public static func points(_ mag: SampleSeries, accel: SampleSeries) -> [Point] {
        guard mag.count > 0, accel.count > 1 else { return [] }
        var sums = [Vector3](repeating: .zero, count: accel.count + 1)
        for i in 0..<accel.count {
            let a = accel.vector(i)
            sums[i + 1] = sums[i] + (a.isFinite ? a : .zero)
        }
        let step = max(1, mag.count / maxPoints)
        var out: [Point] = []
        out.reserveCapacity(mag.count / step + 1)
        var lo = 0, hi = 0
        for i in stride(from: 0, to: mag.count, by: step) {
            let t = mag.times[i], m = mag.vector(i)
            guard m.isFinite else { continue }
            while lo < accel.count && accel.times[lo] < t - 0.5 { lo += 1 }
            while hi < accel.count && accel.times[hi] <= t + 0.5 { hi += 1 }
            let g = sums[hi] - sums[lo]
            guard hi > lo, g.norm > 0 else { continue }
            out.append(Point(time: t, field: m, up: g.normalized))
        }
        return out
    }

    /// The fit (nil: too few points, or the model not met, or the offset across the field not
    /// pinned down; `why` says which). `robust`: the fit kept among the starts' is the one the
    /// samples on the model support most (`robustChoice`), else the least squares over all the
    /// samples (`leastSquaresChoice`).
    public static func fit(_ points: [Point], horizontalUT h: Double, upUT v: Double, params: ComplementaryFilterParams,
                           robust: Bool = true, why: inout String) -> Result? {
        guard points.count >= minPoints, let first = points.first, let last = points.last,
              last.time - first.time >= minSeconds, h > 0 else {
            why = "too few magnetometer samples for a fit in the horizontal plane"
            return nil
        }
        func agrees(_ p: Point, _ b: Vector3) -> Bool { Self.agrees(p, offset: b, horizontalUT: h, upUT: v, params: params) }

        // Starts: the vertical part set, the horizontal centre at the model's radius from the
        // mean field, in twelve directions.
        var mean = Vector3.zero, upMean = Vector3.zero
        for p in points { mean = mean + p.field; upMean = upMean + p.up }
        mean = mean / Double(points.count)
        let u = upMean.normalized
        let e1 = (abs(u.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)).cross(u).normalized, e2 = u.cross(e1)
        let mh = mean - u * mean.dot(u)
        let starts = (0..<12).map { k in
            let a = Double(k) * .pi / 6
            return mh - (e1 * cos(a) + e2 * sin(a)) * h + u * (mean.dot(u) - v)
        }
        let chosen = robust ? robustChoice(points, starts: starts, h: h, v: v, params: params)
            : leastSquaresChoice(points, starts: starts, h: h, v: v, params: params)
        guard let b = chosen else {
            why = "the headings seen fit two offsets alike"
            return nil
        }
        let inside = points.filter { agrees($0, b) }
        let inliers = share(points, offset: b, horizontalUT: h, upUT: v, params: params)
        guard inliers >= minInliers else {
            why = String(format: "only %.0f%% of the samples fit WMM2025's field through one offset", 100 * inliers)
            return nil
        }
        // The offset's uncertainty: σ²·(JᵀJ)⁻¹, each second's samples one measurement.
        var jtj = SymmetricMatrix3(diagonal: 0)
        var sumSq = 0.0
        var horizontalMean = Vector3.zero
        for p in inside {
            let d = p.field - b, up = d.dot(p.up), hv = d - p.up * up, hn = hv.norm
            guard hn > 0 else { continue }
            let jh = hv / hn
            horizontalMean = horizontalMean + jh
            jtj = add(jtj, p.up); jtj = add(jtj, jh)
            sumSq += (up - v) * (up - v) + (hn - h) * (hn - h)
        }
        let perSecond = Double(points.count) / max(1, last.time - first.time)
        let sigma2 = sumSq / Double(max(1, 2 * inside.count - 3)) * max(1, perSecond)
        guard let inv = jtj.inverse(), horizontalMean.norm > 0 else {
            why = "the headings seen do not pin the offset down"
            return nil
        }
        // Across the field's mean horizontal direction: what turns the heading.
        let across = u.cross(horizontalMean.normalized).normalized
        let sigmaAcross = (max(0, across.dot(inv.times(across))) * sigma2).squareRoot()
        let headingSigma = atan2(sigmaAcross, h) / radPerDeg
        guard headingSigma <= maxHeadingSigmaDeg else {
            why = String(format: "the headings seen leave the offset across the field unknown (±%.0f° of heading)", headingSigma)
            return nil
        }
        let norms = inside.map { ($0.field - b).norm }.sorted()
        let (spans, disturbedShare) = disturbedSpans(points) { !agrees($0, b) }
        return Result(offset: b, headingSigmaDeg: headingSigma, inlierFraction: inliers, disturbed: spans,
                      disturbedFraction: disturbedShare, measuredFieldUT: norms[norms.count / 2])
    }

    /// Whether the field of `p` through offset `b` has the model's strength and dip (within
    /// `magNormThreshold` and `magDipThresholdDeg`).
    @inline(__always)
    static func agrees(_ p: Point, offset b: Vector3, horizontalUT h: Double, upUT v: Double, params: ComplementaryFilterParams) -> Bool {
        let field = (h * h + v * v).squareRoot()
        let d = p.field - b, n = d.norm
        guard n > 0 else { return false }
        return abs(n - field) <= params.magNormThreshold * field
            && abs(asin(max(-1, min(1, -d.dot(p.up) / n))) - asin(-v / field)) <= params.magDipThresholdDeg * radPerDeg
    }

    /// Share of `points` whose field through `b` agrees with the model.
    static func share(_ points: [Point], offset b: Vector3, horizontalUT h: Double, upUT v: Double, params: ComplementaryFilterParams) -> Double {
        guard !points.isEmpty else { return 1 }
        return Double(points.count { agrees($0, offset: b, horizontalUT: h, upUT: v, params: params) }) / Double(points.count)
    }

    /// Gauss–Newton over the points `use` keeps, from `start`: the offset and the sum of the
    /// squared residuals.
    static func solve(_ points: [Point], from start: Vector3, h: Double, v: Double, use: (Point) -> Bool) -> (b: Vector3, cost: Double) {
        var b = start
        var cost = Double.infinity
        for _ in 0..<20 {
            var a = SymmetricMatrix3(diagonal: 0)
            var g = Vector3.zero
            var c = 0.0
            for p in points where use(p) {
                let d = p.field - b, up = d.dot(p.up), hv = d - p.up * up, hn = hv.norm
                guard hn > 0 else { continue }
                // r = u·d − v (∂r/∂b = −u), r = |hv| − h (∂r/∂b = −hv/|hv|): δ from J·δ = −r.
                let rv = up - v, rh = hn - h, jh = hv / hn
                a = add(a, p.up); a = add(a, jh)
                g = g + p.up * rv + jh * rh
                c += rv * rv + rh * rh
            }
            cost = c
            // JᵀJ δ = −Jᵀr with J = −(u, jh): δ = A⁻¹·Σ(u·rv + jh·rh). Damped a little.
            let damping = 1e-6 * (a.xx + a.yy + a.zz)
            a.xx += damping; a.yy += damping; a.zz += damping
            guard let delta = a.solve(g), delta.isFinite else { break }
            b = b + delta
            if delta.norm < 1e-4 { break }
        }
        return (b, cost)
    }

    @inline(__always)
    static func add(_ a: SymmetricMatrix3, _ j: Vector3) -> SymmetricMatrix3 {
        SymmetricMatrix3(xx: a.xx + j.x * j.x, yy: a.yy + j.y * j.y, zz: a.zz + j.z * j.z,
                         xy: a.xy + j.x * j.y, xz: a.xz + j.x * j.z, yz: a.yz + j.y * j.z)
    }

    /// The spans of points `off` says are off the model: runs merged across gaps under 1 s,
    /// those under 0.5 s left out; and the share of the points inside them.
    static func disturbedSpans(_ points: [Point], off: (Point) -> Bool) -> ([Span], Double) {
        var spans: [Span] = []
        var current: Span?
        for p in points where off(p) {
            if var s = current, p.time - s.end < 1 { s.end = p.time; current = s; continue }
            if let s = current { spans.append(s) }
            current = Span(start: p.time, end: p.time)
        }
        if let s = current { spans.append(s) }
        spans = spans.filter { $0.end - $0.start >= 0.5 }
        guard !spans.isEmpty else { return ([], 0) }
        var k = 0, inside = 0
        for p in points {
            while k < spans.count && spans[k].end < p.time { k += 1 }
            if k < spans.count && p.time >= spans[k].start { inside += 1 }
        }
        return (spans, Double(inside) / Double(points.count))
    }

    /// "12.0–20.5 s, 40.1–44.0 s" (times from `origin`), the first `limit` spans and how many more.
    public static func describe(_ spans: [Span], origin: Double, limit: Int = 4) -> String {
        var parts = spans.prefix(limit).map { String(format: "%.1f–%.1f s", $0.start - origin, $0.end - origin) }
        if spans.count > limit { parts.append("\(spans.count - limit) more") }
        return parts.joined(separator: ", ")
    }
}
