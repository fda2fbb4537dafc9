import Footage
import Foundation
import PoiarTestSupport
import XCTest

final class GreyFramesTests: XCTestCase {
    func testAVideoFrameComesAsSmallGreyLuma() throws {
        let frames = GreyVideoFrames(video: try VideoDecoder(path: sampleLogs.appendingPathComponent("gopro-walk.mp4").path))
        XCTAssertEqual(frames.frameTimes.count, 315)
        let frame = try frames.greyFrame(at: 100)
        XCTAssertEqual(frame.width, 256)
        XCTAssertEqual(frame.height, 144)
        XCTAssertEqual(frame.time, frames.frameTimes[100])
        // A daylight street: neither black nor white.
        let mean = frame.pixels.reduce(0) { $0 + Int($1) } / frame.pixels.count
        XCTAssertTrue((60...200).contains(mean), "mean luma \(mean)")
    }

    func testAStillIsReadThroughTheSamePath() throws {
        let folder = packageRoot.appendingPathComponent("Tests/Fixtures/stills").path
        let still = folder + "/lund-01.jpg"
        let stills = GreyStillFrames(folder: folder, files: [still, still], frameTimes: [10, 11])
        let frame = try stills.greyFrame(at: 1)
        XCTAssertEqual(frame.width, 256)
        XCTAssertEqual(frame.time, 11)
        let shifts = try FootageSync.measureShifts(frames: stills)
        XCTAssertEqual(shifts.count, 1)
        XCTAssertEqual(shifts[0].dx, 0, accuracy: 1e-6)
        XCTAssertEqual(shifts[0].dy, 0, accuracy: 1e-6)
        XCTAssertGreaterThan(shifts[0].quality, 0.9)
    }
}
