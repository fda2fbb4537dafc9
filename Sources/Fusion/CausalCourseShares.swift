import Foundation
import Geodesy
import POIARCore

/// What the causal course heading (`CausalCourseHeading`) makes of what it measures: how much
/// of a segment's facing − course is the live filter's own heading error rather than how the
/// device is held, and the freshest course for a gyro gap.
extension CausalCourseHeading {
    /// Degrees: how far a device that faces the direction of travel (a phone in front of a
    /// walker, lying in a car) is off it.
    static let facingWaySigmaDeg = 5.0
    /// The prior odds that a device faces the direction of travel rather than being held
    /// another way, any way alike. 0, the split off: at 0.5 it took the Android drive's +10°
    /// from the filter (whole-drive p90 22.3° → 15.5°) but turned the simulated holder tilted
    /// back by 2° where its field was right (CourseHeadingCLITests): σ over a segment that
    /// spans a disturbed span is not yet the filter's error at its start.
    static let facingWayPrior = 0.0
    /// A gap's chord is at least this many times the fixes' stated accuracy long (and at
    /// least `CourseAlignment.minDisplacement`): phone fixes a few seconds apart share most of their
    /// error (`CourseAlignment`), and a shorter chord follows a turn sooner.
    static let gapAccuracyMultiple = 1.0

    /// The share of a segment's holding offset z (course − facing, degrees) that the filter's
    /// heading error explains, given the filter's σ over the segment (nil: a relative heading,
    /// whose error the course cannot be weighed against) and the segment's support (sum of
    /// measurement weights).
    ///
    /// z = holding + error, the error ~ N(0, σ²); the holding is either "facing the way",
    /// N(0, `facingWaySigmaDeg`²), or any other way (uniform over the circle), at the prior
    /// odds `facingWayPrior`. The posterior mean of the error: the chance the device faces the
    /// way (z is within what σ and the facing spread allow) times the part of z the filter's
    /// variance takes, shrunk by the support as the residuals are (`CourseHeading.priorWeight`).
    /// A trusted field (σ of a few degrees) leaves a holder turned 25° its offset; a field
    /// rejected for minutes (σ 15–30°) hands a 10° z to the filter.
    static func fieldShare(_ z: Double, sigmaDeg: Double?, support: Double) -> Double {
        guard let sigma = sigmaDeg, sigma > 0, support > 0 else { return 0 }
        let s2 = sigma * sigma, h2 = facingWaySigmaDeg * facingWaySigmaDeg
        let facingWay = facingWayPrior * exp(-0.5 * z * z / (s2 + h2)) / (2 * Double.pi * (s2 + h2)).squareRoot()
        let otherWay = (1 - facingWayPrior) / 360
        let chance = facingWay / (facingWay + otherWay)
        return chance * z * s2 / (s2 + h2) * support / (support + CourseHeading.priorWeight)
    }

    /// The direction of travel at the newest of `fixes` (time order), for a gyro gap: the chord
    /// from the latest earlier fix far enough from it (`gapAccuracyMultiple`), timed at their
    /// middle; nil when none is, or the chord moved slower than `CourseAlignment.minSpeed`
    /// (stopped, the bridge holds its facing).
    static func latestChord(_ fixes: [GPSFix]) -> CourseAlignment.CourseSample? {
        guard let b = fixes.last else { return nil }
        for a in fixes.dropLast().reversed() {
            let d = geodesicInverse(from: a.coordinate, to: b.coordinate)
            let least = max(CourseAlignment.minDisplacement, gapAccuracyMultiple * max(a.horizontalAccuracy ?? 0, b.horizontalAccuracy ?? 0))
            guard d.distance >= least, b.time > a.time else { continue }
            let speed = d.distance / (b.time - a.time)
            guard speed >= CourseAlignment.minSpeed else { return nil }
            return CourseAlignment.CourseSample(time: (a.time + b.time) / 2, courseDeg: d.azimuthDeg, speed: speed)
        }
        return nil
    }
}
