import Foundation
import Fusion
import Geodesy
import PhoneImport
import POIARCore
import SensorLog

/// How the pose's north was chosen, for the notice printed to the user.
public struct NorthReference: Sendable {
    /// Declination applied, degrees east (0 for magnetic north).
    public var declinationDeg: Double
    public var isTrueNorth: Bool
    public var explanation: String
    /// WMM2025's total intensity (µT) and inclination (°, + down) at the first GPS fix: the
    /// field the filter's disturbance check expects. nil without a fix.
    public var expectedFieldUT: Double?
    public var expectedDipDeg: Double?
    /// Where the recording was made, as far as north knows: `--at`, else the first usable
    /// GPS fix; nil when neither is there.
    public var position: GeoCoordinate?
    /// WMM2025's declination at `position` whichever north was chosen (for a magnetic pass, what
    /// turns a true-north phone orientation to it); nil without a position.
    public var modelDeclinationDeg: Double?

    /// Puts the declination and the expected field into the filter's parameters.
    public func apply(to params: inout ComplementaryFilterParams) {
        params.declinationDeg = declinationDeg
        params.expectedFieldUT = expectedFieldUT
        params.expectedDipDeg = expectedDipDeg
    }
}

/// What the user says about north: `--magnetic`, `--date`, `--at`.
public struct NorthChoice: Sendable {
    /// Keep magnetic north even when the recording has a position.
    public var magnetic = false
    /// The magnetic model's date (nil: the log's start_utc, else today).
    public var date: Date?
    /// Where the recording was made, for the whole recording, instead of its GPS fixes.
    public var at: GeoCoordinate?

    public init(magnetic: Bool = false, date: Date? = nil, at: GeoCoordinate? = nil) {
        self.magnetic = magnetic; self.date = date; self.at = at
    }
}

/// Chooses true or magnetic north for a recording, once: true north (WMM2025 declination where
/// it was made — `--at`, else its first usable GPS fix — at the log's date) unless `magnetic`
/// is asked for or there is no position.
public enum TrueNorth {
    /// The north of `recording` (reading ahead to its first usable fix unless `--at` is given).
    public static func reference(for recording: Recording, _ choice: NorthChoice, now: Date = Date()) throws -> NorthReference {
        if let at = choice.at {
            var north = reference(firstFix: GPSFix(time: 0, coordinate: at, horizontalAccuracy: nil), metadata: recording.metadata,
                                  magnetic: choice.magnetic, date: choice.date, now: now)
            north.explanation += " (--at)"
            return north
        }
        return reference(firstFix: try recording.firstUsableFix(), metadata: recording.metadata, magnetic: choice.magnetic,
                         date: choice.date, now: now)
    }

    /// The reference for a log whose first usable GPS fix is `firstFix` (nil: none).
    public static func reference(firstFix: GPSFix?, metadata: LogMetadata, magnetic: Bool,
                                 date: Date? = nil, now: Date = Date()) -> NorthReference {
        guard let fix = firstFix else {
            if magnetic { return NorthReference(declinationDeg: 0, isTrueNorth: false, explanation: "magnetic north (--magnetic)") }
            return NorthReference(declinationDeg: 0, isTrueNorth: false,
                                  explanation: "magnetic north: the log has no GPS fix to place the magnetic model (--at LAT,LON gives one)")
        }
        var note = ""
        let when: Date
        if let date { when = date } else if let start = metadata.startUTC { when = start } else {
            when = now
            // An import that found no date has said so already.
            if metadata[LogMetadata.startUnknownKey] == nil { note = "; the log has no start_utc, so today's date was used" }
        }
        let model = WorldMagneticModel.wmm2025
        let year = WorldMagneticModel.decimalYear(when)
        if year < model.validFrom || year >= model.validUntil {
            note += "; \(String(format: "%.1f", year)) is outside WMM2025's validity (2025.0–2030.0), the model was extrapolated"
        }
        let field = WorldMagneticModel.field(at: fix.coordinate, on: when)
        let d = field.declinationDeg
        let intensity = field.total / 1000, dip = field.inclinationDeg
        if magnetic {
            return NorthReference(declinationDeg: 0, isTrueNorth: false, explanation: "magnetic north (--magnetic)",
                                  expectedFieldUT: intensity, expectedDipDeg: dip, position: fix.coordinate, modelDeclinationDeg: d)
        }
        return NorthReference(declinationDeg: d, isTrueNorth: true,
                              explanation: String(format: "true north: WMM2025 declination %+.2f° at %.5f, %.5f", d,
                                                  fix.coordinate.latitude, fix.coordinate.longitude) + note,
                              expectedFieldUT: intensity, expectedDipDeg: dip, position: fix.coordinate, modelDeclinationDeg: d)
    }

    /// A `--date` value, YYYY-MM-DD, as midnight UTC; nil when malformed or not a real date.
    public static func parseDate(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = DateComponents(year: y, month: m, day: d)
        guard c.isValidDate(in: calendar), let date = calendar.date(from: c) else { return nil }
        return date
    }

    /// The error for a replay or map of a recording without a position: neither `--at` nor a
    /// usable GPS fix. Given before the recording is fused.
    public static func noPosition(_ recording: Recording) throws -> InputError {
        if try recording.isEmpty() {
            return InputError(file: recording.path, "no frames: the log has no samples to replay")
        }
        if let sensors = recording.sensors, !sensors.contains("gps") {
            return InputError(file: recording.path, "the recording has no location (no GPS file): give --at LAT,LON[,ALT], where it was made")
        }
        return InputError(file: recording.path, "no usable GPS fix (none, or all worse than \(Int(GPSTrack.defaultMaxAccuracy)) m): give --at LAT,LON[,ALT], where the recording was made")
    }

    /// Whether a fix is good enough to place the magnetic model (the GPS track's own bound).
    public static func isUsable(_ fix: GPSFix) -> Bool {
        (fix.horizontalAccuracy ?? 0) <= GPSTrack.defaultMaxAccuracy
    }
}
