import Foundation
import POIARCore

/// Which of a pass's frames a replay draws, for a quick look at part of a recording: a time
/// range (`--from`, `--to`, seconds from the log's start), at most `maxRate` frames a second
/// (`--fps` on a log with frame rows) and every Nth of those (`--every`). Chosen once, on the
/// fused frame list, before any frame is numbered: shards, `--resume`, the video and the
/// contact sheet all see the selected frames as the whole run.
public struct FrameSelection: Sendable, Equatable {
    /// Seconds from the log's start (its first sample), inclusive; nil: from the start.
    public var from: Double?
    /// Seconds from the log's start, inclusive; nil: to the end.
    public var to: Double?
    /// At most this many of the log's frame rows a second (nil: every row). Synthetic frames
    /// are made at `--fps` already, and footage frames are thinned when they are wanted.
    public var maxRate: Double?
    /// Every Nth frame of those left (1: all).
    public var every = 1

    public init(from: Double? = nil, to: Double? = nil, maxRate: Double? = nil, every: Int = 1) {
        self.from = from; self.to = to; self.maxRate = maxRate; self.every = every
    }

    /// Whether every frame is kept whatever the pass gives.
    public var keepsAll: Bool { from == nil && to == nil && maxRate == nil && every == 1 }

    /// The first of `times` (ascending) in each 1/`rate` s slot counted from the first time:
    /// their indices. The one thinning rule for frame rows and footage frames alike.
    public static func thinned(_ times: [Double], rate: Double) -> [Int] {
        guard let first = times.first else { return [] }
        var kept: [Int] = []
        var lastSlot = -1
        for (i, t) in times.enumerated() {
            let slot = Int(((t - first) * rate + 1e-9).rounded(.down))
            if slot > lastSlot { kept.append(i); lastSlot = slot }
        }
        return kept
    }

    /// The pass's frames this selection keeps, in order, with a notice saying what was left
    /// out (nil when nothing was). An empty selection is an error naming the log's span.
    public func apply(to result: FusionResult, logPath: String) throws -> (result: FusionResult, notice: String?) {
        guard !keepsAll, !result.frames.isEmpty else { return (result, nil) }
        let start = result.firstTime ?? result.frames[0].time
        var frames = result.frames.filter { frame in
            let t = frame.time - start
            return t >= (from ?? -.infinity) - 1e-9 && t <= (to ?? .infinity) + 1e-9
        }
        // Each choice as the user gave it, with its option: "from 60.0 s to the log's end".
        var how: [String] = []
        if from != nil || to != nil {
            how.append((from.map { String(format: "from %.1f s", $0) } ?? "from the start")
                + (to.map { String(format: " to %.1f s of the log", $0) } ?? " to the log's end"))
        }
        // Only the log's own frame rows are thinned here: their lines say which they are.
        if let maxRate, frames.first?.line != nil {
            frames = FrameSelection.thinned(frames.map(\.time), rate: maxRate).map { frames[$0] }
            how.append("at most \(plainNumber(maxRate)) a second (--fps \(plainNumber(maxRate)))")
        }
        if every > 1 {
            frames = stride(from: 0, to: frames.count, by: every).map { frames[$0] }
            how.append("every \(every)\(ordinalSuffix(every)) (--every \(every))")
        }
        guard !frames.isEmpty else {
            throw InputError(file: logPath, String(format: "no frame left to draw %@: the log's frames run from %.1f s to %.1f s",
                                                   how.joined(separator: ", "), result.frames[0].time - start,
                                                   result.frames[result.frames.count - 1].time - start))
        }
        var selected = result
        selected.frames = frames
        // "selected", not "drawn": a shard draws its share of them, and says so.
        let notice = frames.count == result.frames.count ? nil
            : "frames: \(frames.count) of \(result.frames.count) selected: \(how.joined(separator: ", "))"
        return (selected, notice)
    }
}

/// "st", "nd", "rd" or "th" after a count.
private func ordinalSuffix(_ n: Int) -> String {
    if (11...13).contains(n % 100) { return "th" }
    switch n % 10 {
    case 1: return "st"
    case 2: return "nd"
    case 3: return "rd"
    default: return "th"
    }
}
