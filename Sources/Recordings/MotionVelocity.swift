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

    /// One velocity measurement per time of `times` (in time order; nil where the IMU tells
    /// nothing usable), calibrated against `reference`, the GPS-only track at `fixes`.
    static func measurements(at times: [Double], _ fixes: [PositionSmoother.PlaneFix], reference: [PositionSmoother.Estimate],
                             motion: [MotionSample], causal: Bool) -> [PositionSmoother.Velocity?] {
        guard !motion.isEmpty, reference.count == fixes.count else { return Array(repeating: nil, count: times.count) }
        let atFixes = fixes.map { atFix($0.time, motion: motion, causal: causal) }
        let speeds = reference.map { hypot($0.east.y, $0.north.y) }
        // Per walking fix: its step length and its direction's offset from the reference's course.
        let calibration: [(length: Double, offset: Double)?] = fixes.indices.map { k in
            guard let cadence = atFixes[k].cadence, let azimuth = atFixes[k].azimuth, speeds[k] > 0.3, speeds[k] < maxWalkingSpeed else { return nil }
            let course = atan2(reference[k].east.y, reference[k].north.y)
            return (speeds[k] / cadence, course - azimuth)
        }
        var out = [PositionSmoother.Velocity?](repeating: nil, count: times.count)
        var lo = 0, hi = 0  // the window's fixes: lo..<hi
        for (k, t) in times.enumerated() {
            let here = atFix(t, motion: motion, causal: causal)
            let from = causal ? t - 2 * window : t - window, to = causal ? t : t + window
            while lo < fixes.count, fixes[lo].time < from { lo += 1 }
            while hi < fixes.count, fixes[hi].time <= to { hi += 1 }
            let span = lo..<max(lo, hi)
            guard median(span.map { speeds[$0] }) ?? .infinity < maxWalkingSpeed else { continue }
            if here.still {
                out[k] = .init(east: 0, north: 0, variance: stillSigma * stillSigma)
                continue
            }
            guard let cadence = here.cadence, let azimuth = here.azimuth else { continue }
            let pairs = span.compactMap { calibration[$0] }
            guard pairs.count >= minCalibrationFixes, let length = median(pairs.map(\.length)) else { continue }
            let (offset, spread) = causal ? circularMean(pairs.map(\.offset)) : robustOffset(pairs.map(\.offset))
            guard spread <= maxSpread else { continue }
            let speed = length * cadence, direction = azimuth + offset
            let along = stepLengthShare * speed, across = speed * max(radians(5), spread)
            out[k] = .init(east: speed * sin(direction), north: speed * cos(direction),
                           variance: max(along * along, across * across) + walkingFloor * walkingFloor)
        }
        return out
    }

    /// The offset between the direction faced and the walking one, and its spread (radians):
    /// the circular mean and standard deviation of the offsets within three robust standard
    /// deviations (1.4826 × the median absolute deviation) of their circular mean. The
    /// reference's course is off wherever its track is (a multipath burst it followed for a
    /// while, a gap it crossed on a guess): taken in, those offsets made the spread of a walk
    /// with bursts and dropouts 45–70° where the phone's sweep is 10°, and the steps went unused.
    /// Causally the plain `circularMean` is kept: its reference, the forward filter alone,
    /// follows a burst for longer, and the offsets it gives are off together, not scattered;
    /// the robust spread then trusted them (measured: the causal median of the `bursts` model
    /// 0.95 → 1.15× the raw fixes', docs/position.md).
    static func robustOffset(_ offsets: [Double]) -> (offset: Double, spread: Double) {
        let first = circularMean(offsets).offset
        let deviations = offsets.map { abs(remainder($0 - first, 2 * .pi)) }
        let limit = max(radians(10), 3 * 1.4826 * (median(deviations) ?? 0))
        let kept = zip(offsets, deviations).compactMap { $1 <= limit ? $0 : nil }
        return circularMean(kept.isEmpty ? offsets : kept)
    }

    /// The circular mean of `angles` and their circular standard deviation (radians).
    static func circularMean(_ angles: [Double]) -> (offset: Double, spread: Double) {
        let c = angles.reduce(0) { $0 + cos($1) } / Double(angles.count)
        let s = angles.reduce(0) { $0 + sin($1) } / Double(angles.count)
        return (atan2(s, c), (-2 * log(max(1e-12, hypot(c, s)))).squareRoot())
    }

    // MARK: Across a GPS gap

    /// Spacing of the IMU-only epochs inside a GPS gap, s: the fixes' own rate.
    static let gapStep = 1.0

    /// The times inside the gaps between `fixes` (longer than 1.5 `gapStep`) at which the IMU's
    /// velocity is taken without a fix, every `gapStep`. Without them a filter crosses a
    /// dropout on its last velocity alone: its uncertainty grows by metres a second, and the
    /// first fixes after the gap, a multipath burst among them, are taken whatever they say.
    static func gapTimes(_ fixes: [PositionSmoother.PlaneFix]) -> [Double] {
        zip(fixes, fixes.dropFirst()).flatMap { a, b -> [Double] in
            let n = Int(((b.time - a.time) / gapStep - 0.5).rounded(.down))
            return n < 1 ? [] : (1...n).map { a.time + Double($0) * gapStep }
        }
    }

    /// `v` taken `elapsed` s from the fix it is counted from, its variance grown in proportion:
    /// the step length and the offset are biases, not white noise, so across a gap their error
    /// adds up as (σ·T)², where independent measurements every `gapStep` would claim σ²·T.
    static func bridged(_ v: PositionSmoother.Velocity, elapsed: Double) -> PositionSmoother.Velocity {
        var v = v
        v.variance *= max(1, elapsed / gapStep)
        return v
    }

    static func median(_ xs: [Double]) -> Double? {
        guard !xs.isEmpty else { return nil }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
