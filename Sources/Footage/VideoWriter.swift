import CFFmpeg
import Foundation
import POIARCore

/// An MP4 video written frame by frame with FFmpeg's libraries (libavcodec, libswscale,
/// libavformat): B, G, R, A frames in, yuv420p H.264 out (libx264; MPEG-4 Part 2 when this
/// libavcodec has no libx264), `+faststart` so a player starts before the whole file is
/// read. One frame is held at a time (plus the encoder's own look-ahead), so memory does not
/// grow with the video's length. The file is written under a hidden temporary name beside
/// `url` and renamed into place by `finish()`; a writer dropped before that (an error, a
/// frame that could not be read) removes its temporary file and leaves no `url`.
public final class VideoWriter {
    /// The encoders poiar writes with, best first.
    public enum Codec: String, Sendable, CaseIterable, CustomStringConvertible {
        /// H.264 by libx264 at constant quality `crf` 20 (x264's scale, 0 lossless … 51; 20
        /// keeps the labels' text sharp), preset `ultrafast` with CABAC.
        case h264 = "libx264"
        /// MPEG-4 Part 2 by libavcodec's own encoder at fixed quantiser 3 (`-q:v 3`; 1 best …
        /// 31): larger files than H.264 at the same quality, but every player shows it.
        case mpeg4

        /// The best encoder this libavcodec has; nil when it has none of them.
        public static var best: Codec? { allCases.first { $0.isAvailable } }

        public var isAvailable: Bool { avcodec_find_encoder_by_name(rawValue) != nil }

        /// What the encoder makes, in words.
        public var description: String {
            switch self {
            case .h264: "H.264 (libx264)"
            case .mpeg4: "MPEG-4 Part 2 (libavcodec's mpeg4)"
            }
        }
    }

    /// Encoder threads: fixed rather than one per core, because libx264's output depends on
    /// its thread count; with a fixed count the same frames make the same bytes on every
    /// machine (with the same libx264 and libavformat).
    static let encoderThreads: Int32 = 4
    /// libx264's constant-quality setting (see `Codec.h264`).
    static let x264ConstantRateFactor = "20"
    /// libx264's speed preset. The video is encoded while the frames are drawn, on the same
    /// cores: `ultrafast` costs the sample walk's 720×1280 frames less CPU than their PNG files
    /// (`veryfast` cost twice as much), so a replay with `--video` takes little longer than one
    /// without (docs/batch.md). Its file is about twice `veryfast`'s (the frames' flat sky and
    /// cards compress well either way), at the same `crf` and a smaller error.
    static let x264Preset = "ultrafast"
    /// Back on top of `ultrafast`: CABAC (arithmetic coding), 10 % off the file for no
    /// measurable time.
    static let x264Parameters = "cabac=1"
    /// libavcodec mpeg4's fixed quantiser (see `Codec.mpeg4`).
    static let mpeg4Quantiser: Int32 = 3
    /// Seconds of video between keyframes, at most: a player seeks to any point quickly.
    static let keyframeInterval = 10.0
    /// Largest numerator and denominator of the frame rate (MPEG-4 Part 2 allows no more).
    static let maxRateTerm: Int32 = 65535

    /// The finished file.
    public let url: URL
    public let codec: Codec
    /// Size of the frames given to `append`.
    public let width: Int, height: Int
    /// Size of the video: the frames' size padded to even with black (yuv420p halves both).
    public let codedWidth: Int, codedHeight: Int
    /// Frames per second, as the rational stored in the file.
    public let frameRate: (numerator: Int, denominator: Int)
    public private(set) var frameCount = 0

    private let temporary: URL
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// The frame padded to even sides (only for an odd width or height): the padding stays 0.
    private var padded: [UInt8] = []
    private var fileOpen = false
    private var finished = false

