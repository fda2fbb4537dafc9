import Foundation
import POIARCore

/// The capture time of each video frame from a QuickTime timed-metadata track (sample entry
/// `mebx`), as Sensor Logger writes one into its camera videos: one sample per frame, on the
/// video's timeline, holding the frame's capture time in nanoseconds since the Unix epoch on
/// the clock of the recording's sensor files (awesome-sensor-logger, VIDEO_SYNCHRONIZATION.md).
/// A sample is a list of items `[size: u32][local key id: u32][value]` (Apple's QuickTime File
/// Format, "Timed Metadata Media"); the time is the first item whose value is a big-endian
/// 64-bit integer (8 bytes) or a string of digits.
public enum CaptureTimeTrack {
    /// The track's sample entry. Its samples, (time on the video's timeline in seconds,
    /// capture time in ns since 1970), are read with the video's frame stamps
    /// (`VideoDecoder.captureTimeSamples`), in one pass over the file.
    static let tag = "mebx"

    /// The capture time in one sample, nil when it holds none this reader knows.
    static func captureNanoseconds(_ sample: UnsafeRawBufferPointer) -> Int64? {
        var o = 0
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(sample[at + $1]) } }
        while o + 8 <= sample.count {
            let size = u32(o)
            guard size >= 8, o + size <= sample.count else { return nil }
            let value = UnsafeRawBufferPointer(rebasing: sample[(o + 8)..<(o + size)])
            if value.count == 8 {
                return Int64(bitPattern: value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            }
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int64(String(decoding: value, as: UTF8.self)) {
                return n
            }
            o += size
        }
        return nil
    }

    /// Each of `frameTimes` (seconds on the video's timeline) as seconds since 1970: the
    /// sample at the same time (within half a frame: encoders round timestamps to their
    /// timescale), or for a frame without one, its nearest matched frame's offset. nil with
    /// fewer than two frames matched.
    public static func captureTimes(frameTimes: [Double], samples: [(time: Double, captureNs: Int64)]) -> [Double]? {
        guard frameTimes.count >= 2, !samples.isEmpty else { return nil }
        let sorted = samples.sorted { $0.time < $1.time }
        let halfFrame = frameTimes.count >= 2 ? (frameTimes[1] - frameTimes[0]) / 2 : 0.5
        var offsets: [Double?] = frameTimes.map { t in
            // Nearest sample by time (binary search).
            guard let best = sorted.nearestIndex(to: t, by: \.time), abs(sorted[best].time - t) <= halfFrame else { return nil }
            let ns = sorted[best].captureNs
            return Double(ns / 1_000_000_000) + Double(ns % 1_000_000_000) / 1e9 - t
        }
        let matched = offsets.indices.filter { offsets[$0] != nil }
        guard matched.count >= 2 else { return nil }
        for i in offsets.indices where offsets[i] == nil {
            let nearest = matched.min { abs($0 - i) < abs($1 - i) }!
            offsets[i] = offsets[nearest]
        }
        return frameTimes.indices.map { frameTimes[$0] + offsets[$0]! }
    }
}
