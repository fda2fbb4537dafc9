import Footage
import Foundation
import PoiarTestSupport
import POIARCore
import XCTest

final class VideoDecoderTests: XCTestCase {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    func testListsEveryFrameOfTheGoProClip() throws {
        let video = try VideoDecoder(path: clip)
        XCTAssertEqual(video.width, 848)
        XCTAssertEqual(video.height, 480)
        XCTAssertEqual(video.frameCount, 315)
        XCTAssertEqual(video.stream.codecName, "h264")
        // 30000/1001 fps from 0.
        XCTAssertEqual(video.frameTimes[0], 0, accuracy: 1e-9)
        XCTAssertEqual(video.frameTimes[314], 314 * 1001 / 30000, accuracy: 1e-6)
    }

    func testFrameReachedBySeekingEqualsFrameDecodedInOrder() throws {
        let inOrder = try VideoDecoder(path: clip)
        var sequential: [VideoFrame] = []
        for i in 0..<200 { sequential.append(try inOrder.frame(at: i)) }
        let seeking = try VideoDecoder(path: clip)
        for i in [199, 150, 3, 120] {
            let f = try seeking.frame(at: i)
            XCTAssertEqual(f.pixels, sequential[i].pixels, "frame \(i)")
            XCTAssertEqual(f.time, inOrder.frameTimes[i])
        }
        XCTAssertNotEqual(sequential[0].pixels, sequential[199].pixels)
    }

    func testGoProTelemetryTrackIsADataStream() throws {
        let file = try MediaFile(path: clip)
        let gpmd = try XCTUnwrap(file.stream(tagged: "gpmd"))
        var payloads: [(Double?, Int)] = []
        try file.forEachPacket(of: gpmd) { t, bytes in payloads.append((t, bytes.count)) }
        XCTAssertEqual(payloads.count, 11)
        XCTAssertEqual(payloads[1].0 ?? -1, 1.001, accuracy: 1e-3)
    }

    func testAFileThatIsNotAVideoIsRefusedNamingIt() throws {
        let dir = try makeTempDir()
        let path = dir.appendingPathComponent("notes.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try VideoDecoder(path: path)) { e in
            XCTAssertTrue("\(e)".hasPrefix(path), "\(e)")
        }
    }
}

final class HEVCDecodingTests: XCTestCase {
    /// An H.265 clip (Tests/Fixtures/footage/hevc-12-frames.mp4: 12 frames of 64×48 at 30 fps,
    /// made with PyAV's libx265): every frame decodes, in order and by seeking, to the same pixels.
    func testH265FramesDecode() throws {
        let path = packageRoot.appendingPathComponent("Tests/Fixtures/footage/hevc-12-frames.mp4").path
        let video = try VideoDecoder(path: path)
        XCTAssertEqual(video.stream.codecName, "hevc")
        XCTAssertEqual(video.frameCount, 12)
        XCTAssertEqual(video.width, 64)
        let inOrder = try (0..<12).map { try video.frame(at: $0) }
        // The red channel ramps by 20 a frame (B, G, R, A: byte 2).
        XCTAssertEqual(Double(inOrder[5].pixels[2]), 100, accuracy: 6)
        let again = try VideoDecoder(path: path)
        XCTAssertEqual(try again.frame(at: 9).pixels, inOrder[9].pixels)
    }
}
