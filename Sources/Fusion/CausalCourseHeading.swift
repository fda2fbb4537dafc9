import Foundation
import POIARCore

/// `CourseHeading` as a live app could apply it (`--causal`): fixes paired as they come
/// (`CourseAlignment.pair`), each course sample measured against the attitude the filter had
/// at its time, the holding offset learned over the steady segment so far, and the residuals
/// smoothed by an exponential of τ = `CourseHeading.smoothing` (only the past). The
/// correction turns the poses given out, not the filter: the field stays the filter's one
/// reference, the course a check on it.
///
/// **The filter's own error** (`fieldShareDeg`): a segment's mean z is the holding offset
/// plus the filter's heading error, which the course alone cannot tell apart. The filter's
/// heading σ says how large its error may be: where z is within it (a live filter whose
/// field is rejected runs on a heading from an uncalibrated start), the share the filter
/// explains is corrected too; a z well beyond it (a holder turned 25° with a trusted field,
/// a user looking 70° aside) stays the holding (`CausalCourseHeading.fieldShare`). The share
/// is the filter's, not the segment's: a new segment keeps it until it has its own.
///
/// **Gyro gaps** (issue 26, item 4): when the gyroscope has given nothing for `gapAfter`
/// seconds, the filter holds its attitude; the pose given out is that attitude turned about
/// the vertical so that it faces the latest course (at most `maxCourseAge` old when the gap
/// starts, held while the course stops: a car waiting at a light does not turn) less the
/// segment's holding offset. There the course is the shortest chord to the newest fix
/// (`gapCourse`): a course sample, paired for a measurement's accuracy, lags a turn by
/// seconds. Each gap bridged is reported once the gyro is back (or the log ends), in `endedGaps`.
public struct CausalCourseHeading: Sendable {
    /// Seconds without a gyro sample after which the pose follows the course.
    public static let gapAfter = 2.0
    public static let maxCourseAge = 10.0
    /// The attitude kept for measuring: one every `historyStep` s over `historySpan` s (a
    /// course sample lies half its pair's span back, at most `CourseAlignment.maxSpan` / 2).
    static let historyStep = 0.1
    static let historySpan = CourseAlignment.maxSpan
    /// Measurements a segment keeps for its offset (the oldest dropped): ten minutes at 1 Hz.
    static let maxSegmentSamples = 600
    /// Seconds of measurements before a gap whose holding the bridge keeps.
    static let holdingWindow = 60.0
    /// Seconds from a segment's first measurement over which its holding offset is learned.
    static let learnSpan = 60.0

    public struct Gap: Sendable, Equatable {
        public var start: Double, end: Double
        public var courseSamples: Int
        /// facing − course learned before the gap (nil: none; the device taken to face the
        /// direction of travel).
        public var holdingOffsetDeg: Double?
    }

    var pending: [GPSFix] = []
    /// The filter's attitude and its heading σ (degrees; nil while the heading is relative).
    var history: [(time: Double, q: Quaternion, sigmaDeg: Double?)] = []
    var lastCourse: CourseAlignment.CourseSample?
    /// The fixes of the last `CourseAlignment.maxSpan` s, and the course they give for a gap.
    var recentFixes: [GPSFix] = []
    var gapCourse: CourseAlignment.CourseSample?
    var segment: [CourseHeading.Measurement] = []
    /// The filter's heading σ at each of `segment`'s measurements (degrees; nil: relative).
    var segmentSigmas: [Double?] = []
    /// The share of the holding offset the filter's own heading error explains (degrees,
    /// carried across segments: the filter's error does not end where the holding may change).
    var fieldShareDeg = 0.0
    var segmentFirst: CourseHeading.Measurement?
    var offset: Double?
    /// facing − course of the poses given out, over the last `GyroGapCourse`-like window
    /// (`holdingWindow`): how the device was held just before a gap.
    var recentHolding: [CourseHeading.Measurement] = []
    var support = 0.0, sum = 0.0, lastMeasured = 0.0
    public private(set) var lastGyroTime: Double?
    var gap: Gap?
    /// The facing the bridged pose holds (the course less the offset), once a course came.
    var gapFacing: Double?
    /// The course as the heading while the filter's own is not trusted (`CausalCourseStartup`),
    /// and the filter's heading σ now (degrees; nil: relative).
    public private(set) var startup = CausalCourseStartup()
    var currentSigmaDeg: Double?

