import Foundation
import Geodesy
import Manifest
import PhoneImport
import POIARCore
import Recordings
import SensorLog

/// `poiar report OUT --log LOG`: the page names LOG as the run's recording, so LOG is read
/// and checked against the folder's frames before the page is written. A path that does not
/// exist, a file poiar cannot read as a recording, or the recording of another run would put
/// a wrong name on the page with exit status 0.
///
/// It is the run's recording when every frame's time lies within the recording's span and
/// every frame's raw GPS position (`location.gps` in frames.jsonl, the fixes interpolated at
/// the frame's time) is where the recording's own fixes, interpolated the same way
/// (`GPSTrack.gpsLocation(at:)`), put it — within `tolerance` metres (the fixes are the same
/// numbers: only rounding in frames.jsonl parts them). A run placed with `--at` has no GPS in
/// its frames; then the times alone are checked.
public enum RunLogCheck {
    /// How far a frame's GPS position may be from the recording's at its time, metres.
    public static let tolerance = 1.0
    /// How far a frame's time may lie outside the recording's span, seconds (a clip's last
    /// video frame can end after its last telemetry sample).
    public static let timeSlack = 1.0

    public static func check(log: String, dir: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: log, isDirectory: &isFolder) else {
            throw InputError(file: log, "no such file or folder: --log names the run's recording")
        }
        // Its kind is told from its start, then it is read again: a pipe cannot be.
        if !isFolder.boolValue { try InputFile.checkRegular(log, what: "the recording") }
        let source = try openLogSource(path: log)
        var track = GPSTrack()
        var first: Double?, last = -Double.infinity
        while let record = try source.nextRecord() {
            let time = record.sample.time
            if first == nil { first = time }
            last = max(last, time)
            if case .gps(let fix) = record.sample { track.add(fix) }
        }
        guard let first else { throw InputError(file: log, "has no samples: not the recording of \(dir.path)") }
        let reader = try ManifestReader(url: dir.appendingPathComponent("frames.jsonl"))
        while let frame = try reader.nextFrame() {
            let at = String(format: "%.3f s", frame.time)
            guard frame.time >= first - timeSlack, frame.time <= last + timeSlack else {
                throw InputError(file: log, "is not the recording of \(dir.path): its frame \(frame.frame) is at \(at), outside the recording's \(String(format: "%.3f … %.3f s", first, last)); give the log that run replayed")
            }
            guard let gps = frame.location.gps else { continue }
            let shown = GeoCoordinate(latitude: gps.lat, longitude: gps.lon)
            guard let own = track.gpsLocation(at: frame.time) else {
                throw InputError(file: log, "is not the recording of \(dir.path): it has no usable GPS fix, but frame \(frame.frame) has a GPS position; give the log that run replayed")
            }
            let off = greatCircleInverse(from: own.coordinate, to: shown).distance
            guard off <= tolerance else {
                throw InputError(file: log, "is not the recording of \(dir.path): at frame \(frame.frame) (\(at)) its GPS puts the device \(String(format: "%.0f", off)) m from where the frame says (\(String(format: "%.6f, %.6f", gps.lat, gps.lon))); give the log that run replayed")
            }
        }
    }
}
