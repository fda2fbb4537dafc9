import Foundation
import Testing

/// A phone held still by hand (issue 26.1): it never rests, its slow drift passes the rest
/// detector for a second at a time, and the offline pass must not lose to `--causal` there. It
/// says where it fell back (`OfflineTrust`).
@Suite struct StillHeldPhoneCLITests {
    /// A script file: `lead` s standing still (on a table) before and after, `held` s held in the
    /// hand between: a drift of a few degrees over tens of seconds and a small tremor.
    static func script(seed: Int, held: Double, lead: Double = 0, tremorDeg: Double = 0.01,
                       gyroBias: String = "[0.004, -0.0025, 0.003]", magnetometer: String = "") -> String {
        let hand = """
            "sweep": [{"amplitude": 2, "period": 41}, {"amplitude": 0.8, "period": 11.3}, {"amplitude": \(tremorDeg), "period": 0.12}],
            "pitch_sweep": [{"amplitude": 1.5, "period": 29}, {"amplitude": 0.6, "period": 7.7}, {"amplitude": \(tremorDeg), "period": 0.11}],
            "roll_sweep": [{"amplitude": 1.2, "period": 37}, {"amplitude": 0.5, "period": 9.1}, {"amplitude": \(tremorDeg), "period": 0.13}]
            """
        let still = #""sweep": [], "pitch_sweep": [], "roll_sweep": []"#
        var timeline: [String] = []
        if lead > 0 { timeline.append(#"{"stand": \#(lead), "heading": 40, "pitch": 8, \#(still)}"#) }
        timeline.append(#"{"stand": \#(held), "heading": 40, "pitch": 8, "transition": 2, \#(hand)}"#)
        if lead > 0 { timeline.append(#"{"stand": \#(lead), "heading": 40, "pitch": 8, \#(still)}"#) }
        return """
            {"format": "poiar-sim-script/1", "waypoints": [[60.1678863, 24.9493217]], "ground_altitude": 20.0,
             "timeline": [\(timeline.joined(separator: ", "))],
             "sensors": {"seed": \(seed), "fps": 2, "gyro_noise": 0.003, "gyro_bias": \(gyroBias),
                         "accel_noise": 0.05, "mag_noise": 0.3, "delivery": "phone"\(magnetometer)}}
            """
    }

    /// Heading and inclination RMSE of `poiar pose LOG [args]` against the truth, and pose's stderr.
    static func score(_ log: URL, truth: URL, _ args: [String], in dir: URL) throws -> (heading: Double, inclination: Double, stderr: String) {
        let poses = dir.appendingPathComponent("poses.csv")
        let pose = try runPoiar(["pose", log.path, "--out", poses.path] + args)
        #expect(pose.status == 0, "\(pose.stderr)")
        let r = try runPoiar(["evaluate", "--truth", truth.path, "--poses", poses.path, "--json"])
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (obj?["heading_rmse_deg"] as? Double ?? .nan, obj?["inclination_rmse_deg"] as? Double ?? .nan, pose.stderr)
    }

    static func simulate(_ script: String, in dir: URL) throws -> (log: URL, truth: URL) {
        let file = dir.appendingPathComponent("still.script.json")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("still.csv"), truth = dir.appendingPathComponent("still.truth.csv")
        let sim = try runPoiar(["simulate", "--script", file.path, "--out", log.path, "--truth", truth.path])
        #expect(sim.status == 0, "\(sim.stderr)")
        return (log, truth)
    }

    /// Seed 2: the hand's drift passes for rests eight times (a bias error of up to 0.65°/s);
    /// before the fix offline 4.07° against causal 2.79°. Seed 7 with a stronger tremor: no
    /// rest at all, the vertical bias learnt from the field alone (1.02° against 0.74°). Seed 3
    /// held for 5 minutes: the passes still took the hand's still moments for rests (offline
    /// 1.24° against causal 1.08°) until they stopped doing so in the hold (0.16°).
    @Test(arguments: [(2, 0.01, 120.0), (7, 0.08, 120), (3, 0.01, 300)])
    func offlineIsNoWorseThanCausal(seed: Int, tremorDeg: Double, held: Double) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, truth) = try Self.simulate(Self.script(seed: seed, held: held, tremorDeg: tremorDeg), in: dir)
        let offline = try Self.score(log, truth: truth, [], in: dir)
        let causal = try Self.score(log, truth: truth, ["--causal"], in: dir)
        #expect(offline.heading <= causal.heading, "offline \(offline.heading)° causal \(causal.heading)°")
        #expect(offline.inclination <= causal.inclination, "offline \(offline.inclination)° causal \(causal.inclination)°")
        #expect(offline.stderr.contains("poiar: offline fusion: the device was held still without a rest of 5 s or more to measure the gyro bias for the whole recording"),
                "\(offline.stderr)")
        #expect(!causal.stderr.contains("offline fusion"))
    }

    /// Set down before and after: the rests measure the bias, the offline pass keeps its long
    /// time constant and says nothing.
    @Test func aPhoneSetDownBeforeAndAfterKeepsTheOfflinePass() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, truth) = try Self.simulate(Self.script(seed: 2, held: 60, lead: 20), in: dir)
        let offline = try Self.score(log, truth: truth, [], in: dir)
        let causal = try Self.score(log, truth: truth, ["--causal"], in: dir)
        #expect(!offline.stderr.contains("offline fusion"), "\(offline.stderr)")
        #expect(offline.heading <= causal.heading, "offline \(offline.heading)° causal \(causal.heading)°")
    }

