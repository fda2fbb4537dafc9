import Dispatch
import Foundation
import Fusion
import Geodesy
import PhoneImport
import POIARCore
import POIStore
import Projection
import Rendering
import SensorLog

/// Everything `poiar replay` can be told.
public struct ReplayOptions: Sendable {
    public var logPath: String
    /// Output folder; nil: `Output/<log name without extension>/`.
    public var outputDir: String?
    /// Categories to show; nil: all.
    public var categories: [String]?
    /// POI SOURCE; nil: the log's `# pois:` line.
    public var poiSource: String?
    /// Language code: POI names from their `name:<language>` tag when they have one.
    public var language: String?
    public var camera = CameraSetup()
    /// Search radius around the device, metres (default 1500, the original app's).
    public var radius = 1500.0
    public var maxVisible = 100
    /// Frames per second for logs without frame rows.
    public var fps = 2.0
    public var jobs = 1
    public var magnetic = false
    /// Date for the magnetic model (`--date`); nil: the log's start_utc, else today.
    public var date: Date?
    /// Fuse causally (`--causal`); default: offline (`FusionPass`).
    public var causal = false
    /// Where the attitude comes from (`--pose-source`).
    public var poseSource = PoseSource.auto
    /// Offline: changes the estimated attitudes before the frames get them (`FusionPass.refineAttitudes`).
    public var refineAttitudes: (@Sendable (inout AttitudeSeries, GPSTrack, LogMetadata) throws -> Void)?
    public var fontPath: String?
    public var boldFontPath: String?
    public var pngCompressionLevel = 6
    public var filterParams = ComplementaryFilterParams()
    /// Label layout (distance offset, stack cap, max distance, calm-over-time constants).
    /// `maxVisible` above wins; lengths are at 720 px and scale with the image.
    public var layout = LayoutOptions()
    /// Refraction and off-screen indicators.
    public var annotation = AnnotationOptions()
    /// Keep labels calm from frame to frame (hysteresis and easing); off gives each frame the
    /// plain stateless layout.
    public var calm = true
    /// What is drawn over the frames besides the cards (HUD, card second line), where the
    /// stills are read from, and whether a map is written beside the frames.
    public var overlay = OverlayOptions()
    /// Output scale, video, contact sheet, resume and sharding (docs/batch.md).
    public var batch = BatchOptions()
    /// Where the device was for the whole recording (`--at`), instead of its GPS fixes: for
    /// recordings without location, or to override it.
    public var fixedPosition: GeoCoordinate?
    /// Draw a map instead of the camera view while the phone points at the ground
    /// (`FlatViewSwitch`; `--no-flat-map` turns it off).
    public var flatMap = true

    public init(logPath: String) { self.logPath = logPath }

    /// The layout options with `maxVisible` set (lengths at 720 px).
    public var layoutWithCap: LayoutOptions {
        var l = layout
        l.maxVisible = maxVisible
        return l
    }

    /// `Output/<log name without .csv/.csv.gz>`.
    public var resolvedOutputDir: URL {
        if let outputDir { return URL(fileURLWithPath: outputDir) }
        var name = URL(fileURLWithPath: logPath).lastPathComponent
        for ext in [".zip", ".gz", ".csv"] where name.hasSuffix(ext) { name.removeLast(ext.count) }
        return URL(fileURLWithPath: "Output").appendingPathComponent(name)
    }
}

public struct ReplaySummary: Sendable {
    public var frames: Int
    public var outputDir: URL
    public var seconds: Double
    public var north: NorthReference
    public var rejectedFixes: Int
    /// How calm the labels were (`--stats`).
    public var stats: CalmStats.Summary
    /// What the frames showed, and why those without a label had none.
    public var outcomes: FrameOutcomes
    /// Frames this process drew, and frames it left as they were (`--resume`).
    public var rendered: Int
    public var skipped: Int
    /// The manifest written: `frames.jsonl`, or the shard's part.
    public var manifestName: String
}

