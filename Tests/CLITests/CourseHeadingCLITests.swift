import Foundation
import POIARCore
import Testing

/// Issue 26 item 3: the GPS course as a heading measurement, in both passes. Each recording is
/// simulated, then fused twice: as it is, and without its gps rows (`--at` giving the place
/// for the magnetic model), which is the fusion without the course. The course must correct a
/// field that goes wrong for a while (a walk, a phone in a holder tilted back and turned off
/// the direction of travel), and change nothing for a user who looks around while walking.
@Suite struct CourseHeadingCLITests {
    static let start = [60.1689, 24.9517]

    /// |heading error| against the truth of the rows within [t0, t1], sorted.
    func errors(_ poses: URL, truth: URL, from t0: Double, to t1: Double) throws -> [Double] {
        func rows(_ url: URL) throws -> [(t: Double, h: Double)] {
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map {
                let f = $0.split(separator: ",")
                return (Double(f[0])!, Double(f[5])!)
            }
        }
        let truthRows = try rows(truth), times = truthRows.map(\.t)
        return try rows(poses).filter { $0.t >= t0 && $0.t <= t1 }.map { row in
            abs(wrap180(row.h - truthRows[min(times.interpolationInterval(for: row.t), truthRows.count - 1)].h))
        }.sorted()
    }

    func median(_ e: [Double]) -> Double { e.isEmpty ? 180 : e[e.count / 2] }

    /// The script simulated into `dir`: the log, the same log without its gps rows (the fusion
    /// without the course, given `--at`), and the truth.
    func simulate(_ script: [String: Any], in dir: URL) throws -> (log: URL, noGPS: URL, truth: URL) {
        let scriptURL = dir.appendingPathComponent("script.json")
        try JSONSerialization.data(withJSONObject: script).write(to: scriptURL)
        let log = dir.appendingPathComponent("log.csv"), truth = dir.appendingPathComponent("truth.csv")
        let sim = try runPoiar(["simulate", "--script", scriptURL.path, "--out", log.path, "--truth", truth.path])
        try #require(sim.status == 0, "\(sim.stderr)")
        let noGPS = dir.appendingPathComponent("no-gps.csv")
        let text = try String(contentsOf: log, encoding: .utf8)
        try text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(",gps,") }
            .joined(separator: "\n").write(to: noGPS, atomically: true, encoding: .utf8)
        return (log, noGPS, truth)
    }

    /// The script simulated, fused with and without its GPS course (offline, then causal):
    /// (with, without) error medians over each window.
    func fuse(_ script: [String: Any], windows: [(Double, Double)]) throws -> [(mode: String, with: [Double], without: [Double], stderr: String)] {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, noGPS, truth) = try simulate(script, in: dir)
        var out: [(String, [Double], [Double], String)] = []
        for mode in [[], ["--causal"]] {
            let with = dir.appendingPathComponent("with.csv"), without = dir.appendingPathComponent("without.csv")
            let r = try runPoiar(["pose", log.path, "--out", with.path] + mode)
            try #require(r.status == 0, "\(r.stderr)")
            let b = try runPoiar(["pose", noGPS.path, "--at", "\(Self.start[0]),\(Self.start[1])", "--out", without.path] + mode)
            try #require(b.status == 0, "\(b.stderr)")
            out.append((mode.first ?? "offline",
                        try windows.map { median(try errors(with, truth: truth, from: $0.0, to: $0.1)) },
                        try windows.map { median(try errors(without, truth: truth, from: $0.0, to: $0.1)) }, r.stderr))
        }
        return out
    }

    /// A walk (north 300 m, then east) whose field is pushed 6 µT east from 60 to 150 s: the
    /// fused heading is ~20° off there; the course brings it back, and leaves the rest.
    @Test func aWalkWhoseFieldGoesWrongIsCorrectedByTheCourse() throws {
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z",
            "waypoints": [Self.start, [60.1716, 24.9517], [60.1716, 24.9571]],
            "sensors": ["gps_noise": 3.0, "fps": 0, "mag_disturbance": [[60, 150, 6]]],
            "defaults": ["pitch": 10, "sweep": [["amplitude": 4, "period": 9]]],
            "timeline": [["walk_to": "end", "speed": 1.4]],
        ]
        for r in try fuse(script, windows: [(70, 150), (230, 420)]) {
            #expect(r.without[0] > 15, "\(r.mode): the field was not wrong enough to test: \(r.without[0])°")
            #expect(r.with[0] < r.without[0] - 6, "\(r.mode): disturbed span \(r.with[0])° with the course, \(r.without[0])° without")
            #expect(r.with[1] < r.without[1] + 1.5, "\(r.mode): undisturbed \(r.with[1])° with the course, \(r.without[1])° without")
            #expect(r.stderr.contains("the GPS course corrected the facing direction"), "\(r.stderr)")
        }
    }

    /// A phone in a car holder, tilted back and turned 25° right of the direction of travel,
    /// the field wrong from 60 to 150 s: the holding offset is learned, not corrected away.
    @Test func aPhoneInAHolderTiltedBackKeepsItsOffsetAndIsCorrected() throws {
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z",
            "waypoints": [Self.start, [60.1779, 24.9517], [60.1779, 24.9697], [60.1689, 24.9697]],
            "sensors": ["gps_noise": 3.0, "fps": 0, "mag_disturbance": [[60, 150, 6]]],
            "timeline": [["walk_to": "end", "speed": 10.0, "pitch": -30, "heading_offset": 25, "transition": 2]],
        ]
        for r in try fuse(script, windows: [(70, 150), (180, 290)]) {
            #expect(r.without[0] > 15, "\(r.mode): the field was not wrong enough to test: \(r.without[0])°")
            #expect(r.with[0] < r.without[0] - 6, "\(r.mode): disturbed span \(r.with[0])° with the course, \(r.without[0])° without")
            #expect(r.with[1] < r.without[1] + 1.5, "\(r.mode): undisturbed \(r.with[1])° with the course, \(r.without[1])° without")
        }
    }

    /// A user who looks around while walking (sweeps of ±50° and ±20°, a shop looked at,
    /// minutes at 70° right and then 40° left of the way): the course changes nothing.
    @Test func lookingAroundWhileWalkingIsNotCorrectedAway() throws {
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z",
            "waypoints": [Self.start, [60.1719, 24.9517], [60.1719, 24.9577]],
            "targets": ["shop": [60.1705, 24.9530]],
            "sensors": ["gps_noise": 3.0, "fps": 0],
            "defaults": ["pitch": 5, "sweep": [["amplitude": 50, "period": 14], ["amplitude": 20, "period": 5]]],
            "timeline": [["walk_to": 150, "speed": 1.4], ["walk_to": 250, "speed": 1.4, "look_at": "shop", "transition": 3],
                         ["walk_to": 450, "speed": 1.4, "heading_offset": 70, "transition": 3],
                         ["walk_to": "end", "speed": 1.4, "heading_offset": -40]],
        ]
        for r in try fuse(script, windows: [(0, 1e9)]) {
            #expect(abs(r.with[0] - r.without[0]) < 0.5, "\(r.mode): \(r.with[0])° with the course, \(r.without[0])° without")
        }
    }
}