    /// An iPhone held still (iOS-like: a calibrated gyro, the OS-calibrated `mag` rows beside the
    /// raw `mag_uncal` with a 55 µT hard iron) where the local field is 3 µT off WMM2025's (a
    /// building): the horizontal-plane fit of the raw stream took that for a hard iron and
    /// turned the heading 1.1° off the local field the OS's stream, `--causal` and the phone's
    /// own attitude read. The OS's calibration is kept: the offline heading is the one it has
    /// with no hard iron at all, and no worse than causal.
    @Test func anIPhoneHeldStillKeepsTheOSCalibration() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let at = ["--at", "60.1678863,24.9493217"]
        let local = #", "mag_disturbance": [[0, 1000, 3]]"#
        let iron = #", "hard_iron": [40, -25, 30], "os_mag_calibration": [[0, 40, -25, 30]]"#
        let (log, truth) = try Self.simulate(Self.script(seed: 3, held: 120, gyroBias: "[0, 0, 0]", magnetometer: local + iron), in: dir)
        let offline = try Self.score(log, truth: truth, at, in: dir)
        let causal = try Self.score(log, truth: truth, at + ["--causal"], in: dir)
        #expect(offline.stderr.contains("the OS's calibration is kept"), "\(offline.stderr)")
        let (plainLog, plainTruth) = try Self.simulate(Self.script(seed: 3, held: 120, gyroBias: "[0, 0, 0]", magnetometer: local), in: dir)
        let plain = try Self.score(plainLog, truth: plainTruth, at, in: dir)
        #expect(abs(offline.heading - plain.heading) <= 0.05, "offline \(offline.heading)° without the hard iron \(plain.heading)°")
        #expect(offline.heading <= causal.heading, "offline \(offline.heading)° causal \(causal.heading)°")
    }

    /// The real Android handling recording, scored against the phone's own orientation (itself a
    /// causal fusion, about 1° from either of poiar's): the offline pass within 0.1° of causal.
    static let realRequired = SharedData.required("phones/android-orientation/Orientation.csv")

    @Test(realRequired.trait)
    func realHandlingRecording() throws {
        try Self.realRequired.check()
        let rec = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/phones/android-orientation").path
        func heading(_ args: [String]) throws -> Double {
            let r = try runPoiar(["evaluate", rec, "--truth", rec, "--json"] + args)
            #expect(r.status == 0, "\(r.stderr)")
            let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return obj?["heading_rmse_deg"] as? Double ?? .nan
        }
        let offline = try heading([]), causal = try heading(["--causal"])
        #expect(offline <= causal + 0.1, "offline \(offline)° causal \(causal)°")
    }
}
