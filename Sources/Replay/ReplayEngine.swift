import Export
import FolderExtras
import Foundation
import Frames
import Fusion
import Maps
import PhoneImport
import POIARCore
import POIStore
import Projection
import Recordings
import Rendering
import SensorLog

/// `poiar replay`: a log to annotated frames and frames.jsonl, in named stages:
///  1. `prepare`: everything that can be checked before the long pass — the log's header, the
///     camera, the POI source, the fonts, the recording's position and north;
///  2. `fuse`: one pass through the log (`FusionPass`): a pose per frame, and the GPS track;
///  3. `settleFrames`: every still checked, the camera settled (the stills' size, or the
///     phone's camera as it was held), and the one per-frame path built (`FramePipeline`);
///  4. `annotateAndRender`: per frame, the pipeline's record (the manifest line) and, in
///     parallel with `jobs`, its PNG written atomically, a chunk at a time;
///  5. `finish`: the map, the video (encoded as the frames were drawn) completed, frames.jsonl
///     last (its presence means every frame is complete), the journal closed, stale frames
///     removed, the contact sheet.
public final class ReplayEngine {
    public let options: ReplayOptions
    public var notice: @Sendable (String) -> Void
    public var progress: (@Sendable (RenderProgress) -> Void)?

    /// The recording, opened once: given when the caller read it already (`--fetch` needs its
    /// first fix), else opened when the replay starts.
    let recording: Recording?

    public init(options: ReplayOptions, recording: Recording? = nil, notice: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.recording = recording
        self.notice = notice
    }

    /// Frames annotated and rendered together; bounds memory for long logs.
    static let chunkSize = 64
    /// Bytes of decoded video frames a chunk may hold.
    static let decodedBytesPerChunk = 256 << 20

    /// Frames per chunk: `chunkSize`, fewer when a chunk carries decoded video frames of this
    /// size (at least two per render thread, so they stay busy).
    static func chunkSize(camera: CameraIntrinsics, decodesVideo: Bool, jobs: Int) -> Int {
        guard decodesVideo else { return chunkSize }
        let perFrame = max(1, camera.width * camera.height * 4)
        return max(2 * max(1, jobs), min(chunkSize, decodedBytesPerChunk / perFrame))
    }

    public func run() throws -> ReplaySummary {
        let start = Date()
        let prepared = try prepare()
        let (fused, everyFrame) = try fuse(prepared)
        let frames = try settleFrames(prepared, fused, holdingOver: everyFrame)
        var written = try annotateAndRender(prepared, fused, frames)
        defer { written.video?.cancel() }  // when finish fails: no video, and its encoder stopped
        let mcap = try finish(prepared, fused, frames, &written)
        let counts = written.tally.current
        return ReplaySummary(frames: fused.frames.count, outputDir: written.outDir, seconds: Date().timeIntervalSince(start),
                             north: prepared.north, rejectedFixes: fused.track.rejectedCount, stats: written.stats.summary,
                             outcomes: written.outcomes, labels: written.labels, drawingSeconds: written.tally.drawingSeconds, rendered: counts.rendered, skipped: counts.handled - counts.rendered,
                             manifestName: written.manifestName, baseMap: prepared.baseMap, mcap: mcap,
                             pngFrames: options.batch.writesFrames, extras: written.extras, shard: options.batch.shard)
    }

    // MARK: - 1. Prepare

    /// What is known before the log is fused.
    struct Prepared {
        var recording: PreparedRecording
        var video: VideoEncoder?
        /// The camera images drawn over, when they are not the log's frame rows.
        var footage: RecordingFootage?
        var metadata: LogMetadata { recording.metadata }
        var logFolder: URL { recording.logFolder }
        var sourcePath: String? { recording.sourcePath }
        var database: POIDatabase? { recording.database }
        var baseMap: SourceBaseMap { recording.baseMap }
        var buildings: BuildingSource? { recording.buildings }
        var north: NorthReference { recording.north }
        /// `--mcap FILE`: the recording, its poses and its frames for Foxglove.
        var mcap: RecordingMCAP?
        /// What the replay writes and reads (checked in `prepare`, again with the stills).
        var outputs: OutputPlan
    }

