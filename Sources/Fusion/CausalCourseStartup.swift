import Foundation
import POIARCore

/// The GPS course as the heading while the live filter's own heading is not trusted yet
/// (issue 26, item 3; `--causal`): a magnetometer never calibrated (a hard iron of tens of µT,
/// a phone's field that reads 35 µT where the model says 43) starts the filter's heading tens
/// of degrees off, and the filter, finding the field off the model, runs on the gyro from that
/// start until a calibration is adopted (`RunningLevelFit`, 25–30 s in). The filter says so:
/// its heading σ stays at or above what one field sample gives (`untrustedSigmaDeg`), where a
/// field on the model brings it to a few degrees within seconds.
///
/// Until then the course, once the user moves, is a better heading than the filter's, and
/// its holding offset cannot be learned: a z = course − facing measured against a heading that
/// is off by an unknown amount says nothing of how the device is held. So the device is taken
/// to face the direction of travel (a phone held in front, lying in a car, in a holder), and
/// the facing is turned onto the course: the robust mean of z over the measurements so far,
/// decayed at `CourseHeading.smoothing` and shrunk by its support like the residuals
/// (`CourseHeading.priorWeight`). These measurements never teach a segment its holding offset
/// (`CausalCourseHeading`); once the filter's σ falls below the bound, its heading is used
/// again and the holding is learned from there.
public struct CausalCourseStartup: Sendable {
    /// Degrees: a filter heading σ at or above this is not trusted. One field sample gives
    /// `HeadingSigmaParams.startSigma` (10°), which a field on the model brings to 5–7° within
    /// a second or two (the 5° of an uncalibrated floor included); a field rejected from the
    /// start keeps it there and grows it (10.5–18° on the Android drive, 11–13° on the
    /// simulated 31 µT hard iron, ≤ 6.8° on every simulated walk whose field is right).
    static let untrustedSigmaDeg = 9.0
    /// Degrees: while the field is rejected the filter's σ only grows; once it falls this far
    /// below its highest since the course stood in, the field corrects the heading again, and
    /// the correction measured against the old heading is dropped (on the drive the heading
    /// turns 14° at the calibration's adoption while σ takes a second to fall below the bound).
    static let trustRegainedDeg = 1.0

    var measurements: [CourseHeading.Measurement] = []
    /// The correction now (degrees added to the azimuth); nil before any measurement.
    private(set) var correctionDeg: Double?
    /// Measurements taken, the time of the last, and |correction| after each (for the notice).
    private(set) var samples = 0
    private(set) var lastTime: Double?
    private(set) var sizes: [Double] = []
    /// The filter's highest σ since the first of `measurements` (degrees).
    var peakSigmaDeg = 0.0

    /// Whether a filter heading σ (degrees; nil: a relative heading) is too wide to trust.
    static func untrusted(_ sigmaDeg: Double?) -> Bool { (sigmaDeg ?? 0) >= untrustedSigmaDeg }

    /// The filter's σ after a gyro sample (nil: relative): drops the correction once the field
    /// corrects the heading again.
    mutating func observe(sigmaDeg: Double?) {
        guard correctionDeg != nil, let s = sigmaDeg else { return }
        if s < peakSigmaDeg - Self.trustRegainedDeg {
            measurements.removeAll(); correctionDeg = nil; peakSigmaDeg = 0
        } else {
            peakSigmaDeg = max(peakSigmaDeg, s)
        }
    }

    /// One course measurement taken while the filter's heading is not trusted (its σ then).
    mutating func add(_ m: CourseHeading.Measurement, sigmaDeg: Double) {
        peakSigmaDeg = max(peakSigmaDeg, sigmaDeg)
        measurements.append(m)
        measurements.removeFirst(measurements.prefix { m.time - $0.time > 4 * CourseHeading.smoothing }.count)
        samples += 1
        lastTime = m.time
        correctionDeg = Self.estimate(measurements, at: m.time)
        sizes.append(abs(correctionDeg ?? 0))
    }

    /// The robust mean of z at t: a circular mean first (an uncalibrated start can be any
    /// way off), then two means about it re-weighted with Tukey's biweight
    /// (`CourseHeading.outlierScaleDeg`: a look aside drops out), shrunk by the support.
    static func estimate(_ ms: [CourseHeading.Measurement], at t: Double) -> Double? {
        var sx = 0.0, sy = 0.0
        let weights = ms.map { $0.weight * exp(-(t - $0.time) / CourseHeading.smoothing) }
        for (m, w) in zip(ms, weights) { sx += w * sin(radians(m.deltaDeg)); sy += w * cos(radians(m.deltaDeg)) }
        guard hypot(sx, sy) > 1e-9 else { return nil }
        let mean = degrees(atan2(sx, sy))
        var estimate = 0.0, support = 0.0
        for _ in 0..<2 {
            var sum = 0.0
            support = 0
            for (m, w) in zip(ms, weights) {
                let r = wrap180(m.deltaDeg - mean)
                let v = w * CourseHeading.tukey((r - estimate) / CourseHeading.outlierScaleDeg)
                sum += v * r; support += v
            }
            guard support > 1e-9 else { return nil }
            estimate = sum / support
        }
        return wrap180(mean + estimate) * support / (support + CourseHeading.priorWeight)
    }

    /// The notice once the pass is over (nil when the course never stood in).
    public func notice() -> String? {
        guard samples > 0, let lastTime else { return nil }
        let sorted = sizes.sorted()
        return String(format: "heading: the live filter's heading was not trusted yet (its magnetometer off the model, not calibrated): the facing direction followed the GPS course as it went, the device taken to face the direction of travel, up to %.1f s (%d course samples; correction median %.1f°, largest %.1f°)",
                      lastTime, samples, sorted[sorted.count / 2], sorted.last ?? 0)
    }
}
