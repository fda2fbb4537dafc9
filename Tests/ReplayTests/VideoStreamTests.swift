import Dispatch
import Footage
@testable import FolderExtras
import Foundation
import POIARCore
import Rendering
import Testing
@testable import Replay

/// `VideoStream`: frames handed over in any order, from several threads, make the video of
/// the frames in order; a stopped stream lets waiting threads go and leaves no file.
@Suite struct VideoStreamTests {
    /// Frame k: a grey level that steps with k, and a bar at a place of its own, so frames in
    /// the wrong order decode visibly different.
    static func frame(_ k: Int, width: Int = 64, height: Int = 48) -> RasterImage {
        var image = RasterImage(width: width, height: height, filledWith: RGBA8(r: UInt8(20 + 9 * k), g: 90, b: 160))
        for y in 0..<height {
            for x in (k * 2 % width)..<min(width, k * 2 % width + 6) {
                let i = y * image.bytesPerRow + x * 4
                image.pixels[i] = 255; image.pixels[i + 1] = 255; image.pixels[i + 2] = 255
            }
        }
        return image
    }

    static let codec = VideoWriter.Codec.best!

    @Test func framesGivenOutOfOrderFromManyThreadsMakeTheInOrderVideo() throws {
        let dir = try makeTempDir("video-stream")
        defer { cleanUp(dir) }
        let count = 24
        // In order, one thread: the reference.
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        for d in [a, b] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        let inOrder = try VideoStream(url: a.appendingPathComponent("video.mp4"), frameRate: 10, codec: Self.codec, window: 2)
        for k in 1...count { try inOrder.add(frame: k, Self.frame(k)) }
        try inOrder.finish(count: count)

        // Four threads take frames from a shared counter, each holding its frame a moment at
        // random, so they arrive out of order and the small window makes some wait.
        let stream = try VideoStream(url: b.appendingPathComponent("video.mp4"), frameRate: 10, codec: Self.codec, window: 2)
        let counter = Counter()
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while let k = counter.next(upTo: count) {
                usleep(UInt32.random(in: 0...3000))
                do { try stream.add(frame: k, Self.frame(k)) } catch { _ = failures.next(upTo: .max) }
            }
        }
        #expect(failures.value == 0)
        try stream.finish(count: count)
        #expect(try Data(contentsOf: a.appendingPathComponent("video.mp4")) == Data(contentsOf: b.appendingPathComponent("video.mp4")))
        let video = try VideoDecoder(path: b.appendingPathComponent("video.mp4").path)
        #expect(video.frameCount == count)
        // Frame 10 decodes as frame 10 (its grey level), not as a neighbour.
        let decoded = try video.frame(at: 9)
        let red = Int(decoded.pixels[(24 * decoded.width + 40) * 4 + 2])  // B, G, R, A
        #expect(abs(red - (20 + 9 * 10)) <= 4, "red \(red)")
    }

    /// A thread waiting for room (frame 5 while 2 and 3 wait for the missing frame 1) is let go
    /// by `cancel`, and no video or temporary file is left.
    @Test func cancelLetsWaitingThreadsGoAndLeavesNoFile() throws {
        let dir = try makeTempDir("video-stream")
        defer { cleanUp(dir) }
        let stream = try VideoStream(url: dir.appendingPathComponent("video.mp4"), frameRate: 10, codec: Self.codec, window: 2)
        try stream.add(frame: 2, Self.frame(2))
        try stream.add(frame: 3, Self.frame(3))
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? stream.add(frame: 5, Self.frame(5))  // waits: the window is full
            released.signal()
        }
        #expect(released.wait(timeout: .now() + 0.3) == .timedOut, "frame 5 did not wait for room")
        stream.cancel()
        #expect(released.wait(timeout: .now() + 10) == .success, "cancel did not let the waiting thread go")
        stream.cancel()  // again: nothing more happens
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    /// The stream's own error (frames of two sizes) reaches the thread that hands over the
    /// next frame or finishes, naming the frame's file; no video is left.
    @Test func aFrameOfAnotherSizeStopsTheVideo() throws {
        let dir = try makeTempDir("video-stream")
        defer { cleanUp(dir) }
        let stream = try VideoStream(url: dir.appendingPathComponent("video.mp4"), frameRate: 10, codec: Self.codec, window: 2)
        try stream.add(frame: 1, Self.frame(1))
        try stream.add(frame: 2, Self.frame(2, width: 32))
        let error = #expect(throws: InputError.self) { try stream.finish(count: 2) }
        #expect(error?.description == "\(dir.appendingPathComponent("frame_000002.png").path): is 32×48 pixels, frame 1 is 64×48: the frames of one video are one size")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    /// Where the video goes is a folder: refused when the stream starts, before any frame.
    @Test func aFolderInTheVideosPlaceIsRefusedAtOnce() throws {
        let dir = try makeTempDir("video-stream")
        defer { cleanUp(dir) }
        let target = dir.appendingPathComponent("video.mp4")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let error = #expect(throws: InputError.self) {
            _ = try VideoStream(url: target, frameRate: 10, codec: Self.codec, window: 2)
        }
        #expect(error?.description == "\(target.path): cannot write: Is a directory")
    }
}

/// A counter shared by threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    /// The next number from 1, or nil past `limit`.
    func next(upTo limit: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard n < limit else { return nil }
        n += 1
        return n
    }
}

/// The shared rule for tests that need something from outside the repository.
@Suite struct RequiredUnderCITests {
    @Test func aMissingNeedFailsTheCheckAndSkipsOnlyOutsideCI() throws {
        let missing = RequiredUnderCI(missing: "no such program")
        #expect(throws: RequiredUnderCI.Missing.self) { try missing.check() }
        #expect(throws: Never.self) { try RequiredUnderCI(missing: nil).check() }
        #expect(FuzzCorpus.folder.lastPathComponent == "fuzz")
        #expect(SharedData.required("no-such-folder-here").missing == "../shared/data/no-such-folder-here beside the repository")
    }
}