    func prepare() throws -> Prepared {
        let video = options.batch.video ? try VideoEncoder() : nil
        var plan = OutputPlan()
        let recording = try PreparedRecording(
            recording: try self.recording ?? Recording(path: options.logPath), poiSource: options.poiSource,
            buildingSource: options.buildings, north: options.northChoice, withoutPOIs: "so no frame has a label",
            withoutBuildings: BuildingSource.labelsUnchecked, notice: notice
        ) { metadata, logFolder in
            // The outputs first: none may be an input or a file poiar cannot write or replace.
            plan = options.outputPlan(metadata: metadata, logFolder: logFolder)
            try plan.check()
            // The camera and the fonts are checked before the long pass (the camera is settled
            // after it).
            let camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath)
            _ = try CardStyle(imageWidth: camera.width, imageHeight: camera.height,
                              fontPath: options.fontPath, boldFontPath: options.boldFontPath)
        }
        try Scenery.check(options.overlay, hasBuildings: recording.buildings != nil, file: options.logPath)
        let footage = try RecordingFootage.find(options.footage, recording: recording.recording,
                                                logFolder: recording.logFolder, notice: notice)
        let mcap = try options.mcap.map {
            try RecordingMCAP(url: $0, logPath: options.logPath, metadata: recording.metadata, frames: true,
                              images: options.mcapImages, notice: notice)
        }
        return Prepared(recording: recording, video: video, footage: footage, mcap: mcap, outputs: plan)
    }

    // MARK: - 2. Fuse

    /// The pass's frames as `--from`, `--to`, `--fps` and `--every` select them, and every
    /// frame of the pass (how the phone was held is told from all of them, so a quick look at
    /// part of a recording has the camera of the whole).
    func fuse(_ prepared: Prepared) throws -> (selected: FusionResult, every: [FrameEvent]) {
        var pass = FusionPass(params: options.filterParams, fps: options.fps)
        pass.causal = options.causal
        pass.poseSource = options.poseSource
        if let mcap = prepared.mcap { pass.onPose = { t, pose, _ in mcap.addPose(time: t, pose: pose) } }
        if let footage = prepared.footage {
            if options.footage.offset == .auto { try FootageAlignment.estimate(footage, recording: prepared.recording.recording, notice: notice) }
            notice(footage.offsetNotice)
            pass.footageFrames = footage.wantedFrames
        }
        var fused = try prepared.recording.fuse(pass, notice: notice)
        if let footage = prepared.footage {
            guard !fused.frames.isEmpty else { throw footage.noOverlap(logFirst: fused.firstTime ?? 0, logLast: fused.lastTime ?? 0) }
            if fused.footageOutside > 0 {
                notice("footage: \(fused.footageOutside) of its frames fall outside the log's span and are not drawn")
            }
        }
        guard !fused.frames.isEmpty else {
            throw InputError(file: options.logPath, "no frames: the log has no samples to replay")
        }
        guard !fused.track.isEmpty else {
            throw InputError(file: options.logPath, "no usable GPS fix: cannot place the device (fixes worse than \(Int(GPSTrack.defaultMaxAccuracy)) m are not used)")
        }
        let everyFrame = fused.frames
        let selected = try options.selection.apply(to: fused, logPath: options.logPath)
        fused = selected.result
        selected.notice.map(notice)
        if let n = options.batch.contactSheetEvery { try ContactSheetWriter.check(total: fused.frames.count, every: n) }
        try prepared.mcap?.start(track: fused.track, samples: try prepared.recording.recording.secondReading())
        return (fused, everyFrame)
    }

    // MARK: - 3. Settle the frames

    /// The frames' stills and their one path.
    struct SettledFrames {
        /// Each frame's still (nil: sky and ground, or a video frame).
        var stills: [URL?]
        var pipeline: FramePipeline
    }

    func settleFrames(_ prepared: Prepared, _ fused: FusionResult, holdingOver everyFrame: [FrameEvent]) throws -> SettledFrames {
        let metadata = prepared.metadata
        // Stills: all must exist, inside the stills folder, and probe whole before anything is
        // written; without --size the output has the first one's size (others are scaled).
        let stills: [URL?]
        let stillSize: (width: Int, height: Int)?
        if let footage = prepared.footage {
            // The footage's stills on disk (a video's frames and zipped stills are decoded as
            // they are drawn); every still used is probed first.
            stills = fused.frames.map { footage.archived == nil ? $0.footage.flatMap(footage.source.stillURL) : nil }
            stillSize = try footage.frameSize(used: fused.frames.compactMap(\.footage), maxStillPixels: options.overlay.maxStillPixels)
        } else {
            let stillsFolder = try options.overlay.stillsFolder(metadata: metadata, logFolder: prepared.logFolder, logPath: options.logPath)
            stills = try fused.frames.map { frame -> URL? in
                guard let still = frame.still else { return nil }
                do { return try stillsFolder.resolve(still) } catch {
                    throw InputError(file: options.logPath, line: frame.line, field: "x (still)", "\(error)")
                }
            }
            stillSize = try StillCheck.checkAll(stills, frames: fused.frames, logPath: options.logPath,
                                                maxPixels: options.overlay.maxStillPixels)
        }
        var outputs = prepared.outputs
        for still in Set(stills.compactMap { $0?.path }).sorted() { outputs.reads(still, as: "a still") }
        try outputs.check()
        var camera: CameraIntrinsics
        if let size = stillSize, prepared.footage?.source.isGoPro == true, options.camera.isUnspecified(metadata: metadata) {
            // A GoPro's clip without a camera from the options or the log: its Wide lens.
            camera = options.camera.sized(GoProCamera.wide(width: size.width, height: size.height))
            notice(String(format: "camera: none given; GoPro's Wide lens (%.1f° across, a fisheye), %d×%d (a camera JSON overrides it: docs/footage.md)",
                          GoProCamera.wideHorizontalFOVDeg, camera.width, camera.height))
        } else {
            // Without a camera from the options or the log: the phone's, held as the poses show.
            let holding = options.camera.holding(metadata: metadata, frames: everyFrame)
            camera = try options.camera.resolve(metadata: metadata, logFolder: prepared.logFolder, logPath: options.logPath,
                                                stillSize: stillSize, holding: holding)
            if let holding { notice(CameraSetup.assumed(camera, holding: holding)) }
        }
        camera = options.batch.scaled(camera)
        guard camera.width <= ImageLimits.maxSide, camera.height <= ImageLimits.maxSide else {
            // Said before any frame is drawn, naming where the size came from.
            let from = options.camera.size != nil ? "--size" : stills.lazy.compactMap { $0?.path }.first
                ?? options.camera.cameraFile ?? prepared.footage?.source.path ?? options.logPath
            throw InputError(file: from, "frames would be \(camera.width)×\(camera.height) pixels\(options.batch.scale == 1 ? "" : " (with --scale \(options.batch.scale))"), over the \(ImageLimits.maxSide) px a side poiar draws: give --size or --scale")
        }
        var overlay = FrameOverlay(options: options, startUTC: metadata.startUTC)
        if options.flatMap {
            overlay.flatMap = FlatPhoneMap(baseMap: try prepared.baseMap.features(), track: fused.track)
        }
        let pois = prepared.database.map {
            POIQuery(database: $0, radius: options.radius, categories: options.categories, language: options.language)
        }
        // Every building within the search radius of any place on the track.
        let lineOfSight = try prepared.buildings?.lineOfSight(around: fused.track.fixes.map(\.coordinate), radius: options.radius)
        overlay.scenery = try Scenery.resolve(options.overlay, lineOfSight: lineOfSight, eyeHeight: options.annotation.eyeHeight,
                                              reach: options.radius, startUTC: metadata.startUTC, file: options.logPath)
        if let scenery = overlay.scenery, scenery.buildings.buildingCount == 0 {
            notice("buildings: none within \(Int(options.radius)) m of the track, so none is drawn")
        }
        let pipeline = try FramePipeline(camera: camera, layout: options.layout, annotation: options.annotation, overlay: overlay,
                                         pois: pois, lineOfSight: lineOfSight, fontPath: options.fontPath,
                                         boldFontPath: options.boldFontPath)
        return SettledFrames(stills: stills, pipeline: pipeline)
    }

    // MARK: - 4. Annotate and render

    /// What the frames' pass wrote and measured.
    struct Written {
        var outDir: URL
        var manifestName: String
        var manifest: AtomicTextWriter
        var journal: RenderJournal
        var tally: RenderTally
        var fingerprint: FNV1a64
        var stats: CalmStats
        var outcomes: FrameOutcomes
        var labels = LabelCounts()
        /// `--video`: the frames' video, encoded as they are drawn.
        var video: VideoStream?
        /// A line per extra file written (map, contact sheet, video).
        var extras: [String] = []
    }

    /// Annotates, renders and lists the frames a chunk at a time, so memory does not grow with
    /// the number of frames; the manifest goes to a temporary file, renamed into place in
    /// `finish`. With --jobs ≥ 2 a chunk renders while the next is annotated (annotation is
    /// serial: the calm layout carries from frame to frame); a chunk's errors are taken before
    /// the next chunk's, so the earliest frame's error is the one reported, whatever --jobs.
    func annotateAndRender(_ prepared: Prepared, _ fused: FusionResult, _ frames: SettledFrames) throws -> Written {
        let batch = options.batch
        let outDir = options.resolvedOutputDir
        do {
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: outDir.path, "cannot create the output folder: \(error.localizedDescription)")
        }
        let manifestName = batch.shard?.manifestName ?? "frames.jsonl"
        RenderJournal.removeLeftoverTemporaries(in: outDir, shard: batch.shard, manifestName: manifestName)
        let total = fused.frames.count
        var written = Written(outDir: outDir, manifestName: manifestName,
                              manifest: try AtomicTextWriter(url: outDir.appendingPathComponent(manifestName)),
                              journal: RenderJournal(dir: outDir, shard: batch.shard),
                              tally: RenderTally(total: batch.shard?.frameCount(of: total) ?? total, progress: progress),
                              fingerprint: FNV1a64(), stats: CalmStats(), outcomes: FrameOutcomes(radius: options.radius))
        let settingsKey = options.renderSettingsKey
        written.fingerprint.add(settingsKey)
        // The video takes the frames in order, so a shard (some of the frames) has none: its
        // video is made by `poiar merge`. A window of two frames per render thread keeps the
        // workers from waiting on one slow frame.
        if let video = prepared.video, batch.shard == nil {
            let rate = VideoEncoder.frameRate(count: total, firstTime: fused.frames[0].time,
                                              lastTime: fused.frames[total - 1].time, fallback: options.fps)
            written.video = try video.start(dir: outDir, frameRate: rate, window: 2 * max(1, options.jobs))
        }
        let resume = batch.resume && batch.writesFrames
        let output = FrameOutput(outDir: outDir, journal: written.journal, pngCompressionLevel: options.pngCompressionLevel,
                                 video: written.video, writesFrames: batch.writesFrames)
        let context = RenderContext(pipeline: frames.pipeline, threads: options.jobs, maxStillPixels: options.overlay.maxStillPixels,
                                    logPath: options.logPath, tally: written.tally, output: output)
        var sequence = FrameSequence(calm: options.calm, flatMap: options.flatMap)
        var pending: PendingRender?
        // The pending chunk's frames, for the MCAP file once their images are written.
        var pendingRecords: [FrameRecord] = []
        func export(_ records: [FrameRecord]) throws {
            guard let mcap = prepared.mcap else { return }
            for record in records { try mcap.addFrame(record.exported, imageFile: outDir.appendingPathComponent(record.image)) }
        }
        let footage = prepared.footage
        let chunkSize = ReplayEngine.chunkSize(camera: frames.pipeline.camera,
                                               decodesVideo: footage?.source.video != nil || footage?.archived != nil,
                                               jobs: options.jobs)
        do {
            for chunkStart in stride(from: 0, to: total, by: chunkSize) {
                var work: [FrameJob] = []
                var records: [FrameRecord] = []
                for i in chunkStart..<min(total, chunkStart + chunkSize) {
                    let frame = fused.frames[i]
                    let still = frame.footage.map { footage!.stillName($0) } ?? frame.still
                    let record = try frames.pipeline.annotate(index: i + 1, time: frame.time, logLine: frame.line, still: still,
                                                              footage: frame.footage.map { footage!.stamp($0) },
                                                              image: FrameRecord.imageName(index: i + 1),
                                                              position: fused.track.estimate(at: frame.time)!, pose: frame.pose,
                                                              headingSigma: frame.headingSigmaDeg, sequence: &sequence)
                    written.stats.add(record)
                    // This process's frames, less those a resumed run finds complete.
                    let line = record.jsonLine
                    written.fingerprint.add(line)
                    guard batch.shard?.owns(frame: record.index) ?? true else { continue }
                    // What a shard says of the frames is of its own share.
                    written.labels.add(record)
                    written.outcomes.add(FrameOutcome(record, hasPOISource: prepared.database != nil))
                    try written.manifest.write(line)
                    if prepared.mcap != nil { records.append(record) }
                    let key = FNV1a64.hex(settingsKey, line)
                    if resume && written.journal.isComplete(frame: record.index, key: key) {
                        written.journal.keep(frame: record.index)
                        written.tally.add(rendered: false)
                        // The video needs every frame, in order: a kept one is read back.
                        if written.video != nil {
                            work.append(FrameJob(record: record, still: nil, background: nil, key: key, keptForVideo: true))
                        }
                    } else {
                        // A video's frames are decoded here, in order, on this one thread.
                        let decoded = try frame.footage.flatMap {
                            record.isMapView ? nil : try footage!.decodeInOrder($0, maxStillPixels: options.overlay.maxStillPixels)
                        }
                        work.append(FrameJob(record: record, still: frames.stills[i], background: decoded, key: key))
                    }
                }
                try pending?.wait()
                try export(pendingRecords)
                pending = PendingRender(work, context)
                pendingRecords = records
            }
            try pending?.wait()
            try export(pendingRecords)
        } catch {
            written.video?.cancel()  // lets go of workers waiting to hand it a frame
            try pending?.wait()
            throw error
        }
        return written
    }

    // MARK: - 5. Finish

    /// Returns what the MCAP file (`--mcap`) holds.
    func finish(_ prepared: Prepared, _ fused: FusionResult, _ frames: SettledFrames, _ written: inout Written) throws -> RecordingMCAP.Summary? {
        let batch = options.batch
        let total = fused.frames.count, outDir = written.outDir
        let camera = frames.pipeline.camera
        if let shard = batch.shard {
            var fingerprint = written.fingerprint
            fingerprint.add(total)
            try written.manifest.write(ShardTrailer(shard: shard, frames: total, fingerprint: fingerprint.hex).jsonLine)
        }
        // The map (--map) before the manifest, whose presence means everything is written.
        if options.overlay.map {
            try TrackMap.write(fused: fused, db: prepared.database, baseMap: try prepared.baseMap.features(), camera: camera,
                               options: options, to: outDir.appendingPathComponent(TrackMap.fileName))
            written.extras.append("wrote \(TrackMap.fileName): the track, view cones every \(plainNumber(options.overlay.mapConeInterval)) s and the POIs \(FolderExtras.size(outDir, TrackMap.fileName))")
        }
        let mcap = try prepared.mcap?.finish()
        // The video before the manifest, whose presence means everything is written.
        if let video = written.video {
            try video.finish(count: total)
            written.extras.append(video.writtenLine(count: total, size: FolderExtras.size(outDir, VideoEncoder.fileName)))
        }
        try written.manifest.commit()
        try written.journal.finish(shard: batch.shard)
        guard batch.shard == nil else { return mcap }
        // Frames of an earlier, longer run; with --no-frames every frame file (they would not
        // match this frames.jsonl).
        ShardMerge.removeFrames(in: outDir, above: batch.writesFrames ? total : 0)
        ShardMerge.removeShardManifests(in: outDir)
        // The video was encoded as the frames were drawn (`written.video`); the contact sheet
        // is made from the frame files.
        let extras = FolderExtras(total: total, firstTime: fused.frames[0].time, lastTime: fused.frames[total - 1].time,
                                  frameSize: (camera.width, camera.height)) { fused.frames[$0 - 1].time }
        written.extras += try extras.write(dir: outDir, contactSheetEvery: batch.contactSheetEvery, video: nil, fontPath: options.fontPath,
                                           pngCompressionLevel: options.pngCompressionLevel, fps: options.fps)
        return mcap
    }
}
