import Foundation
import POIARCore
import SensorLog

/// Attitudes over time, read from a pose CSV or a truth file: `time,qw,qx,qy,qz` and, in a
/// truth file, optionally `movement` (other columns are ignored; `#` lines are comments).
public struct PoseSeries: Sendable {
    public var times: [Double] = []
    /// nil where the file's quaternion fields are empty ("no reference here").
    public var quaternions: [Quaternion?] = []
    /// The `movement` column (> 0.5 = scored), when the file has one.
    public var movement: [Bool]?

    public init() {}

    public init(times: [Double], quaternions: [Quaternion?], movement: [Bool]? = nil) {
        self.times = times; self.quaternions = quaternions; self.movement = movement
    }

    public mutating func append(time: Double, _ q: Quaternion?) {
        times.append(time); quaternions.append(q)
    }

    /// Reads a CSV (plain or gzip) by column names. Empty fields are missing values.
    public static func read(path: String, movementColumn: Bool) throws -> PoseSeries {
        let lines = try LineReader(path: path)
        var columns: [String]?
        var idx: [Int] = []
        var movementIndex: Int?
        var out = PoseSeries()
        var movement: [Bool] = []
        while let raw = try lines.nextLine() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns != nil else {
                columns = parts
                let required = ["time", "qw", "qx", "qy", "qz"]
                let missing = required.filter { !parts.contains($0) }
                if !missing.isEmpty {
                    throw InputError(file: path, line: lines.lineNumber,
                                     "header lacks column(s) \(missing.joined(separator: ",")) (header is \"\(line.prefix(120))\")")
                }
                idx = required.map { parts.firstIndex(of: $0)! }
                if movementColumn { movementIndex = parts.firstIndex(of: "movement") }
                continue
            }
            func value(_ j: Int, _ name: String) throws -> Double? {
                guard j < parts.count, !parts[j].isEmpty else { return nil }
                guard let v = Double(parts[j]) else {
                    throw InputError(file: path, line: lines.lineNumber, field: name, "\"\(parts[j])\" is not a number")
                }
                return v
            }
            guard let t = try value(idx[0], "time") else {
                throw InputError(file: path, line: lines.lineNumber, field: "time", "missing time")
            }
            guard t.isFinite else { throw InputError(file: path, line: lines.lineNumber, field: "time", "time must be finite, found \(parts[idx[0]])") }
            // Rows are matched by binary search over the times: they must not step back.
            if let previous = out.times.last, t < previous {
                throw InputError(file: path, line: lines.lineNumber, field: "time", "time \(t) steps back from \(previous) (the row before): rows must be in time order")
            }
            let w = try value(idx[1], "qw"), x = try value(idx[2], "qx"), y = try value(idx[3], "qy"), z = try value(idx[4], "qz")
            var q: Quaternion?
            if let w, let x, let y, let z, w.isFinite, x.isFinite, y.isFinite, z.isFinite {
                let qq = Quaternion(w: w, x: x, y: y, z: z)
                if qq.norm > 0 { q = qq.normalized }
            }
            out.times.append(t)
            out.quaternions.append(q)
            if let mi = movementIndex { movement.append((try value(mi, "movement") ?? 0) > 0.5) }
        }
        if columns == nil { throw InputError(file: path, "no header row found") }
        if movementIndex != nil { out.movement = movement }
        return out
    }
}

/// Orientation errors of estimated poses against a truth, with the definitions of the BROAD
/// benchmark (Laidig et al. 2021) as `pose_eval.py score` computes them:
///
///     e = q_est ⊗ q_truth⁻¹             (the error rotation, in the ENU frame)
///     total       = 2·acos(|e_w|)
///     heading     = 2·atan(|e_z / e_w|)  (about the vertical)
///     inclination = 2·acos(√(e_w² + e_z²))  (the remaining tilt)
///
/// RMSE over the truth rows with movement = 1 (all rows when the truth has no `movement`
/// column) and a quaternion; each is matched to the pose nearest in time when that is within
/// half the truth's median sample period.
public struct PoseScore: Sendable, Equatable {
    public var headingRMSEDeg: Double
    public var inclinationRMSEDeg: Double
    public var totalRMSEDeg: Double
    /// Truth rows scored (movement with a quaternion), and those that found a pose.
    public var movementSamples: Int
    public var matched: Int
    /// With `alignHeading`: the constant heading offset removed before scoring, degrees (the
    /// estimate's heading minus the truth's, clockwise seen from above); nil otherwise.
    public var headingOffsetDeg: Double?
    public var coverage: Double { movementSamples > 0 ? Double(matched) / Double(movementSamples) : 0 }

    public init(headingRMSEDeg: Double, inclinationRMSEDeg: Double, totalRMSEDeg: Double, movementSamples: Int, matched: Int,
                headingOffsetDeg: Double? = nil) {
        self.headingRMSEDeg = headingRMSEDeg; self.inclinationRMSEDeg = inclinationRMSEDeg; self.totalRMSEDeg = totalRMSEDeg
        self.movementSamples = movementSamples; self.matched = matched; self.headingOffsetDeg = headingOffsetDeg
    }

    /// The three error angles (radians) of one estimate against one truth.
    public static func errorAngles(estimate: Quaternion, truth: Quaternion) -> (total: Double, heading: Double, inclination: Double) {
        let e = (estimate.normalized * truth.normalized.conjugate).normalized
        let total = 2 * acos(min(1, abs(e.w)))
        let heading = 2 * atan(abs(e.z / e.w))
        let inclination = 2 * acos(min(1, max(0, (e.w * e.w + e.z * e.z).squareRoot())))
        return (total, heading, inclination)
    }