    /// Opens `url`'s temporary file for a video of `width`×`height` frames at `frameRate`
    /// frames per second, encoded with `codec` (default: the best this libavcodec has).
    public init(url: URL, width: Int, height: Int, frameRate rate: Double, codec: Codec? = nil) throws {
        self.url = url
        self.width = width; self.height = height
        codedWidth = width + width % 2; codedHeight = height + height % 2
        temporary = AtomicFile.temporaryURL(for: url)
        guard width > 0, height > 0, width <= ImageLimits.maxSide, height <= ImageLimits.maxSide else {
            throw InputError(file: url.path, "cannot encode frames of \(width)×\(height) pixels")
        }
        try FFmpegLog.quiet(file: url.path)
        guard let chosen = codec ?? Codec.best, let avCodec = avcodec_find_encoder_by_name(chosen.rawValue) else {
            throw InputError(file: url.path, "this FFmpeg (libavcodec \(LIBAVCODEC_VERSION_MAJOR)) has no \((codec.map { [$0] } ?? Codec.allCases).map(\.rawValue).joined(separator: " or ")) encoder")
        }
        self.codec = chosen
        let q = VideoWriter.rational(rate)
        frameRate = (Int(q.num), Int(q.den))

        guard avformat_alloc_output_context2(&format, nil, "mp4", "file:" + temporary.path) >= 0, let format else {
            throw InputError(file: url.path, "libavformat has no MP4 muxer")
        }
        encoder = avcodec_alloc_context3(avCodec)
        packet = av_packet_alloc()
        picture = av_frame_alloc()
        guard let encoder, packet != nil, let picture else { throw InputError(file: url.path, "out of memory") }
        encoder.pointee.width = Int32(codedWidth)
        encoder.pointee.height = Int32(codedHeight)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = AVRational(num: q.den, den: q.num)  // one tick a frame
        encoder.pointee.framerate = q
        encoder.pointee.gop_size = Int32(max(1, min(600, (rate * VideoWriter.keyframeInterval).rounded())))
        encoder.pointee.thread_count = VideoWriter.encoderThreads
        // The matrix players assume for an untagged video of this height (BT.601 below 720
        // lines, BT.709 from 720), tagged as well; limited range.
        let matrix = codedHeight >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        encoder.pointee.colorspace = matrix
        encoder.pointee.color_range = AVCOL_RANGE_MPEG
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch chosen {
        case .h264:
            av_dict_set(&options, "crf", VideoWriter.x264ConstantRateFactor, 0)
            av_dict_set(&options, "preset", VideoWriter.x264Preset, 0)
            av_dict_set(&options, "x264-params", VideoWriter.x264Parameters, 0)
        case .mpeg4:
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            encoder.pointee.global_quality = Int32(FF_QP2LAMBDA) * VideoWriter.mpeg4Quantiser
        }
        let opened = avcodec_open2(encoder, avCodec, &options)
        guard opened >= 0 else {
            throw InputError(file: url.path, "cannot open the \(chosen.rawValue) encoder for \(codedWidth)×\(codedHeight) frames: \(FFmpegLog.text(opened))")
        }

        guard let stream = avformat_new_stream(format, nil) else { throw InputError(file: url.path, "out of memory") }
        self.stream = stream
        guard avcodec_parameters_from_context(stream.pointee.codecpar, encoder) >= 0 else {
            throw InputError(file: url.path, "cannot pass the \(chosen.rawValue) parameters to the MP4 muxer")
        }
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = q

        let created = avio_open(&format.pointee.pb, "file:" + temporary.path, AVIO_FLAG_WRITE)
        guard created >= 0 else {
            throw InputError(file: url.path, "cannot create the file: \(FFmpegLog.text(created))")
        }
        fileOpen = true
        var muxing: OpaquePointer?
        defer { av_dict_free(&muxing) }
        av_dict_set(&muxing, "movflags", "+faststart", 0)
        let header = avformat_write_header(format, &muxing)
        guard header >= 0 else { throw InputError(file: url.path, "cannot write: \(FFmpegLog.text(header))") }

        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = Int32(codedWidth)
        picture.pointee.height = Int32(codedHeight)
        picture.pointee.colorspace = matrix
        picture.pointee.color_range = AVCOL_RANGE_MPEG
        guard av_frame_get_buffer(picture, 0) >= 0 else { throw InputError(file: url.path, "out of memory") }
        // No SWS_ACCURATE_RND: libswscale's SIMD conversion, faster, rounding within a level.
        scaler = sws_getContext(Int32(codedWidth), Int32(codedHeight), AV_PIX_FMT_BGRA,
                                Int32(codedWidth), Int32(codedHeight), AV_PIX_FMT_YUV420P,
                                Int32(SWS_BILINEAR), nil, nil, nil)
        guard scaler != nil else { throw InputError(file: url.path, "libswscale cannot convert B,G,R,A to yuv420p") }
        let coefficients = sws_getCoefficients(Int32(matrix.rawValue))
        // Source: full-range RGB; destination: the matrix above, limited range.
        sws_setColorspaceDetails(scaler, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16)
        if codedWidth != width || codedHeight != height {
            padded = [UInt8](repeating: 0, count: codedWidth * codedHeight * 4)
        }
    }