/// `poiar replay`: the whole pipeline, frame by frame.
///  1. check everything that can be checked before writing: log header, camera, POI source,
///     categories, stills;
///  2. one streaming pass through the log: fusion → a pose per frame, and the GPS track;
///  3. per frame: position from the track, POIs within the radius, projection, layout;
///  4. render frames (in parallel with `jobs`), each PNG written atomically;
///  5. frames.jsonl written atomically once every frame is on disk.
public final class ReplayEngine {
    public let options: ReplayOptions
    public var notice: @Sendable (String) -> Void
    public var progress: (@Sendable (RenderProgress) -> Void)?
    /// HUD and card settings of the frames being drawn (set by `run`).
    private var frameOverlay = FrameOverlay()

    public init(options: ReplayOptions, notice: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.notice = notice
    }

    public func run() throws -> ReplaySummary {
        let start = Date()
        let logURL = URL(fileURLWithPath: options.logPath)
        let logFolder = logURL.deletingLastPathComponent()
        let reader = try openLogSource(path: options.logPath)
        let metadata = reader.metadata

        guard options.jobs >= 1 else { throw InputError(file: "command line", field: "--jobs", "must be ≥ 1") }
        guard options.fps > 0, options.fps.isFinite else { throw InputError(file: "command line", field: "--fps", "must be > 0") }
        guard options.radius > 0, options.radius.isFinite else { throw InputError(file: "command line", field: "--radius", "must be > 0 m") }
        let batch = options.batch
        try batch.validate()
        if batch.shard != nil && options.overlay.map {
            throw InputError(file: "command line", field: "--shard",
                             "a shard writes only its frames: make the map with poiar map (or replay --map without --shard)")
        }
        let video = batch.video ? try VideoEncoder() : nil
        // Checked now (before the long pass), fitted to the stills' size below.
        var camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath)

        // POIs.
        let sourcePath = try LogFolderPath.poiSource(option: options.poiSource, metadata: metadata,
                                                     logPath: options.logPath, logFolder: logFolder)
        let notice = self.notice
        let db = try sourcePath.map { path in
            try openPOISource(URL(fileURLWithPath: path), onImport: { report in notice("\(path): \(report)") }, onNotice: notice)
        }
        // Fonts are checked before the long pass too.
        _ = try CardStyle(imageWidth: camera.width, imageHeight: camera.height,
                          fontPath: options.fontPath, boldFontPath: options.boldFontPath)


        // Fusion pass.
        let north = try TrueNorth.reference(logPath: options.logPath, metadata: metadata, magnetic: options.magnetic,
                                            date: options.date, at: options.fixedPosition)
        guard north.position != nil else { throw try TrueNorth.noPosition(logPath: options.logPath, source: reader) }
        if sourcePath == nil {
            notice(LogFolderPath.missingPOISource(metadata: metadata, logPath: options.logPath, what: "so no frame has a label"))
        }
        notice("north: \(north.explanation)")
        var params = options.filterParams
        north.apply(to: &params)
        var pass = FusionPass(params: params, fps: options.fps)
        pass.causal = options.causal
        pass.poseSource = options.poseSource
        pass.refineAttitudes = options.refineAttitudes
        pass.onNotice = notice
        var fused = try pass.run(reader)
        if let at = options.fixedPosition {
            if fused.sampleCounts["gps", default: 0] > 0 {
                notice("\(options.logPath): the recording's \(fused.sampleCounts["gps"]!) GPS fixes are not used: the device stays at --at")
            }
            fused.track = GPSTrack(fixedAt: at)
        }
        if fused.track.rejectedCount > 0 {
            notice("\(options.logPath): \(fused.track.rejectedCount) GPS fix(es) with horizontal accuracy over \(Int(GPSTrack.defaultMaxAccuracy)) m not used")
        }
        guard !fused.frames.isEmpty else {
            throw InputError(file: options.logPath, "no frames: the log has no samples to replay")
        }
        guard !fused.track.isEmpty else {
            throw InputError(file: options.logPath, "no usable GPS fix: cannot place the device (fixes worse than \(Int(GPSTrack.defaultMaxAccuracy)) m are not used)")
        }
        if let n = batch.contactSheetEvery { try ContactSheetWriter.check(total: fused.frames.count, every: n) }
        // Without a camera from the options or the log: the phone's, held as the poses show.
        let holding = options.camera.holding(metadata: metadata, frames: fused.frames)

