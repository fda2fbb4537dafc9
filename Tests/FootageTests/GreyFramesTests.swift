import Footage
import Foundation
import PoiarTestSupport
import Testing

@Suite struct GreyFramesTests {
    @Test func aVideoFrameComesAsSmallGreyLuma() throws {
        let frames = GreyVideoFrames(video: try VideoDecoder(path: sampleLogs.appendingPathComponent("gopro-walk.mp4").path))
        #expect(frames.frameTimes.count == 315)
        let frame = try frames.greyFrame(at: 100)
        #expect(frame.width == 256)
        #expect(frame.height == 144)
        #expect(frame.time == frames.frameTimes[100])
        // A daylight street: neither black nor white.
        let mean = frame.pixels.reduce(0) { $0 + Int($1) } / frame.pixels.count
        #expect((60...200).contains(mean), "mean luma \(mean)")
    }

    @Test func aStillIsReadThroughTheSamePath() throws {
        let folder = packageRoot.appendingPathComponent("Tests/Fixtures/stills").path
        let still = folder + "/lund-01.jpg"
        let stills = GreyStillFrames(folder: folder, files: [still, still], frameTimes: [10, 11])
        let frame = try stills.greyFrame(at: 1)
        #expect(frame.width == 256)
        #expect(frame.time == 11)
        let shifts = try FootageSync.measureShifts(frames: stills)
        #expect(shifts.count == 1)
        #expect(abs(shifts[0].dx - 0) <= 1e-6)
        #expect(abs(shifts[0].dy - 0) <= 1e-6)
        #expect(shifts[0].quality > 0.9)
    }
}
