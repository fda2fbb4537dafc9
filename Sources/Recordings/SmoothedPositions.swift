import Foundation
import Geodesy
import POIARCore

/// A GPS track's positions after `PositionSmoother`: one estimate per fix used, on a local
/// east-north plane around the first fix, and the position between them.
///
/// Over a whole recording (smoothed) the position between two fixes is a cubic Hermite curve
/// through their smoothed positions and velocities (so it moves on without the raw track's
/// kinks) and its variance is interpolated linearly; causally (`--causal`) it is the forward
/// filter's estimate at the last fix before, carried on at its velocity with its variance
/// grown as the filter would. Before the first fix and after the last the position is held.
public struct SmoothedPositions: Sendable {
    /// Whether only the forward filter ran (`--causal`).
    public let causal: Bool
    /// Fixes left out because they repeat the fix before them exactly (a stale fix).
    public let staleFixes: Int
    /// Fixes whose stated accuracy was inflated by more than 3× because they disagreed with the
    /// motion (multipath jumps).
    public let downweightedFixes: Int

    let plane: LocalTangentPlane
    let estimates: [PositionSmoother.Estimate]
    let smoother: PositionSmoother
    /// The stated accuracy at each estimate (the process noise's wander scale, causally).
    let accuracies: [Double]
    /// Whether each estimate is at a fix (else at an epoch in a GPS gap, `MotionVelocity.gapTimes`).
    let isFix: [Bool]
    /// σ's floor at each estimate, m: the stated error its fixes do not show (`SigmaFloor`).
    let floors: [Double]

    /// Fixes given the walker's velocity from the IMU (`MotionVelocity`): still, or stepping.
    public let motionFixes: Int
    /// Fixes given the receiver's ground speed (`GPSVelocity`).
    public let speedFixes: Int

    /// Smooths `fixes` (time order, with their accuracy; those without one are taken at
    /// `assumedAccuracy`), with the walker's `motion` from the IMU when there is one: a first
    /// pass on the fixes alone calibrates it, a second uses it. Nil when no fix is left.
    init?(fixes: [GPSFix], motion: [MotionSample] = [], causal: Bool, settings: PositionSmoother.Settings = .init()) {
        guard let first = fixes.first else { return nil }
        plane = LocalTangentPlane(origin: GeoCoordinate(latitude: first.coordinate.latitude, longitude: first.coordinate.longitude,
                                                        altitude: first.coordinate.altitude ?? 0))
        var planeFixes: [PositionSmoother.PlaneFix] = []
        var kept: [GPSFix] = []  // the fixes behind `planeFixes`
        var stale = 0
        var previous: GPSFix?
        for fix in fixes {
            if let p = previous, p.coordinate == fix.coordinate, p.horizontalAccuracy == fix.horizontalAccuracy {
                stale += 1; continue
            }
            previous = fix
            kept.append(fix)
            let v = plane.enu(GeoCoordinate(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                                            altitude: first.coordinate.altitude ?? 0))
            planeFixes.append(.init(time: fix.time, east: v.x, north: v.y,
                                    accuracy: max(Self.minimumAccuracy, fix.horizontalAccuracy ?? Self.assumedAccuracy)))
        }
        smoother = PositionSmoother(settings: settings)
        let hasSpeed = kept.contains { $0.speed != nil }
        // The GPS-only track, which calibrates the IMU's velocity and the speed's direction.
        let reference: [PositionSmoother.Estimate] = motion.isEmpty && !hasSpeed ? [] : causal ? smoother.filter(planeFixes) : smoother.smooth(planeFixes).estimates
        let ground: [PositionSmoother.Velocity?] = hasSpeed ? GPSVelocity.measurements(planeFixes, ground: kept, reference: reference, motion: motion, causal: causal)
                              : Array(repeating: nil, count: planeFixes.count)
        speedFixes = ground.filter { $0 != nil }.count
        for k in planeFixes.indices { planeFixes[k].velocity = ground[k] }
        if motion.isEmpty {
            motionFixes = 0
        } else {
            // The receiver's speed where it has one (it holds where the steps fail: a car, a
            // phone swept aside), else the walker's from the IMU.
            let velocities = zip(ground, MotionVelocity.measurements(at: planeFixes.map(\.time), planeFixes, reference: reference,
                                                                      motion: motion, causal: causal)).map { speed, steps in speed == nil ? steps : nil }
            motionFixes = velocities.filter { $0 != nil }.count
            // Across the GPS's gaps the IMU's velocity alone, every second, looser the farther
            // from a fix.
            let gaps = MotionVelocity.gapTimes(planeFixes)
            let bridging = MotionVelocity.measurements(at: gaps, planeFixes, reference: reference, motion: motion, causal: causal)
            for k in planeFixes.indices where velocities[k] != nil { planeFixes[k].velocity = velocities[k] }
            var merged: [PositionSmoother.PlaneFix] = []
            merged.reserveCapacity(planeFixes.count + gaps.count)
            var next = 0  // the next fix to take
            for (t, v) in zip(gaps, bridging) {
                while next < planeFixes.count, planeFixes[next].time < t { merged.append(planeFixes[next]); next += 1 }
                guard let v, next > 0 else { continue }
                let before = planeFixes[next - 1]
                var epoch = before  // its accuracy scales the wander's process noise
                // Causally loosened here with the time from the fix before; over a whole
                // recording the smoother does it, from the nearest fix it keeps.
                epoch.velocity = causal ? MotionVelocity.bridged(v, elapsed: t - before.time) : v
                epoch.time = t
                epoch.isFix = false
                merged.append(epoch)
            }
            merged += planeFixes[next...]
            planeFixes = merged
        }
        if causal {
            estimates = smoother.filter(planeFixes)
            downweightedFixes = 0
        } else {
            let s = smoother.smooth(planeFixes)
            estimates = s.estimates
            downweightedFixes = s.inflation.filter { $0 > 3 }.count
        }
        accuracies = planeFixes.map(\.accuracy)
        isFix = planeFixes.map(\.isFix)
        let residuals = zip(planeFixes, estimates).map { fix, e -> Double? in fix.isFix ? hypot(fix.east - e.east.x, fix.north - e.north.x) : nil }
        floors = SigmaFloor.floors(times: estimates.map(\.time), residuals: residuals, accuracies: accuracies, causal: causal)
        self.causal = causal
        staleFixes = stale
    }

