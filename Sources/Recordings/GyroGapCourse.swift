import Foundation
import Fusion
import Geodesy
import POIARCore
import Projection

/// A gyro gap the GPS course bridges (issue 26, item 4): when the gyroscope stops while GPS
/// goes on (an Android phone that pauses its gyro in a car), the attitude series has no
/// sample for the gap, and frames would hold the last pose while the car turns. Over the gap
/// the facing direction follows the GPS course instead: samples every `step` seconds, each
/// the pose at the gap's nearer edge (its tilt: a phone in a holder keeps it) turned about
/// the vertical so that its facing azimuth is the course plus the holding offset.
///
/// - Holding offset: how far the device faces from the direction of travel (a phone in a
///   holder turned a little, a phone held sideways), the circular median of facing − course
///   over the course samples of the `learnWindow` seconds before the gap (and after it, when
///   the gyro is back); 0 (the device taken to face the direction of travel) when neither
///   side has `minLearnSamples`. Across the gap it goes linearly from one side's to the
///   other's.
/// - Course: `CourseAlignment.courses` (fixes far enough apart for their accuracy, moving at
///   a walk's speed or more), interpolated between samples at most `maxCourseStep` apart;
///   where the course stops (the car waits at a light) the last one is held: a car that
///   does not move does not turn.
public enum GyroGapCourse {
    /// A gap in the series shorter than this (s) is left to `AttitudeSeries` interpolation.
    public static let minGap = 2.0
    /// Spacing of the samples put into a gap (s): under the series' interpolation limit, so
    /// frames between them interpolate.
    public static let step = 0.4
    public static let learnWindow = 60.0
    public static let minLearnSamples = 3
    public static let maxCourseStep = 10.0

    /// One bridged gap, for the notice.
    public struct Bridge: Sendable, Equatable {
        public var start: Double, end: Double
        public var courseSamples: Int
        public var offsetBeforeDeg: Double?, offsetAfterDeg: Double?
    }

    /// `series` with its gyro gaps (and its end, when GPS goes on after the last gyro
    /// sample, up to `lastTime`) bridged by the course of `fixes`; the bridges made.
    public static func bridge(_ series: AttitudeSeries, fixes: [GPSFix], lastTime: Double?) -> (AttitudeSeries, [Bridge]) {
        guard series.count > 1 else { return (series, []) }
        let courses = CourseAlignment.courses(fixes)
        guard !courses.isEmpty else { return (series, []) }
        let imageUp = series.holding.orientation.imageUpInDevice
        // Gaps: (index of the last sample before, start, end).
        var gaps: [(last: Int, start: Double, end: Double)] = []
        for i in 1..<series.count where series.times[i] - series.times[i - 1] > minGap {
            gaps.append((i - 1, series.times[i - 1], series.times[i]))
        }
        let lastSample = series.times[series.count - 1]
        if let lastTime, lastTime - lastSample > minGap { gaps.append((series.count - 1, lastSample, lastTime)) }

        var added: [(time: Double, orientation: Quaternion)] = []
        var bridges: [Bridge] = []
        func facing(_ q: Quaternion) -> Double? { Pose(q).facingAzimuth(imageUp: imageUp) }
        /// Circular median of facing − course over course samples in [t0, t1] the series covers.
        func offset(_ t0: Double, _ t1: Double) -> Double? {
            var deltas: [Double] = []
            for c in courses where c.time >= t0 && c.time <= t1 {
                guard let q = CourseHeading.covered(series, at: c.time), let f = facing(q) else { continue }
                deltas.append(wrap180(f - c.courseDeg))
            }
            guard deltas.count >= minLearnSamples else { return nil }
            // Median about the circular mean, so the wrap at ±180° does not split the samples.
            let mean = atan2(deltas.map { sin($0 * .pi / 180) }.reduce(0, +), deltas.map { cos($0 * .pi / 180) }.reduce(0, +)) * 180 / .pi
            let around = deltas.map { wrap180($0 - mean) }.sorted()
            return wrap180(mean + around[around.count / 2])
        }
        for gap in gaps {
            let i = gap.last
            let inGap = courses.filter { $0.time > gap.start && $0.time < gap.end }
            guard !inGap.isEmpty else { continue }
            let before = offset(gap.start - learnWindow, gap.start)
            let after = gap.end < lastSample ? offset(gap.end, gap.end + learnWindow) : nil
            let edgeBefore = series[i], edgeAfter = i + 1 < series.count ? series[i + 1] : series[i]
            guard let facingBefore = facing(edgeBefore), let facingAfter = facing(edgeAfter) else { continue }
            var t = gap.start + step
            var k = 0  // the first course sample after t
            while t < gap.end - step / 2 {
                while k < inGap.count && inGap[k].time <= t { k += 1 }
                let course: Double
                if k == 0 {
                    course = inGap[0].courseDeg
                } else if k < inGap.count, inGap[k].time - inGap[k - 1].time <= maxCourseStep {
                    let a = inGap[k - 1], b = inGap[k]
                    course = a.courseDeg + wrap180(b.courseDeg - a.courseDeg) * (t - a.time) / (b.time - a.time)
                } else {
                    course = inGap[k - 1].courseDeg
                }
                let f = (t - gap.start) / (gap.end - gap.start)
                let o0 = before ?? after ?? 0, o1 = after ?? before ?? 0
                let holding = o0 + wrap180(o1 - o0) * f
                let nearBefore = t - gap.start <= gap.end - t
                let edge = nearBefore ? edgeBefore : edgeAfter
                let turn = wrap180(course + holding - (nearBefore ? facingBefore : facingAfter))
                added.append((t, Quaternion(axis: Vector3(0, 0, 1), angle: -turn * .pi / 180) * edge))
                t += step
            }
            bridges.append(Bridge(start: gap.start, end: gap.end, courseSamples: inGap.count,
                                  offsetBeforeDeg: before, offsetAfterDeg: after))
        }
        return (series.merging(added), bridges)
    }

    /// The notice for one bridge.
    public static func notice(_ b: Bridge) -> String {
        func said(_ o: Double?) -> String { o.map { String(format: "%+.0f°", $0) } ?? "not measured" }
        let holding = b.offsetBeforeDeg == nil && b.offsetAfterDeg == nil
            ? "the device taken to face the direction of travel (no steady course around the gap to learn its holding offset)"
            : "holding offset from the direction of travel \(said(b.offsetBeforeDeg)) before, \(said(b.offsetAfterDeg)) after"
        return String(format: "heading: the gyroscope has no samples from %.1f to %.1f s: the facing direction follows the GPS course there (%d course samples; %@), its tilt held; uncertain, more so the longer the gap",
                      b.start, b.end, b.courseSamples, holding)
    }
}

extension AttitudeSeries {
    /// How the phone was mostly held over the series (from up to about 2000 of its samples),
    /// which says what its facing direction is (`Pose.facingAzimuth(imageUp:)`).
    var holding: PhoneHolding {
        let every = max(1, count / 2000)
        return PhoneHolding.estimate(stride(from: 0, to: count, by: every).map { Pose(self[$0]) })
    }
}
