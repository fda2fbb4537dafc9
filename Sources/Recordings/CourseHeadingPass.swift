import Foundation
import Fusion
import POIARCore

/// The GPS course as a heading measurement in the fusion pass (issue 26, items 3 and 4):
/// offline, the whole recording's correction (`CourseHeading`); causal, the streaming one
/// (`CausalCourseHeading`), with its gyro-gap bridges given as pose rows and notices.
extension FusionPass {
    /// The offline series corrected by the course of `fixes` (an absolute heading only: a
    /// relative one is already aligned to the course, `HeadingSettlement`).
    func correctByCourse(_ series: inout AttitudeSeries, fixes: [GPSFix]) {
        guard series.headingIsAbsolute,
              let (correction, segments) = CourseHeading.correction(series, courses: CourseAlignment.courses(fixes)) else { return }
        CourseHeading.apply(correction, to: &series)
        onNotice?(CourseHeading.notice(samples: correction.samples, segments: segments,
                                       sizes: correction.knots.map(\.offsetDeg), causal: false))
    }
}

/// The causal pass's course heading: the poses it gives out, and rows across a gyro gap.
struct CausalCourseOutput {
    var course = CausalCourseHeading()
    /// The next time a row is due across the current gyro gap.
    var nextGapRow: Double?

    /// The pose to give out at t for the filter's pose.
    mutating func pose(_ filterPose: Pose, at t: Double) -> Pose { Pose(course.pose(filterPose.orientation, at: t)) }

    /// Rows every `GyroGapCourse.step` s across a gyro gap, up to t (the filter's held pose,
    /// turned to the course), as the offline pass's bridge gives them.
    /// `sigmaDeg`: the heading's uncertainty at the gap's start; it grows across the gap as an
    /// offline series' added samples do (`AttitudeSeries.addedSigmaGrowth`).
    /// `filterPose` and `sigmaDeg` are asked only in a gap (this runs for every sample, and
    /// reading them copies the filter's and the uncertainty's state).
    mutating func gapRows(before t: Double, filterPose: () -> Pose?, sigmaDeg: () -> Double?,
                          onPose: ((Double, Pose, Double?) throws -> Void)?) throws {
        guard let g = course.lastGyroTime, course.inGap(at: t), let filterPose = filterPose() else { nextGapRow = nil; return }
        let sigmaDeg = sigmaDeg()
        var next = nextGapRow ?? g + GyroGapCourse.step
        while next < t {
            let p = pose(filterPose, at: next)
            let grown = AttitudeSeries.addedSigmaGrowth * (next - g)
            try onPose?(next, p, sigmaDeg.map { min(($0 * $0 + grown * grown).squareRoot(), 180) })
            next += GyroGapCourse.step
        }
        nextGapRow = next
    }

    /// Notices of the gaps over (all of them when `final`), and at the end what the course did.
    mutating func notices(final lastTime: Double?, _ onNotice: ((String) -> Void)?) {
        if let lastTime { course.finish(at: lastTime) }
        for g in course.endedGaps {
            onNotice?(GyroGapCourse.notice(GyroGapCourse.Bridge(start: g.start, end: g.end, courseSamples: g.courseSamples,
                                                                offsetBeforeDeg: g.holdingOffsetDeg, offsetAfterDeg: nil)))
        }
        course.endedGaps.removeAll()
        if lastTime != nil, let notice = course.startup.notice() { onNotice?(notice) }
        if lastTime != nil, course.samples > 0 {
            onNotice?(CourseHeading.notice(samples: course.samples, segments: course.segments, sizes: course.corrections, causal: true))
        }
    }
}
