import Foundation
import POIARCore

/// The vehicle term of the position smoother: the receiver's own ground speed at each fix (its
/// Doppler velocity: Sensor Logger's `speed`, GoPro's GPS5 2-D speed, a log's `gps_velocity`)
/// as a velocity measurement. A car on a smooth road gives the step detector nothing, but the
/// receiver measures its speed to a few tenths of a m/s whatever its position wanders by,
/// which ties the fixes of a drive together the way the steps tie a walk's.
///
/// The speed needs a direction, taken from (best first):
/// - the receiver's course, when it states one (Sensor Logger's `bearing`): σ its speed's
///   noise over the speed, at least `courseFloor`;
/// - the direction the device faces (`Pose.facingAzimuth` from the fused attitude) turned by
///   its mount's offset from the direction of travel, calibrated against the GPS-only track as
///   the walker's is (`MotionVelocity.robustOffset` over the moving fixes within `window` s;
///   causally the circular mean over the `window` s before), σ the offsets' spread;
/// - else the GPS-only track's own course (its velocity's σ over its speed): the speed alone
///   then still says how fast the track may move between fixes.
///
/// The filter's east and north share one covariance (`PositionSmoother`), so a measurement's
/// variance is one per-axis figure: the larger of the speed's and the direction's (speed × σ
/// of the direction). Near standstill (speed under two of its σ) the measurement is zero
/// velocity at the speed's own size, whatever the direction.
enum GPSVelocity {
    /// The speed's per-axis σ when the fix states none, m/s (phones state 0.2–2.5 m/s).
    static let assumedSpeedAccuracy = 0.5
    /// The smallest σ taken for a stated course, radians (a receiver's course lags a turn).
    static let courseFloor = radians(3)
    /// Moving fixes calibrate the facing direction's offset above this speed, m/s.
    static let minCalibrationSpeed = 2.0
    static let window = MotionVelocity.window
    static let minCalibrationFixes = MotionVelocity.minCalibrationFixes
    static let maxSpread = MotionVelocity.maxSpread
    /// A floor on the per-axis σ, m/s (the track's velocity between fixes is a model's).
    static let floor = 0.1

    /// The receiver's velocity at each of `fixes` (nil without a speed), with `reference` the
    /// GPS-only track at them and `motion` the fused attitude's facing directions.
    static func measurements(_ fixes: [PositionSmoother.PlaneFix], ground: [GPSFix], reference: [PositionSmoother.Estimate],
                             motion: [MotionSample], causal: Bool) -> [PositionSmoother.Velocity?] {
        guard ground.count == fixes.count, reference.count == fixes.count else { return Array(repeating: nil, count: fixes.count) }
        let facing = fixes.map { facingAzimuth(at: $0.time, motion: motion, causal: causal) }
        let courses = reference.map { atan2($0.east.y, $0.north.y) }
        // Per moving fix with a facing direction: its offset from the reference's course.
        let offsets: [Double?] = fixes.indices.map { k in
            guard let f = facing[k], let speed = ground[k].speed, speed >= minCalibrationSpeed else { return nil }
            return courses[k] - f
        }
        var lo = 0, hi = 0
        return fixes.indices.map { k -> PositionSmoother.Velocity? in
            guard let speed = ground[k].speed else { return nil }
            let sigma = max(ground[k].speedAccuracy ?? assumedSpeedAccuracy, floor)
            if speed < 2 * sigma { return .init(east: 0, north: 0, variance: speed * speed + sigma * sigma, drifts: false) }
            var direction: Double?, spread = 0.0
            if let course = ground[k].course {
                direction = radians(course)
                spread = max(courseFloor, sigma / speed)
            } else if let f = facing[k] {
                let t = fixes[k].time
                let from = causal ? t - 2 * window : t - window, to = causal ? t : t + window
                while lo < fixes.count, fixes[lo].time < from { lo += 1 }
                while hi < fixes.count, fixes[hi].time <= to { hi += 1 }
                let near = (lo..<max(lo, hi)).compactMap { offsets[$0] }
                if near.count >= minCalibrationFixes {
                    let (offset, s) = causal ? MotionVelocity.circularMean(near) : MotionVelocity.robustOffset(near)
                    if s <= maxSpread { direction = f + offset; spread = max(radians(5), s) }
                }
            }
            if direction == nil {
                let r = reference[k], v = hypot(r.east.y, r.north.y)
                guard v > 0 else { return nil }
                direction = courses[k]
                spread = min(.pi, r.covariance[1, 1].squareRoot() / v)
            }
            let across = speed * spread
            return .init(east: speed * sin(direction!), north: speed * cos(direction!),
                         variance: max(sigma * sigma, across * across) + floor * floor, drifts: false)
        }
    }

    /// The circular mean of the facing directions (radians) within ±0.5 s of `time` (causally
    /// the second before it); nil without any.
    static func facingAzimuth(at time: Double, motion: [MotionSample], causal: Bool) -> Double? {
        let range = causal ? (time - 1)...time : (time - 0.5)...(time + 0.5)
        var i = max(0, motion.upperBound(of: range.lowerBound, by: \.time) - 1)
        var s = 0.0, c = 0.0, n = 0
        while i < motion.count, motion[i].time <= range.upperBound {
            if motion[i].time >= range.lowerBound, let a = motion[i].azimuth {
                s += sin(radians(a)); c += cos(radians(a)); n += 1
            }
            i += 1
        }
        return n == 0 ? nil : atan2(s, c)
    }
}
