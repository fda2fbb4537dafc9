import Evaluation
import Foundation
import Recordings
@_exported import PoiarTestSupport
import Fusion
import POIARCore
import Replay
import SensorLog
import Testing
@testable import Simulation

/// The sample walk's waypoints (SampleLogs/README.md).
let esplanadi: [GeoCoordinate] = [
    (60.1678863, 24.9493217), (60.1678645, 24.9485086), (60.1678391, 24.9475584), (60.1678188, 24.9468011),
    (60.1677915, 24.9457845), (60.1677747, 24.9451467), (60.1677651, 24.9447805),
].map { GeoCoordinate(latitude: $0.0, longitude: $0.1) }
let startUTC = ISO8601DateFormatter().date(from: "2025-06-14T10:02:11Z")!

/// A simulated log and truth, in memory.
struct Simulated {
    var log: [String] = []
    var truth: [String] = []
    var samples: [SensorSample] { log.compactMap(Simulated.parse) }
    var truthSeries: PoseSeries {
        var s = PoseSeries()
        for line in truth.dropFirst() {
            let p = line.split(separator: ",").map { Double($0)! }
            s.append(time: p[0], Quaternion(w: p[1], x: p[2], y: p[3], z: p[4]))
        }
        return s
    }
    static func parse(_ line: String) -> SensorSample? {
        guard !line.hasPrefix("#"), !line.hasPrefix("time,") else { return nil }
        // A fix with the receiver's speed is written as two rows, its gps_velocity first.
        let rows = line.split(separator: "\n").map(String.init)
        if rows.count == 2, case .gps(var fix)? = parse(rows[1]) {
            let v = rows[0].split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            fix.speed = v[2]; fix.course = v[3]; fix.speedAccuracy = v[5]
            return .gps(fix)
        }
        let p = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let t = Double(p[0])!
        let v = { Vector3(Double(p[2])!, Double(p[3])!, Double(p[4])!) }
        switch p[1] {
        case "gyro": return .gyro(time: t, rate: v())
        case "accel": return .accel(time: t, force: v())
        case "mag": return .mag(time: t, field: v())
        case "gps": return .gps(GPSFix(time: t, coordinate: GeoCoordinate(latitude: Double(p[2])!, longitude: Double(p[3])!, altitude: Double(p[4])),
                                      horizontalAccuracy: Double(p[5])))
        default: return .frame(time: t, still: nil)
        }
    }
}

func simulate(_ config: SimulationConfig) throws -> (Simulated, Simulator) {
    let sim = try Simulator(config: config)
    var out = Simulated()
    try sim.run(log: { out.log.append($0) }, truth: { out.truth.append($0) })
    return (out, sim)
}

func noiseless(_ c: inout SimulationConfig) {
    c.gyroNoise = 0; c.accelNoise = 0; c.magNoise = 0; c.gpsNoise = 0
}

