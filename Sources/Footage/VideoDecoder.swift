import CFFmpeg
import Foundation
import POIARCore

/// A decoded video frame: B, G, R, A bytes (opaque, so premultiplied is the same), rows
/// packed top to bottom, stored as the stream codes it (turn it upright with `rotation`).
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    /// Presentation time, seconds on the file's timeline.
    public var time: Double
}

/// The frames of a video stream, decoded in order with libavcodec and converted to B, G, R, A
/// with libswscale (the stream's own YUV matrix and range). `frameTimes` lists every frame's
/// presentation time from a pass over the packets (no decoding), so a replay knows its
/// frames before it decodes any; `frame(at:)` decodes forward from where the decoder stands
/// and seeks (to the keyframe before the frame) only when asked for a frame behind it or far
/// ahead, so a replay's in-order frames cost one decode each and memory stays flat in the
/// clip's length. Output is the same whichever way a frame is reached (H.264 and H.265
/// decoding is exact), so frames stay byte-identical with `--resume` and `--shard`.
public final class VideoDecoder {
    public let path: String
    public let stream: MediaFile.Stream
    /// Coded size of the frames.
    public let width: Int, height: Int
    /// Degrees clockwise the frames must be turned to be upright (the container's display
    /// matrix: a phone's portrait video): 0, 90, 180 or 270.
    public let rotation: Int
    /// Every frame's presentation time, seconds, in presentation order.
    public let frameTimes: [Double]

    private var file: MediaFile
    /// The file's `mebx` timed-metadata samples (a phone video's capture times,
    /// `CaptureTimeTrack`), read in the same pass as the frames' stamps; nil: no such track.
    public let captureTimeSamples: [(time: Double, captureNs: Int64)]?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private var scalerKey: (Int32, Int32, Int32) = (-1, -1, -1)
    /// Index of the next frame the decoder will output; nil before the first decode.
    private var nextIndex: Int?
    private var drained = false
    private var sentEndOfStream = false
    /// Presentation timestamps (stream units) in order, to match decoded frames to indices.
    private let frameStamps: [Int64]

    /// Frames further ahead than this are reached by seeking rather than decoding through.
    static let seekAheadFrames = 90

    /// Opens the best video stream of `path`. Throws, naming the file, when there is none,
    /// when its codec cannot be decoded here, or when a frame is over `maxPixels`.
    public convenience init(path: String, maxPixels: Int = 100_000_000) throws {
        try self.init(file: MediaFile(path: path), maxPixels: maxPixels)
    }

