import Foundation
import POIARCore
import Recordings

/// `poiar pose --track FILE`: the smoothed position track as CSV (docs/position.md), one row
/// per GPS fix the smoother used, at the fix's time: the smoothed position, the radius that
/// holds its error 68 % of the time, and the raw fix.
public enum TrackExport {
    public static let header = "time,lat,lon,alt,sigma_m,gps_lat,gps_lon,gps_alt,gps_accuracy_m"

    /// One row; empty fields for what is unknown (an altitude, an accuracy).
    public static func row(_ e: PositionEstimate) -> String {
        func opt(_ v: Double?, _ format: String) -> String { v.map { String(format: format, $0) } ?? "" }
        let p = e.location.coordinate, g = e.gps?.coordinate
        return String(format: "%.6f,%.9f,%.9f,", e.location.time, p.latitude, p.longitude)
            + [opt(p.altitude, "%.3f"), opt(e.sigma, "%.3f"), opt(g?.latitude, "%.9f"), opt(g?.longitude, "%.9f"),
               opt(g?.altitude, "%.3f"), opt(e.gps?.horizontalAccuracy, "%.3f")].joined(separator: ",")
    }

    /// Smooths `track` (whole recording, or the forward filter alone when `causal`) and writes
    /// it to `url` atomically.
    public static func write(_ track: GPSTrack, causal: Bool, motion: [MotionSample], to url: URL, logPath: String,
                             notice: (String) -> Void) throws {
        guard !track.isEmpty else {
            throw InputError(file: logPath, field: "--track", "the recording has no usable GPS fix: there is no track to write")
        }
        var track = track
        track.smoothPositions(causal: causal, motion: motion, path: logPath, notice: notice)
        let writer = try AtomicTextWriter(url: url)
        try writer.write(header)
        for e in track.path { try writer.write(row(e)) }
        try writer.commit()
    }
}
