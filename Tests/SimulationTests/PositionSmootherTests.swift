import Foundation
import Geodesy
import POIARCore
import Recordings
import Testing
@testable import Simulation

/// The position smoother against the simulator's GPS error model (docs/position.md): the
/// figures issue 28 asks for, on the sample walk with multipath bursts, so a change that makes
/// the smoother worse fails here.
@Suite struct PositionSmootherTests {
    /// The sample walk with the benchmark's GPS errors, for `seed`: its fixes, its true
    /// positions at frame times (time, lat, lon), and the walker's motion from its accelerometer
    /// samples (`StepDetector`, the direction faced from the true attitude).
    /// With `dropouts`, the benchmark's `dropouts` model instead (benchmarks/position.sh: gaps
    /// of 5–20 s 1.5 times a minute, 10 % stale fixes). `script`: another of
    /// benchmarks/position's scripts (the drive).
    /// With `slowWander`, the benchmark's `slow` model: an 8 m wander over 300 s; with `wander`,
    /// its `wander` model: 6 m over 120 s. With `bursts`,
    /// the benchmark's `bursts` model: 30–50 m for 8–20 s twice a minute, claiming 6–10 m.
    static func walk(seed: UInt64, dropouts: Bool = false, slowWander: Bool = false, wander: Bool = false, bursts: Bool = false,
                     script name: String = "walk-multipath") throws
        -> (fixes: [GPSFix], truth: [(Double, Double, Double)], motion: [MotionSample]) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("benchmarks/position/\(name).script.json").path
        var config = try SimulationSetup.config(script: script, waypoints: nil, pathFile: nil, startUTC: startUTC)
        config.seed = seed
        if dropouts {
            config.gpsErrors.dropouts = .init(perMinute: 1.5, seconds: 5...20)
            config.gpsErrors.staleFraction = 0.1
        }
        if slowWander {
            config.gpsNoise = 8
            config.gpsErrors.wanderSeconds = 300
        }
        if wander {
            config.gpsNoise = 6
            config.gpsErrors.wanderSeconds = 120
        }
        if bursts {
            config.gpsErrors.multipath = .init(perMinute: 2, seconds: 8...20, offset: 30...50, claimed: 6...10)
        }
        var sim = Simulated()
        var truth: [(Double, Double, Double)] = []
        try Simulator(config: config).run(log: { sim.log.append($0) }, truth: { sim.truth.append($0) }, track: { line in
            let p = line.split(separator: ",").compactMap { Double($0) }
            if p.count >= 3 { truth.append((p[0], p[1], p[2])) }
        })
        let samples = sim.samples
        let fixes = samples.compactMap { s -> GPSFix? in if case .gps(let f) = s { return f }; return nil }
        var steps = StepDetector()
        for case .vector(.accel, let t, let v) in samples.sorted(by: { $0.time < $1.time }) { steps.add(time: t, force: v) }
        let attitude = sim.truthSeries
        let motion = steps.motion { t in
            let i = min(attitude.times.count - 1, max(0, attitude.times.firstIndex { $0 >= t } ?? attitude.times.count - 1))
            return attitude.quaternions[i].map(Pose.init)
        }
        return (fixes.sorted { $0.time < $1.time }, truth, motion)
    }

    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p / 100).rounded()))]
    }

    /// The errors at the walk's frame times (m) of the raw fixes and of the track, smoothed over
    /// the whole walk or (`causal`) by the forward filter, and how many are within σ and 2σ.
    struct Scores {
        var raw: [Double] = [], estimate: [Double] = []
        var within1 = 0, within2 = 0
        var motionFixes = 0, fixes = 0
        mutating func add(_ other: Scores) {
            raw += other.raw; estimate += other.estimate
            within1 += other.within1; within2 += other.within2
        }
        func share(_ count: Int) -> Double { Double(count) / Double(estimate.count) }
    }

    /// The three walks, simulated once for all the tests.
    static let walks: [UInt64: Result<(fixes: [GPSFix], truth: [(Double, Double, Double)], motion: [MotionSample]), any Error>] =
        Dictionary(uniqueKeysWithValues: seeds.map { seed in (seed, Result { try walk(seed: seed) }) })

    /// The walk of the `dropouts` model whose burst ran into a gap (docs/position.md).
    static let dropoutWalk = Result { try walk(seed: 20250614, dropouts: true) }

    static func scores(seed: UInt64, withSteps: Bool, causal: Bool = false, dropouts: Bool = false) throws -> Scores {
        let simulated = dropouts ? dropoutWalk : try #require(walks[seed])
        let (fixes, truth, motion) = try simulated.get()
        return try scores(fixes: fixes, truth: truth, motion: withSteps ? motion : [], causal: causal)
    }

    /// The scores of `fixes` smoothed with `motion` against `truth` (time, lat, lon).
    static func scores(fixes: [GPSFix], truth: [(Double, Double, Double)], motion: [MotionSample], causal: Bool) throws -> Scores {
        var track = GPSTrack()
        fixes.forEach { track.add($0) }
        track.smooth(causal: causal, motion: motion)
        var out = Scores(motionFixes: track.smoothed?.motionFixes ?? 0, fixes: fixes.count)
        for (t, lat, lon) in truth {
            let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: lat, longitude: lon, altitude: 0))
            func error(_ c: GeoCoordinate) -> Double {
                let v = plane.enu(GeoCoordinate(latitude: c.latitude, longitude: c.longitude, altitude: 0))
                return (v.x * v.x + v.y * v.y).squareRoot()
            }
            let e = try #require(track.estimate(at: t))
            let sigma = try #require(e.sigma)
            out.raw.append(error(try #require(e.gps).coordinate))
            let s = error(e.location.coordinate)
            out.estimate.append(s)
            out.within1 += s <= sigma ? 1 : 0
            out.within2 += s <= 2 * sigma ? 1 : 0
        }
        return out
    }

    static let seeds: [UInt64] = [20250614, 1, 2]

    /// Without the IMU, issue 28's figures on every seed; with the walker's steps, the p95 lower
    /// still. Within 2σ on every seed.
    @Test(arguments: seeds, [false, true])
    func smoothedBeatsTheRawFixes(seed: UInt64, withSteps: Bool) throws {
        let s = try Self.scores(seed: seed, withSteps: withSteps)
        #expect((s.motionFixes > s.fixes / 2) == withSteps)
        #expect(Self.percentile(s.estimate, 50) <= 0.9 * Self.percentile(s.raw, 50))
        #expect(Self.percentile(s.estimate, 95) <= (withSteps ? 0.35 : 0.5) * Self.percentile(s.raw, 95))
        #expect(s.share(s.within2) >= 0.9)
    }

    /// σ, the 68 % radius, holds issue 28's 50–85 % of the frames (and ≥ 90 % within 2σ) over
    /// the three walks together. One walk alone does not show it: its error after smoothing is
    /// the GPS wander averaged over tens of seconds, so a 3.7-minute walk has only a handful of
    /// independent errors and its share within σ scatters (the same σ gives 44–100 % over ten
    /// seeds; docs/position.md).
    @Test(arguments: [false, true])
    func sigmaIsHonestOverTheWalks(withSteps: Bool) throws {
        var all = Scores()
        for seed in Self.seeds { all.add(try Self.scores(seed: seed, withSteps: withSteps)) }
        #expect((0.5...0.85).contains(all.share(all.within1)))
        #expect(all.share(all.within2) >= 0.9)
    }

    /// A wander slower and larger than the smoother's model (8 m over 300 s, the benchmark's
    /// `slow`): over a walk it is a common offset the fixes cannot show, which σ must still
    /// hold: seed 1, the worst of ten, had 0 % of its fixes within σ and 75 % within 2σ before
    /// σ's floor (`SigmaFloor`).
    @Test func sigmaHoldsASlowWander() throws {
        let walk = try Self.walk(seed: 1, slowWander: true)
        let s = try Self.scores(fixes: walk.fixes, truth: walk.truth, motion: walk.motion, causal: false)
        #expect(s.share(s.within2) >= 0.9)
    }

    /// A wander slower than the model's (6 m over 120 s, the benchmark's `wander`), on the seed
    /// where it is a common offset of the whole walk: the fixes sit closer to the track than
    /// they claim, and σ takes the remainder in (`SigmaFloor`'s unseen error). Before, 13 % of
    /// the fixes were within σ; the band's 50 % is not reached on this walk (docs/position.md).
    @Test func sigmaHoldsAWanderTheFixesDoNotShow() throws {
        let walk = try Self.walk(seed: 1, wander: true)
        let s = try Self.scores(fixes: walk.fixes, truth: walk.truth, motion: walk.motion, causal: false)
        #expect(s.share(s.within1) >= 0.25)
        #expect(s.share(s.within2) >= 0.9)
    }

    /// The causal filter (`--causal`) with the steps on the sample walk: its median no worse
    /// than the raw fixes', its p95 lower, σ honest.
    @Test func causalFilterOnTheSampleWalk() throws {
        let s = try Self.scores(seed: 20250614, withSteps: true, causal: true)
        #expect(Self.percentile(s.estimate, 50) <= Self.percentile(s.raw, 50))
        #expect(Self.percentile(s.estimate, 95) <= 0.9 * Self.percentile(s.raw, 95))
        #expect((0.5...0.85).contains(s.share(s.within1)))
        #expect(s.share(s.within2) >= 0.9)
    }

    /// Long bursts far off that still claim a good fix (the benchmark's `bursts`, seed
    /// 20250614): the causal filter softens them but a burst of them carries it onto the burst,
    /// where its residuals are small again; σ holds what it took in (`SigmaFloor`'s jumps).
    /// Before, 74 % of the fixes were within 2σ.
    @Test func causalSigmaHoldsTheBurstsItTookIn() throws {
        let walk = try Self.walk(seed: 20250614, bursts: true)
        let s = try Self.scores(fixes: walk.fixes, truth: walk.truth, motion: walk.motion, causal: true)
        #expect(s.share(s.within2) >= 0.9)
    }

    /// The causal filter over the three walks: σ honest; the median not yet at the raw fixes'
    /// (measured 1.05–1.12× them, seed 2 alone 1.3–1.4×; docs/position.md), held there.
    @Test func causalFilterOverTheWalks() throws {
        var all = Scores()
        for seed in Self.seeds { all.add(try Self.scores(seed: seed, withSteps: true, causal: true)) }
        #expect(Self.percentile(all.estimate, 50) <= 1.2 * Self.percentile(all.raw, 50))
        #expect((0.5...0.85).contains(all.share(all.within1)))
        #expect(all.share(all.within2) >= 0.9)
    }

    /// A multipath burst that starts inside a GPS gap: without the IMU across the gap the
    /// filter came out of it on the burst and, a stand later, the "still" velocity held it
    /// there (p95 0.67× the raw fixes' with the IMU, 0.54× without). With the steps bridging
    /// the gap, the IMU is no worse than the fixes alone, and issue 28's figures hold.
    @Test func theStepsBridgeAGapIntoABurst() throws {
        let with = try Self.scores(seed: 20250614, withSteps: true, dropouts: true)
        let without = try Self.scores(seed: 20250614, withSteps: false, dropouts: true)
        let p95 = Self.percentile(with.estimate, 95), p95Without = Self.percentile(without.estimate, 95)
        #expect(p95 <= 1.05 * p95Without, "p95 \(p95) m with the IMU, \(p95Without) m without")
        #expect(p95 <= 0.5 * Self.percentile(with.raw, 95))
        #expect(Self.percentile(with.estimate, 50) <= 0.9 * Self.percentile(with.raw, 50))
        #expect(with.share(with.within2) >= 0.9)
    }

    @Test func aJumpOfOneFixIsLeftOutAndARepeatedFixIsStale() {
        var track = GPSTrack()
        for k in 0..<60 {
            let jump = k == 30 ? 0.0003 : 0  // about 33 m north, claiming 5 m
            track.add(GPSFix(time: Double(k), coordinate: GeoCoordinate(latitude: 60 + jump, longitude: 25 + 0.00002 * Double(k)),
                             horizontalAccuracy: 5))
        }
        track.add(GPSFix(time: 60, coordinate: track.fixes.last!.coordinate, horizontalAccuracy: 5))
        track.smooth(causal: false)
        let s = track.smoothed!
        #expect(s.staleFixes == 1)
        #expect(s.downweightedFixes >= 1)
        let at30 = track.location(at: 30)!.coordinate
        #expect(abs(at30.latitude - 60) * 111_320 < 3)
    }
}
