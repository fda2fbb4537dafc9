import Foundation
import Geodesy
import POIARCore
import SensorLog

/// How the pose's north was chosen, for the notice printed to the user.
public struct NorthReference: Sendable {
    /// Declination applied, degrees east (0 for magnetic north).
    public var declinationDeg: Double
    public var isTrueNorth: Bool
    public var explanation: String
}

/// Chooses true or magnetic north for a log: true north (WMM2025 declination at the first
/// GPS fix and the log's date) when the log has GPS fixes, unless `magnetic` is asked for.
public enum TrueNorth {
    public static func reference(logPath: String, metadata: LogMetadata, magnetic: Bool,
                                 date: Date? = nil, now: Date = Date()) throws -> NorthReference {
        if magnetic { return NorthReference(declinationDeg: 0, isTrueNorth: false, explanation: "magnetic north (--magnetic)") }
        guard let fix = try firstFix(logPath: logPath) else {
            return NorthReference(declinationDeg: 0, isTrueNorth: false,
                                  explanation: "magnetic north: the log has no GPS fix to place the magnetic model")
        }
        var note = ""
        let when: Date
        if let date { when = date } else if let start = metadata.startUTC { when = start } else {
            when = now
            note = "; the log has no start_utc, so today's date was used"
        }
        let model = WorldMagneticModel.wmm2025
        let year = WorldMagneticModel.decimalYear(when)
        if year < model.validFrom || year >= model.validUntil {
            note += "; \(String(format: "%.1f", year)) is outside WMM2025's validity (2025.0–2030.0), the model was extrapolated"
        }
        let field = model.field(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                                heightKm: (fix.coordinate.altitude ?? 0) / 1000, year: year)
        let d = field.declinationDeg
        return NorthReference(declinationDeg: d, isTrueNorth: true,
                              explanation: String(format: "true north: WMM2025 declination %+.2f° at %.5f, %.5f", d,
                                                  fix.coordinate.latitude, fix.coordinate.longitude) + note)
    }

    /// The first usable GPS fix of a log (a quick scan that stops at the first one).
    static func firstFix(logPath: String) throws -> GPSFix? {
        let reader = try SensorLogReader(path: logPath)
        while let r = try reader.nextRecord() {
            if case .gps(let fix) = r.sample, (fix.horizontalAccuracy ?? 0) <= GPSTrack.defaultMaxAccuracy { return fix }
        }
        return nil
    }
}
