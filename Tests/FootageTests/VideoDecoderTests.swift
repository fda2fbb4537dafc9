import Footage
import Foundation
import PoiarTestSupport
import POIARCore
import Testing

@Suite struct VideoDecoderTests {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    @Test func listsEveryFrameOfTheGoProClip() throws {
        let video = try VideoDecoder(path: clip)
        #expect(video.width == 848)
        #expect(video.height == 480)
        #expect(video.frameCount == 315)
        #expect(video.stream.codecName == "h264")
        // 30000/1001 fps from 0.
        #expect(abs(video.frameTimes[0] - 0) <= 1e-9)
        #expect(abs(video.frameTimes[314] - (314 * 1001 / 30000)) <= 1e-6)
    }

    @Test func frameReachedBySeekingEqualsFrameDecodedInOrder() throws {
        let inOrder = try VideoDecoder(path: clip)
        var sequential: [VideoFrame] = []
        for i in 0..<200 { sequential.append(try inOrder.frame(at: i)) }
        let seeking = try VideoDecoder(path: clip)
        for i in [199, 150, 3, 120] {
            let f = try seeking.frame(at: i)
            #expect(f.pixels == sequential[i].pixels, "frame \(i)")
            #expect(f.time == inOrder.frameTimes[i])
        }
        #expect(sequential[0].pixels != sequential[199].pixels)
    }

    @Test func goProTelemetryTrackIsADataStream() throws {
        let file = try MediaFile(path: clip)
        let gpmd = try #require(file.stream(tagged: "gpmd"))
        var payloads: [(Double?, Int)] = []
        try file.forEachPacket(of: gpmd) { t, bytes in payloads.append((t, bytes.count)) }
        #expect(payloads.count == 11)
        #expect(abs((payloads[1].0 ?? -1) - 1.001) <= 1e-3)
    }

    @Test func aFileThatIsNotAVideoIsRefusedNamingIt() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let path = dir.appendingPathComponent("notes.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: path))
        let e = try #require(throws: (any Error).self) { try VideoDecoder(path: path) }
        #expect("\(e)".hasPrefix(path), "\(e)")
    }
}

@Suite struct HEVCDecodingTests {
    /// An H.265 clip (Tests/Fixtures/footage/hevc-12-frames.mp4: 12 frames of 64×48 at 30 fps,
    /// made with PyAV's libx265): every frame decodes, in order and by seeking, to the same pixels.
    @Test func h265FramesDecode() throws {
        let path = packageRoot.appendingPathComponent("Tests/Fixtures/footage/hevc-12-frames.mp4").path
        let video = try VideoDecoder(path: path)
        #expect(video.stream.codecName == "hevc")
        #expect(video.frameCount == 12)
        #expect(video.width == 64)
        let inOrder = try (0..<12).map { try video.frame(at: $0) }
        // The red channel ramps by 20 a frame (B, G, R, A: byte 2).
        #expect(abs(Double(inOrder[5].pixels[2]) - 100) <= 6)
        let again = try VideoDecoder(path: path)
        #expect(try again.frame(at: 9).pixels == inOrder[9].pixels)
    }
}
