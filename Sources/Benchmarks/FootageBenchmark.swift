import Dispatch
import Footage
import Foundation
import POIARCore
import Rendering

/// `poiar bench-footage`: the floor a replay over a video is measured against
/// (benchmarks/footage.sh): every frame of the video decoded in order (libavcodec, as
/// `replay`'s footage path) and written unchanged as a PNG with the same settings, `jobs` frames
/// encoded at once while the next chunk decodes — a replay's work less the labels, the HUD and
/// the pose.
public enum FootageBenchmark {
    /// Frames decoded, then encoded together.
    static let chunk = 32

    /// Whether `run` writes a file of this name (`floor_NNNNNN.png`).
    @Sendable public static func writes(_ name: String) -> Bool { name.hasPrefix("floor_") && name.hasSuffix(".png") }

    /// Decodes and encodes every frame of `video` into `outDir`; returns the seconds taken.
    public static func run(video path: String, outDir: URL, jobs: Int, level: Int) throws -> (frames: Int, seconds: Double) {
        let start = Date()
        let video = try VideoDecoder(path: path)
        var pending: DispatchGroup?
        let failure = FailureBox()
        for chunkStart in stride(from: 0, to: video.frameCount, by: chunk) {
            var images: [RasterImage] = []
            for i in chunkStart..<min(video.frameCount, chunkStart + chunk) {
                let f = try video.frame(at: i)
                images.append(RasterImage(width: f.width, height: f.height, pixels: f.pixels))
            }
            pending?.wait()
            let group = DispatchGroup()
            let first = chunkStart
            let batch = images
            DispatchQueue.global().async(group: group) {
                // `jobs` threads, each taking every jobs-th frame.
                let threads = max(1, min(jobs, batch.count))
                DispatchQueue.concurrentPerform(iterations: threads) { w in
                    for k in stride(from: w, to: batch.count, by: threads) {
                        do {
                            try writePNG(batch[k], to: outDir.appendingPathComponent(String(format: "floor_%06d.png", first + k + 1)),
                                         compressionLevel: level)
                        } catch { failure.set(error) }
                    }
                }
            }
            if jobs < 2 { group.wait() }
            pending = group
        }
        pending?.wait()
        if let error = failure.error { throw error }
        return (video.frameCount, Date().timeIntervalSince(start))
    }
}

/// The first error of the encoding threads.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var error: Error?
    func set(_ e: Error) { lock.lock(); if error == nil { error = e }; lock.unlock() }
}
