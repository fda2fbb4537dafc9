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

    public init(logPath: String) { self.logPath = logPath }

    /// The layout options with `maxVisible` and lengths in output pixels.
    public func scaledLayout(_ scale: Double) -> LayoutOptions {
        var l = layout.scaled(by: scale)
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
    public var progress: (@Sendable (Int, Int) -> Void)?
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
        // Checked now (before the long pass), fitted to the stills' size below.
        var camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath)

        // POIs.
        let sourcePath: String
        if let s = options.poiSource { sourcePath = s } else if let s = metadata.pois {
            sourcePath = try LogFolderPath.resolve(s, key: "pois", logFolder: logFolder, logPath: options.logPath).path
        } else {
            throw InputError(file: options.logPath, field: "pois",
                             "no POI source: give --pois SOURCE or a \"# pois: FILE\" line in the log")
        }
        let notice = self.notice
        let db = try openPOISource(URL(fileURLWithPath: sourcePath)) { report in notice("\(sourcePath): \(report)") }
        // Fonts are checked before the long pass too.
        _ = try CardStyle(imageWidth: camera.width, imageHeight: camera.height,
                          fontPath: options.fontPath, boldFontPath: options.boldFontPath)


        // Fusion pass.
        let north = try TrueNorth.reference(logPath: options.logPath, metadata: metadata, magnetic: options.magnetic,
                                            date: options.date)
        notice("north: \(north.explanation)")
        var params = options.filterParams
        north.apply(to: &params)
        var pass = FusionPass(params: params, fps: options.fps)
        pass.onNotice = notice
        let fused = try pass.run(reader)
        if fused.track.rejectedCount > 0 {
            notice("\(options.logPath): \(fused.track.rejectedCount) GPS fix(es) with horizontal accuracy over \(Int(GPSTrack.defaultMaxAccuracy)) m not used")
        }
        guard !fused.frames.isEmpty else {
            throw InputError(file: options.logPath, "no frames: the log has no samples to replay")
        }
        guard !fused.track.isEmpty else {
            throw InputError(file: options.logPath, "no usable GPS fix: cannot place the device (fixes worse than \(Int(GPSTrack.defaultMaxAccuracy)) m are not used)")
        }

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
            camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder,
                                                stillSize: (image.width, image.height))
        }
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height,
                                  fontPath: options.fontPath, boldFontPath: options.boldFontPath)
        frameOverlay = FrameOverlay(options: options, startUTC: metadata.startUTC)

        // Annotate, render and list the frames a chunk at a time, so memory does not grow with
        // the number of frames; the manifest goes to a temporary file renamed into place last,
        // so its presence means every frame is complete.
        let annotator = FrameAnnotator(camera: camera, layoutOptions: options.scaledLayout(style.scale), sizing: style,
                                       options: options.annotation, scale: style.scale)
        var memory: LayoutMemory? = options.calm ? LayoutMemory() : nil
        var stats = CalmStats()
        let outDir = options.resolvedOutputDir
        do {
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: outDir.path, "cannot create the output folder: \(error.localizedDescription)")
        }
        let manifest = try AtomicTextWriter(url: outDir.appendingPathComponent("frames.jsonl"))
        let total = fused.frames.count
        var done = 0
        for chunkStart in stride(from: 0, to: total, by: ReplayEngine.chunkSize) {
            let range = chunkStart..<min(total, chunkStart + ReplayEngine.chunkSize)
            let records = try range.map { i -> FrameRecord in
                let frame = fused.frames[i]
                let location = fused.track.location(at: frame.time)!
                let hits = try db.query(near: location.coordinate, radius: options.radius, categories: options.categories,
                                        language: options.language)
                let record = FrameRecord(index: i + 1, time: frame.time, logLine: frame.line,
                                         image: FrameRecord.imageName(index: i + 1), still: frame.still,
                                         location: location, pose: frame.pose, camera: camera,
                                         annotations: annotator.annotate(hits: hits, location: location.coordinate, pose: frame.pose,
                                                                         memory: &memory, time: frame.time))
                stats.add(record)
                return record
            }
            try renderAll(records, stills: Array(stillURLs[range]), style: style, outDir: outDir, doneBefore: done, total: total)
            done += records.count
            for r in records { try manifest.write(r.jsonLine) }
        }
        // The map (--map) before the manifest, whose presence means everything is written.
        if options.overlay.map {
            try TrackMap.write(fused: fused, db: db, sourcePath: sourcePath, camera: camera, options: options,
                               to: outDir.appendingPathComponent("map.png"))
        }
        try manifest.commit()
        removeStaleFrames(in: outDir, keeping: total)

        return ReplaySummary(frames: total, outputDir: outDir, seconds: Date().timeIntervalSince(start),
                             north: north, rejectedFixes: fused.track.rejectedCount, stats: stats.summary)
    }

    /// The still's URL, refusing paths that leave the stills folder and stills that are missing.
    func resolveStill(_ still: String, folder: StillFolder, line: Int?) throws -> URL {
        do { return try folder.resolve(still) } catch {
            throw InputError(file: options.logPath, line: line, field: "x (still)", error.description)
        }
    }

    /// Frames annotated and rendered together; bounds memory for long logs.
    static let chunkSize = 64

    private func renderAll(_ records: [FrameRecord], stills: [URL?], style: CardStyle, outDir: URL,
                           doneBefore: Int, total: Int) throws {
        let work = RenderQueue(count: records.count)
        let logPath = options.logPath
        let level = options.pngCompressionLevel
        let progress = self.progress
        let jobs = min(options.jobs, max(1, records.count))
        let overlay = frameOverlay
        let maxStillPixels = options.overlay.maxStillPixels
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let i = work.next() {
                do {
                    let record = records[i]
                    let background: FrameBackground
                    if let url = stills[i] {
                        do { background = .still(try loadStill(url, maxPixels: maxStillPixels)) } catch let e as InputError {
                            throw InputError(file: e.location.file, line: e.location.line, field: e.location.field,
                                             e.message + " (still of \(logPath):\(record.logLine.map(String.init) ?? "?"))")
                        }
                    } else {
                        background = syntheticBackground(camera: record.camera, pose: record.pose)
                    }
                    let image = try renderFrame(drawing(for: record, background: background, overlay: overlay), style: style)
                    try writePNG(image, to: outDir.appendingPathComponent(record.image), compressionLevel: level)
                    let done = work.finished()
                    progress?(doneBefore + done, total)
                } catch {
                    work.fail(error, at: i)
                }
            }
        }
        if let error = work.error { throw error }
    }

    private func removeStaleFrames(in dir: URL, keeping count: Int) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for name in names where name.hasPrefix("frame_") && name.hasSuffix(".png") {
            if let n = Int(name.dropFirst(6).dropLast(4)), n > count {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
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

/// Hands out frame indices to render workers and keeps the first error.
final class RenderQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private(set) var error: Error?

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count, error == nil || nextIndex < errorIndex else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }

    func finished() -> Int {
        lock.lock(); defer { lock.unlock() }
        done += 1
        return done
    }

    /// Keeps the error of the earliest frame, so the message does not depend on --jobs.
    func fail(_ e: Error, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        if error == nil || index < errorIndex { error = e; errorIndex = index }
    }
    private var errorIndex = Int.max
}
