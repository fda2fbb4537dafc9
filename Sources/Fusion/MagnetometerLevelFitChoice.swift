import Foundation
import POIARCore

/// Which of `MagnetometerLevelFit`'s starts to keep. A narrow arc fits a circle on its either
/// side, and Gauss–Newton from twelve starts finds minima on both.
///
/// - `leastSquaresChoice`: the least squares over all the samples. A disturbed span (25–30 µT
///   for 15–20 s of a walk) can pull it to the arc's other side, whose circle takes the span
///   in: the benchmark's disturbed walk had its heading 158° off.
/// - `robustChoice`: also Tukey-weighted from each start, and the fit the samples on the model
///   support most kept: the disturbed walk comes out as the undisturbed one. Not for a window
///   the OS re-calibrated in (the running fit's): there the samples of two calibrations give a
///   well-supported circle that is neither's (the simulated walk with OS steps, causal: 25° →
///   75° RMSE).
extension MagnetometerLevelFit {
    static func leastSquaresChoice(_ points: [Point], starts: [Vector3], h: Double, v: Double, params: ComplementaryFilterParams) -> Vector3? {
        func agrees(_ p: Point, _ b: Vector3) -> Bool { Self.agrees(p, offset: b, horizontalUT: h, upUT: v, params: params) }
        let minima = starts.map { solve(points, from: $0, h: h, v: v, use: { _ in true }) }
        let best = minima.min { $0.cost < $1.cost }!
        // A second minimum nearly as good, elsewhere, leaves the offset unknown.
        if minima.contains(where: { $0.cost <= 1.15 * best.cost && ($0.b - best.b).norm > 0.25 * h }) { return nil }
        var b = best.b
        for _ in 0..<2 {
            let fixed = b
            b = solve(points, from: b, h: h, v: v, use: { agrees($0, fixed) }).b
        }
        return b
    }

    /// From each start, Gauss–Newton over all the samples, and Tukey-weighted from the start
    /// itself (`robustSolve`), each then refitted over the samples that agree with the model
    /// through it (twice); the fit with the most `Candidate.support` kept. nil when another,
    /// elsewhere, fits the samples both put on the model nearly as closely.
    static func robustChoice(_ points: [Point], starts: [Vector3], h: Double, v: Double, params: ComplementaryFilterParams) -> Vector3? {
        func agrees(_ p: Point, _ b: Vector3) -> Bool { Self.agrees(p, offset: b, horizontalUT: h, upUT: v, params: params) }
        var minima: [Candidate] = []
        let scales = [h, params.magNormThreshold * (h * h + v * v).squareRoot()]
        for start in starts {
            let plain = solve(points, from: start, h: h, v: v, use: { _ in true }).b
            for var b in [plain, robustSolve(points, from: start, h: h, v: v, scales: scales)] {
                for _ in 0..<2 {
                    let fixed = b
                    b = solve(points, from: b, h: h, v: v, use: { agrees($0, fixed) }).b
                }
                minima.append(candidate(points, offset: b, h: h, v: v, params: params))
            }
        }
        let best = minima.max { $0.support < $1.support }!
        if minima.contains(where: { ($0.offset - best.offset).norm > 0.25 * h && closer($0, than: best, points, h: h, v: v) <= 1.15 }) {
            return nil
        }
        return best.offset
    }

    /// One start's fit: its offset, which samples agree with the model through it, and how
    /// much they support it: the log-likelihood ratio of the samples on the model, as normal
    /// residuals of the spread they show, against spread evenly over the band the model allows
    /// (`agrees`): many samples on the model and a close fit of them both count, so a circle that
    /// takes a disturbed span in at the cost of fitting the rest loosely loses.
    struct Candidate {
        var offset: Vector3
        var onModel: [Bool]
        var support: Double
    }

    static func candidate(_ points: [Point], offset b: Vector3, h: Double, v: Double, params: ComplementaryFilterParams) -> Candidate {
        let onModel = points.map { agrees($0, offset: b, horizontalUT: h, upUT: v, params: params) }
        var n = 0.0, sumSq = 0.0
        for (i, p) in points.enumerated() where onModel[i] { sumSq += residual2(p, b, h: h, v: v); n += 1 }
        guard n > 0 else { return Candidate(offset: b, onModel: onModel, support: 0) }
        // Variance per residual component (two per sample), floored at (0.05 µT)².
        let variance = max(sumSq / (2 * n), 0.0025), field = (h * h + v * v).squareRoot()
        let band = (2 * params.magNormThreshold * field) * (2 * params.magDipThresholdDeg * radPerDeg * field)
        return Candidate(offset: b, onModel: onModel, support: n * (log(band) - log(2 * .pi * variance) - 1))
    }

    /// How closely `a` fits the samples both fits put on the model, against `b`: the ratio of
    /// their sums of squared residuals there (below 1: `a` fits closer). With fewer than
    /// `minPoints` such samples, the ratio of the samples each puts on the model, inverted.
    static func closer(_ a: Candidate, than b: Candidate, _ points: [Point], h: Double, v: Double) -> Double {
        var costA = 0.0, costB = 0.0, common = 0
        for (i, p) in points.enumerated() where a.onModel[i] && b.onModel[i] {
            costA += residual2(p, a.offset, h: h, v: v)
            costB += residual2(p, b.offset, h: h, v: v)
            common += 1
        }
        guard common >= minPoints else {
            return Double(max(1, b.onModel.count { $0 })) / Double(max(1, a.onModel.count { $0 }))
        }
        return costB > 0 ? costA / costB : (costA > 0 ? .infinity : 1)
    }

    /// The squared residual of `p` through offset `b`: vertical and horizontal parts, µT².
    @inline(__always)
    static func residual2(_ p: Point, _ b: Vector3, h: Double, v: Double) -> Double {
        let d = p.field - b, up = d.dot(p.up), hn = (d - p.up * up).norm
        return (up - v) * (up - v) + (hn - h) * (hn - h)
    }

    /// Gauss–Newton from `start` with each sample weighted by Tukey's biweight of its residual
    /// (µT) at each scale in turn, a few steps each: from a start on the arc's right side,
    /// samples a disturbance moved far off (25 µT and more) weigh nothing from the first
    /// steps, where the least squares over all of them would be pulled across. Scales from
    /// wide to narrow let the samples far from a rough start in first.
    static func robustSolve(_ points: [Point], from start: Vector3, h: Double, v: Double, scales: [Double]) -> Vector3 {
        var b = start
        for c in scales {
            for _ in 0..<5 {
                var a = SymmetricMatrix3(diagonal: 0)
                var g = Vector3.zero
                for p in points {
                    let d = p.field - b, up = d.dot(p.up), hv = d - p.up * up, hn = hv.norm
                    guard hn > 0 else { continue }
                    let rv = up - v, rh = hn - h, q = (rv * rv + rh * rh) / (c * c)
                    guard q < 1 else { continue }
                    let w = (1 - q) * (1 - q), jh = hv / hn
                    a = add(a, p.up * w.squareRoot()); a = add(a, jh * w.squareRoot())
                    g = g + (p.up * rv + jh * rh) * w
                }
                let damping = 1e-6 * (a.xx + a.yy + a.zz)
                a.xx += damping; a.yy += damping; a.zz += damping
                guard damping > 0, let delta = a.solve(g), delta.isFinite else { break }
                b = b + delta
                if delta.norm < 1e-4 { break }
            }
        }
        return b
    }
}
