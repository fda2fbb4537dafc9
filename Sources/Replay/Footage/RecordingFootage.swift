import Footage
import Foundation
import Frames
import PhoneImport
import POIARCore
import Recordings
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
    /// A phone export's zipped camera stills, read from the archive as they are drawn.
    let archived: PhoneCameraFiles?
    /// The footage as the user named it, for messages.
    var path: String { source.path }

    private init(source: FootageSource, offset: Double, offsetReason: String, maxRate: Double?, archived: PhoneCameraFiles?) {
        self.source = source; self.offset = offset; self.offsetReason = offsetReason; self.maxRate = maxRate
        self.archived = archived
    }

    /// Where a replay's footage came from, for the notices.
    enum Origin: String {
        case option = "--footage"
        case ownVideo = "the recording's own video"
        case logLine = "the log's # footage: line"
        case cameraFolder = "the recording's camera folder"
    }

    /// The replay's footage, most explicit first: `--footage`, the recording itself when it is a
    /// video (a GoPro clip), the log's `# footage:` line, a phone export's `Camera/` folder;
    /// nil when there is none. With `auto` the offset is the one the footage's clock implies
    /// (the centre of the search) until `setEstimatedOffset`.
    static func find(_ options: FootageOptions, recording: Recording, logFolder: URL,
                     notice: (String) -> Void) throws -> RecordingFootage? {
        let logPath = recording.path, kind = recording.kind, metadata = recording.metadata
        let path: String
        let origin: Origin
        var archived: PhoneCameraFiles?
        if let given = options.path {
            path = given; origin = .option
        } else if kind == .clip {
            path = logPath; origin = .ownVideo
        } else if let value = metadata["footage"] {
            path = try LogFolderPath.resolve(value, key: "footage", logFolder: logFolder, logPath: logPath).path
            origin = .logLine
        } else if let camera = try PhoneCameraFiles.find(in: logPath, kind: kind) {
            origin = .cameraFolder
            let videos = camera.names.filter { ["mp4", "mov"].contains(($0 as NSString).pathExtension.lowercased()) }
            if let video = videos.first {
                guard videos.count == 1 else {
                    throw InputError(file: camera.display, "holds \(videos.count) videos (\(videos.joined(separator: ", "))): give one with --footage")
                }
                guard let folder = camera.folderPath else {
                    throw InputError(file: camera.display + "/" + video, "a video inside a zip is not decoded in place: unzip the export and replay its folder")
                }
                path = URL(fileURLWithPath: folder).appendingPathComponent(video).path
            } else if let folder = camera.folderPath {
                path = folder
            } else {
                path = camera.display; archived = camera
            }
        } else {
            return nil
        }
        let source = try archived.map { FootageSource(stills: try StillSequence(names: $0.names, folder: $0.display, notice: notice),
                                                      display: $0.display) }
            ?? (origin == .ownVideo ? recording.clip.map { try FootageSource(video: $0, notice: notice) } : nil)
            ?? FootageSource(path: path, notice: notice)
        // The offset the footage's clock implies: the default, and the centre of an `auto` search.
        let implied: (offset: Double, reason: String)
        switch source.clock {
        case .clip:
            implied = (0, origin == .ownVideo ? "the video's timeline is the recording's"
                : origin == .logLine ? "the log's time 0 is the video's, as its # footage: line says"
                : "taken as 0: the video's time 0 is the log's (--footage-offset SECONDS or auto sets it)")
        case .utc:
            if let start = metadata.startUTC {
                implied = (-start.timeIntervalSince1970, "by the frames' UTC capture times and the log's start_utc")
            } else if case .seconds = options.offset {
                implied = (0, "")
            } else {
                throw InputError(file: path, "the footage's frames carry UTC capture times, but the log has no start_utc to place them: give --footage-offset (seconds; footage time = log time − offset)")
            }
        }
        var (offset, reason) = implied
        switch options.offset {
        case .seconds(let s)?: (offset, reason) = (s, "--footage-offset")
        case .auto?: reason = "to be estimated"
        case nil: break
        }
        let footage = RecordingFootage(source: source, offset: offset, offsetReason: reason, maxRate: options.maxRate,
                                       archived: archived)
        notice("footage: \(path) (\(origin.rawValue)): \(source.frames.count) \(source.kind == .video ? "video frames" : "stills")\(source.frameRate.map { String(format: " at %.3f fps", $0) } ?? "")")
        return footage
    }

    /// Sets the offset found by `FootageSync`.
    func setEstimatedOffset(_ seconds: Double, reason: String) {
        offset = seconds; offsetReason = reason
    }

    /// The footage frames wanted, on the log's clock, at most `maxRate` per second (`FrameSelection.thinned`).
    var wantedFrames: [(time: Double, index: Int)] {
        let frames = source.frames
        let kept = maxRate.map { FrameSelection.thinned(frames.map(\.time), rate: $0) } ?? Array(frames.indices)
        return kept.map { (frames[$0].time + offset, $0) }
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

    /// Frame `index` decoded on the calling thread when it cannot be loaded by path in parallel:
    /// a video frame (in order is cheapest: `VideoDecoder`), turned upright, or a still from an
    /// archive; nil for a still on disk.
    func decodeInOrder(_ index: Int, maxStillPixels: Int) throws -> RasterImage? {
        if let archived {
            let name = source.frames[index].name
            return try decodeStill(try archived.data(name), file: archived.display + "/" + name, maxPixels: maxStillPixels)
        }
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

    /// The upright size of the footage's frames: the video's, or the first still's. Every
    /// still of `used` (footage indices) is probed, so a bad one stops the replay before a frame
    /// is written.
    func frameSize(used: [Int], maxStillPixels: Int) throws -> (width: Int, height: Int) {
        if let video = source.video {
            return video.rotation % 180 == 0 ? (video.width, video.height) : (video.height, video.width)
        }
        var first: (width: Int, height: Int)?
        for i in used {
            let size: (width: Int, height: Int)
            if let archived {
                let name = source.frames[i].name
                size = try probeStillUpright(data: try archived.data(name), file: archived.display + "/" + name, maxPixels: maxStillPixels)
            } else {
                size = try probeStillUpright(source.stillURL(i)!, maxPixels: maxStillPixels)
            }
            if first == nil { first = size }
        }
        return first ?? (0, 0)
    }
}
