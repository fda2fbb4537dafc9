import Foundation
import POIARCore

/// A recording's camera images: a video (MP4, MOV, …, decoded by `VideoDecoder`) or a folder of
/// stills named by their capture times (`StillSequence`), as one list of frames on the
/// footage's own clock.
public final class FootageSource {
    public enum Kind: Sendable, Equatable { case video, stills }

    /// What a footage time counts from.
    public enum Clock: Sendable, Equatable {
        /// Seconds from the video's own time 0 (its container's timeline).
        case clip
        /// Seconds since the Unix epoch, UTC (stills named by capture time, a phone video's
        /// per-frame capture times).
        case utc
    }

    /// One frame of the footage.
    public struct Frame: Sendable, Equatable {
        /// Footage time, seconds on `clock`.
        public var time: Double
        /// The still's file name, or the video's file name.
        public var name: String
    }

    public let path: String
    public let kind: Kind
    public let clock: Clock
    /// Every frame, in time order.
    public let frames: [Frame]
    /// The video's decoder (nil for stills): frames are decoded in order, on one thread.
    public let video: VideoDecoder?
    /// Whether the video is a GoPro's (it carries GoPro's GPMF telemetry track), for the
    /// default camera model.
    public let isGoPro: Bool

    /// Opens `path`: a folder is a stills sequence, a file a video. Errors name the file.
    public init(path: String, notice: (String) -> Void = { _ in }) throws {
        self.path = path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw InputError(file: path, "no such file or folder (--footage takes a video or a folder of stills named by capture time)")
        }
        if isDir.boolValue {
            let stills = try StillSequence(folder: path, notice: notice)
            kind = .stills
            clock = .utc
            frames = stills.frames.map { Frame(time: $0.time, name: $0.name) }
            video = nil
            isGoPro = false
        } else {
            let decoder = try VideoDecoder(path: path)
            (kind, clock, frames) = Self.frames(of: decoder, notice: notice)
            video = decoder
            isGoPro = decoder.carriesGoProTelemetry
        }
    }

    /// A video already open (a GoPro clip whose telemetry was read from the same file).
    public init(video file: MediaFile, notice: (String) -> Void = { _ in }) throws {
        path = file.path
        let decoder = try VideoDecoder(file: file)
        (kind, clock, frames) = Self.frames(of: decoder, notice: notice)
        video = decoder
        isGoPro = decoder.carriesGoProTelemetry
    }

    /// A video's frames: on the UTC clock by its capture-time track when it has one (a
    /// phone's, from Sensor Logger), else on its own timeline.
    private static func frames(of decoder: VideoDecoder, notice: (String) -> Void) -> (Kind, Clock, [Frame]) {
        let path = decoder.path
        let name = URL(fileURLWithPath: path).lastPathComponent
        if let samples = decoder.captureTimeSamples,
           let times = CaptureTimeTrack.captureTimes(frameTimes: decoder.frameTimes, samples: samples) {
            notice("\(path): each frame's capture time from its timed-metadata track (\(samples.count) samples)")
            return (.video, .utc, times.map { Frame(time: $0, name: name) })
        }
        return (.video, .clip, decoder.frameTimes.map { Frame(time: $0, name: name) })
    }

    /// Stills whose bytes are read elsewhere (a phone export's zip): `display` names them.
    public init(stills: StillSequence, display: String) {
        path = display
        kind = .stills
        clock = .utc
        frames = stills.frames.map { Frame(time: $0.time, name: $0.name) }
        video = nil
        isGoPro = false
    }

    /// The still file of frame `index` (stills only).
    public func stillURL(_ index: Int) -> URL? {
        kind == .stills ? URL(fileURLWithPath: path).appendingPathComponent(frames[index].name) : nil
    }

    /// Mean frames per second over the footage (nil with fewer than two frames).
    public var frameRate: Double? {
        guard frames.count >= 2, let first = frames.first?.time, let last = frames.last?.time, last > first else { return nil }
        return Double(frames.count - 1) / (last - first)
    }
}
