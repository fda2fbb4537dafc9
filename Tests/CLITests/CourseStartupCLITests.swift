import Foundation
import POIARCore
import Testing

/// Issue 26 item 3, `--causal` at the start: a magnetometer never calibrated (a 31 µT hard
/// iron, no `# mag_hard_iron_ut:` line) starts the live filter's heading about 65° off, and on
/// a straight walk its own fits cannot find the offset for minutes. While the filter's heading
/// σ says it is not trusted, the GPS course stands in for it (`CausalCourseStartup`); before,
/// the course took the whole error for how the phone was held and corrected nothing.
@Suite struct CourseStartupCLITests {
    @Test func anUncalibratedStartFollowsTheCourseUntilTheFieldIsTrusted() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let start = CourseHeadingCLITests.start
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z",
            "waypoints": [start, [60.1716, 24.9517], [60.1716, 24.9571]],
            "sensors": ["gps_noise": 1.0, "fps": 0, "hard_iron": [24, -15, 14], "seed": 7],
            "defaults": ["pitch": 10, "sweep": [["amplitude": 4, "period": 9]]],
            "timeline": [["walk_to": "end", "speed": 1.4]],
        ]
        let suite = CourseHeadingCLITests()
        let (log, noGPS, truth) = try suite.simulate(script, in: dir)
        let with = dir.appendingPathComponent("with.csv"), without = dir.appendingPathComponent("without.csv")
        let r = try runPoiar(["pose", log.path, "--causal", "--out", with.path])
        try #require(r.status == 0, "\(r.stderr)")
        let b = try runPoiar(["pose", noGPS.path, "--causal", "--at", "\(start[0]),\(start[1])", "--out", without.path])
        try #require(b.status == 0, "\(b.stderr)")
        #expect(r.stderr.contains("the facing direction followed the GPS course as it went, the device taken to face the direction of travel"), "\(r.stderr)")

        // North from 15 s (the first course samples come after about 10 m) to the turn at 60 s.
        let withCourse = suite.median(try suite.errors(with, truth: truth, from: 15, to: 55))
        let alone = suite.median(try suite.errors(without, truth: truth, from: 15, to: 55))
        #expect(alone > 40, "the start was not wrong enough to test: \(alone)°")
        #expect(withCourse < 12, "\(withCourse)° off with the course, \(alone)° without")
    }
}
