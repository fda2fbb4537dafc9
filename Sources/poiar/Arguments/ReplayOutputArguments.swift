import ArgumentParser
import Export
import Foundation
import POIARCore
import Replay

/// `--video` and `--contact-sheet`: made from the frames once they are all drawn. Shared by
/// `replay` and `merge`.
struct FrameSummaryArguments: ParsableArguments {
    @Flag(help: "Also encode video.mp4 in the output folder from the frames (H.264, yuv420p).")
    var video = false

    @Option(name: .customLong("contact-sheet"), parsing: .unconditional,
            help: ArgumentHelp("Also write contact-sheet.png in the output folder: thumbnails of every Nth frame (1, 1+N, …). (default: none)", valueName: "n"))
    var contactSheet: Checked<PositiveCount>?

    func apply(to batch: inout BatchOptions) {
        batch.video = video
        batch.contactSheetEvery = contactSheet?.value
    }
}

/// What `replay` writes besides the frames and frames.jsonl.
struct ReplayOutputArguments: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("Output folder; with several logs, OUT/<log name>/ for each. (default: Output/<log name>/)", valueName: "dir"))
    var out: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Output size factor, in (0, 8]: frames, camera and every pixel position in frames.jsonl scaled (0.5: half size).", valueName: "f"))
    var scale: Checked<ScaleFactor> = 1

    @OptionGroup var summary: FrameSummaryArguments

    @Flag(name: .customLong("no-frames"),
          help: "With --video: write the frames into video.mp4 only, no frame_NNNNNN.png files (frames.jsonl is written as always; its image names are the frames' numbers in the video).")
    var noFrames = false

    @Flag(help: "Also write map.png beside the frames: the track, the POIs and view cones (see `poiar map`).")
    var map = false

    @Option(name: .customLong("map-every"), parsing: .unconditional, help: ArgumentHelp("Seconds between view cones on the map.", valueName: "s"))
    var mapEvery: Checked<Seconds> = 5

    @Option(help: ArgumentHelp("Also write the recording as an MCAP file for Foxglove: poses, GPS fixes, raw gyro/accel/mag samples, the rendered frames and their annotations (docs/mcap.md). (default: none)", valueName: "file"))
    var mcap: String?

    @Option(name: .customLong("mcap-images"), help: ArgumentHelp("How --mcap holds the frames: png (the files as rendered), jpeg (quality 90, smaller) or jpeg:Q (quality 1–100).", valueName: "format"))
    var mcapImages: RecordingMCAP.ImageFormat = .png

    @Flag(help: "Also write OUT/report.html: a frame scrubber, the map, plots over time (docs/report.md).")
    var report = false

    @Option(help: ArgumentHelp("With --report: score each frame's pose against this truth (a pose CSV, or a phone's own orientation). (default: none)", valueName: "file"))
    var truth: String?

    @Flag(help: "Print how calm the labels were: movement against anchor movement, stack-level changes per label-minute.")
    var stats = false

    func validate() throws {
        if truth != nil && !report { throw ValidationError("--truth: goes with --report (poiar evaluate scores a log's poses on their own)") }
        if noFrames {
            // What reads the frame files back has none to read.
            if !summary.video { throw ValidationError("--no-frames: goes with --video (without it nothing but frames.jsonl would be written)") }
            for (given, option) in [(summary.contactSheet != nil, "--contact-sheet"), (mcap != nil, "--mcap"), (report, "--report")] where given {
                throw ValidationError("\(option): reads the frame files, which --no-frames does not write")
            }
        }
    }

    func apply(to options: inout ReplayOptions) {
        options.batch.scale = scale.value
        summary.apply(to: &options.batch)
        options.batch.writesFrames = !noFrames
        options.batch.report = report
        options.overlay.map = map
        options.overlay.mapConeInterval = mapEvery.value
        options.mcap = mcap.map { URL(fileURLWithPath: $0) }
        options.mcapImages = mcapImages
        options.truthPath = truth
    }
}

/// How `replay` shares out its work (docs/batch.md).
struct BatchArguments: ParsableArguments {
    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp("Frames rendered in parallel, 1…256 (output identical to one job).", valueName: "n"))
    var jobs: Checked<Jobs> = 1

    @Flag(help: "Keep frames that an earlier, interrupted run with the same settings completed; draw the rest.")
    var resume = false

    @Option(help: ArgumentHelp("Render only shard I of N (0 ≤ I < N): frames k with (k − 1) mod N = I, and OUT/frames.shard-I-of-N.jsonl; `poiar merge OUT` then writes frames.jsonl. (default: every frame)", valueName: "i/n"))
    var shard: ShardSpec?

    @Option(name: .customLong("progress-interval"), parsing: .unconditional,
            help: ArgumentHelp("When stderr is not a terminal, a progress line every this many seconds (0: none). On a terminal: a progress bar.", valueName: "s"))
    var progressInterval: Checked<SecondsOrNone> = 10

    func apply(to options: inout ReplayOptions) {
        options.jobs = jobs.value
        options.batch.resume = resume
        options.batch.shard = shard
    }

    /// The progress display for stderr: a bar on a terminal, else a line every interval (or none).
    func progressReporter(label: String?) -> ProgressReporter? {
        let interval = progressInterval.value
        guard stderrIsTerminal || interval > 0 else { return nil }
        let reporter = ProgressReporter(terminal: stderrIsTerminal, interval: interval) {
            StandardStreams.writeError($0)
        }
        reporter.label = label
        return reporter
    }
}