    /// The pairs scored: each truth row with movement and a quaternion, and the pose nearest
    /// in time when that is within half the truth's median sample period; and how many truth
    /// rows were eligible.
    public static func matches(truth: PoseSeries, poses: PoseSeries) -> (pairs: [(estimate: Quaternion, truth: Quaternion)], eligible: Int) {
        // Poses sorted by time (stable), as pose_eval does.
        let order = poses.times.indices.sorted { poses.times[$0] != poses.times[$1] ? poses.times[$0] < poses.times[$1] : $0 < $1 }
        let tp = order.map { poses.times[$0] }
        let qp = order.map { poses.quaternions[$0] }
        let tt = truth.times
        var half = 0.0
        if tt.count > 1 { half = 0.5 * median(zip(tt.dropFirst(), tt).map { $0 - $1 }) }
        let tol = half * (1 + 1e-6) + 1e-9
        var eligible = 0
        var pairs: [(estimate: Quaternion, truth: Quaternion)] = []
        for (i, t) in tt.enumerated() {
            guard let qt = truth.quaternions[i], truth.movement?[i] ?? true else { continue }
            eligible += 1
            guard !tp.isEmpty else { continue }
            // The nearest time, the earlier of two as near (numpy's searchsorted, left, and its neighbour).
            guard let best = tp.nearestIndex(to: t), abs(tp[best] - t) <= tol, let q = qp[best] else { continue }
            pairs.append((q, qt))
        }
        return (pairs, eligible)
    }

    /// The constant heading offset between estimates and truths, robustly: the circular
    /// median of each pair's rotation about the vertical (the twist of e = q_est ⊗ q_truth⁻¹
    /// about ENU's z), as the estimate's heading minus the truth's, degrees; nil without pairs.
    public static func headingOffsetDeg(_ pairs: [(estimate: Quaternion, truth: Quaternion)]) -> Double? {
        circularMedianDeg(pairs.map { headingErrorDeg(estimate: $0.estimate, truth: $0.truth) }).map { wrap180($0.centre) }
    }

    /// The estimate's heading minus the truth's, degrees in (−180, 180]: the twist of
    /// e = q_est ⊗ q_truth⁻¹ about ENU's z, negated (a rotation by φ about up, counter-clockwise,
    /// turns headings by −φ).
    public static func headingErrorDeg(estimate: Quaternion, truth: Quaternion) -> Double {
        let e = (estimate.normalized * truth.normalized.conjugate).normalized
        return wrap180(-degrees(2 * atan2(e.z, e.w)))
    }

    /// Scores `poses` against `truth`; with `alignHeading`, after removing the constant
    /// heading offset (`headingOffsetDeg`) from the estimates: a phone referenced to true
    /// instead of magnetic north, or mounted turned, then scores on the rest.
    public static func score(truth: PoseSeries, poses: PoseSeries, alignHeading: Bool = false) -> PoseScore {
        var (pairs, eligible) = matches(truth: truth, poses: poses)
        var offset: Double?
        if alignHeading, let o = headingOffsetDeg(pairs) {
            offset = o
            // Turning the estimate by +offset about up (counter-clockwise) lowers its heading by offset.
            let turn = Quaternion(axis: Vector3(0, 0, 1), angle: radians(o))
            pairs = pairs.map { ((turn * $0.estimate).normalized, $0.truth) }
        }
        var sumT = 0.0, sumH = 0.0, sumI = 0.0
        for p in pairs {
            let e = errorAngles(estimate: p.estimate, truth: p.truth)
            sumT += e.total * e.total; sumH += e.heading * e.heading; sumI += e.inclination * e.inclination
        }
        let used = pairs.count
        func rmse(_ s: Double) -> Double { used > 0 ? (s / Double(used)).squareRoot() * 180 / .pi : .nan }
        return PoseScore(headingRMSEDeg: rmse(sumH), inclinationRMSEDeg: rmse(sumI), totalRMSEDeg: rmse(sumT),
                         movementSamples: eligible, matched: used, headingOffsetDeg: offset)
    }

    /// The report `pose_eval.py score` prints.
    public var report: String {
        let offset = headingOffsetDeg.map { String(format: "heading_offset_deg: %.3f (removed before scoring)\n", $0) } ?? ""
        return offset + String(format: "heading_rmse_deg: %.3f\ninclination_rmse_deg: %.3f\ntotal_rmse_deg: %.3f\nmatched: %d of %d movement samples (%.2f%%)",
                               headingRMSEDeg, inclinationRMSEDeg, totalRMSEDeg, matched, movementSamples, 100 * coverage)
    }

    /// One JSON object, like `pose_eval.py score --json` (without the file names).
    public var json: String {
        func n(_ v: Double) -> String { v.isFinite ? String(format: "%.6f", v) : "null" }
        return "{\"heading_rmse_deg\": \(n(headingRMSEDeg)), \"inclination_rmse_deg\": \(n(inclinationRMSEDeg)), "
            + "\"total_rmse_deg\": \(n(totalRMSEDeg)), \"movement_samples\": \(movementSamples), \"matched\": \(matched), "
            + "\"coverage\": \(n(coverage))" + (headingOffsetDeg.map { ", \"heading_offset_deg\": \(n($0))" } ?? "") + "}"
    }
}
