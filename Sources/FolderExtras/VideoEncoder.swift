import Footage
import Foundation
import Frames
import POIARCore
import Rendering

/// `--video`: `video.mp4` of the frames, encoded with FFmpeg's libraries (`Footage.VideoWriter`:
/// H.264 by libx264, MPEG-4 Part 2 when this libavcodec has no libx264). A replay encodes its
/// frames as they are drawn (`start`), `poiar merge` its shards' frames read back from their PNG
/// files (`encode`), both through one `VideoStream`: the frames are lossless PNGs of the same
/// pixels, so a resumed run or a merge of shards makes the same video as one unbroken run.
public struct VideoEncoder: Sendable {
    public static let fileName = "video.mp4"
    public let codec: VideoWriter.Codec

    /// The best encoder this libavcodec has, or an error when it has none poiar writes with;
    /// checked before anything is rendered.
    public init() throws {
        guard let codec = VideoWriter.Codec.best else {
            throw InputError(file: "--video", "this FFmpeg's libavcodec has no \(VideoWriter.Codec.allCases.map(\.rawValue).joined(separator: " or ")) encoder: leave out --video; the frames are PNG files either way")
        }
        self.codec = codec
    }

    /// What to tell the user about the encoder: nil for H.264, the usual one.
    public var notice: String? {
        codec == .h264 ? nil : "--video: this FFmpeg has no libx264: \(VideoEncoder.fileName) is \(codec.description), larger at the same quality"
    }

    /// Frames per second of the video: the frames' mean rate over their times (a log's frame
    /// rows need not be regular), else `fallback`.
    public static func frameRate(count: Int, firstTime: Double, lastTime: Double, fallback: Double) -> Double {
        guard count >= 2, lastTime > firstTime else { return fallback }
        return Double(count - 1) / (lastTime - firstTime)
    }

    /// Starts `dir/video.mp4`: frames handed to the stream as they are drawn are encoded in
    /// frame order while later ones are drawn (`VideoStream`); at most `window` of them wait.
    public func start(dir: URL, frameRate: Double, window: Int) throws -> VideoStream {
        try VideoStream(url: dir.appendingPathComponent(VideoEncoder.fileName), frameRate: frameRate, codec: codec, window: window)
    }

    /// Encodes `frame_000001.png` … `frame_NNNNNN.png` of `dir` into `dir/video.mp4` (`poiar
    /// merge`, whose frames other processes drew): each PNG read back in order and handed to
    /// the same stream a replay draws into, so the two make the same bytes.
    public func encode(dir: URL, frameCount: Int, frameRate: Double) throws {
        guard frameCount > 0 else { return }
        let stream = try start(dir: dir, frameRate: frameRate, window: 2)
        do {
            for index in 1...frameCount {
                try stream.add(frame: index, try loadStill(dir.appendingPathComponent(FrameRecord.imageName(index: index))))
            }
            try stream.finish(count: frameCount)
        } catch {
            stream.cancel()
            throw error
        }
    }
}
