import ArgumentParser
import FolderExtras
import Foundation
import Frames
import Maps
import POIARCore
import POIStore
import Replay
import Report

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Assemble the shards of `replay --shard I/N` in one folder: check them and write frames.jsonl as one run would; or add a video, contact sheet, map or report to a finished output folder without redrawing it.",
        discussion: "See docs/batch.md for running shards as a Kubernetes Indexed Job or a Slurm job array. The map (--map) is drawn from frames.jsonl alone: the track, where the user faced and the POIs the frames annotated; poiar map LOG draws every POI of the source around the track.")

    @Argument(help: "Output folders, each holding every shard's frames and frames.shard-I-of-N.jsonl, or a finished replay's frames and frames.jsonl (several: one per log of a replay of several logs).")
    var dirs: [String]

    @OptionGroup var summary: FrameSummaryArguments

    @Option(parsing: .unconditional, help: ArgumentHelp("Video frame rate when there is only one frame (otherwise the frames' own times set it).", valueName: "n"))
    var fps: Checked<FrameRate> = 2

    @Option(help: ArgumentHelp("Font file for the contact sheet's captions. (default: DejaVu Sans)", valueName: "file"))
    var font: String?

    @OptionGroup var png: PNGArguments

    @Flag(help: "Also draw map.png in the folder from its frames.jsonl (the log is not read): the track, view cones and the POIs the frames annotated.")
    var map = false

    @Option(name: .customLong("map-every"), parsing: .unconditional, help: ArgumentHelp("Seconds between view cones on the map. (default: 5)", valueName: "s"))
    var mapEvery: Checked<Seconds>?

    @Option(help: ArgumentHelp("With --map: an OSM extract (PBF, XML, Overpass JSON) whose streets and buildings are drawn under the track. (default: none; a grid)", valueName: "file"))
    var basemap: String?

    @Flag(help: "Also write report.html in the folder (docs/report.md; `poiar report DIR --truth FILE` scores the poses too).")
    var report = false

    func validate() throws {
        for (given, option) in [(basemap != nil, "--basemap"), (mapEvery != nil, "--map-every")] where given && !map {
            throw ValidationError("\(option): goes with --map")
        }
    }

    func run() throws {
        try reportingErrors {
            var batch = BatchOptions()
            summary.apply(to: &batch)
            batch.report = report
            if batch.video, let notice = try VideoEncoder().notice { printNotice(notice) }
            var baseMap: [MapFeature]?
            try forEachInput(dirs, failed: "folders not merged") { _, dir in
                let start = Date()
                var plan = OutputPlan()
                let files = [(name: "frames.jsonl", option: "merge")] + batch.extraFiles + (map ? [(TrackMap.fileName, "--map")] : [])
                plan.writesFolder(dir, option: "the merged folder", files: files) { name in files.contains { $0.name == name } }
                plan.reads(font, as: "the font")
                plan.reads(basemap, as: "the base map")
                try plan.check()
                // Read once, for every folder, after the first one's outputs are known to be writable.
                if map, let basemap, baseMap == nil { baseMap = try TrackMap.osmBaseMap(basemap) }
                let merged = try ShardMerge.run(dir: URL(fileURLWithPath: dir), batch: batch, fontPath: font,
                                                pngCompressionLevel: png.level, fps: fps.value,
                                                map: map ? (baseMap, mapEvery?.value ?? OverlayOptions().mapConeInterval) : nil,
                                                addsOther: report)
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
