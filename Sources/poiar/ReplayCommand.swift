import ArgumentParser
import Foundation
import POIStore
import Replay
import Report

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a sensor log: fuse the pose, place the POIs, write annotated PNG frames and frames.jsonl.")

    @Argument(help: "Sensor logs (poiar-log/1, .csv or .csv.gz), phone recordings (Sensor Logger or phyphox export: folder or .zip), or folders of them; or GoPro clips (.mp4/.mov with GPMF telemetry).")
    var logs: [String]

    @OptionGroup var selection: POISelectionArguments

    @Option(help: "POI source: a poiar database or a file `pois import` reads. Default: the log's `# pois:` line.")
    var pois: String?

    @OptionGroup var poiFetch: ReplayFetchArguments

    @OptionGroup var buildings: BuildingArguments

    @Option(help: "Output folder. Default: Output/<log name>/. With several logs: OUT/<log name>/ for each.")
    var out: String?

    @OptionGroup var camera: CameraArguments

    @Option(help: "Output size WIDTHxHEIGHT (intrinsics of a camera JSON scale with it).")
    var size: String?

    @Option(parsing: .unconditional, help: "Search radius around the device, metres.")
    var radius: Double = 1500

    @Option(name: .customLong("max-visible"), parsing: .unconditional, help: "At most this many labels per frame, nearest first.")
    var maxVisible: Int = 100

    @Option(parsing: .unconditional, help: "Frames per second for logs without frame rows (default 2); with footage, at most this many of its frames per second (default: every frame).")
    var fps: Double?

    @Option(help: "Camera images to draw over: a video (MP4, MOV; H.264, H.265, …) or a folder of stills named by capture time (epoch milliseconds, as Sensor Logger's Camera/). Default: the log's # footage: line, a GoPro clip's own video, a phone export's Camera folder.")
    var footage: String?

    @Option(name: .customLong("footage-offset"), parsing: .unconditional,
            help: "Where the footage's time 0 falls on the log's clock, seconds (footage time = log time − offset), or auto to estimate it from the images' motion and the gyro. Default: a video's time 0 is the log's; named stills by the log's start_utc.")
    var footageOffset: String?

    @Option(parsing: .unconditional, help: "Frames rendered in parallel (output identical to one job).")
    var jobs: Int = 1

    @OptionGroup var fusion: FusionArguments

    @Option(help: "Font file for the labels' regular text (default DejaVu Sans).")
    var font: String?

    @Option(name: .customLong("bold-font"), help: "Font file for the labels' names (default DejaVu Sans Bold).")
    var boldFont: String?

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: "PNG zlib compression level, 0–9.")
    var pngLevel: Int = 6

    @OptionGroup var layout: LayoutArguments

    @OptionGroup var overlay: ReplayOverlayArguments

    @OptionGroup var batch: BatchArguments

    @Flag(name: .customLong("no-calm"), help: "Lay out every frame on its own (no kept stack levels, delayed drops or easing).")
    var noCalm = false

    @Option(help: "Also write the recording as an MCAP file for Foxglove: poses, GPS fixes, raw gyro/accel/mag samples, the rendered frames and their annotations (docs/mcap.md).")
    var mcap: String?

    @Option(name: .customLong("mcap-images"), help: "How --mcap holds the frames: png (the files as rendered), jpeg (quality 90, smaller) or jpeg:Q (quality 1–100).")
    var mcapImages = "png"

    @Flag(help: "Also write OUT/report.html: a frame scrubber, the map, plots over time (docs/report.md).")
    var report = false

    @Option(help: "With --report: score each frame's pose against this truth (a pose CSV, or a phone's own orientation).")
    var truth: String?

    @Flag(help: "Print how calm the labels were: movement against anchor movement, stack-level changes per label-minute.")
    var stats = false

    @Flag(name: .customLong("no-flat-map"),
          help: "Keep the camera view when the phone points at the ground (default: such frames show a map around the device; docs/phone.md).")
    var noFlatMap = false

    func validate() throws {
        try fusion.validate()
        if !(radius > 0 && radius.isFinite) { throw ValidationError("--radius: expected metres > 0, got \(radius)") }
        if maxVisible < 0 { throw ValidationError("--max-visible: expected a count ≥ 0, got \(maxVisible)") }
        if let fps, !(fps > 0 && fps <= 1000) { throw ValidationError("--fps: expected frames per second in (0, 1000], got \(fps)") }
        if let footageOffset, FootageOptions.parseOffset(footageOffset) == nil {
            throw ValidationError("--footage-offset: expected seconds (e.g. 0.35 or -1.2) or auto, got \"\(footageOffset)\"")
        }
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs: expected 1…256, got \(jobs)") }
        if !(0...9).contains(pngLevel) { throw ValidationError("--png-level: expected 0…9, got \(pngLevel)") }
        if let size { _ = try parseSize(size, option: "--size") }
        try layout.validate()
        try batch.validate()
        if batch.shard != nil && overlay.map {
            throw ValidationError("--shard: a shard writes only its frames: make the map with poiar map (or replay --map without --shard)")
        }
        if RecordingMCAP.ImageFormat(parsing: mcapImages) == nil {
            throw ValidationError("--mcap-images: expected png, jpeg or jpeg:Q with Q in 1…100, got \"\(mcapImages)\"")
        }
        if mcap != nil && batch.shard != nil {
            throw ValidationError("--mcap: a shard has only some of the frames: write the MCAP file from a run without --shard")
        }
        if truth != nil && !report { throw ValidationError("--truth: goes with --report (poiar evaluate scores a log's poses on their own)") }
        if report && batch.shard != nil {
            throw ValidationError("--report: a shard has only some of the frames: run poiar report OUT after poiar merge")
        }
        if poiFetch.fetch && pois == nil {
            throw ValidationError("--fetch: give --pois DB, the poiar database to fetch the POIs into (created if missing)")
        }
    }

    func run() throws {
        var failed: [String] = []
        try reportingErrors {
            let inputs = try LogInputs.expand(logs, out: out) { printNotice($0) }
            if mcap != nil && inputs.count > 1 {
                throw ValidationError("--mcap: one file holds one recording: give one log (got \(inputs.count))")
            }
            if batch.video, let notice = try VideoEncoder().notice { printNotice(notice) }  // once, not once per log
            for (n, input) in inputs.enumerated() {
                if inputs.count > 1 { printNotice("replaying \(input.log) (\(n + 1) of \(inputs.count))") }
                do {
                    try replay(input.log, out: input.outputDir, label: inputs.count > 1 ? input.log : nil)
                } catch let e as ExitCode {
                    throw e
                } catch where inputs.count > 1 {
                    printError("\(error)")
                    failed.append(input.log)
                }
            }
            if !failed.isEmpty {
                printError("\(failed.count) of \(inputs.count) logs failed: \(failed.joined(separator: ", "))")
                throw ExitCode(1)
            }
        }
    }

    /// Replays one log into `out`.
    func replay(_ log: String, out: String?, label: String?) throws {
        // The truth is read first: a bad one stops the run before its frames are drawn.
        let truthSeries = try truth.map { (series: try readTruth($0, log: log, magnetic: fusion.magnetic), file: $0) }
        var options = ReplayOptions(logPath: log)
        options.outputDir = out
        options.categories = try selection.categories()
        options.poiSource = try poiFetch.run(log: log, pois: pois, at: try fusion.fixedPosition(), radius: radius,
                                             categories: options.categories)
        options.buildings = buildings.buildings
        options.language = selection.language
        options.camera = camera.setup(size: try size.map { try parseSize($0, option: "--size") })
        options.radius = radius
        options.fixedPosition = try fusion.fixedPosition()
        options.fps = fps ?? 2
        options.footage = FootageOptions(path: footage, offset: footageOffset.flatMap(FootageOptions.parseOffset), maxRate: fps)
        options.jobs = jobs
        options.magnetic = fusion.magnetic
        options.date = fusion.magneticModelDate
        options.causal = fusion.causal
        options.poseSource = fusion.source
        options.fontPath = font
        options.boldFontPath = boldFont
        options.pngCompressionLevel = pngLevel
        try layout.apply(to: &options.layout, &options.annotation, radius: radius)
        options.layout.maxVisible = maxVisible
        try overlay.apply(to: &options)
        options.calm = !noCalm
        options.flatMap = !noFlatMap
        options.batch = batch.options
        options.mcap = mcap.map { URL(fileURLWithPath: $0) }
        options.mcapImages = RecordingMCAP.ImageFormat(parsing: mcapImages)!
        let engine = ReplayEngine(options: options, notice: { printNotice($0) })
        if let reporter = batch.progressReporter(label: label) {
            engine.progress = { reporter.update($0) }
        }
        let summary = try engine.run()
        if stats {
            printNotice(summary.stats.description)
            printNotice(summary.labels.timing(drawingSeconds: summary.drawingSeconds, framesDrawn: summary.rendered))
        }
        printNotice(summary.outcomes.description)
        if summary.labels.cameraViewFrames > 0 { printNotice(summary.labels.description) }  // none: every frame a map
        if let mcap = summary.mcap { printNotice(mcap.description) }
        printNotice(summary.report)
        if report { printNotice(try ReplayReport.write(dir: summary.outputDir, truth: truthSeries, log: log).description) }
    }
}