/// Writes lines to a temporary file.
func writeTemp(_ lines: [String], _ name: String) throws -> String {
    let url = try makeTempDir("sim").appendingPathComponent(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
}

/// Fuses a log (through the same pass as `poiar pose`, true north) and scores it against the truth.
func fuseAndScore(_ sim: Simulated, declination: Double) throws -> PoseScore {
    let path = try writeTemp(sim.log, "log.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var params = ComplementaryFilterParams()
    params.declinationDeg = declination
    var pass = FusionPass(params: params)
    var poses = PoseSeries()
    pass.onPose = { t, p, _ in poses.append(time: t, p.orientation) }
    _ = try pass.run(try Recording(path: path))
    return PoseScore.score(truth: sim.truthSeries, poses: poses)
}

@Suite struct SimulatorTests {
    @Test func sameSeedSameLogOtherSeedOtherNoise() throws {
        var c = SimulationConfig(waypoints: [esplanadi[0]], script: .lookAround, startUTC: startUTC)
        c.duration = 3
        let (a, _) = try simulate(c), (b, _) = try simulate(c)
        #expect(a.log == b.log && a.truth == b.truth)
        c.seed = 2
        let (d, _) = try simulate(c)
        #expect(d.log != a.log)
        // The header is a valid poiar-log/1 log.
        let path = try writeTemp(a.log, "a.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try SensorLogReader(path: path)
        #expect(reader.metadata.startUTC == startUTC)
        var n = 0
        while try reader.nextRecord() != nil { n += 1 }
        #expect(n == a.samples.count)
    }

    /// Noise-free sensors follow the contract's conventions exactly.
    @Test func sensorsFollowTheConventions() throws {
        var c = SimulationConfig(waypoints: esplanadi, script: .walking, startUTC: startUTC)
        c.duration = 20
        noiseless(&c)
        let (sim, simulator) = try simulate(c)
        let truth = sim.truthSeries
        var qAt: [Int: Quaternion] = [:]
        for (t, q) in zip(truth.times, truth.quaternions) { qAt[Int((t * 1000).rounded())] = q }
        var gyro: [(Double, Vector3)] = []
        for s in sim.samples {
            switch s {
            case .vector(.accel, let t, let f):
                if t < 2.5 {  // standing: the specific force is gravity, straight up
                    #expect(abs(f.norm - 9.81) < 2e-5)
                    let up = qAt[Int((t * 1000).rounded())]!.rotate(f)
                    #expect(abs(up.x) < 1e-4 && abs(up.y) < 1e-4)
                }
            case .vector(.mag, let t, let m):
                // mag = Rᵀ·m_world: rotated back into ENU it is the WMM field (q at the mag time).
                let q = simulator.trajectory.attitude(t)
                #expect((q.rotate(m) - simulator.fieldENU).norm < 1e-4)
            case .vector(.gyro, let t, let w): gyro.append((t, w))
            default: break
            }
        }
        // Integrating the gyro (midpoint rule on the sample times' half steps) reproduces the truth.
        var q = simulator.trajectory.attitude(-0.005)
        for (_, w) in gyro { q = q * Quaternion(rotationVector: w * 0.01) }
        let end = simulator.trajectory.attitude(gyro.last!.0 + 0.005)
        #expect(q.angle(to: end) * 180 / .pi < 0.01)
        // Heading, pitch, roll of the truth agree with its quaternion.
        let first = sim.truth[1].split(separator: ",").map { Double($0)! }
        let a = Pose(Quaternion(w: first[1], x: first[2], y: first[3], z: first[4])).angles
        #expect(abs(a.heading - first[5]) < 1e-3 && abs(a.pitch - first[6]) < 1e-3 && abs(a.roll - first[7]) < 1e-3)
        #expect(simulator.fieldENU.x > 2.5 && simulator.fieldENU.x < 2.8)  // WMM2025 at the start (2.634 µT east)
    }

    @Test func theWalkFollowsTheSampleWalksPath() throws {
        var c = SimulationConfig(waypoints: esplanadi, script: .walking, startUTC: startUTC)
        noiseless(&c)
        let sim = try Simulator(config: c)
        #expect(abs(sim.trajectory.pathLength - 252.5) < 1.5)
        #expect(abs(sim.duration - (3 + sim.trajectory.pathLength / 1.35 + 1.5 + 3)) < 1e-9)
        let end = sim.trajectory.position(sim.duration)
        let last = sim.trajectory.plane.enu(GeoCoordinate(latitude: esplanadi.last!.latitude, longitude: esplanadi.last!.longitude, altitude: 0))
        #expect(hypot(end.x - last.x, end.y - last.y) < 0.5)
        // Walking west: heading about 267°.
        #expect(abs(sim.trajectory.angles(60).heading.truncatingRemainder(dividingBy: 360) + 360 - 267).truncatingRemainder(dividingBy: 360) < 25)
    }

    @Test func errorsCanBeInjected() throws {
        var c = SimulationConfig(waypoints: [esplanadi[0]], script: .lookAround, startUTC: startUTC)
        c.duration = 10
        noiseless(&c)
        let (clean, simulator) = try simulate(c)
        c.hardIron = Vector3(5, -3, 2)
        c.gpsOutages = [.init(t0: 3, t1: 6)]
        c.magDisturbances = [.init(t0: 7, t1: 9, microtesla: 20)]
        c.gyroBias = Vector3(0.01, 0, 0)
        let (dirty, _) = try simulate(c)
        // Pair the samples by sensor and time (the outage removes GPS rows).
        var cleanByKey: [String: SensorSample] = [:]
        for s in clean.samples { cleanByKey["\(s.sensorName)@\(s.time)"] = s }
        for d in dirty.samples {
            guard let s = cleanByKey["\(d.sensorName)@\(d.time)"] else { Issue.record("no clean sample for \(d)"); continue }
            switch (s, d) {
            case let (.vector(.mag, t, m0), .vector(.mag, _, m1)):
                let diff = m1 - m0
                if t < 6 { #expect((diff - Vector3(5, -3, 2)).norm < 1e-5) }
                if t > 8 && t < 8.9 {
                    // 20 µT east in the world frame, on top of the hard iron.
                    let east = simulator.trajectory.attitude(t).rotate(diff - Vector3(5, -3, 2))
                    #expect((east - Vector3(20, 0, 0)).norm < 1e-4)
                }
            case let (.vector(.gyro, _, w0), .vector(.gyro, _, w1)): #expect((w1 - w0 - Vector3(0.01, 0, 0)).norm < 1e-5)
            default: break
            }
        }
        let gpsTimes = dirty.samples.compactMap { s -> Double? in if case .gps(let f) = s { return f.time } else { return nil } }
        #expect(gpsTimes == [0, 1, 2, 6, 7, 8, 9, 10])
    }

    @Test func badPathsAreRefused() {
        #expect(throws: SimulationError.self) { try Simulator(config: SimulationConfig(waypoints: [esplanadi[0]], script: .walking, startUTC: startUTC)) }
        #expect(throws: SimulationError.self) { try Simulator(config: SimulationConfig(waypoints: [], script: .lookAround, startUTC: startUTC)) }
    }

    /// The fusion filter on simulated look-arounds and walks, scored against the truth:
    /// loose bounds (the filter is tuned elsewhere); these catch convention errors (a
    /// wrong sign or axis gives tens of degrees).
    @Test(arguments: [SimulationConfig.Script.lookAround, .walking, .pocket])
    func fusedPosesFollowTheTruth(_ script: SimulationConfig.Script) throws {
        var c = SimulationConfig(waypoints: script == .lookAround ? [esplanadi[0]] : esplanadi, script: script, startUTC: startUTC)
        c.duration = 60
        c.seed = 3
        let (sim, simulator) = try simulate(c)
        let score = try fuseAndScore(sim, declination: simulator.declinationDeg)
        #expect(score.coverage > 0.99)
        #expect(score.headingRMSEDeg < 8, "\(script): \(score.report)")
        #expect(score.inclinationRMSEDeg < 4, "\(script): \(score.report)")
    }
}

@Suite struct EvaluationTests {
    static let walkTruth = packageRoot.appendingPathComponent("SampleLogs/walk.truth.csv").path

    func perturbedTruth(_ perturb: (Int) -> Quaternion?, shift: Double = 0) throws -> (PoseSeries, PoseSeries) {
        let truth = try PoseSeries.read(path: EvaluationTests.walkTruth, movementColumn: true)
        var poses = PoseSeries()
        for (i, (t, q)) in zip(truth.times, truth.quaternions).enumerated() {
            guard let e = perturb(i) else { continue }
            let p = e * q!
            // As written in a pose CSV: 9 decimals.
            func r(_ v: Double) -> Double { (v * 1e9).rounded() / 1e9 }
            poses.append(time: r(t + shift), Quaternion(w: r(p.w), x: r(p.x), y: r(p.y), z: r(p.z)))
        }
        return (truth, poses)
    }

    @Test func aTurnAboutTheVerticalIsAllHeading() throws {
        let (truth, poses) = try perturbedTruth { _ in Quaternion(axis: Vector3(0, 0, 1), angle: 2 * .pi / 180) }
        let s = PoseScore.score(truth: truth, poses: poses)
        #expect(abs(s.headingRMSEDeg - 2) < 1e-4 && s.inclinationRMSEDeg < 1e-3 && abs(s.totalRMSEDeg - 2) < 1e-4)
        #expect(s.matched == 22278 && s.movementSamples == 22278)
    }

    @Test func aTiltIsAllInclination() throws {
        let (truth, poses) = try perturbedTruth { _ in Quaternion(axis: Vector3(1, 0, 0), angle: 1 * .pi / 180) }
        let s = PoseScore.score(truth: truth, poses: poses)
        #expect(s.headingRMSEDeg < 1e-3 && abs(s.inclinationRMSEDeg - 1) < 1e-4 && abs(s.totalRMSEDeg - 1) < 1e-4)
    }

    /// A varying heading and tilt error, poses 3 ms late and every 7th missing: the numbers
    /// /work/shared/tools/pose_eval.py score printed for the same file (heading 2.1223749733,
    /// inclination 1.0599480094, total 2.3723062679, 19095 of 22278 matched).
    @Test func agreesWithPoseEval() throws {
        let (truth, poses) = try perturbedTruth({ i in
            if i % 7 == 3 { return nil }
            let a = 3 * .pi / 180 * sin(Double(i) / 50), b = 1.5 * .pi / 180 * cos(Double(i) / 80)
            return Quaternion(axis: Vector3(0, 0, 1), angle: a) * Quaternion(axis: Vector3(1, 0, 0), angle: b)
        }, shift: 0.003)
        let s = PoseScore.score(truth: truth, poses: poses)
        #expect(abs(s.headingRMSEDeg - 2.1223749733) < 1e-5)
        #expect(abs(s.inclinationRMSEDeg - 1.0599480094) < 1e-5)
        #expect(abs(s.totalRMSEDeg - 2.3723062679) < 1e-5)
        #expect(s.matched == 19095 && s.movementSamples == 22278)
    }

    @Test func movementZeroRowsAndMissingQuaternionsAreNotScored() throws {
        let truthPath = try writeTemp(["time,qw,qx,qy,qz,movement", "0,1,0,0,0,1", "0.1,1,0,0,0,0", "0.2,,,,,1", "0.3,1,0,0,0,1"], "t.csv")
        let posesPath = try writeTemp(["# a comment", "time,qw,qx,qy,qz,heading_deg", "0.0,1,0,0,0,0", "0.1,0,0,0,1,0", "0.3,1,0,0,0,0"], "p.csv")
        defer { for p in [truthPath, posesPath] { try? FileManager.default.removeItem(atPath: p) } }
        let s = PoseScore.score(truth: try PoseSeries.read(path: truthPath, movementColumn: true),
                                poses: try PoseSeries.read(path: posesPath, movementColumn: false))
        #expect(s.movementSamples == 2 && s.matched == 2 && s.totalRMSEDeg == 0)
        #expect(throws: InputError.self) { try PoseSeries.read(path: posesPath.replacingOccurrences(of: "p.csv", with: "none.csv"), movementColumn: false) }
    }
}
