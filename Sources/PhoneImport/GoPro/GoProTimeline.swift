import Foundation

/// When each sample of a GoPro stream was taken. GPMF stores no per-sample times: the MP4
/// indexes each payload (about 1 s of telemetry), and GoPro documents that a payload's samples
/// are spread evenly over its time, from the payload's start to the next payload's ("GPMF
/// Timing and Clocks" in the gpmf-parser README; its demo's `GPMF_SampleRate` does the same
/// with the payloads' `stts` times). The last payload has no next one: its span is its samples
/// at the stream's rate over the payloads before it, or — a clip of one payload — the rest of
/// the clip.
public enum GoProTimeline {
    /// A payload's span when neither a rate nor the clip's length can tell it: GoPro writes a
    /// payload about every second.
    public static let nominalPayloadSeconds = 1.0

    /// How the last payload's span was found, for the import's notes.
    public enum LastSpan: String, Sendable {
        case rate = "the stream's rate over the payloads before it"
        case clipEnd = "the rest of the clip"
        case nominal = "a nominal 1 s (no rate, no clip length)"
    }

    /// The time of every sample: `counts[i]` samples in payload i, which starts at `starts[i]`
    /// (seconds, increasing). `clipEnd` is the clip's length, for a clip of one payload.
    public static func sampleTimes(starts: [Double], counts: [Int], clipEnd: Double?) -> (times: [[Double]], lastSpan: LastSpan) {
        precondition(starts.count == counts.count)
        let n = starts.count
        guard n > 0 else { return ([], .rate) }
        var spans = (0..<n).map { i in i + 1 < n ? starts[i + 1] - starts[i] : 0 }
        var how = LastSpan.rate
        let before = counts.dropLast().reduce(0, +)
        let elapsed = starts[n - 1] - starts[0]
        if before > 0, elapsed > 0 {
            spans[n - 1] = Double(counts[n - 1]) / (Double(before) / elapsed)
        } else if let clipEnd, clipEnd > starts[n - 1] {
            spans[n - 1] = clipEnd - starts[n - 1]
            how = .clipEnd
        } else {
            spans[n - 1] = nominalPayloadSeconds
            how = .nominal
        }
        let times = (0..<n).map { i in
            (0..<counts[i]).map { k in starts[i] + spans[i] * Double(k) / Double(counts[i]) }
        }
        return (times, how)
    }
}
