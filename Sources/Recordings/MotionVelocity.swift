import Foundation
import POIARCore

/// The walker's velocity at each GPS fix from the IMU (`StepDetector`'s samples): zero while
/// the device stands still, and while walking the step rate times a step length along the
/// direction the user faces turned by the offset between that direction and the walking one.
///
/// Neither the step length nor the offset is known beforehand (people's steps differ; a phone
/// is held a little aside, or looks around): both are calibrated against a GPS-only track
/// (the reference: the smoother's first pass, or causally the forward filter's), as the
/// median step length and the circular mean offset over the walking fixes within
/// `window` s — around the fix over a whole recording, before it causally. Their spread sets
/// the measurement's variance, so a phone swept from side to side gives a looser direction,
/// and one whose direction says nothing (spread over `maxSpread`) gives speed no direction
/// and is not used. None of it is used where the reference moves faster than a walker
/// (`maxWalkingSpeed`: a car on a smooth road looks still to the accelerometer).
enum MotionVelocity {
    /// s around the fix (before it, causally) whose walking fixes calibrate it.
    static let window = 60.0
    static let maxWalkingSpeed = 3.0
    static let minCalibrationFixes = 8
    static let maxSpread = radians(40)
    /// Standing still: per-axis σ, m/s (a standing user sways).
    static let stillSigma = 0.08
    /// Walking: the step length's relative σ, and a floor on the per-axis σ, m/s.
    static let stepLengthShare = 0.1
    static let walkingFloor = 0.15

    /// What the motion samples around one fix say.
    struct AtFix {
        var still = false
        var cadence: Double?
        var azimuth: Double?  // radians
    }

    /// The samples that judge a fix at `time`: within ±0.5 s over a whole recording; causally,
    /// those whose window had ended by then, judged within the last second.
    static func atFix(_ time: Double, motion: [MotionSample], causal: Bool) -> AtFix {
        let latency = Double(StepDetector.windowBins) * StepDetector.binSeconds / 2
        let range = causal ? (time - latency - 1)...(time - latency) : (time - 0.5)...(time + 0.5)
        let lo = motion.upperBound(of: range.lowerBound, by: \.time)
        var near: [MotionSample] = []
        var i = max(0, lo - 1)
        while i < motion.count, motion[i].time <= range.upperBound {
            if motion[i].time >= range.lowerBound { near.append(motion[i]) }
            i += 1
        }
        guard near.count >= 2 else { return AtFix() }
        if near.allSatisfy(\.still) { return AtFix(still: true) }
        let cadences = near.compactMap(\.cadence)
        guard cadences.count == near.count else { return AtFix() }
        let azimuths = near.compactMap(\.azimuth).map(radians)
        let azimuth = azimuths.count == near.count
            ? atan2(azimuths.reduce(0) { $0 + sin($1) }, azimuths.reduce(0) { $0 + cos($1) }) : nil
        return AtFix(cadence: cadences.reduce(0, +) / Double(cadences.count), azimuth: azimuth)
    }

    /// One velocity measurement per fix (nil where the IMU tells nothing usable).
    static func measurements(_ fixes: [PositionSmoother.PlaneFix], reference: [PositionSmoother.Estimate],
                             motion: [MotionSample], causal: Bool) -> [PositionSmoother.Velocity?] {
        guard !motion.isEmpty, reference.count == fixes.count else { return Array(repeating: nil, count: fixes.count) }
        let at = fixes.map { atFix($0.time, motion: motion, causal: causal) }
        let speeds = reference.map { hypot($0.east.y, $0.north.y) }
        // Per walking fix: its step length and its direction's offset from the reference's course.
        let calibration: [(length: Double, offset: Double)?] = fixes.indices.map { k in
            guard let cadence = at[k].cadence, let azimuth = at[k].azimuth, speeds[k] > 0.3, speeds[k] < maxWalkingSpeed else { return nil }
            let course = atan2(reference[k].east.y, reference[k].north.y)
            return (speeds[k] / cadence, course - azimuth)
        }
        var out = [PositionSmoother.Velocity?](repeating: nil, count: fixes.count)
        var lo = 0, hi = 0  // the window's fixes: lo..<hi
        for k in fixes.indices {
            let t = fixes[k].time
            let from = causal ? t - 2 * window : t - window, to = causal ? t : t + window
            while lo < fixes.count, fixes[lo].time < from { lo += 1 }
            while hi < fixes.count, fixes[hi].time <= to { hi += 1 }
            let span = lo..<max(lo, hi)
            guard median(span.map { speeds[$0] }) ?? .infinity < maxWalkingSpeed else { continue }
            if at[k].still {
                out[k] = .init(east: 0, north: 0, variance: stillSigma * stillSigma)
                continue
            }
            guard let cadence = at[k].cadence, let azimuth = at[k].azimuth else { continue }
            let pairs = span.compactMap { calibration[$0] }
            guard pairs.count >= minCalibrationFixes, let length = median(pairs.map(\.length)) else { continue }
            let c = pairs.reduce(0) { $0 + cos($1.offset) } / Double(pairs.count)
            let s = pairs.reduce(0) { $0 + sin($1.offset) } / Double(pairs.count)
            // Circular standard deviation of the offsets.
            let spread = (-2 * log(max(1e-12, hypot(c, s)))).squareRoot()
            guard spread <= maxSpread else { continue }
            let speed = length * cadence, direction = azimuth + atan2(s, c)
            let along = stepLengthShare * speed, across = speed * max(radians(5), spread)
            out[k] = .init(east: speed * sin(direction), north: speed * cos(direction),
                           variance: max(along * along, across * across) + walkingFloor * walkingFloor)
        }
        return out
    }

    static func median(_ xs: [Double]) -> Double? {
        guard !xs.isEmpty else { return nil }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
