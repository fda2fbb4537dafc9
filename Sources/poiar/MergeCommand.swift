import ArgumentParser
import Foundation
import Replay

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Assemble the shards of `replay --shard I/N` in one folder: check them and write frames.jsonl as one run would.",
        discussion: "See docs/batch.md for running shards as a Kubernetes Indexed Job or a Slurm job array.")

    @Argument(help: "Output folders, each holding every shard's frames and frames.shard-I-of-N.jsonl (several: one per log of a replay of several logs).")
    var dirs: [String]

    @Flag(help: "Also encode DIR/video.mp4 from the frames (H.264, yuv420p).")
    var video = false

    @Option(name: .customLong("contact-sheet"), parsing: .unconditional, help: "Also write DIR/contact-sheet.png: thumbnails of every Nth frame (1, 1+N, …).")
    var contactSheet: Int?

    @Option(parsing: .unconditional, help: "Video frame rate when there is only one frame (otherwise the frames' own times set it).")
    var fps: Double = 2

    @Option(help: "Font file for the contact sheet's captions (default DejaVu Sans).")
    var font: String?

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: "PNG zlib compression level of the contact sheet, 0–9.")
    var pngLevel: Int = 6

    func validate() throws {
        if let contactSheet, contactSheet < 1 { throw ValidationError("--contact-sheet: expected N ≥ 1 (every Nth frame), got \(contactSheet)") }
        if !(fps > 0 && fps <= 1000) { throw ValidationError("--fps: expected frames per second in (0, 1000], got \(fps)") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level: expected 0…9, got \(pngLevel)") }
    }

    func run() throws {
        try reportingErrors {
            var batch = BatchOptions()
            batch.video = video
            batch.contactSheetEvery = contactSheet
            if video, let notice = try VideoEncoder().notice { printNotice(notice) }
            var failed: [String] = []
            for dir in dirs {
                let start = Date()
                do {
                    let summary = try ShardMerge.run(dir: URL(fileURLWithPath: dir), batch: batch, fontPath: font,
                                                     pngCompressionLevel: pngLevel, fps: fps)
                    printNotice("merged \(summary.shards) shards: \(summary.frames) frames, wrote frames.jsonl to \(summary.outputDir.path) in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
                } catch where dirs.count > 1 {
                    printError("\(error)")
                    failed.append(dir)
                }
            }
            if !failed.isEmpty {
                printError("\(failed.count) of \(dirs.count) folders not merged: \(failed.joined(separator: ", "))")
                throw ExitCode(1)
            }
        }
    }
}
