import Foundation
import POIARCore

/// A stills sequence's frames as small grey images: each still (JPEG, PNG) is opened with
/// libavformat's image demuxer and scaled to luma by `GreyVideoFrames`, the same path as a
/// video's frames.
public final class GreyStillFrames: GreyFrameSource {
    public let path: String
    public let frameTimes: [Double]
    private let files: [String]
    private let width: Int

    /// The stills `files` (paths) taken at `frameTimes`, scaled to `width` pixels wide.
    public init(folder: String, files: [String], frameTimes: [Double], width: Int = GreyVideoFrames.defaultWidth) {
        precondition(files.count == frameTimes.count, "\(files.count) stills for \(frameTimes.count) times")
        path = folder; self.files = files; self.frameTimes = frameTimes; self.width = width
    }

    public func greyFrame(at index: Int) throws -> GreyFrame {
        let still = GreyVideoFrames(video: try VideoDecoder(path: files[index]), width: width)
        var frame = try still.greyFrame(at: 0)
        frame.time = frameTimes[index]
        return frame
    }
}
