import Foundation
import POIARCore
import PoiarTestSupport
import Recordings
import SensorLog
import Testing

/// One recording, opened once: north and the fusion pass share the first reading; a second
/// reading happens only when asked for, and is counted.
@Suite struct RecordingReadingsTests {
    let walk = sampleLogs.appendingPathComponent("walk.csv").path
    let clip = sampleLogs.appendingPathComponent("gopro-walk.mp4").path

    /// The pose rows of a pass over `recording` (north from `northOf`'s first fix, as `pose`
    /// does), and what the pass returned.
    func poseRows(_ recording: Recording, causal: Bool, northOf: Recording? = nil) throws -> (rows: [String], fused: FusionResult) {
        var pass = FusionPass()
        pass.north = try TrueNorth.reference(for: northOf ?? recording, NorthChoice())
        pass.causal = causal
        var rows: [String] = []
        pass.onPose = { t, pose, _ in rows.append(String(format: "%.6f %.9f %.9f %.9f %.9f", t, pose.orientation.w, pose.orientation.x,
                                                      pose.orientation.y, pose.orientation.z)) }
        let fused = try pass.run(recording)
        return (rows, fused)
    }

    @Test(arguments: [false, true]) func northAndTheFusionPassReadTheLogOnce(causal: Bool) throws {
        let recording = try Recording(path: walk)
        let rows = try poseRows(recording, causal: causal).rows
        #expect(recording.readings == 1)
        #expect(rows.count > 1000)
    }

    /// The records read ahead to the first fix reach the pass: a walk whose first fix comes
    /// 5 s in gives the same poses whether north looked ahead for it or not.
    @Test(arguments: [false, true]) func recordsReadAheadReachThePass(causal: Bool) throws {
        let dir = try makeTempDir("recording")
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try walkPrefix(seconds: 20).split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            guard line.contains(",gps,"), let comma = line.firstIndex(of: ","), let t = Double(line[..<comma]) else { return true }
            return t >= 5
        }
        let log = dir.appendingPathComponent("late-fix.csv")
        try Data(lines.joined(separator: "\n").utf8).write(to: log)

        let lookedAhead = try Recording(path: log.path)
        let fix = try #require(try lookedAhead.firstUsableFix())
        #expect(fix.time >= 5, "the first fix comes 5 s in, after thousands of samples")
        let rows = try poseRows(lookedAhead, causal: causal).rows
        #expect(lookedAhead.readings == 1)

        // A pass over a recording that did not look ahead first (the same north).
        let (plainRows, fused) = try poseRows(try Recording(path: log.path), causal: causal, northOf: lookedAhead)
        #expect(rows.count > 1000)
        #expect(plainRows == rows)
        #expect(fused.track.fixes.first?.time == fix.time)
    }

    /// Records in a reading, to its end.
    func count(_ reading: any LogSource) throws -> Int {
        var n = 0
        while try reading.nextRecord() != nil { n += 1 }
        return n
    }

    @Test func aSecondReadingIsCountedAndReadsTheSameRecords() throws {
        let recording = try Recording(path: walk)
        let first = try count(try recording.stream(notice: nil))
        let second = try count(try recording.secondReading())
        #expect(recording.readings == 2)
        #expect(first == second && first > 0)
    }

    /// A GoPro clip: its telemetry parsed once (a second reading walks the same records), and
    /// the open file kept for its video.
    @Test func aClipsTelemetryIsNotParsedAgain() throws {
        let recording = try Recording(path: clip)
        #expect(recording.kind == .clip)
        #expect(recording.clip != nil, "the clip's file, open for its video")
        let first = try count(try recording.stream(notice: nil))
        let second = try count(try recording.secondReading())
        #expect(first == second && first > 0)
    }

    @Test func aLogWithoutSamplesIsEmptyAndHasNoFix() throws {
        let dir = try makeTempDir("recording")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("empty.csv")
        try Data("# format: poiar-log/1\n\(SensorLogReader.header)\n".utf8).write(to: log)
        let recording = try Recording(path: log.path)
        #expect(try recording.firstUsableFix() == nil)
        #expect(try recording.isEmpty())
        #expect(recording.readings == 1)
    }
}
