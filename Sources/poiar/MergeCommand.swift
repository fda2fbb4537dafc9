import ArgumentParser
import FolderExtras
import Foundation
import POIARCore
import Replay
import Report

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Assemble the shards of `replay --shard I/N` in one folder: check them and write frames.jsonl as one run would; or add a video, contact sheet or report to a finished output folder without redrawing it.",
        discussion: "See docs/batch.md for running shards as a Kubernetes Indexed Job or a Slurm job array. A finished folder's map: poiar map LOG --out OUT/map.png.")

    @Argument(help: "Output folders, each holding every shard's frames and frames.shard-I-of-N.jsonl (several: one per log of a replay of several logs).")
    var dirs: [String]

    @OptionGroup var summary: FrameSummaryArguments

    @Option(parsing: .unconditional, help: ArgumentHelp("Video frame rate when there is only one frame (otherwise the frames' own times set it).", valueName: "n"))
    var fps: Checked<FrameRate> = 2

    @Option(help: ArgumentHelp("Font file for the contact sheet's captions. (default: DejaVu Sans)", valueName: "file"))
    var font: String?

    @OptionGroup var png: PNGArguments

    @Flag(help: "Also write report.html in the folder (docs/report.md; `poiar report DIR --truth FILE` scores the poses too).")
    var report = false

    func run() throws {
        try reportingErrors {
            var batch = BatchOptions()
            summary.apply(to: &batch)
            batch.report = report
            if batch.video, let notice = try VideoEncoder().notice { printNotice(notice) }
            try forEachInput(dirs, failed: "folders not merged") { _, dir in
                let start = Date()
                var plan = OutputPlan()
                let files = [(name: "frames.jsonl", option: "merge")] + batch.extraFiles
                plan.writesFolder(dir, option: "the merged folder", files: files) { name in files.contains { $0.name == name } }
                plan.reads(font, as: "the font")
                try plan.check()
                let merged = try ShardMerge.run(dir: URL(fileURLWithPath: dir), batch: batch, fontPath: font,
                                                pngCompressionLevel: png.level, fps: fps.value, addsOther: report)
                if merged.shards > 0 {
                    printNotice("merged \(merged.shards) shards: \(merged.frames) frames, wrote frames.jsonl to \(merged.outputDir.path) in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
                } else {
                    printNotice("\(merged.outputDir.path): finished already (\(merged.frames) frames); its frames are kept as they are")
                }
                merged.extras.forEach(printNotice)
                if report { printNotice(try ReplayReport.write(dir: merged.outputDir, truth: nil, log: nil).description) }
            }
        }
    }
}