        // Stills: all must exist, inside the stills folder, before anything is written.
        let stillsFolder = try options.overlay.stillsFolder(metadata: metadata, logFolder: logFolder, logPath: options.logPath)
        let stillURLs = try fused.frames.map { frame -> URL? in
            guard let still = frame.still else { return nil }
            return try resolveStill(still, folder: stillsFolder, line: frame.line)
        }
        try StillCheck.checkAll(stillURLs, frames: fused.frames, logPath: options.logPath, maxPixels: options.overlay.maxStillPixels)
        // Without --size, the output has the stills' size (the first still's; others are scaled).
        if let first = stillURLs.firstIndex(where: { $0 != nil }), let url = stillURLs[first] {
            let image: RasterImage
            do { image = try loadStill(url, maxPixels: options.overlay.maxStillPixels) } catch let e as InputError {
                throw InputError(file: e.location.file, line: e.location.line, field: e.location.field,
                                 e.message + " (still of \(options.logPath):\(fused.frames[first].line.map(String.init) ?? "?"))")
            }
            camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath,
                                                stillSize: (image.width, image.height), holding: holding)
        } else if let holding {
            camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath, holding: holding)
        }
        if let holding { notice(CameraSetup.assumed(camera, holding: holding)) }
        camera = batch.scaled(camera)
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height,
                                  fontPath: options.fontPath, boldFontPath: options.boldFontPath)
        frameOverlay = FrameOverlay(options: options, startUTC: metadata.startUTC)
        if options.flatMap {
            frameOverlay.flatMap = FlatPhoneMap(baseMap: try sourcePath.flatMap(TrackMap.baseMapFeatures), track: fused.track)
        }

        // Annotate, render and list the frames a chunk at a time, so memory does not grow with
        // the number of frames; the manifest goes to a temporary file renamed into place last,
        // so its presence means every frame is complete.
        let annotator = try FrameAnnotator(camera: camera, layout: options.layoutWithCap, annotation: options.annotation,
                                           style: style, overlay: frameOverlay)
        var memory: LayoutMemory? = options.calm ? LayoutMemory() : nil
        var stats = CalmStats()
        var outcomes = FrameOutcomes(radius: options.radius)
        outcomes.hasPOISource = db != nil
        var viewSwitch = FlatViewSwitch()
        let outDir = options.resolvedOutputDir
        do {
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: outDir.path, "cannot create the output folder: \(error.localizedDescription)")
        }
        let manifestName = batch.shard?.manifestName ?? "frames.jsonl"
        RenderJournal.removeLeftoverTemporaries(in: outDir, shard: batch.shard, manifestName: manifestName)
        let manifest = try AtomicTextWriter(url: outDir.appendingPathComponent(manifestName))
        let journal = RenderJournal(dir: outDir, shard: batch.shard)
        let settingsKey = options.renderSettingsKey
        var fingerprint = FNV1a64()
        fingerprint.add(settingsKey)
        let total = fused.frames.count
        let own = batch.shard?.frameCount(of: total) ?? total
        let tally = RenderTally(total: own, progress: progress)
        // With --jobs ≥ 2 a chunk renders while the next is annotated (the annotation is serial:
        // the calm layout carries from frame to frame); its errors are taken before the next
        // chunk's, so the earliest frame's error is the one reported, whatever --jobs.
        var pending: PendingRender?
        do {
            for chunkStart in stride(from: 0, to: total, by: ReplayEngine.chunkSize) {
                let range = chunkStart..<min(total, chunkStart + ReplayEngine.chunkSize)
                let records = try range.map { i -> FrameRecord in
                    let frame = fused.frames[i]
                    let location = fused.track.location(at: frame.time)!
                    let hits = try db?.query(near: location.coordinate, radius: options.radius, categories: options.categories,
                                             language: options.language) ?? []
                    var record = FrameRecord(index: i + 1, time: frame.time, logLine: frame.line,
                                             image: FrameRecord.imageName(index: i + 1), still: frame.still,
                                             location: location, pose: frame.pose, camera: camera,
                                             annotations: annotator.annotate(hits: hits, location: location.coordinate, pose: frame.pose,
                                                                             memory: &memory, time: frame.time))
                    if options.flatMap {
                        record.mapFraction = viewSwitch.update(time: frame.time, pitchDeg: frame.pose.angles.pitch)
                        if record.isMapView {
                            // The map replaces the cards: none is drawn over the camera view.
                            for k in record.annotations.indices { record.annotations[k].visible = false; record.annotations[k].offscreen = nil }
                        }
                    }
                    stats.add(record)
                    outcomes.add(FrameOutcome(record))
                    return record
                }
                // This process's frames, less those a resumed run finds complete.
                var work: [FrameJob] = []
                for (offset, record) in records.enumerated() {
                    let line = record.jsonLine
                    fingerprint.add(line)
                    guard batch.shard?.owns(frame: record.index) ?? true else { continue }
                    try manifest.write(line)
                    let key = FNV1a64.hex(settingsKey, line)
                    if batch.resume && journal.isComplete(frame: record.index, key: key) {
                        journal.keep(frame: record.index)
                        tally.add(rendered: false)
                    } else {
                        work.append(FrameJob(record: record, still: stillURLs[chunkStart + offset], key: key))
                    }
                }
                try pending?.wait()
                pending = PendingRender(work, threads: options.jobs, style: style, overlay: frameOverlay,
                                        maxStillPixels: options.overlay.maxStillPixels, outDir: outDir, journal: journal,
                                        level: options.pngCompressionLevel, logPath: options.logPath, tally: tally)
            }
            try pending?.wait()
        } catch {
            try pending?.wait()
            throw error
        }
        let counts = tally.current
        if let shard = batch.shard {
            fingerprint.add(total)
            try manifest.write(ShardTrailer(shard: shard, frames: total, fingerprint: fingerprint.hex).jsonLine)
        }
        // The map (--map) before the manifest, whose presence means everything is written.
        if options.overlay.map {
            try TrackMap.write(fused: fused, db: db, sourcePath: sourcePath, camera: camera, options: options,
                               to: outDir.appendingPathComponent("map.png"))
        }
        try manifest.commit()
        try journal.finish(shard: batch.shard)
        if batch.shard == nil {
            ShardMerge.removeFrames(in: outDir, above: total)
            ShardMerge.removeShardManifests(in: outDir)
            if let n = batch.contactSheetEvery {
                let shown = ContactSheetWriter.frames(total: total, every: n).map { ($0, fused.frames[$0 - 1].time) }
                try ContactSheetWriter.write(dir: outDir, frames: shown, frameWidth: camera.width, frameHeight: camera.height,
                                             fontPath: options.fontPath, pngCompressionLevel: options.pngCompressionLevel)
            }
            if let video {
                try video.encode(dir: outDir, frameCount: total,
                                 frameRate: VideoEncoder.frameRate(count: total, firstTime: fused.frames[0].time,
                                                                   lastTime: fused.frames[total - 1].time, fallback: options.fps))
            }
        }

        return ReplaySummary(frames: total, outputDir: outDir, seconds: Date().timeIntervalSince(start),
                             north: north, rejectedFixes: fused.track.rejectedCount, stats: stats.summary, outcomes: outcomes,
                             rendered: counts.rendered, skipped: counts.handled - counts.rendered, manifestName: manifestName)
    }

    /// The still's URL, refusing paths that leave the stills folder and stills that are missing.
    func resolveStill(_ still: String, folder: StillFolder, line: Int?) throws -> URL {
        do { return try folder.resolve(still) } catch {
            throw InputError(file: options.logPath, line: line, field: "x (still)", error.description)
        }
    }

    /// Frames annotated and rendered together; bounds memory for long logs.
    static let chunkSize = 64

    /// A frame to draw: its record, still and render-journal key.
    struct FrameJob: Sendable {
        var record: FrameRecord
        var still: URL?
        var key: String
    }

    /// Renders `jobs` on `threads` threads; errors go to `queue` (the earliest frame's kept).
    static func render(_ jobs: [FrameJob], threads: Int, style: CardStyle, overlay: FrameOverlay, maxStillPixels: Int,
                       outDir: URL, journal: RenderJournal, level: Int, logPath: String, tally: RenderTally,
                       queue work: RenderQueue) {
        guard !jobs.isEmpty else { return }
        DispatchQueue.concurrentPerform(iterations: min(threads, jobs.count)) { _ in
            while let i = work.next() {
                do {
                    let record = jobs[i].record
                    try journal.willWrite(frame: record.index)
                    let image = try paintFrame(record, overlay: overlay, style: style) {
                        guard let url = jobs[i].still else { return syntheticBackground(camera: record.camera, pose: record.pose) }
                        do { return .still(try loadStill(url, maxPixels: maxStillPixels)) } catch let e as InputError {
                            throw InputError(file: e.location.file, line: e.location.line, field: e.location.field,
                                             e.message + " (still of \(logPath):\(record.logLine.map(String.init) ?? "?"))")
                        }
                    }
                    try writePNG(image, to: outDir.appendingPathComponent(record.image), compressionLevel: level)
                    try journal.didWrite(frame: record.index, key: jobs[i].key)
                    tally.add(rendered: true)
                } catch {
                    work.fail(error, at: i)
                }
            }
        }
    }
}

