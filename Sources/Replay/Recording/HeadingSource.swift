import Foundation
import Fusion
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
/// relative heading as it is. Each says in a notice which was used.
struct HeadingSettlement {
    var source: PoseSource
    /// The declination the pass's north adds to magnetic azimuths (0: magnetic north).
    var declinationDeg: Double
    var notice: ((String) -> Void)?

    /// The series from the phone's own orientation, turned to the pass's north; nil when the
    /// recording has none. Its heading is relative when the phone's north is `unknown`. The
    /// notice says it is used, and `why`.
    func phoneSeries(_ log: LoadedLog, metadata: LogMetadata, why: String = "") -> AttitudeSeries? {
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
                let trueNorth = TrueNorth.reference(firstFix: log.firstUsableFix, metadata: metadata, magnetic: false)
                turn = -trueNorth.declinationDeg
                said = trueNorth.isTrueNorth ? String(format: "true north, turned to magnetic north by %+.2f°", turn)
                                             : "true north (no GPS fix to turn it to magnetic north)"
            } else {
                said = "true north"
            }
        case .unknown:
            said = "its heading matched no north when the import checked it: heading relative"
        }
        let spin = Quaternion(axis: Vector3(0, 0, 1), angle: -turn * .pi / 180)
        notice?("pose: the phone's own orientation is used\(why) (\(log.orientations.count) samples, \(said))")
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
        // The direction the user faces, with the image's up as the phone was mostly held.
        let step = max(1, series.count / 2000)
        let holding = PhoneHolding.estimate(stride(from: 0, to: series.count, by: step).map { Pose(series[$0]) })
        let imageUp = holding.orientation.imageUpInDevice
        let courses = CourseAlignment.courses(log.track.fixes)
        let facing = { (t: Double) in series.orientation(at: t).flatMap { Pose($0).facingAzimuth(imageUp: imageUp) } }
        guard let correction = CourseAlignment.estimate(courses: courses, facing: facing) else {
            let phone = log.orientations.isEmpty ? "no phone orientation"
                : source == .fused ? "a phone orientation not asked for (--pose-source fused)" : "a phone orientation of unknown north"
            notice?("\(relative); the recording has \(phone) and \(log.track.isEmpty ? "no GPS" : "too little movement for a GPS course") to settle it")
            return
        }
        for i in 0..<series.count { series[i] = correction.apply(series[i], at: series.times[i]) }
        series.headingIsAbsolute = true
        // The course is an azimuth from true north; under --magnetic (no declination added
        // although the recording has a position) it is said, not converted.
        let magneticAsked = declinationDeg == 0 && log.firstUsableFix != nil
        notice?(String(format: "heading: from the GPS course while moving (the recording has no magnetometer): %d course samples; the %@ is taken to face the direction of travel, and stays within %.0f° of it (median)%@",
                       correction.samples, holding.orientation == .portrait ? "top edge or camera" : "camera", correction.medianResidualDeg,
                       magneticAsked ? "; the course is true north, so --magnetic does not apply" : ""))
    }
}
