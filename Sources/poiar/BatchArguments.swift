import ArgumentParser
import Foundation
import Replay

/// Output and batch options of `replay` (docs/batch.md); `--video` and `--contact-sheet` are
/// shared with `merge`.
struct BatchArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Output size factor, in (0, 8]: frames, camera and every pixel position in frames.jsonl scaled (0.5: half size).")
    var scale: Double = 1

    @Flag(help: "Also encode OUT/video.mp4 from the frames (H.264, yuv420p).")
    var video = false

    @Option(name: .customLong("contact-sheet"), parsing: .unconditional, help: "Also write OUT/contact-sheet.png: thumbnails of every Nth frame (1, 1+N, …).")
    var contactSheet: Int?

    @Flag(help: "Keep frames that an earlier, interrupted run with the same settings completed; draw the rest.")
    var resume = false

    @Option(help: "Render only shard I of N (0 ≤ I < N): frames k with (k − 1) mod N = I, and OUT/frames.shard-I-of-N.jsonl; `poiar merge OUT` then writes frames.jsonl.")
    var shard: String?

    @Option(name: .customLong("progress-interval"), parsing: .unconditional,
            help: "When stderr is not a terminal, a progress line every this many seconds (0: none). On a terminal: a progress bar.")
    var progressInterval: Double = 10

    func validate() throws {
        if !(scale > 0 && scale <= BatchOptions.maxScale) { throw ValidationError("--scale: expected a factor in (0, 8], got \(scale)") }
        if let contactSheet, contactSheet < 1 { throw ValidationError("--contact-sheet: expected N ≥ 1 (every Nth frame), got \(contactSheet)") }
        if let shard, ShardSpec(parsing: shard) == nil {
            throw ValidationError("--shard: expected I/N with 0 ≤ I < N (e.g. 0/4 … 3/4), got \"\(shard)\"")
        }
        if shard != nil && (video || contactSheet != nil) {
            throw ValidationError("--shard: a shard has only some of the frames; give --video and --contact-sheet to `poiar merge`")
        }
        if !(progressInterval >= 0 && progressInterval.isFinite) {
            throw ValidationError("--progress-interval: expected seconds ≥ 0, got \(progressInterval)")
        }
    }

    var options: BatchOptions {
        var b = BatchOptions()
        b.scale = scale
        b.video = video
        b.contactSheetEvery = contactSheet
        b.resume = resume
        b.shard = shard.flatMap(ShardSpec.init(parsing:))
        return b
    }

    /// The progress display for stderr: a bar on a terminal, else a line every interval (or none).
    func progressReporter(label: String?) -> ProgressReporter? {
        guard stderrIsTerminal || progressInterval > 0 else { return nil }
        let reporter = ProgressReporter(terminal: stderrIsTerminal, interval: progressInterval) {
            FileHandle.standardError.write(Data($0.utf8))
        }
        reporter.label = label
        return reporter
    }
}
