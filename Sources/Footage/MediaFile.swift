import CFFmpeg
import Foundation
import POIARCore

/// A media file (MP4, MOV, anything libavformat reads) opened for its streams: the video a
/// footage frame is decoded from, the data tracks (GoPro's GPMF telemetry) read packet by
/// packet. Times are seconds on the file's own timeline (the container's presentation times,
/// not shifted to start at zero), so a GoPro clip's telemetry and its video frames share one
/// clock.
public final class MediaFile {
    /// The file as the user named it, for messages.
    public let path: String
    var context: UnsafeMutablePointer<AVFormatContext>?

    /// One stream of the file.
    public struct Stream: Sendable {
        public enum Kind: Sendable { case video, audio, data, other }
        public var index: Int
        public var kind: Kind
        /// The codec tag as four characters (`avc1`, `hvc1`, `gpmd`, `tmcd`), "" when none.
        public var tag: String
        /// libavcodec's codec name (`h264`, `hevc`), "none" for data.
        public var codecName: String
        /// Seconds per unit of the stream's timestamps.
        public var timeBase: Double
    }

    public private(set) var streams: [Stream] = []
    /// Whether a pass has read packets since the file was opened or rewound.
    public private(set) var isRead = false

    /// Opens `path` and reads its stream headers. Errors name the file: missing, not a media
    /// file, truncated so that its index cannot be read.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw InputError(file: path, "no such file") }
        var info = stat()
        if stat(path, &info) == 0, let kind = OutputPlan.special(info.st_mode) {
            // libavformat would read what it can and call it no video: an MP4 is read with
            // seeking (its index is often at its end), which a pipe cannot do.
            throw InputError(file: path, "is \(kind), not a file: a video is read with seeking (an MP4's index is often at its end); save it to a file first")
        }
        try FFmpegLog.quiet(file: path)
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&ctx, path, nil, nil)
        guard opened >= 0, let ctx else {
            if MediaFile.looksLikeISOMedia(path: path) {
                throw InputError(file: path, "is an MP4/MOV whose index (its moov box) cannot be read (\(FFmpegLog.text(opened))): is it truncated, or still being written? A camera that writes the index last (a GoPro does) leaves a copy cut short without one")
            }
            throw InputError(file: path, "not a video file libavformat can read (\(FFmpegLog.text(opened)))")
        }
        context = ctx
        try MediaFile.checkWhole(ctx, path: path, size: Int64(info.st_size))
        let found = avformat_find_stream_info(ctx, nil)
        guard found >= 0 else {
            throw InputError(file: path, "cannot read the file's streams (\(FFmpegLog.text(found))): is it truncated?")
        }
        for i in 0..<Int(ctx.pointee.nb_streams) {
            let s = ctx.pointee.streams[i]!
            let par = s.pointee.codecpar!
            let kind: Stream.Kind
            switch par.pointee.codec_type {
            case AVMEDIA_TYPE_VIDEO: kind = .video
            case AVMEDIA_TYPE_AUDIO: kind = .audio
            case AVMEDIA_TYPE_DATA: kind = .data
            default: kind = .other
            }
            streams.append(Stream(index: i, kind: kind, tag: MediaFile.fourCC(par.pointee.codec_tag),
                                  codecName: String(cString: avcodec_get_name(par.pointee.codec_id)),
                                  timeBase: av_q2d(s.pointee.time_base)))
        }
    }

    deinit { avformat_close_input(&context) }

    /// A file whose index lists samples past its end was cut short (copied or downloaded in
    /// part, or still being written): refused at once, so that what is drawn never depends on
    /// which frames a run happens to ask for (`--fps`).
    static func checkWhole(_ ctx: UnsafeMutablePointer<AVFormatContext>, path: String, size: Int64) throws {
        for i in 0..<Int(ctx.pointee.nb_streams) {
            let s = ctx.pointee.streams[i]!
            let count = Int(avformat_index_get_entries_count(s))
            var beyond = 0
            var firstTime: Double?
            for k in 0..<count {
                guard let entry = avformat_index_get_entry(s, Int32(k)), entry.pointee.pos + Int64(entry.pointee.size) > size else { continue }
                beyond += 1
                if firstTime == nil { firstTime = Double(entry.pointee.timestamp) * av_q2d(s.pointee.time_base) }
            }
            guard beyond > 0 else { continue }
            let kind = switch s.pointee.codecpar.pointee.codec_type {
            case AVMEDIA_TYPE_VIDEO: "video frames"
            case AVMEDIA_TYPE_AUDIO: "audio samples"
            default: "samples"
            }
            throw InputError(file: path, "is cut short: the file ends at byte \(size), but its index places \(beyond) of the \(count) \(kind) of stream \(i) after that (from \(String(format: "%.3f", firstTime ?? 0)) s on): the copy is incomplete, or the file is still being written")
        }
    }

    /// The file's length in seconds, when the container says.
    public var duration: Double? {
        guard let d = context?.pointee.duration, d > 0 else { return nil }
        return Double(d) / Double(AV_TIME_BASE)
    }

    /// The first stream with codec tag `tag` (e.g. `gpmd`).
    public func stream(tagged tag: String) -> Stream? { streams.first { $0.tag == tag } }

    /// Calls `body` with each packet of `stream` in file order: its presentation time (seconds
    /// on the file's timeline; nil when the packet has none) and its bytes (valid during the
    /// call). Other streams are skipped without being read into packets. Reads from where the
    /// file stands: once per `MediaFile`.
    public func forEachPacket(of stream: Stream, _ body: (Double?, UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachPacket(of: [stream]) { _, time, bytes in try body(time, bytes) }
    }

    /// As `forEachPacket(of:)`, for several streams in one pass: `body` gets each packet's
    /// stream, in file order.
    public func forEachPacket(of wanted: [Stream], _ body: (Stream, Double?, UnsafeRawBufferPointer) throws -> Void) throws {
        guard let ctx = context else { return }
        isRead = true
        var byIndex: [Int: Stream] = [:]
        for s in wanted { byIndex[s.index] = s }
        for i in 0..<Int(ctx.pointee.nb_streams) {
            ctx.pointee.streams[i]!.pointee.discard = byIndex[i] != nil ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
        defer { for i in 0..<Int(ctx.pointee.nb_streams) { ctx.pointee.streams[i]!.pointee.discard = AVDISCARD_DEFAULT } }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        while true {
            let r = av_read_frame(ctx, packet)
            if r == poiar_averror_eof() { break }
            guard r >= 0 else {
                let names = wanted.map { "\($0.index) (\($0.tag))" }.joined(separator: ", ")
                throw InputError(file: path, "cannot read stream\(wanted.count == 1 ? "" : "s") \(names): \(FFmpegLog.text(r)): is the file truncated?")
            }
            defer { av_packet_unref(packet) }
            guard let stream = byIndex[Int(packet!.pointee.stream_index)] else { continue }
            let pts = packet!.pointee.pts
            let time = pts == poiar_av_nopts_value() ? nil : Double(pts) * stream.timeBase
            try body(stream, time, UnsafeRawBufferPointer(start: packet!.pointee.data, count: Int(packet!.pointee.size)))
        }
    }

    /// Back to the start of the file, every stream at its first packet, for another pass
    /// over the same open file (a GoPro clip's telemetry, then its video). False when the
    /// file cannot seek (a single image read by the image demuxer).
    public func rewind() -> Bool {
        guard let ctx = context else { return false }
        guard av_seek_frame(ctx, -1, 0, AVSEEK_FLAG_BACKWARD) >= 0 else { return false }
        avformat_flush(ctx)
        isRead = false
        return true
    }

    /// Whether the file starts as an ISO base media file (MP4, MOV, a GoPro clip): its first
    /// box is `ftyp` (bytes 4–7), by ISO/IEC 14496-12.
    public static func looksLikeISOMedia(path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8) else { return false }
        return isISOMediaHead([UInt8](head))
    }

    /// Whether a file's first 8 bytes are an ISO media file's (its first box is `ftyp`).
    public static func isISOMediaHead(_ head: [UInt8]) -> Bool {
        head.count >= 8 && head[4..<8].elementsEqual("ftyp".utf8)
    }

    static func fourCC(_ tag: UInt32) -> String {
        guard tag != 0 else { return "" }
        let bytes = (0..<4).map { UInt8((tag >> (8 * UInt32($0))) & 0xFF) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// FFmpeg's own messages: silenced (poiar says what went wrong, once, naming the file), and
/// error codes as text.
enum FFmpegLog {
    /// Loads FFmpeg's libraries (the first call does: FFmpegLibraries.c), an error naming
    /// `file` when they cannot be, and sets libav*'s log level to quiet; a decoder's warnings
    /// about a damaged packet would otherwise go to stderr between poiar's lines.
    static func quiet(file: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        guard poiar_ffmpeg_load(&message, message.count) == 0 else {
            throw InputError(file: file, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        av_log_set_level(AV_LOG_QUIET)
    }

    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        return buffer.withUnsafeMutableBufferPointer { b in String(cString: poiar_av_error_text(code, b.baseAddress!, b.count)) }
    }
}
