import Footage
import Foundation
import POIARCore

/// A GoPro clip's telemetry track: every `gpmd` payload (about a second of GPMF each) with its
/// presentation time on the clip's own timeline — the video's clock, so the clip's time 0 is
/// the log's time 0 — parsed into its sensor streams. The MP4 is read through FFmpeg's
/// libavformat (`MediaFile`), never by hand.
struct GoProTelemetry {
    struct Payload {
        /// 0-based, in file order.
        var index: Int
        var time: Double
        var streams: GPMFPayloadStreams
        /// `GPMF payload 3 (at 2.002 s)`, 1-based, for messages.
        var name: String
    }

    var payloads: [Payload]
    /// The clip's length, s, when the container says.
    var clipDuration: Double?
    /// The clip, open: its video is decoded from the same file (`FootageSource(video:)`).
    var media: MediaFile? = nil
    /// The video stream's codec (`h264`, `hevc`), when there is one.
    var videoCodec: String?

    /// The data keys read from the payloads.
    static let keys: Set<String> = ["ACCL", "GYRO", "MAGN", "GPS5", "GPS9", "CORI", "IORI", "GRAV"]

    /// The error for an MP4/MOV without a GPMF track, as the user should read it.
    static let noTrack = "no GPMF telemetry track (GoPro's gpmd): give a sensor log and this clip as --footage"

    /// Reads `path`'s telemetry. Errors name the file: not readable as a video (a truncated
    /// clip loses its index), no `gpmd` track, a payload without a time or out of order, a
    /// damaged payload (naming it and the byte).
    static func read(path: String) throws -> GoProTelemetry {
        // MediaFile's errors say what is wrong with the file (no index, cut short, a pipe).
        let media = try MediaFile(path: path)
        guard let track = media.stream(tagged: "gpmd") else { throw InputError(file: path, noTrack) }
        var payloads: [Payload] = []
        var previous: Double?
        try media.forEachPacket(of: track) { time, bytes in
            let number = payloads.count + 1
            guard let time, time.isFinite else {
                throw InputError(file: path, "GPMF payload \(number) has no time on the clip's timeline: the file is damaged")
            }
            if let previous, time <= previous {
                throw InputError(file: path, String(format: "GPMF payload %d is at %.3f s, not after the one before (%.3f s): the file is damaged", number, time, previous))
            }
            previous = time
            let name = String(format: "GPMF payload %d (at %.3f s)", number, time)
            let items = try GPMFParser.parse(Array(bytes), file: path, payload: name)
            let streams = try GPMFPayloadStreams.read(items, keys: keys, file: path, payload: name)
            payloads.append(Payload(index: number - 1, time: time, streams: streams, name: name))
        }
        guard !payloads.isEmpty else {
            throw InputError(file: path, "its GPMF telemetry track (gpmd) holds no payloads: the clip is empty or cut short")
        }
        let video = media.streams.first { $0.kind == .video }
        return GoProTelemetry(payloads: payloads, clipDuration: media.duration, media: media, videoCodec: video?.codecName)
    }

    /// The streams of `key` in each payload (empty where a payload has none).
    func streams(_ key: String) -> [[GPMFStreamPayload]] { payloads.map { $0.streams.streams(key) } }

    /// A stream of quaternions (`CORI`, `IORI`: w, x, y, z as stored after SCAL) at their times.
    /// Throws, naming the payload, when a sample has not four elements.
    func quaternions(_ key: String, file: String) throws -> [(time: Double, q: Quaternion)] {
        try series(key).payloads.flatMap { p -> [(time: Double, q: Quaternion)] in
            guard let s = p.stream else { return [] }
            return try zip(p.times, s.samples).map { t, e in
                guard e.count == 4 else { throw InputError(file: file, "\(p.payload.name), byte \(s.offset): \(key) has \(e.count) elements per sample, 4 (w, x, y, z) expected") }
                return (t, Quaternion(w: e[0], x: e[1], y: e[2], z: e[3]))
            }
        }
    }

    /// Each payload's samples of `key` and their times (evenly over the payload, `GoProTimeline`).
    func series(_ key: String) -> (payloads: [(payload: Payload, stream: GPMFStreamPayload?, times: [Double])], lastSpan: GoProTimeline.LastSpan) {
        let perPayload = streams(key)
        let counts = perPayload.map { $0.reduce(0) { $0 + $1.samples.count } }
        let (times, how) = GoProTimeline.sampleTimes(starts: payloads.map(\.time), counts: counts, clipEnd: clipDuration)
        var out: [(payload: Payload, stream: GPMFStreamPayload?, times: [Double])] = []
        for (i, p) in payloads.enumerated() {
            // Several items of one key in a payload (rare): their samples in order, one stream.
            var merged = perPayload[i].first
            if perPayload[i].count > 1 { merged?.samples = perPayload[i].flatMap(\.samples) }
            out.append((p, merged, times[i]))
        }
        return (out, how)
    }
}