    /// The best video stream of a file already open (its other passes, a GoPro clip's
    /// telemetry, done or still to come: the decoder goes back to the file's start).
    public init(file: MediaFile, maxPixels: Int = 100_000_000) throws {
        path = file.path
        self.file = file
        guard let ctx = file.context else { throw InputError(file: path, "cannot open") }
        let best = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0 else {
            throw InputError(file: path, "has no video stream (streams: \(file.streams.map { "\($0.kind)" + ($0.tag.isEmpty ? "" : " \($0.tag)") }.joined(separator: ", ")))")
        }
        stream = file.streams[Int(best)]
        let avStream = ctx.pointee.streams[Int(best)]!
        let par = avStream.pointee.codecpar!
        width = Int(par.pointee.width); height = Int(par.pointee.height)
        guard width > 0, height > 0 else { throw InputError(file: path, "video stream \(best) has no frame size") }
        guard width <= ImageLimits.maxSide, height <= ImageLimits.maxSide, width * height <= maxPixels else {
            throw InputError(file: path, "video frames of \(width)×\(height) are larger than poiar decodes (\(ImageLimits.maxSide) px a side, \(maxPixels) pixels)")
        }
        rotation = VideoDecoder.displayRotation(avStream)
        guard let decoder = avcodec_find_decoder(par.pointee.codec_id) else {
            throw InputError(file: path, "video codec \(stream.codecName) (\(stream.tag)) cannot be decoded by this FFmpeg (libavcodec \(LIBAVCODEC_VERSION_MAJOR))")
        }
        codec = avcodec_alloc_context3(decoder)
        guard avcodec_parameters_to_context(codec, par) >= 0 else { throw InputError(file: path, "bad \(stream.codecName) parameters") }
        codec!.pointee.thread_count = 0  // as many as the machine has; the output does not depend on it
        let opened = avcodec_open2(codec, decoder, nil)
        guard opened >= 0 else {
            throw InputError(file: path, "cannot open the \(stream.codecName) decoder: \(FFmpegLog.text(opened))")
        }
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
        // Every frame's time, from a pass over the packets (read, not decoded), with the
        // capture-time track's samples when there is one.
        let (stamps, captureSamples) = try VideoDecoder.packetStamps(file: file, stream: stream)
        let timeBase = stream.timeBase
        frameStamps = stamps.sorted()
        frameTimes = frameStamps.map { Double($0) * timeBase }
        captureTimeSamples = captureSamples
        guard !frameTimes.isEmpty else { throw InputError(file: path, "video stream \(best) has no frames") }
        // Decoding starts from the file's start, as for a file opened afresh. A single image
        // (libavformat's image demuxers) does not go back reliably: it is opened again.
        if frameStamps.count == 1 || !file.rewind() { self.file = try MediaFile(path: path) }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&decoded)
        avcodec_free_context(&codec)
        sws_freeContext(scaler)
    }

    public var frameCount: Int { frameTimes.count }

    /// Whether the file also holds GoPro's GPMF telemetry track (`gpmd`): a GoPro's clip.
    public var carriesGoProTelemetry: Bool { file.stream(tagged: "gpmd") != nil }

    /// The presentation time stamps of a stream's packets, read without decoding from the
    /// file's start, and the capture-time track's samples (`CaptureTimeTrack`) in the same pass.
    static func packetStamps(file: MediaFile, stream: MediaFile.Stream) throws
        -> (stamps: [Int64], captureSamples: [(time: Double, captureNs: Int64)]?) {
        if file.isRead, !file.rewind() {
            throw InputError(file: file.path, "cannot go back to the start of the file to read its video")
        }
        let captureTrack = file.stream(tagged: CaptureTimeTrack.tag)
        var stamps: [Int64] = []
        var samples: [(time: Double, captureNs: Int64)] = []
        var missing = 0
        try file.forEachPacket(of: [stream] + (captureTrack.map { [$0] } ?? [])) { s, time, bytes in
            if s.index == stream.index {
                if let time { stamps.append(Int64((time / stream.timeBase).rounded())) } else { missing += 1 }
            } else if let time, let ns = CaptureTimeTrack.captureNanoseconds(bytes) {
                samples.append((time, ns))
            }
        }
        guard missing == 0 else { throw InputError(file: file.path, "\(missing) video packet(s) without a presentation time") }
        return (stamps, captureTrack == nil ? nil : samples)
    }

    /// Frame `index` (in presentation order, from 0).
    public func frame(at index: Int) throws -> VideoFrame {
        try convert(decodedFrame(at: index), time: frameTimes[index])
    }

    /// Frame `index` as libavcodec decoded it (valid until the next decode), for readers that
    /// convert it their own way (`GreyVideoFrames`).
    func decodedFrame(at index: Int) throws -> UnsafeMutablePointer<AVFrame> {
        precondition(index >= 0 && index < frameCount, "frame \(index) outside 0..<\(frameCount)")
        // A fresh decoder reads from the file's start without seeking: a single image (a JPEG
        // opened by libavformat's image demuxer) cannot seek.
        if index < (nextIndex ?? 0) || index > (nextIndex ?? 0) + VideoDecoder.seekAheadFrames {
            try seek(toFrame: index)
        }
        while true {
            guard let (got, stamp) = try decodeNext() else {
                // Say which frames are missing: the stream's last frames, not the one asked for.
                let last = nextIndex ?? 0
                throw InputError(file: path, "frame \(index + 1) of the \(frameCount) its index lists (\(String(format: "%.3f", frameTimes[index])) s) cannot be decoded: the video stream ends after frame \(last), so frames \(last + 1)–\(frameCount) are missing or damaged (is the file truncated?)")
            }
            let i = nearestIndex(of: stamp, from: nextIndex ?? 0)
            nextIndex = i + 1
            if i == index { return got }
            if i > index {
                throw InputError(file: path, "frame \(index + 1) (\(String(format: "%.3f", frameTimes[index])) s) could not be decoded (the decoder went on at frame \(i + 1)): is the file damaged?")
            }
        }
    }

    /// The index of the frame with stamp `stamp`, searching from `start` (frames come in order).
    private func nearestIndex(of stamp: Int64, from start: Int) -> Int {
        let lo = frameStamps.lowerBound(of: stamp)
        if lo < frameStamps.count, frameStamps[lo] == stamp { return lo }
        // A stamp the packets did not list (should not happen): the next in order.
        return max(start, min(lo, frameStamps.count - 1))
    }

    private func seek(toFrame index: Int) throws {
        guard let ctx = file.context else { return }
        let r = av_seek_frame(ctx, Int32(stream.index), frameStamps[index], AVSEEK_FLAG_BACKWARD)
        guard r >= 0 else { throw InputError(file: path, "cannot seek to \(String(format: "%.3f", frameTimes[index])) s: \(FFmpegLog.text(r))") }
        avcodec_flush_buffers(codec)
        drained = false
        sentEndOfStream = false
        // Frames before the keyframe's are not known until one decodes: start the search at 0.
        nextIndex = 0
    }

    /// The next decoded frame and its presentation stamp; nil at the end of the stream.
    private func decodeNext() throws -> (UnsafeMutablePointer<AVFrame>, Int64)? {
        guard let ctx = file.context, !drained else { return nil }
        while true {
            let r = avcodec_receive_frame(codec, decoded)
            if r >= 0 {
                let f = decoded!.pointee
                let stamp = f.best_effort_timestamp != poiar_av_nopts_value() ? f.best_effort_timestamp : f.pts
                // A frame libavcodec decoded from damaged data (it hid the damage with
                // concealment, or marked the frame corrupt) would be drawn with garbage where
                // the damage is, as a JPEG damaged inside would: refused, as that is.
                if f.decode_error_flags != 0 || f.flags & 1 != 0 {  // AV_FRAME_FLAG_CORRUPT
                    throw InputError(file: path, "the video is damaged inside at \(String(format: "%.3f", Double(stamp) * stream.timeBase)) s (libavcodec decoded that frame from broken data, flags \(f.decode_error_flags)): its picture would be drawn with garbage where the damage is; replace the file")
                }
                return (decoded!, stamp)
            }
            if r == poiar_averror_eof() { drained = true; return nil }
            guard r == poiar_averror_eagain() else {
                throw InputError(file: path, "cannot decode the \(stream.codecName) video: \(FFmpegLog.text(r))")
            }
            if sentEndOfStream { drained = true; return nil }
            // Feed the next packet of our stream.
            while true {
                let read = av_read_frame(ctx, packet)
                if read == poiar_averror_eof() {
                    avcodec_send_packet(codec, nil)
                    sentEndOfStream = true
                    break
                }
                guard read >= 0 else {
                    throw InputError(file: path, "cannot read the video: \(FFmpegLog.text(read)): is the file truncated?")
                }
                defer { av_packet_unref(packet) }
                guard Int(packet!.pointee.stream_index) == stream.index else { continue }
                let sent = avcodec_send_packet(codec, packet)
                guard sent >= 0 || sent == poiar_averror_eagain() else {
                    throw InputError(file: path, "cannot decode the \(stream.codecName) video at \(String(format: "%.3f", Double(packet!.pointee.pts) * stream.timeBase)) s: \(FFmpegLog.text(sent)): is the file damaged?")
                }
                break
            }
        }
    }

    /// B, G, R, A bytes of a decoded frame, by libswscale with the stream's matrix and range.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, time: Double) throws -> VideoFrame {
        let f = frame.pointee
        let w = Int(f.width), h = Int(f.height)
        let key = (f.width, f.height, f.format)
        if scaler == nil || scalerKey != key {
            sws_freeContext(scaler)
            scaler = sws_getContext(f.width, f.height, AVPixelFormat(f.format), f.width, f.height, AV_PIX_FMT_BGRA,
                                    Int32(SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
            guard scaler != nil else {
                throw InputError(file: path, "cannot convert \(String(cString: av_get_pix_fmt_name(AVPixelFormat(f.format)))) frames to RGB")
            }
            scalerKey = key
            // The stream's own YUV matrix (BT.709 for HD, BT.601 otherwise unless it says) and range.
            let space = f.colorspace == AVCOL_SPC_UNSPECIFIED ? (h >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M) : f.colorspace
            let coefficients = sws_getCoefficients(Int32(space.rawValue))
            let fullRange: Int32 = f.color_range == AVCOL_RANGE_JPEG ? 1 : 0
            sws_setColorspaceDetails(scaler, coefficients, fullRange, sws_getCoefficients(Int32(SWS_CS_DEFAULT)), 1, 0, 1 << 16, 1 << 16)
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        VideoDecoder.scale(frame, with: scaler!, into: &pixels, rowBytes: w * 4)
        return VideoFrame(width: w, height: h, pixels: pixels, time: time)
    }

    /// Runs `scaler` (made for `frame`'s size and format) on `frame` into `pixels`, one packed
    /// plane of `rowBytes` a row.
    static func scale(_ frame: UnsafeMutablePointer<AVFrame>, with scaler: OpaquePointer, into pixels: inout [UInt8], rowBytes: Int) {
        let f = frame.pointee
        pixels.withUnsafeMutableBufferPointer { out in
            var dst: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var dstStride: [Int32] = [Int32(rowBytes), 0, 0, 0]
            withUnsafePointer(to: f.data) { dataTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                    withUnsafePointer(to: f.linesize) { lineTuple in
                        lineTuple.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            _ = sws_scale(scaler, src, srcStride, 0, f.height, &dst, &dstStride)
                        }
                    }
                }
            }
        }
    }

    /// The clockwise rotation a stream's display matrix asks for, rounded to 90°.
    static func displayRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
        let angle = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        // av_display_rotation_get is counter-clockwise.
        let clockwise = Int((-angle).rounded())
        return ((clockwise % 360) + 360) % 360 / 90 * 90
    }
}
