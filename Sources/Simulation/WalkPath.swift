import Foundation
import Geodesy
import POIARCore

/// A walking path: the waypoint polyline in the local ENU plane of its first point,
/// resampled every 5 cm and smoothed with a Gaussian (σ 2 m along the path, with straight
/// 30 m run-outs at both ends so the ends keep their direction). Queried by arc length: position, unit tangent and the tangent's derivative (the
/// curvature vector, for the centripetal acceleration).
struct WalkPath {
    let plane: LocalTangentPlane
    /// Arc length at each point, m.
    private(set) var s: [Double] = []
    private(set) var points: [(e: Double, n: Double)] = []
    private var tangents: [(e: Double, n: Double)] = []
    private var curvature: [(e: Double, n: Double)] = []
    var length: Double { s.last ?? 0 }

    static let step = 0.05
    static let sigma = 2.0

    init(waypoints: [GeoCoordinate]) throws {
        plane = LocalTangentPlane(origin: GeoCoordinate(latitude: waypoints[0].latitude, longitude: waypoints[0].longitude, altitude: 0))
        var p = waypoints.map { w -> (e: Double, n: Double) in let v = plane.enu(GeoCoordinate(latitude: w.latitude, longitude: w.longitude, altitude: 0)); return (v.x, v.y) }
        // Drop repeated points.
        p = p.enumerated().filter { i, q in i == 0 || hypot(q.e - p[i - 1].e, q.n - p[i - 1].n) > 1e-6 }.map { $0.1 }
        guard p.count >= 2 else { throw SimulationError("the path needs at least two distinct waypoints to walk along") }
        func unit(_ a: (e: Double, n: Double), _ b: (e: Double, n: Double)) -> (e: Double, n: Double) {
            let d = hypot(b.e - a.e, b.n - a.n); return ((b.e - a.e) / d, (b.n - a.n) / d)
        }
        let d0 = unit(p[1], p[0]), d1 = unit(p[p.count - 2], p[p.count - 1])
        let runOut = 30.0
        let full = [(p[0].e + runOut * d0.e, p[0].n + runOut * d0.n)] + p + [(p[p.count - 1].e + runOut * d1.e, p[p.count - 1].n + runOut * d1.n)]
        // Resample at 5 cm.
        var cum = [0.0]
        for i in 1..<full.count { cum.append(cum[i - 1] + hypot(full[i].0 - full[i - 1].0, full[i].1 - full[i - 1].1)) }
        var pts: [(e: Double, n: Double)] = []
        var seg = 0
        var u = 0.0
        while u < cum.last! {
            while seg < full.count - 2 && cum[seg + 1] < u { seg += 1 }
            let f = (u - cum[seg]) / max(1e-12, cum[seg + 1] - cum[seg])
            pts.append((full[seg].0 + f * (full[seg + 1].0 - full[seg].0), full[seg].1 + f * (full[seg + 1].1 - full[seg].1)))
            u += WalkPath.step
        }
        // Gaussian smoothing (kernel ±5σ), edges held.
        let half = Int((5 * WalkPath.sigma / WalkPath.step).rounded())
        var kernel = (-half...half).map { k -> Double in let x = Double(k) * WalkPath.step / WalkPath.sigma; return exp(-0.5 * x * x) }
        let ksum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / ksum }
        var smooth = pts
        for i in pts.indices {
            var e = 0.0, n = 0.0
            for (j, w) in kernel.enumerated() {
                let k = min(max(i + j - half, 0), pts.count - 1)
                e += w * pts[k].e; n += w * pts[k].n
            }
            smooth[i] = (e, n)
        }
        // Cut the run-outs: from the point nearest the first waypoint to the one nearest the last.
        func nearest(_ q: (e: Double, n: Double)) -> Int {
            smooth.indices.min { hypot(smooth[$0].e - q.e, smooth[$0].n - q.n) < hypot(smooth[$1].e - q.e, smooth[$1].n - q.n) }!
        }
        let i0 = nearest(p[0]), i1 = nearest(p[p.count - 1])
        guard i1 > i0 + 2 else { throw SimulationError("the path is too short to walk (under 15 cm)") }
        points = Array(smooth[i0...i1])
        s = [0]
        for i in 1..<points.count { s.append(s[i - 1] + hypot(points[i].e - points[i - 1].e, points[i].n - points[i - 1].n)) }
        tangents = points.indices.map { i in
            let a = points[max(0, i - 1)], b = points[min(points.count - 1, i + 1)]
            let d = hypot(b.e - a.e, b.n - a.n)
            return ((b.e - a.e) / d, (b.n - a.n) / d)
        }
        curvature = points.indices.map { i in
            let a = max(0, i - 1), b = min(points.count - 1, i + 1)
            let ds = s[b] - s[a]
            return ((tangents[b].e - tangents[a].e) / ds, (tangents[b].n - tangents[a].n) / ds)
        }
    }

    private func locate(_ u: Double) -> (Int, Double) {
        let v = min(max(u, 0), length)
        let lo = s.interpolationInterval(for: v), hi = min(lo + 1, s.count - 1)
        let f = s[hi] > s[lo] ? (v - s[lo]) / (s[hi] - s[lo]) : 0
        return (lo, f)
    }

    private func lerp(_ a: [(e: Double, n: Double)], _ u: Double) -> (e: Double, n: Double) {
        let (i, f) = locate(u)
        let j = min(i + 1, a.count - 1)
        return (a[i].e + f * (a[j].e - a[i].e), a[i].n + f * (a[j].n - a[i].n))
    }

    func position(at u: Double) -> (e: Double, n: Double) { lerp(points, u) }

    func tangent(at u: Double) -> (e: Double, n: Double) {
        let t = lerp(tangents, u)
        let d = hypot(t.e, t.n)
        return (t.e / d, t.n / d)
    }

    /// dT/ds, 1/m.
    func curvatureVector(at u: Double) -> (e: Double, n: Double) { lerp(curvature, u) }

    /// Arc length of the path's point nearest to (e, n), m.
    func nearest(e: Double, n: Double) -> Double {
        let i = points.indices.min { hypot(points[$0].e - e, points[$0].n - n) < hypot(points[$1].e - e, points[$1].n - n) }!
        return s[i]
    }

    /// Azimuth of the walking direction, degrees clockwise from north.
    func bearing(at u: Double) -> Double {
        let t = tangent(at: u)
        return atan2(t.e, t.n) * 180 / .pi
    }
}

/// A problem with the simulator's input (path, options, script); `field` names the script
/// field when there is one (`timeline[3].walk_to`).
public struct SimulationError: Error, CustomStringConvertible, Sendable {
    public var field: String?
    public var message: String
    public var description: String { field.map { "\($0): \(message)" } ?? message }
    public init(_ message: String) { self.message = message }
    public init(field: String, _ message: String) { self.field = field; self.message = message }
}
