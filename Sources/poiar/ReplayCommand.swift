import ArgumentParser
import Evaluation
import FolderExtras
import Foundation
import Maps
import POIStore
import Recordings
import Replay
import Report

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a sensor log: fuse the pose, place the POIs, write annotated PNG frames and frames.jsonl.")

    @OptionGroup(title: "Input") var input: ReplayInputArguments
    @OptionGroup(title: "POIs") var poi: POIArguments
    @OptionGroup(title: "POIs") var poiFetch: ReplayFetchArguments
    @OptionGroup(title: "Camera") var camera: FrameCameraArguments<LogCamera>
    @OptionGroup(title: "Fusion") var fusion: FusionArguments
    @OptionGroup(title: "Layout and HUD") var frameLook: FrameLookArguments
    @OptionGroup(title: "Layout and HUD") var look: ReplayLookArguments
    @OptionGroup(title: "Output") var output: ReplayOutputArguments
    @OptionGroup(title: "Output") var png: PNGArguments
    @OptionGroup(title: "Batch") var batch: BatchArguments

    /// Rules across the sections (each value is checked by its type).
    func validate() throws {
        if batch.shard != nil {
            if output.summary.video || output.summary.contactSheet != nil {
                throw ValidationError("--shard: a shard has only some of the frames; give --video and --contact-sheet to `poiar merge`")
            }
            if output.map { throw ValidationError("--shard: a shard writes only its frames: give --map to `poiar merge`, which draws it from the merged frames.jsonl") }
            if output.mcap != nil { throw ValidationError("--mcap: a shard has only some of the frames: write the MCAP file from a run without --shard") }
            if output.report { throw ValidationError("--report: a shard has only some of the frames: run poiar report OUT after poiar merge") }
        }
        if output.noFrames && batch.resume {
            throw ValidationError("--resume: keeps the frame files of an interrupted run, which --no-frames does not write")
        }
        if poiFetch.fetch && poi.pois == nil {
            throw ValidationError("--fetch: give --pois DB, the poiar database to fetch the POIs into (created if missing)")
        }
    }

    func run() throws {
        try reportingErrors {
            let inputs = try LogInputs.expand(input.logs, out: output.out) { printNotice($0) }
            if output.mcap != nil && inputs.count > 1 {
                throw ValidationError("--mcap: one file holds one recording: give one log (got \(inputs.count))")
            }
            if output.summary.video, let notice = try VideoEncoder().notice { printNotice(notice) }  // once, not once per log
            try forEachInput(inputs.map(\.log), failed: "logs failed") { n, _ in
                if inputs.count > 1 { printNotice("replaying \(inputs[n].log) (\(n + 1) of \(inputs.count))") }
                try replay(inputs[n].log, out: inputs[n].outputDir, label: inputs.count > 1 ? inputs[n].log : nil)
            }
        }
    }

    /// Replays one log into `out`.
    func replay(_ log: String, out: String?, label: String?) throws {
        let options = try options(log: log, out: out)
        let recording = try Recording(path: log)
        // The truth is read before the replay: a bad one stops the run before its frames are
        // drawn. Its note advises --magnetic only when the poses will be in true north (not
        // with --magnetic); replay has no --align-heading.
        let truth = try output.truth.map { file in
            let north = try TrueNorth.reference(for: recording, fusion.northChoice)
            return (series: try readTruth(file, log: log, trueNorthAdvice: north.isTrueNorth ? "give --magnetic" : nil), file: file)
        }
        try truth?.series.checkUsable(file: truth!.file, against: nil, spanName: "")
        try poiFetch.request(into: poi.pois)?.run(around: recording, at: fusion.fixedPosition, radius: options.radius,
                                                  categories: options.categories, notice: printNotice)
        let engine = ReplayEngine(options: options, recording: recording, notice: printNotice)
        if let reporter = batch.progressReporter(label: label) { engine.progress = { reporter.update($0) } }
        let summary = try engine.run()
        summary.notices(stats: output.stats).forEach(printNotice)
        if output.report {
            let baseMap = try summary.baseMap.features()
            printNotice(try ReplayReport.write(dir: summary.outputDir, truth: truth, log: log, baseMap: baseMap).description)
        }
    }

    /// The replay the sections ask for, of `log` into `out`.
    func options(log: String, out: String?) throws -> ReplayOptions {
        var options = ReplayOptions(logPath: log)
        options.outputDir = out
        input.apply(to: &options)
        try poi.apply(to: &options)
        options.camera = camera.setup
        fusion.apply(to: &options)
        frameLook.apply(radius: &options.radius, &options.layout, &options.annotation, &options.overlay)
        look.apply(to: &options)
        output.apply(to: &options)
        options.pngCompressionLevel = png.level
        batch.apply(to: &options)
        return options
    }
}
