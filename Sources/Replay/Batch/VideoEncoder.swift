import Footage
import Foundation
import Frames
import POIARCore
import Rendering

/// `--video`: `video.mp4` from the frames on disk, read back one at a time and encoded with
/// FFmpeg's libraries (`Footage.VideoWriter`: H.264 by libx264, MPEG-4 Part 2 when this
/// libavcodec has no libx264), so a resumed run or a merge of shards makes the same video as
/// one unbroken run.
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

    /// Encodes `frame_000001.png` … `frame_NNNNNN.png` of `dir` into `dir/video.mp4`, written
    /// to a temporary file first and renamed into place when complete.
    public func encode(dir: URL, frameCount: Int, frameRate: Double) throws {
        let output = dir.appendingPathComponent(VideoEncoder.fileName)
        guard frameCount > 0 else { return }
        var current: VideoWriter?
        for index in 1...frameCount {
            let url = dir.appendingPathComponent(FrameRecord.imageName(index: index))
            let image = try loadStill(url)
            let writer = try current ?? VideoWriter(url: output, width: image.width, height: image.height,
                                                    frameRate: frameRate, codec: codec)
            current = writer
            guard image.width == writer.width, image.height == writer.height else {
                throw InputError(file: url.path, "is \(image.width)×\(image.height) pixels, frame 1 is \(writer.width)×\(writer.height): the frames of one video are one size")
            }
            try image.pixels.withUnsafeBytes { try writer.append($0) }
        }
        try current?.finish()
    }
}