/// Sky and ground split at the horizon implied by the pose: the image of the horizontal plane
/// through the camera, h(u, v) = 0 with h from `CameraProjection.horizonValue`.
func syntheticBackground(camera: CameraIntrinsics, pose: Pose) -> FrameBackground {
    let projection = CameraProjection(camera: camera, pose: pose)
    // h is linear in (u, v): h = a·u + b·v + c.
    let c = projection.horizonValue(at: Point2(0, 0))
    let a = projection.horizonValue(at: Point2(1, 0)) - c, b = projection.horizonValue(at: Point2(0, 1)) - c
    let w = Double(camera.width), h = Double(camera.height)
    let scale = max(abs(a) * w, abs(b) * h)
    if scale < 1e-12 || abs(c) > 1e6 * scale {
        return .synthetic(horizon: nil, skyAbove: c > 0)
    }
    let p1: Point2, p2: Point2
    if abs(b) * h >= abs(a) * w {
        p1 = Point2(0, -c / b); p2 = Point2(w, -(c + a * w) / b)
    } else {
        p1 = Point2(-c / a, 0); p2 = Point2(-(c + b * h) / a, h)
    }
    // Step from the line along the gradient of h: that side is sky.
    let norm = (a * a + b * b).squareRoot()
    let sky = Point2(p1.x + a / norm, p1.y + b / norm)
    return .synthetic(horizon: p1, p2, skyPoint: sky)
}

