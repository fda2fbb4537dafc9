import Footage
import Foundation
import PoiarTestSupport
import POIARCore
import Testing

@Suite struct VideoWriterTests {
    /// Frame `k` of a test clip: a colour gradient with a white square moving right and a
    /// dark line of "text", B, G, R, A, opaque.
    func testFrame(_ k: Int, width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(40 + 160 * y / height)        // B
                pixels[i + 1] = UInt8(30 + 120 * x / width)     // G
                pixels[i + 2] = UInt8(200 - 150 * x / width)    // R
                let inSquare = (x - 4 * k) >= 10 && (x - 4 * k) < 40 && y >= 20 && y < 50
                if inSquare { pixels[i] = 250; pixels[i + 1] = 250; pixels[i + 2] = 250 }
                if y == height / 2 + 10, x % 3 != 0 { pixels[i] = 20; pixels[i + 1] = 20; pixels[i + 2] = 20 }
            }
        }
        return pixels
    }

    /// Mean absolute difference per colour channel (0…255) over the `width`×`height` top-left
    /// of a decoded frame.
    func meanError(_ frame: VideoFrame, _ source: [UInt8], width: Int, height: Int) -> Double {
        var total = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = (y * frame.width + x) * 4, b = (y * width + x) * 4
                for c in 0..<3 { total += abs(Int(frame.pixels[a + c]) - Int(source[b + c])) }
            }
        }
        return Double(total) / Double(width * height * 3)
    }

    func write(_ url: URL, frames: Int, width: Int, height: Int, rate: Double, codec: VideoWriter.Codec? = nil) throws {
        let writer = try VideoWriter(url: url, width: width, height: height, frameRate: rate, codec: codec)
        for k in 0..<frames {
            try testFrame(k, width: width, height: height).withUnsafeBytes { try writer.append($0) }
        }
        try writer.finish()
    }

    /// Both encoders: every frame back at its time, the odd size padded by one pixel, and the
    /// frames within a lossy codec's error of the source.
    @Test func roundTripThroughTheDecoder() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let (width, height) = (161, 91)  // odd: padded to 162×92
        for codec in VideoWriter.Codec.allCases where codec.isAvailable {
            let url = dir.appendingPathComponent("\(codec.rawValue).mp4")
            try write(url, frames: 12, width: width, height: height, rate: 2, codec: codec)
            let video = try VideoDecoder(path: url.path)
            #expect(video.frameCount == 12, "\(codec)")
            #expect(video.width == 162); #expect(video.height == 92)
            #expect(video.stream.codecName == (codec == .h264 ? "h264" : "mpeg4"))
            for (i, t) in video.frameTimes.enumerated() { #expect(abs((t - video.frameTimes[0]) - (Double(i) * 0.5)) <= 1e-6) }
            for k in [0, 5, 11] {
                let error = meanError(try video.frame(at: k), testFrame(k, width: width, height: height), width: width, height: height)
                // crf 20 / q 3 on a small synthetic frame: about 1 level of 255; 4 is far from
                // a wrong frame (the square moved) or a colour-matrix mismatch.
                #expect(error < 4, "\(codec) frame \(k)")
                let other = meanError(try video.frame(at: k), testFrame((k + 6) % 12, width: width, height: height), width: width, height: height)
                #expect(other > error, "\(codec) frame \(k) against another")
            }
            // The padding is black.
            let last = try video.frame(at: 0)
            let pad = (45 * last.width + 161) * 4
            #expect(Int(last.pixels[pad]) + Int(last.pixels[pad + 1]) + Int(last.pixels[pad + 2]) < 3 * 40)
        }
    }

    @Test func sameFramesMakeTheSameBytes() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let a = dir.appendingPathComponent("a.mp4"), b = dir.appendingPathComponent("b.mp4")
        try write(a, frames: 12, width: 160, height: 90, rate: 30000.0 / 1001)
        try write(b, frames: 12, width: 160, height: 90, rate: 30000.0 / 1001)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        // 29.97 frames/s is stored as 30000/1001.
        let video = try VideoDecoder(path: a.path)
        #expect(abs((video.frameTimes[11] - video.frameTimes[0]) - (11 * 1001 / 30000)) <= 1e-6)
    }

    @Test func frameRateIsTheNearestSmallRational() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        func q(_ rate: Double) -> [Int] {
            // Never finished: the writer leaves nothing behind.
            guard let w = try? VideoWriter(url: dir.appendingPathComponent("video.mp4"), width: 2, height: 2, frameRate: rate) else { return [] }
            return [w.frameRate.numerator, w.frameRate.denominator]
        }
        #expect(q(2) == [2, 1])
        #expect(q(30000.0 / 1001) == [30000, 1001])
        #expect(q(0.25) == [1, 4])
        #expect(q(1.0 / 3) == [1, 3])
        #expect(q(11 / (5.6 - 0.1)) == [2, 1])  // 2.0000000000000004
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    @Test func aWriterNeverFinishedLeavesNothing() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let url = dir.appendingPathComponent("video.mp4")
        do {
            let writer = try VideoWriter(url: url, width: 64, height: 48, frameRate: 2)
            try testFrame(0, width: 64, height: 48).withUnsafeBytes { try writer.append($0) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    @Test func aFolderThatCannotBeWrittenIsNamed() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let url = dir.appendingPathComponent("missing/video.mp4")
        let missing = try #require(throws: (any Error).self) { try VideoWriter(url: url, width: 64, height: 48, frameRate: 2) }
        #expect("\(missing)".hasPrefix(url.path + ": cannot create the file"), "\(missing)")
        #expect(!"\(missing)".contains("\n"))
        // A folder where the video goes: the finished file cannot be renamed into place.
        let blocked = dir.appendingPathComponent("video.mp4")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let blockedError = try #require(throws: (any Error).self) { try write(blocked, frames: 2, width: 64, height: 48, rate: 2) }
        #expect("\(blockedError)".hasPrefix(blocked.path + ": cannot write"), "\(blockedError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["video.mp4"])
    }
}
