import Foundation
import POIARCore
import Testing

/// Issue 26 item 4: when the gyroscope stops and GPS goes on, the facing direction follows the
/// GPS course (with a notice), and does not freeze at the pose before the gap, offline and
/// with --causal.
@Suite struct GyroGapCLITests {
    /// (time, heading_deg) of a pose or truth CSV's rows.
    func headings(_ url: URL) throws -> [(t: Double, h: Double)] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map {
            let f = $0.split(separator: ",")
            return (Double(f[0])!, Double(f[5])!)
        }
    }

    /// A walk that turns right by about 90° while the gyro is out (40–75 s): the rows in the
    /// gap follow the true heading (held, they would be ~90° off after the turn), and the
    /// notice says why.
    @Test func aWalkWhoseGyroStopsFollowsTheCourseThroughTheTurn() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("walk.csv"), truth = dir.appendingPathComponent("truth.csv")
        let poses = dir.appendingPathComponent("poses.csv")
        // North 60 m, then east 60 m: the turn at about 46 s, in the gap.
        let sim = try runPoiar(["simulate", "--script", "walking", "--waypoints", "60.1689,24.9517;60.16944,24.9517;60.16944,24.95278",
                                "--gps-noise", "1", "--fps", "0", "--gyro-outage", "40,75", "--out", log.path, "--truth", truth.path])
        try #require(sim.status == 0, "\(sim.stderr)")
        let r = try runPoiar(["pose", log.path, "--out", poses.path])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the facing direction follows the GPS course there"), "\(r.stderr)")

        let truthRows = try headings(truth), rows = try headings(poses)
        let inGap = rows.filter { $0.t > 41 && $0.t < 74 }
        // A bridge row every 0.4 s, where the gyro gave none.
        #expect(inGap.count >= 60, "\(inGap.count) rows in the gap")
        let times = truthRows.map(\.t)
        let errors = inGap.map { row -> Double in
            let truthHeading = truthRows[min(times.interpolationInterval(for: row.t), truthRows.count - 1)].h
            return abs(wrap180(row.h - truthHeading))
        }.sorted()
        // The walking script sways the phone ±15° about the direction of travel, which the
        // course does not follow: the bound is on that sway, not on the course.
        let median = errors.isEmpty ? 180 : errors[errors.count / 2], p90 = errors.isEmpty ? 180 : errors[errors.count * 9 / 10]
        #expect(median < 12 && p90 < 30, "median \(median)°, p90 \(p90)° off the true heading in the gap")
        // Held instead, the pose before the gap would be ~90° off after the turn.
        let after = inGap.filter { $0.t > 60 }.map(\.h)
        let before = try #require(rows.last { $0.t < 40 }?.h)
        #expect(after.allSatisfy { abs(wrap180($0 - before)) > 45 }, "the facing did not turn in the gap")

        // --causal bridges the gap too, with what a live app knows: after the turn (which it
        // sees in the fixes seconds later) the facing is the course's, give or take the sway.
        let c = try runPoiar(["pose", log.path, "--causal", "--out", poses.path])
        try #require(c.status == 0, "\(c.stderr)")
        #expect(c.stderr.contains("the facing direction follows the GPS course there"), "\(c.stderr)")
        let causalRows = try headings(poses)
        #expect(causalRows.filter { $0.t > 41 && $0.t < 74 }.count >= 60, "causal rows in the gap")
        let afterTurn = causalRows.filter { $0.t > 55 && $0.t < 74 }.map { row -> Double in
            abs(wrap180(row.h - truthRows[min(times.interpolationInterval(for: row.t), truthRows.count - 1)].h))
        }.sorted()
        let causalMedian = afterTurn.isEmpty ? 180 : afterTurn[afterTurn.count / 2]
        let causalP90 = afterTurn.isEmpty ? 180 : afterTurn[afterTurn.count * 9 / 10]
        #expect(causalMedian < 15 && causalP90 < 30, "--causal: median \(causalMedian)°, p90 \(causalP90)° after the turn in the gap")
    }

    /// A phone in a car holder, tilted back and turned 30° left of the direction of travel,
    /// whose gyro stops for 40 s through a right turn: the gap follows the course plus the
    /// holding offset learned before it, not the course alone.
    @Test func aPhoneInAHolderKeepsItsHoldingOffsetThroughTheGap() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z",
            // North 600 m, then east 600 m.
            "waypoints": [[60.1689, 24.9517], [60.17429, 24.9517], [60.17429, 24.96248]],
            "sensors": ["gps_noise": 2.0, "fps": 0, "gyro_outage": [[45, 85]]],
            "timeline": [["walk_to": "end", "speed": 10.0, "pitch": 15, "heading_offset": -30, "transition": 2]],
        ]
        let scriptURL = dir.appendingPathComponent("drive.json")
        try JSONSerialization.data(withJSONObject: script).write(to: scriptURL)
        let log = dir.appendingPathComponent("drive.csv"), truth = dir.appendingPathComponent("truth.csv")
        let poses = dir.appendingPathComponent("poses.csv")
        let sim = try runPoiar(["simulate", "--script", scriptURL.path, "--out", log.path, "--truth", truth.path])
        try #require(sim.status == 0, "\(sim.stderr)")
        let r = try runPoiar(["pose", log.path, "--out", poses.path])
        try #require(r.status == 0, "\(r.stderr)")
        // The offset learned before the gap: about 30° left (facing − course ≈ −30°).
        let notice = try #require(r.stderr.split(separator: "\n").first { $0.contains("follows the GPS course there") })
        #expect(notice.contains("holding offset from the direction of travel -3") || notice.contains("holding offset from the direction of travel -2"), "\(notice)")

        let truthRows = try headings(truth), rows = try headings(poses)
        let times = truthRows.map(\.t)
        let errors = rows.filter { $0.t > 46 && $0.t < 84 }.map { row -> Double in
            abs(wrap180(row.h - truthRows[min(times.interpolationInterval(for: row.t), truthRows.count - 1)].h))
        }.sorted()
        #expect(errors.count >= 80, "\(errors.count) rows in the gap")
        let p90 = errors.isEmpty ? 180 : errors[errors.count * 9 / 10]
        #expect(p90 < 15, "p90 \(p90)° off the true heading in the gap")
    }
}
