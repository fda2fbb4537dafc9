import Foundation
import POIARCore
import Recordings
import Rendering

/// The check of every still a replay will draw over, made before anything is written.
public enum StillCheck {
    /// Probes each distinct still once (`probeStill`: format, header, pixel budget, whole
    /// file); the first bad one, in frame order, is an `InputError` naming the still and the
    /// log line that asked for it. Returns the first still's upright size (nil: no stills).
    public static func checkAll(_ urls: [URL?], frames: [FrameEvent], logPath: String, maxPixels: Int) throws -> (width: Int, height: Int)? {
        var seen = Set<String>()
        var first: (width: Int, height: Int)?
        for (i, url) in urls.enumerated() {
            guard let url, seen.insert(url.path).inserted else { continue }
            do {
                let size = try probeStillUpright(url, maxPixels: maxPixels)
                if first == nil { first = size }
            } catch let e as InputError {
                throw attributed(e, logPath: logPath, line: frames[i].line, time: frames[i].time)
            }
        }
        return first
    }

    /// `e` with "(still of LOG:LINE)" added to its message, or "(still of LOG's frame at T s)"
    /// for a frame that is no row of the log (a phone export's camera, a GoPro clip).
    public static func attributed(_ e: InputError, logPath: String, line: Int?, time: Double) -> InputError {
        let frame = line.map { "\(logPath):\($0)" } ?? String(format: "%@'s frame at %.3f s", logPath, time)
        return InputError(file: e.location.file, line: e.location.line, field: e.location.field, e.message + " (still of \(frame))")
    }
}
