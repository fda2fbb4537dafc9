import Foundation
import Testing
import POIARCore
import SensorLog
@testable import Recordings

@Suite struct FrameSelectionTests {
    /// A pass's result with frame rows every `step` s from `start` (the log's first sample).
    func result(frames n: Int, step: Double, start: Double = 10, rows: Bool = true) -> FusionResult {
        let frames = (0..<n).map { i in
            FrameEvent(time: start + Double(i) * step, line: rows ? 100 + i : nil, still: nil, footage: nil, pose: Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0))
        }
        return FusionResult(frames: frames, track: GPSTrack(), metadata: LogMetadata(), sampleCounts: [:],
                            firstTime: start, lastTime: start + Double(n - 1) * step)
    }

    @Test func thinningKeepsTheFirstFrameOfEachSlot() {
        #expect(FrameSelection.thinned([0, 0.5, 1, 1.5, 2, 2.5, 3], rate: 0.5) == [0, 4])
        #expect(FrameSelection.thinned([0, 0.5, 1, 1.5, 2], rate: 1) == [0, 2, 4])
        #expect(FrameSelection.thinned([], rate: 1) == [])
    }

    @Test func fpsThinsFrameRowsWithANotice() throws {
        let r = result(frames: 446, step: 0.5)
        let (selected, notice) = try FrameSelection(maxRate: 0.5).apply(to: r, logPath: "walk.csv")
        #expect(selected.frames.count == 112)
        let times = selected.frames.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 2) < 1e-9 })
        #expect(notice == "frames: 112 of 446 selected: at most 0.5 a second (--fps 0.5)")
    }

    @Test func fpsLeavesSyntheticFramesAlone() throws {
        let r = result(frames: 20, step: 0.5, rows: false)
        let (selected, notice) = try FrameSelection(maxRate: 0.5).apply(to: r, logPath: "walk.csv")
        #expect(selected.frames.count == 20 && notice == nil)
    }

    @Test func rangeIsSecondsFromTheLogsStartThenEveryNth() throws {
        let r = result(frames: 100, step: 0.5, start: 10)
        let (selected, notice) = try FrameSelection(from: 5, to: 10, every: 3).apply(to: r, logPath: "walk.csv")
        // 5…10 s after the start (15…20 s on the log's clock): 11 frames, every 3rd of them.
        #expect(selected.frames.map(\.time) == [15, 16.5, 18, 19.5])
        #expect(notice == "frames: 4 of 100 selected: from 5.0 s to 10.0 s of the log, every 3rd (--every 3)")
    }

    @Test func anEmptySelectionIsAnErrorNamingTheLogsSpan() {
        let r = result(frames: 10, step: 1)
        let error = inputError { _ = try FrameSelection(from: 30).apply(to: r, logPath: "walk.csv") }
        #expect(error?.description == "walk.csv: no frame left to draw from 30.0 s to the log's end: the log's frames run from 0.0 s to 9.0 s",
                "\(String(describing: error))")
        let between = inputError { _ = try FrameSelection(from: 2.2, to: 2.8).apply(to: r, logPath: "walk.csv") }
        #expect(between?.description.hasPrefix("walk.csv: no frame left to draw from 2.2 s to 2.8 s of the log:") == true,
                "\(String(describing: between))")
    }

    @Test func keepingEveryFrameChangesNothing() throws {
        let r = result(frames: 10, step: 1)
        let (selected, notice) = try FrameSelection(from: 0, every: 1).apply(to: r, logPath: "walk.csv")
        #expect(selected.frames.count == 10 && notice == nil)
    }
}
