import Footage
import Foundation
import Frames
import POIARCore
import Rendering

/// `video.mp4` encoded while the frames are drawn: the render workers hand each frame's pixels
/// over as soon as it is drawn, in whatever order they finish, and one thread of its own feeds
/// them to `VideoWriter` in frame order. The encoding so overlaps the drawing of later frames
/// instead of following the whole run (which had to read every PNG back).
///
/// At most `window` frames wait here beside the one the encoder needs next; a worker with a
/// later frame waits for room, so memory stays bounded when the encoder is the slower. The
/// frame the encoder needs next is always let in, and the workers are handed frames in order,
/// so the frame that frees the window is always on its way: the wait cannot close in on itself.
public final class VideoStream: @unchecked Sendable {
    public let url: URL
    private let frameRate: Double
    private let codec: VideoWriter.Codec
    private let window: Int

    private let condition = NSCondition()
    /// Frames drawn, waiting for their turn (by frame number, from 1).
    private var waiting: [Int: RasterImage] = [:]
    /// The frame the encoder takes next.
    private var next = 1
    /// No frame comes after those given (`finish`), or the run stopped (`cancel`).
    private var closing = false
    private var cancelled = false
    /// The encoder's first error; it stops the stream.
    private var failure: Error?
    /// Signalled when the encoding thread has ended (a latch: `join` signals it again, so any
    /// number of threads may wait for it).
    private let ended = DispatchSemaphore(value: 0)
    /// Only the encoding thread touches it until `ended` is signalled.
    private var writer: VideoWriter?

    /// Starts the encoding thread for `url` (written under a hidden temporary name, renamed by
    /// `finish`). The video takes frame 1's size.
    init(url: URL, frameRate: Double, codec: VideoWriter.Codec, window: Int) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            // Checked now, before any frame is drawn, rather than when the finished file is renamed.
            throw InputError(file: url.path, "cannot write: Is a directory")
        }
        self.url = url
        self.frameRate = frameRate
        self.codec = codec
        self.window = max(1, window)
        Thread.detachNewThread { [self] in encodeInOrder() }
    }

    /// Hands over frame `frame`'s pixels (drawn, or read back from its PNG); waits while the
    /// window is full and this is not the frame the encoder needs. Throws the encoder's error;
    /// after `cancel` the frame is dropped (the run is stopping with its own error).
    public func add(frame: Int, _ image: RasterImage) throws {
        condition.lock()
        defer { condition.unlock() }
        while frame != next && waiting.count >= window && failure == nil && !cancelled { condition.wait() }
        if let failure { throw failure }
        if cancelled { return }
        waiting[frame] = image
        condition.broadcast()
    }

    /// After the last frame (`count` frames in all): waits for the encoder, completes the file
    /// and renames it into place.
    public func finish(count: Int) throws {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
        join()
        if let failure { throw failure }
        guard let writer, writer.frameCount == count else {
            throw InputError(file: url.path, "the video has \(writer?.frameCount ?? 0) of \(count) frames")
        }
        try writer.finish()
    }

    /// The line that says the finished video was written ("wrote video.mp4: 446 frames at …").
    public func writtenLine(count: Int, size: String) -> String {
        String(format: "wrote %@: %d frames at %.2f fps, %@ %@", VideoEncoder.fileName, count, frameRate, codec.description, size)
    }

    /// Stops the stream without a file: workers waiting for room are let go, the encoder ends
    /// and its temporary file is removed. Any thread may call it, more than once.
    public func cancel() {
        condition.lock()
        cancelled = true
        waiting = [:]
        condition.broadcast()
        condition.unlock()
        join()
    }

    private func join() {
        ended.wait()
        ended.signal()
    }

    /// The encoding thread: the next frame as soon as it is there, until `finish` or `cancel`.
    private func encodeInOrder() {
        defer { ended.signal() }
        while true {
            condition.lock()
            while waiting[next] == nil && !closing && !cancelled { condition.wait() }
            guard !cancelled, let image = waiting.removeValue(forKey: next) else {
                // Cancelled: the writer goes, and with it its temporary file.
                if cancelled { writer = nil }
                condition.unlock()
                return
            }
            let frame = next
            next += 1
            condition.broadcast()
            condition.unlock()
            do {
                try encode(image, frame: frame)
            } catch {
                writer = nil  // no file comes of it: its temporary file goes now
                condition.lock()
                failure = error
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    private func encode(_ image: RasterImage, frame: Int) throws {
        let writer = try self.writer ?? VideoWriter(url: url, width: image.width, height: image.height,
                                                    frameRate: frameRate, codec: codec)
        self.writer = writer
        guard image.width == writer.width, image.height == writer.height else {
            let file = url.deletingLastPathComponent().appendingPathComponent(FrameRecord.imageName(index: frame))
            throw InputError(file: file.path, "is \(image.width)×\(image.height) pixels, frame 1 is \(writer.width)×\(writer.height): the frames of one video are one size")
        }
        try image.pixels.withUnsafeBytes { try writer.append($0) }
    }
}