    /// The accuracy taken for a fix that states none, m (a phone's typical open-sky figure).
    static let assumedAccuracy = 10.0
    /// Stated accuracies are taken as at least this, m: no phone fix is better, and a fix that
    /// says 0 would pin the track.
    static let minimumAccuracy = 1.0

    /// The smoothed east, north (m) and 68 % radius at `time`.
    func planePosition(at time: Double) -> (east: Double, north: Double, radius: Double)? {
        guard let first = estimates.first, let last = estimates.last else { return nil }
        if causal {
            let k = max(0, estimates.upperBound(of: time, by: \.time) - 1)
            let e = estimates[k]
            let dt = time - e.time
            guard dt > 0 else { return (e.east.x, e.north.x, stated(e.radius68, floors[k])) }
            let wanderVar = pow(smoother.settings.wanderShare * PositionSmoother.axisSigma(accuracies[k]), 2)
            let (f, q) = smoother.transition(from: e, to: time, wanderVar: wanderVar)
            let grown = PositionSmoother.Estimate(time: time, east: f * e.east, north: f * e.north,
                                                  covariance: (f * e.covariance * f.transposed) + q)
            return (grown.east.x, grown.north.x, stated(grown.radius68, floors[k]))
        }
        if time <= first.time { return (first.east.x, first.north.x, stated(first.radius68, floors[0])) }
        if time >= last.time { return (last.east.x, last.north.x, stated(last.radius68, floors[floors.count - 1])) }
        let lo = estimates.interpolationInterval(for: time, by: \.time)
        let a = estimates[lo], b = estimates[lo + 1]
        let h = b.time - a.time
        let s = (time - a.time) / h
        // Cubic Hermite basis.
        let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
        let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
        func hermite(_ p0: Vector3, _ p1: Vector3) -> Double { h00 * p0.x + h10 * h * p0.y + h01 * p1.x + h11 * h * p1.y }
        let variance = (1 - s) * a.covariance[0, 0] + s * b.covariance[0, 0]
        let floor = (1 - s) * floors[lo] + s * floors[lo + 1]
        return (hermite(a.east, b.east), hermite(a.north, b.north), stated(1.5096 * max(0, variance).squareRoot(), floor))
    }

    /// The radius stated for a filter's 68 % radius `radius` where σ's floor is `floor`
    /// (`SigmaFloor`), in quadrature.
    func stated(_ radius: Double, _ floor: Double) -> Double { (radius * radius + floor * floor).squareRoot() }

    /// The smoothed position at `time` at `altitude`, with its 68 % radius.
    func position(at time: Double, altitude: Double?) -> (GeoCoordinate, Double)? {
        guard let p = planePosition(at: time) else { return nil }
        let g = plane.geodetic(enu: Vector3(p.east, p.north, 0))
        return (GeoCoordinate(latitude: g.latitude, longitude: g.longitude, altitude: altitude), p.radius)
    }

    /// The times of the fixes used.
    var times: [Double] { zip(estimates, isFix).compactMap { $1 ? $0.time : nil } }
}