/// One chunk's rendering: on its own thread with `threads` ≥ 2 (so the next chunk can be
/// annotated meanwhile), else done before the initialiser returns.
struct PendingRender {
    private let group = DispatchGroup()
    private let queue: RenderQueue

    init(_ jobs: [ReplayEngine.FrameJob], threads: Int, style: CardStyle, overlay: FrameOverlay, maxStillPixels: Int,
         outDir: URL, journal: RenderJournal, level: Int, logPath: String, tally: RenderTally) {
        let queue = RenderQueue(count: jobs.count)
        self.queue = queue
        let body: @Sendable () -> Void = {
            ReplayEngine.render(jobs, threads: threads, style: style, overlay: overlay, maxStillPixels: maxStillPixels,
                                outDir: outDir, journal: journal, level: level, logPath: logPath, tally: tally, queue: queue)
        }
        if threads >= 2 { DispatchQueue.global().async(group: group, execute: body) } else { body() }
    }

    /// Waits until the chunk is rendered; throws its earliest frame's error.
    func wait() throws {
        group.wait()
        if let error = queue.error { throw error }
    }
}

/// Frames handled so far (drawn, or kept by --resume), reported as they change.
final class RenderTally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: RenderProgress
    private let progress: (@Sendable (RenderProgress) -> Void)?

    init(total: Int, progress: (@Sendable (RenderProgress) -> Void)?) {
        counts = RenderProgress(handled: 0, rendered: 0, total: total)
        self.progress = progress
        progress?(counts)
    }

    func add(rendered: Bool) {
        lock.lock(); defer { lock.unlock() }
        counts.handled += 1
        if rendered { counts.rendered += 1 }
        progress?(counts)
    }

    var current: RenderProgress {
        lock.lock(); defer { lock.unlock() }
        return counts
    }
}

/// Hands out frame indices to render workers and keeps the first error.
final class RenderQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private let count: Int
    private(set) var error: Error?

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count, error == nil || nextIndex < errorIndex else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    /// Keeps the error of the earliest frame, so the message does not depend on --jobs.
    func fail(_ e: Error, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        if error == nil || index < errorIndex { error = e; errorIndex = index }
    }
    private var errorIndex = Int.max
}