    deinit {
        if fileOpen { avio_closep(&format!.pointee.pb) }
        avformat_free_context(format)
        avcodec_free_context(&encoder)
        av_frame_free(&picture)
        av_packet_free(&packet)
        sws_freeContext(scaler)
        if !finished { unlink(temporary.path) }
    }

    /// The frame rate as a rational with terms up to `maxRateTerm`, nearest to `rate`.
    static func rational(_ rate: Double) -> AVRational {
        let q = av_d2q(rate.isFinite && rate > 0 ? rate : 1, maxRateTerm)
        return q.num > 0 && q.den > 0 ? q : AVRational(num: 1, den: maxRateTerm)
    }

    /// Appends one frame: `width`×`height` pixels of B, G, R, A bytes, rows packed top to
    /// bottom (alpha is ignored: premultiplied pixels come out over black).
    public func append(_ pixels: UnsafeRawBufferPointer) throws {
        precondition(!finished, "VideoWriter: append after finish")
        precondition(pixels.count == width * height * 4, "VideoWriter: \(pixels.count) bytes are not a \(width)×\(height) frame")
        guard av_frame_make_writable(picture) >= 0 else { throw InputError(file: url.path, "out of memory") }
        if padded.isEmpty {
            scale(UnsafePointer(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)))
        } else {
            let row = width * 4, codedRow = codedWidth * 4
            padded.withUnsafeMutableBytes { out in
                for y in 0..<height {
                    out.baseAddress!.advanced(by: y * codedRow).copyMemory(from: pixels.baseAddress!.advanced(by: y * row), byteCount: row)
                }
            }
            padded.withUnsafeBufferPointer { scale($0.baseAddress!) }
        }
        picture!.pointee.pts = Int64(frameCount)
        frameCount += 1
        try send(picture)
    }

    /// B, G, R, A (`codedWidth`×`codedHeight`) into the picture's Y, U and V planes.
    private func scale(_ bgra: UnsafePointer<UInt8>) {
        var source: [UnsafePointer<UInt8>?] = [bgra, nil, nil, nil]
        var sourceStride: [Int32] = [Int32(codedWidth * 4), 0, 0, 0]
        let f = picture!.pointee
        var planes: [UnsafeMutablePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, nil]
        var strides: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, 0]
        _ = sws_scale(scaler, &source, &sourceStride, 0, Int32(codedHeight), &planes, &strides)
    }

    /// Gives `frame` to the encoder (nil: the end) and writes every packet it has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        let sent = avcodec_send_frame(encoder, frame)
        guard sent >= 0 else { throw InputError(file: url.path, "cannot encode frame \(frameCount): \(FFmpegLog.text(sent))") }
        while true {
            let r = avcodec_receive_packet(encoder, packet)
            if r == poiar_averror_eagain() || r == poiar_averror_eof() { return }
            guard r >= 0 else { throw InputError(file: url.path, "cannot encode: \(FFmpegLog.text(r))") }
            av_packet_rescale_ts(packet, encoder!.pointee.time_base, stream!.pointee.time_base)
            packet!.pointee.stream_index = stream!.pointee.index
            let written = av_interleaved_write_frame(format, packet)  // takes the packet's data
            guard written >= 0 else { throw InputError(file: url.path, "cannot write: \(FFmpegLog.text(written))") }
        }
    }

    /// Encodes the frames still in the encoder, completes the file and renames it to `url`.
    public func finish() throws {
        precondition(!finished, "VideoWriter: finish twice")
        guard frameCount > 0 else { throw InputError(file: url.path, "no frames to encode") }
        try send(nil)
        let trailer = av_write_trailer(format)
        guard trailer >= 0 else { throw InputError(file: url.path, "cannot write: \(FFmpegLog.text(trailer))") }
        fileOpen = false
        let closed = avio_closep(&format!.pointee.pb)
        guard closed >= 0 else { throw InputError(file: url.path, "cannot write: \(FFmpegLog.text(closed))") }
        try AtomicFile.replace(url, with: temporary)
        finished = true
    }
}
