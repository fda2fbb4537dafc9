import Foundation
import Fusion
import Geodesy
import POIARCore
import Projection
import SensorLog

/// Where a pass's attitude comes from (`--pose-source`).
public enum PoseSource: String, Sendable, CaseIterable {
    /// poiar's own fusion; without a magnetometer, the phone's orientation when the recording
    /// has it, else the heading from the GPS course, else a relative heading.
    case auto
    /// poiar's own fusion, always (without a magnetometer: the GPS course, else relative).
    case fused
    /// The phone's own orientation (Sensor Logger's Orientation.csv, `orientation` rows).
    case phone
}

/// The heading of a recording whose fused heading is relative (no magnetometer), in the issue's
/// order of preference: the phone's own orientation (when `PoseSource.auto` and the recording
/// has it with a known north), then the GPS course while moving (`CourseAlignment`), else the
/// relative heading as it is. A recording's own orientation of unknown north (a GoPro's `CORI`,
/// whose heading is arbitrary) is used for its tilt and turns, its heading aligned to the GPS
/// course, or left relative when the course cannot settle it. Each says in a notice which was
/// used.
struct HeadingSettlement {
    var source: PoseSource
    /// The declination the pass's north adds to magnetic azimuths (0: magnetic north).
    var declinationDeg: Double
    /// The magnetic model's declination where the recording was made, whichever north the
    /// pass has (`NorthReference.modelDeclinationDeg`); nil: not known (no position).
    var modelDeclinationDeg: Double?
    var notice: ((String) -> Void)?

    /// The series from the phone's (or camera's) own orientation, turned to the pass's north;
    /// nil when the recording has none. Its heading is relative when the north is `unknown`.
    /// Unless `quiet`, the notice says it is used, and `why`.
    func phoneSeries(_ log: LoadedLog, metadata: LogMetadata, why: String = "", quiet: Bool = false) -> AttitudeSeries? {
        guard !log.orientations.isEmpty else { return nil }
        let north = metadata.orientationNorth ?? .magnetic
        var turn = 0.0  // degrees added to the phone's azimuths
        var said: String
        switch north {
        case .magnetic:
            turn = declinationDeg
            said = declinationDeg == 0 ? "magnetic north" : String(format: "magnetic north, turned to true north by %+.2f°", declinationDeg)
        case .true:
            if declinationDeg == 0 {
                turn = -(modelDeclinationDeg ?? 0)
                said = modelDeclinationDeg != nil ? String(format: "true north, turned to magnetic north by %+.2f°", turn)
                                             : "true north (no GPS fix to turn it to magnetic north)"
            } else {
                said = "true north"
            }
        case .unknown:
            said = metadata.orientationSource == .camera ? "it has no north: heading relative"
                : "its heading matched no north when the import checked it: heading relative"
        }
        let spin = Quaternion(axis: Vector3(0, 0, 1), angle: -turn * .pi / 180)
        if !quiet {
            notice?("pose: \(metadata.orientationSource.ownOrientation) is used\(why) (\(log.orientations.count) samples, \(said))")
        }
        return AttitudeSeries(times: log.orientations.map(\.time), orientations: log.orientations.map { spin * $0.attitude },
                              headingIsAbsolute: north != .unknown)
    }

    /// Settles a relative heading, as the type says; `relative` says why it is relative, for
    /// the notice when it stays so.
    func settle(_ series: inout AttitudeSeries, log: LoadedLog, metadata: LogMetadata, relative: String) {
        if source == .auto, metadata.orientationNorth != .unknown,
           let phone = phoneSeries(log, metadata: metadata, why: ": the recording has no magnetometer") {
            series = phone
            return
        }
        if source == .auto, metadata.orientationNorth == .unknown, var camera = phoneSeries(log, metadata: metadata, quiet: true) {
            let own = metadata.orientationSource.ownOrientation
            // Tilt and turns from the recording's own orientation; its heading from the course.
            if let (correction, facing) = alignToCourse(&camera, log: log) {
                notice?(String(format: "heading: %@ (%d samples; the recording has no magnetometer) aligned to the GPS course while moving: %d course samples; the %@ is taken to face the direction of travel, and stays within %.0f° of it (median)%@",
                               own, log.orientations.count, correction.samples, facing, correction.medianResidualDeg, magneticNote(log)))
            } else {
                notice?("heading is relative: \(own) is used (\(log.orientations.count) samples; the recording has no magnetometer), and its heading, which has no north, could not be aligned to the GPS course: \(Self.whyNoCourse(log.track.fixes)); azimuth 0 is where the camera faced at its first sample")
            }
            series = camera
            return
        }
        guard let (correction, facing) = alignToCourse(&series, log: log) else {
            let phone = log.orientations.isEmpty ? "no \(metadata.orientationSource.rawValue) orientation"
                : source == .fused ? "a \(metadata.orientationSource.rawValue) orientation not asked for (--pose-source fused)"
                : "a \(metadata.orientationSource.rawValue) orientation of unknown north"
            notice?("\(relative); the recording has \(phone) and \(log.track.isEmpty ? "no GPS" : "too little movement for a GPS course (\(Self.whyNoCourse(log.track.fixes)))") to settle it")
            return
        }
        notice?(String(format: "heading: from the GPS course while moving (the recording has no magnetometer): %d course samples; the %@ is taken to face the direction of travel, and stays within %.0f° of it (median)%@",
                       correction.samples, facing, correction.medianResidualDeg, magneticNote(log)))
    }