    /// Gaps bridged and over, for notices (the caller empties it).
    public var endedGaps: [Gap] = []
    /// Measurements used, segments that learned an offset, and |correction| at each measurement.
    public private(set) var samples = 0, segments = 0
    public private(set) var corrections: [Double] = []

    public init() {}

    /// The filter's attitude after a gyro sample, and its heading's 68 % bound (degrees; nil
    /// while the heading is relative: then the course says nothing of the filter's error).
    public mutating func observe(_ q: Quaternion, time: Double, sigmaDeg: Double? = nil) {
        if let g = gap {
            if gapFacing != nil { endedGaps.append(Gap(start: g.start, end: time, courseSamples: g.courseSamples, holdingOffsetDeg: g.holdingOffsetDeg)) }
            gap = nil; gapFacing = nil
        }
        lastGyroTime = time
        currentSigmaDeg = sigmaDeg
        startup.observe(sigmaDeg: sigmaDeg)
        if let last = history.last, time - last.time < Self.historyStep { return }
        history.append((time, q, sigmaDeg))
        if let first = history.first, time - first.time > Self.historySpan + 1 {
            history.removeFirst(history.firstIndex { time - $0.time <= Self.historySpan } ?? 0)
        }
    }

    /// A GPS fix (time order): pairs it with the fixes waiting, and measures the courses.
    public mutating func add(_ fix: GPSFix) {
        var keep: [GPSFix] = []
        for a in pending {
            guard fix.time - a.time <= CourseAlignment.maxSpan else { continue }
            guard let settled = CourseAlignment.pair(a, fix, accuracyA: a.horizontalAccuracy ?? 0, accuracyB: fix.horizontalAccuracy ?? 0) else {
                keep.append(a); continue
            }
            if let c = settled { measure(c) }
        }
        pending = keep + [fix]
        recentFixes.append(fix)
        recentFixes.removeFirst(recentFixes.prefix { fix.time - $0.time > CourseAlignment.maxSpan }.count)
        gapCourse = Self.latestChord(recentFixes)
    }

    mutating func measure(_ c: CourseAlignment.CourseSample) {
        defer { lastCourse = c }
        if gap != nil { gap!.courseSamples += 1; return }
        guard let m = CourseHeading.measurement(c, previous: lastCourse, attitude: { attitude(at: $0) }) else { return }
        // Against a heading the filter does not trust yet, z is not the holding: the course
        // stands in for the heading, and the segment learns from trusted measurements only.
        if offset == nil, let s = sigma(at: m.time), CausalCourseStartup.untrusted(s) { startup.add(m, sigmaDeg: s); return }
        if let first = segmentFirst, let last = segment.last, CourseHeading.startsSegment(m, first: first, last: last) {
            segment.removeAll(); segmentSigmas.removeAll(); offset = nil; support = 0; sum = 0
        }
        if segment.isEmpty { segmentFirst = m }
        segment.append(m)
        segmentSigmas.append(sigma(at: m.time))
        if segment.count > Self.maxSegmentSamples { segment.removeFirst(); segmentSigmas.removeFirst() }
        // The offset is learned over the segment's first `learnSpan` seconds, then held: a
        // field that goes wrong later must not carry it along (the whole-recording pass can
        // weigh the segment's every sample; a live one only its start).
        if offset == nil || m.time - segmentFirst!.time <= Self.learnSpan {
            let learned = offset != nil
            offset = CourseHeading.holdingOffset(segment)
            if !learned && offset != nil { segments += 1 }
            if let offset {
                fieldShareDeg = Self.fieldShare(offset, sigmaDeg: segmentSigma(), support: segment.reduce(0) { $0 + $1.weight })
            }
        }
        guard let offset else { return }
        samples += 1
        // Decayed, then Tukey-reweighted about the first estimate.
        var estimate = 0.0
        for pass in 0..<2 {
            sum = 0; support = 0
            for s in segment {
                let r = wrap180(s.deltaDeg - offset)
                var w = s.weight * exp(-(m.time - s.time) / CourseHeading.smoothing)
                if pass > 0 { w *= CourseHeading.tukey((r - estimate) / CourseHeading.outlierScaleDeg) }
                sum += w * r; support += w
            }
            guard support > 1e-9 else { break }
            estimate = sum / support
        }
        lastMeasured = m.time
        let applied = correction(at: m.time)
        corrections.append(abs(applied))
        var held = m
        held.deltaDeg = wrap180(applied - m.deltaDeg)
        recentHolding.append(held)
        recentHolding.removeFirst(recentHolding.prefix { m.time - $0.time > Self.holdingWindow }.count)
    }

