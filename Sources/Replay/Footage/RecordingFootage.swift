import Footage
import Foundation
import POIARCore
import Rendering
import SensorLog

/// The footage a replay draws over, on the log's clock: where it came from, its offset
/// (footage time = log time − offset), and the footage frames that become output frames.
final class RecordingFootage {
    let source: FootageSource
    /// Log time − footage time, seconds.
    private(set) var offset: Double
    /// How the offset was found, for the notice.
    private(set) var offsetReason: String
    let maxRate: Double?
    /// The footage as the user named it, for messages.
    var path: String { source.path }

    private init(source: FootageSource, offset: Double, offsetReason: String, maxRate: Double?) {
        self.source = source; self.offset = offset; self.offsetReason = offsetReason; self.maxRate = maxRate
    }

    /// The replay's footage, most explicit first: `--footage`, the log's `# footage:` line, the
    /// recording itself when it is a video (a GoPro clip), a phone export's `Camera/` folder;
    /// nil when there is none. An offset that needs estimating (`auto`) is left at 0 until
    /// `estimateOffset`.
    static func find(_ options: FootageOptions, logPath: String, metadata: LogMetadata, logFolder: URL,
                     notice: (String) -> Void) throws -> RecordingFootage? {
        let path: String
        let origin: String
        if let given = options.path {
            path = given; origin = "--footage"
        } else if let value = metadata["footage"] {
            path = try LogFolderPath.resolve(value, key: "footage", logFolder: logFolder, logPath: logPath).path
            origin = "the log's # footage: line"
        } else if MediaFile.looksLikeISOMedia(path: logPath) {
            path = logPath; origin = "the recording's own video"
        } else if let camera = cameraFolder(of: logPath) {
            path = camera; origin = "the recording's Camera folder"
        } else {
            return nil
        }
        let source = try FootageSource(path: path, notice: notice)
        var offset = 0.0, reason: String
        switch (options.offset, source.clock) {
        case (.seconds(let s)?, _):
            offset = s; reason = "--footage-offset"
        case (.auto?, _):
            reason = "to be estimated"
        case (nil, .clip):
            reason = origin == "the recording's own video" ? "the video's timeline is the recording's"
                : "taken as 0: the video's time 0 is the log's (--footage-offset SECONDS or auto sets it)"
        case (nil, .utc):
            guard let start = metadata.startUTC else {
                throw InputError(file: path, "the stills are named by UTC capture time, but the log has no start_utc to place them: give --footage-offset (seconds; footage time = log time − offset) or auto")
            }
            offset = -start.timeIntervalSince1970
            reason = "by the stills' UTC times and the log's start_utc"
        }
        let footage = RecordingFootage(source: source, offset: offset, offsetReason: reason, maxRate: options.maxRate)
        notice("footage: \(path) (\(origin)): \(source.frames.count) \(source.kind == .video ? "video frames" : "stills")\(source.frameRate.map { String(format: " at %.3f fps", $0) } ?? "")")
        return footage
    }

    /// Sets the offset found by `FootageSync`.
    func setEstimatedOffset(_ seconds: Double, reason: String) {
        offset = seconds; offsetReason = reason
    }

    /// The footage frames wanted, on the log's clock, at most `maxRate` per second (the first
    /// frame of each 1/maxRate interval from the first).
    var wantedFrames: [(time: Double, index: Int)] {
        let frames = source.frames
        guard let rate = maxRate, let first = frames.first?.time else {
            return frames.enumerated().map { ($0.element.time + offset, $0.offset) }
        }
        var out: [(time: Double, index: Int)] = []
        var lastSlot = -1
        for (i, f) in frames.enumerated() {
            let slot = Int(((f.time - first) * rate + 1e-9).rounded(.down))
            if slot > lastSlot { out.append((f.time + offset, i)); lastSlot = slot }
        }
        return out
    }

    /// The notice saying where the footage sits on the log's clock.
    var offsetNotice: String {
        String(format: "footage offset: %.3f s (%@): footage time = log time − offset", offset, offsetReason)
    }

    /// The error for footage and a log that do not overlap.
    func noOverlap(logFirst: Double, logLast: Double) -> InputError {
        let first = source.frames.first!.time + offset, last = source.frames.last!.time + offset
        return InputError(file: path, String(format: "no footage frame falls within the log (footage on the log's clock: %.3f … %.3f s; log: %.3f … %.3f s; offset %.3f s, %@): check --footage-offset", first, last, logFirst, logLast, offset, offsetReason))
    }

    /// The manifest's stamp for footage frame `index`.
    func stamp(_ index: Int) -> FootageStamp {
        let f = source.frames[index]
        switch source.kind {
        case .video: return FootageStamp(time: f.time, video: f.name, frame: index + 1)
        case .stills: return FootageStamp(time: f.time)
        }
    }

    /// The manifest's `still` for footage frame `index`: the stills folder's name and the file.
    func stillName(_ index: Int) -> String? {
        guard source.kind == .stills else { return nil }
        return URL(fileURLWithPath: source.path).lastPathComponent + "/" + source.frames[index].name
    }

    /// Video frame `index` decoded and turned upright (in order is cheapest: `VideoDecoder`).
    func decodeVideoFrame(_ index: Int) throws -> RasterImage? {
        guard let video = source.video else { return nil }
        let frame = try video.frame(at: index)
        let image = RasterImage(width: frame.width, height: frame.height, pixels: frame.pixels)
        switch video.rotation {
        case 90: return image.applying(.right)
        case 180: return image.applying(.down)
        case 270: return image.applying(.left)
        default: return image
        }
    }

    /// The upright size of the footage's frames: the video's, or the first still's.
    func frameSize(maxStillPixels: Int) throws -> (width: Int, height: Int) {
        if let video = source.video {
            return video.rotation % 180 == 0 ? (video.width, video.height) : (video.height, video.width)
        }
        return try probeStillUpright(source.stillURL(0)!, maxPixels: maxStillPixels)
    }

    /// A phone export folder's `Camera` stills folder (Sensor Logger: `Camera/<epoch ms>.jpg`).
    static func cameraFolder(of recording: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: recording, isDirectory: &isDir), isDir.boolValue else { return nil }
        for name in ["Camera", "camera"] {
            let folder = URL(fileURLWithPath: recording).appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue { return folder }
        }
        return nil
    }
}