    /// Turns `series`'s heading so that the direction the user faces follows the GPS course
    /// (`CourseAlignment`), marking it absolute; nil (the series unchanged) when the course
    /// cannot settle it. Also says what was taken to face the direction of travel.
    func alignToCourse(_ series: inout AttitudeSeries, log: LoadedLog) -> (CourseAlignment.Correction, String)? {
        // The direction the user faces, with the image's up as the phone was mostly held.
        let holding = series.holding
        let imageUp = holding.orientation.imageUpInDevice
        let courses = CourseAlignment.courses(log.track.fixes)
        let current = series
        let facing = { (t: Double) in current.orientation(at: t).flatMap { Pose($0).facingAzimuth(imageUp: imageUp) } }
        guard let correction = CourseAlignment.estimate(courses: courses, facing: facing, minSamples: Self.minCourseSamples) else { return nil }
        for i in 0..<series.count { series[i] = correction.apply(series[i], at: series.times[i]) }
        series.headingIsAbsolute = true
        // The alignment is as uncertain as the facing's spread about the course (the median
        // residual of a normal spread is 0.67σ), averaged over the samples of one of its
        // knots (taken as 10 at most: the offset it learns changes along the recording).
        let spread = correction.medianResidualDeg / 0.6745
        series.widenHeadingSigmas(byVariance: spread * spread / Double(min(max(correction.samples, 1), 10)))
        return (correction, holding.orientation == .portrait ? "top edge or camera" : "camera")
    }

    /// Course samples `CourseAlignment` needs to settle a heading.
    static let minCourseSamples = 5

    /// The course is an azimuth from true north; under --magnetic (no declination added
    /// although the recording has a position) it is said, not converted.
    func magneticNote(_ log: LoadedLog) -> String {
        declinationDeg == 0 && log.firstUsableFix != nil ? "; the course is true north, so --magnetic does not apply" : ""
    }

    /// Why the GPS track gives `CourseAlignment` too few course samples, for people: the track
    /// moves less than a course needs (fixes `minDisplacement` and `accuracyMultiple` times
    /// their accuracy apart: the measured relative one of a high-rate track, else the stated
    /// one), or not fast enough or not long enough.
    static func whyNoCourse(_ fixes: [GPSFix]) -> String {
        guard let first = fixes.first, fixes.count > 1 else { return fixes.isEmpty ? "it has no GPS fix" : "it has one GPS fix" }
        let extent = fixes.map { geodesicInverse(from: first.coordinate, to: $0.coordinate).distance }.max() ?? 0
        let accuracies = fixes.compactMap(\.horizontalAccuracy).sorted()
        let relative = CourseAlignment.relativeAccuracy(fixes)
        let accuracy = relative?.used ?? (accuracies.isEmpty ? 0 : accuracies[accuracies.count / 2])
        let accuracySaid = relative.map { String(format: "their fix-to-fix jitter, %.2f m measured, %.1f m at least", $0.measured, CourseAlignment.relativeAccuracyFloor) }
            ?? String(format: "their stated accuracy, median %.1f m", accuracy)
        let need = max(CourseAlignment.minDisplacement, CourseAlignment.accuracyMultiple * accuracy)
        let samples = CourseAlignment.courses(fixes).count
        if extent < need {
            return String(format: "the track moves %.1f m from its start, and a course needs fixes %.1f m apart (at least %.0f m, and %.0f × %@)",
                          extent, need, CourseAlignment.minDisplacement, CourseAlignment.accuracyMultiple, accuracySaid)
        }
        return String(format: "%d course samples (fixes %.1f m apart within %.0f s, at %.1f m/s or more), %d needed", samples, need,
                      CourseAlignment.maxSpan, CourseAlignment.minSpeed, minCourseSamples)
    }
}