    /// The filter's attitude at t from the history (the nearest kept, at most a step and a half
    /// away); nil outside it.
    func attitude(at t: Double) -> Quaternion? { nearest(t).map { history[$0].q } }

    /// The filter's heading σ at t (degrees), as `attitude(at:)` finds it.
    func sigma(at t: Double) -> Double? { nearest(t).flatMap { history[$0].sigmaDeg } }

    func nearest(_ t: Double) -> Int? {
        guard let first = history.first, let last = history.last,
              t >= first.time - Self.historyStep, t <= last.time + Self.historyStep else { return nil }
        let lo = history.interpolationInterval(for: t, by: \.time)
        let hi = min(lo + 1, history.count - 1)
        let k = abs(history[lo].time - t) <= abs(history[hi].time - t) ? lo : hi
        return abs(history[k].time - t) <= 1.5 * Self.historyStep ? k : nil
    }

    /// The filter's heading σ over the segment (degrees, RMS); nil when any of it was relative.
    func segmentSigma() -> Double? {
        var sum = 0.0
        for s in segmentSigmas {
            guard let s else { return nil }
            sum += s * s
        }
        return segmentSigmas.isEmpty ? nil : (sum / Double(segmentSigmas.count)).squareRoot()
    }

    /// The correction at t, degrees added to the azimuth: the filter's share of the holding
    /// offset (held), and the smoothed residual (which fades without measurements).
    public func correction(at t: Double) -> Double {
        if offset == nil, let c = startup.correctionDeg, CausalCourseStartup.untrusted(currentSigmaDeg) { return c }
        guard offset != nil, support > 0 else { return fieldShareDeg }
        let d = exp(-max(0, t - lastMeasured) / CourseHeading.smoothing)
        return fieldShareDeg + CourseHeading.applied(sum * d / (support * d + CourseHeading.priorWeight))
    }

    /// Whether the pose at t is bridged over a gyro gap (the gyro silent for `gapAfter` s).
    public func inGap(at t: Double) -> Bool {
        guard let g = lastGyroTime else { return false }
        return t - g > Self.gapAfter
    }

    /// The pose to give out at t for the filter's attitude `q`: corrected by the course, or
    /// over a gyro gap, facing the course.
    public mutating func pose(_ q: Quaternion, at t: Double) -> Quaternion {
        guard inGap(at: t), let g = lastGyroTime else {
            return Quaternion(axis: Vector3(0, 0, 1), angle: -radians(correction(at: t))) * q
        }
        if gap == nil {
            let recent = recentHolding.filter { $0.time >= g - Self.holdingWindow }
            let holding = recent.count >= 3 ? CourseHeading.holdingOffset(recent, least: 3) : nil
            gap = Gap(start: g, end: g, courseSamples: 0, holdingOffsetDeg: holding)
            if let c = gapCourse ?? lastCourse, c.time >= g - Self.maxCourseAge { gapFacing = c.courseDeg + (holding ?? 0) }
        } else if let c = gapCourse, c.time > g || gapFacing != nil {
            gapFacing = c.courseDeg + (gap!.holdingOffsetDeg ?? 0)
        }
        let held = Quaternion(axis: Vector3(0, 0, 1), angle: -radians(correction(at: g))) * q
        guard let target = gapFacing, let f = CourseHeading.facing(held) else { return held }
        return Quaternion(axis: Vector3(0, 0, 1), angle: -radians(wrap180(target - f))) * held
    }

    /// At the log's end: a gap still open is over.
    public mutating func finish(at t: Double) {
        if let g = gap, gapFacing != nil {
            endedGaps.append(Gap(start: g.start, end: t, courseSamples: g.courseSamples, holdingOffsetDeg: g.holdingOffsetDeg))
        }
        gap = nil; gapFacing = nil
    }
}
