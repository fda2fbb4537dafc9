/// A small grey image: one byte of luma per pixel, rows packed top to bottom. Motion
/// measurement (`PhaseCorrelator`) works on these rather than on full-size B, G, R, A frames:
/// a 256-pixel-wide grey frame is a sixtieth of a 1080p BGRA one, and the shift between two
/// frames is found as well on it.
public struct GreyFrame: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    /// Seconds on the footage's timeline.
    public var time: Double

    public init(width: Int, height: Int, pixels: [UInt8], time: Double) {
        precondition(pixels.count == width * height, "\(pixels.count) pixels for \(width)×\(height)")
        self.width = width; self.height = height; self.pixels = pixels; self.time = time
    }
}

/// Footage as grey frames in order: a video (`GreyVideoFrames`) or a stills sequence (the
/// caller decodes each still and hands over its luma). `FootageSync` reads each frame once,
/// from the first to the last.
public protocol GreyFrameSource {
    /// Every frame's time, seconds on the footage's timeline, increasing.
    var frameTimes: [Double] { get }
    /// Frame `index`, all frames the same size.
    func greyFrame(at index: Int) throws -> GreyFrame
    /// The file or folder, for messages.
    var path: String { get }
}
