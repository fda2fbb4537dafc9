import Dispatch
import FolderExtras
import Foundation
import Frames
import POIARCore
import Rendering

/// What the rendering of every frame of one replay shares.
struct RenderContext: Sendable {
    /// The frames' one path (`FramePipeline.draw`).
    var pipeline: FramePipeline
    /// Frames drawn at once.
    var threads: Int
    var maxStillPixels: Int
    /// The log, named in a still's error with the line that asked for it.
    var logPath: String
    var tally: RenderTally
    var output: FrameOutput
}

/// Where a drawn frame goes: its PNG in `outDir`, written atomically and noted in the journal
/// (not with `--no-frames`), and the video (`--video`), as soon as it is drawn.
struct FrameOutput: Sendable {
    var outDir: URL
    var journal: RenderJournal
    var pngCompressionLevel: Int
    var video: VideoStream?
    /// False with `--no-frames`: the frames go to the video only (no PNG, no journal).
    var writesFrames = true

    func file(_ record: FrameRecord) -> URL { outDir.appendingPathComponent(record.image) }

    /// Before drawing `record`: the journal notes that its file is being written.
    func willWrite(_ record: FrameRecord) throws {
        if writesFrames { try journal.willWrite(frame: record.index) }
    }

    /// `image`, drawn for `record` (journal key `key`), to its file and the video.
    func deliver(_ image: RasterImage, for record: FrameRecord, key: String) throws {
        if writesFrames {
            try writePNG(image, to: file(record), compressionLevel: pngCompressionLevel)
            try journal.didWrite(frame: record.index, key: key)
        }
        try video?.add(frame: record.index, image)
    }
}

/// A frame to draw: its record, still (or decoded video frame) and render-journal key.
struct FrameJob: Sendable {
    var record: FrameRecord
    var still: URL?
    /// A video frame, decoded in order before the job is handed out.
    var background: RasterImage?
    var key: String
    /// A frame `--resume` keeps, in the list only for the video: its PNG is read back for it.
    var keptForVideo = false
}

/// Renders `jobs` on `context.threads` threads, each PNG written atomically and noted in the
/// journal; errors go to `work` (the earliest frame's kept).
func render(_ jobs: [FrameJob], _ context: RenderContext, queue work: RenderQueue) {
    guard !jobs.isEmpty else { return }
    DispatchQueue.concurrentPerform(iterations: min(max(1, context.threads), jobs.count)) { _ in
        while let i = work.next() {
            do {
                let record = jobs[i].record, output = context.output
                if jobs[i].keptForVideo {
                    try output.video?.add(frame: record.index, try loadStill(output.file(record)))
                    continue
                }
                try output.willWrite(record)
                let drawStart = DispatchTime.now().uptimeNanoseconds
                let image = try context.pipeline.draw(record) {
                    if let decoded = jobs[i].background { return .still(decoded) }
                    guard let url = jobs[i].still else { return context.pipeline.pictureless(record) }
                    do { return .still(try loadStill(url, maxPixels: context.maxStillPixels)) } catch let e as InputError {
                        throw StillCheck.attributed(e, logPath: context.logPath, line: record.logLine, time: record.time)
                    }
                }
                context.tally.addDrawing(nanoseconds: DispatchTime.now().uptimeNanoseconds - drawStart)
                try output.deliver(image, for: record, key: jobs[i].key)
                context.tally.add(rendered: true)
            } catch {
                work.fail(error, at: i)
                // The run stops, and this frame will not reach the video: workers waiting to
                // hand theirs over are let go.
                context.output.video?.cancel()
            }
        }
    }
}

/// One chunk's rendering: on its own thread with `threads` ≥ 2 (so the next chunk can be
/// annotated meanwhile), else done before the initialiser returns.
struct PendingRender {
    private let group = DispatchGroup()
    private let queue: RenderQueue

    init(_ jobs: [FrameJob], _ context: RenderContext) {
        let queue = RenderQueue(count: jobs.count)
        self.queue = queue
        let body: @Sendable () -> Void = { render(jobs, context, queue: queue) }
        if context.threads >= 2 { DispatchQueue.global().async(group: group, execute: body) } else { body() }
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

    /// Time spent drawing frames (background, cards, HUD; not the PNG encoding), summed over
    /// the render threads.
    private var drawingNanoseconds: UInt64 = 0

    func addDrawing(nanoseconds: UInt64) {
        lock.lock(); defer { lock.unlock() }
        drawingNanoseconds += nanoseconds
    }

    var drawingSeconds: Double {
        lock.lock(); defer { lock.unlock() }
        return Double(drawingNanoseconds) / 1e9
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
