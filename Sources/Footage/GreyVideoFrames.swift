import CFFmpeg
import POIARCore

/// A video's frames as small grey images: each decoded frame goes straight from the
/// decoder's YUV to 8-bit luma at `width` pixels wide with libswscale (area averaging, so a
/// 4× reduction does not alias fine texture into false motion). No B, G, R, A frame is made.
public final class GreyVideoFrames: GreyFrameSource {
    public let video: VideoDecoder
    /// Width of the grey frames; the height keeps the coded aspect ratio (rounded to even).
    public let width: Int
    public let height: Int
    private var scaler: OpaquePointer?
    private var scalerKey: (Int32, Int32, Int32) = (-1, -1, -1)

    /// The default width: enough detail for a sub-pixel shift, small enough that measuring
    /// the shifts of a 10-minute clip costs seconds, not minutes.
    public static let defaultWidth = 256

    public init(video: VideoDecoder, width: Int = GreyVideoFrames.defaultWidth) {
        precondition(width >= 16, "grey frames of \(width) px are too small to measure motion on")
        self.video = video
        self.width = min(width, video.width)
        let scaled = Double(video.height) * Double(self.width) / Double(video.width)
        height = max(2, Int((scaled / 2).rounded()) * 2)
    }

    deinit { sws_freeContext(scaler) }

    public var frameTimes: [Double] { video.frameTimes }
    public var path: String { video.path }

    public func greyFrame(at index: Int) throws -> GreyFrame {
        let frame = try video.decodedFrame(at: index)
        let f = frame.pointee
        let key = (f.width, f.height, f.format)
        if scaler == nil || scalerKey != key {
            sws_freeContext(scaler)
            scaler = sws_getContext(f.width, f.height, AVPixelFormat(f.format), Int32(width), Int32(height), AV_PIX_FMT_GRAY8,
                                    Int32(SWS_AREA), nil, nil, nil)
            guard scaler != nil else {
                throw InputError(file: video.path, "cannot convert \(String(cString: av_get_pix_fmt_name(AVPixelFormat(f.format)))) frames to grey")
            }
            scalerKey = key
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        VideoDecoder.scale(frame, with: scaler!, into: &pixels, rowBytes: width)
        return GreyFrame(width: width, height: height, pixels: pixels, time: video.frameTimes[index])
    }
}
