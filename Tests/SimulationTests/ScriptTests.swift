import Foundation
import Geodesy
import POIARCore
import SensorLog
import Testing
@testable import Simulation

/// Script files (timelines), phone-like delivery, bad GPS fixes and the track.
@Suite struct ScriptTests {
    func parse(_ json: String, file: String = "s.json") throws -> MotionScript {
        try MotionScript.parse(Data(json.utf8), file: file)
    }

    /// The error a script gives, as printed (`FILE (FIELD): message`).
    func error(_ json: String) -> String {
        do { _ = try parse(json); return "no error" } catch { return "\(error)" }
    }

    static let cafe = GeoCoordinate(latitude: 60.1685094, longitude: 24.9476869)  // Karl Fazer Café

    /// A short timeline using every kind of segment and look.
    func shortScript() throws -> MotionScript {
        try parse("""
        {"format": "poiar-sim-script/1",
         "targets": {"fazer": [60.1685094, 24.9476869]},
         "defaults": {"pitch": 4, "pitch_sweep": [{"amplitude": 1, "period": 5}]},
         "timeline": [
           {"stand": 2, "look_at": "fazer"},
           {"turn": 3, "heading": 200, "pitch": -10, "roll": 5, "transition": 2.5},
           {"stand": 1},
           {"walk_to": 30, "speed": 1.5, "sweep": [{"amplitude": 15, "period": 4}]},
           {"stand": 3, "look_at": ["fazer", [60.1689130, 24.9517450]], "transition": 1.5}
         ]}
        """)
    }

    func config(_ script: MotionScript) -> SimulationConfig {
        var c = SimulationConfig(waypoints: esplanadi, timeline: script.timeline, startUTC: startUTC)
        script.apply(to: &c)
        return c
    }

    /// Noise-free sensors of a scripted walk follow the truth: the gyro integrates to it, the
    /// accelerometer reads gravity when standing, and the segments do what they say.
    @Test func scriptedTruthIsConsistentWithTheGyro() throws {
        var c = config(try shortScript())
        noiseless(&c)
        let (sim, simulator) = try simulate(c)
        let traj = simulator.trajectory
        #expect(abs(simulator.duration - (2 + 3 + 1 + 30 / 1.5 + 1.5 + 3)) < 1e-9)
        var gyro: [(Double, Vector3)] = []
        for s in sim.samples {
            switch s {
            case .vector(.gyro, let t, let w): gyro.append((t, w))
            case .vector(.accel, let t, let f) where t < 6 || t > simulator.duration - 3:
                #expect(abs(f.norm - 9.81) < 2e-5, "standing at \(t)")
            default: break
            }
        }
        var q = traj.attitude(-0.005)
        var worst = 0.0
        for (t, w) in gyro {
            q = q * Quaternion(rotationVector: w * 0.01)
            worst = max(worst, q.angle(to: traj.attitude(t + 0.005)) * 180 / .pi)
        }
        #expect(worst < 0.01, "gyro integration drifts \(worst)°")

        func heading(_ t: Double) -> Double { Pose(traj.attitude(t)).angles.heading }
        func azimuth(from t: Double, to p: GeoCoordinate) -> Double {
            let here = traj.position(t), there = traj.plane.enu(GeoCoordinate(latitude: p.latitude, longitude: p.longitude, altitude: here.z))
            return atan2(there.x - here.x, there.y - here.y) * 180 / .pi
        }
        func diff(_ a: Double, _ b: Double) -> Double { abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180) }
        // Looking at the cafe; turned to 200° (pitch −10° ± the hand's 1° sweep, roll 5°).
        #expect(diff(heading(1.5), azimuth(from: 1.5, to: ScriptTests.cafe)) < 1e-6)
        let turned = Pose(traj.attitude(4.8)).angles
        #expect(diff(turned.heading, 200) < 1e-6 && abs(turned.pitch + 10) <= 1.0001 && abs(turned.roll - 5) < 1e-6)
        // The walk ends 30 m along the path; in the last stand the camera looks between the two cafes.
        #expect(abs(traj.distance(simulator.duration) - 30) < 1e-6)
        let end = simulator.duration - 0.1
        let between = (azimuth(from: end, to: ScriptTests.cafe) + azimuth(from: end, to: GeoCoordinate(latitude: 60.1689130, longitude: 24.9517450))) / 2
        #expect(diff(heading(end), between) < 1e-4)
        // The head sweep (±15°) only while walking.
        let walking = stride(from: 10.0, to: 24, by: 0.1).map { diff(heading($0), traj.path!.path.bearing(at: traj.distance($0))) }
        #expect(walking.max()! > 12 && walking.max()! < 15.01)
    }

    /// Phone delivery: every sensor in time order, across sensors up to 0.27 s back, the same
    /// rows as in time order, and the log reader takes it.
    @Test func phoneDeliveryKeepsEachSensorInOrder() throws {
        var c = SimulationConfig(waypoints: esplanadi, script: .walking, startUTC: startUTC)
        c.duration = 12
        let (inOrder, _) = try simulate(c)
        c.delivery = .phone
        let simulator = try Simulator(config: c)
        var phone = Simulated()
        let summary = try simulator.run(log: { phone.log.append($0) }, truth: { phone.truth.append($0) })
        #expect(phone.truth == inOrder.truth)
        #expect(Set(phone.log) == Set(inOrder.log.filter { !$0.hasPrefix("#") }).union(phone.log.filter { $0.hasPrefix("#") }))
        #expect(phone.log.count == inOrder.log.count + 1)  // + the sim_delivery line
        var last: [String: Double] = [:]
        var latest = -1.0, back = 0.0
        for s in phone.samples {
            if let l = last[s.sensorName] { #expect(s.time > l, "\(s.sensorName) steps back at \(s.time)") }
            last[s.sensorName] = s.time
            back = max(back, latest - s.time)
            latest = max(latest, s.time)
        }
        #expect(back > 0.2 && back < 0.35 && abs(back - summary.maxDisorder) < 1e-9)
        // The first GPS fix (t = 0) comes after the frame at 0.1 s, as on a phone.
        let firstGPS = phone.log.firstIndex { $0.contains(",gps,") }!, firstFrame = phone.log.firstIndex { $0.contains(",frame,") }!
        #expect(firstGPS > firstFrame)
        let path = try writeTemp(phone.log, "phone.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try SensorLogReader(path: path)
        var n = 0
        var previous = -Double.infinity
        while let r = try reader.nextRecord() { #expect(r.sample.time >= previous); previous = r.sample.time; n += 1 }
        #expect(n == phone.samples.count)
    }

    @Test func badFixesAreFarOffAndSayItInTheirAccuracy() throws {
        var c = SimulationConfig(waypoints: esplanadi, script: .walking, startUTC: startUTC)
        c.duration = 12
        c.badGPSFixes = [.init(t0: 4.5, t1: 7)]
        c.gpsOutages = [.init(t0: 6, t1: 6.5)]
        let (sim, simulator) = try simulate(c)
        #expect(simulator.badFixTimes == [5, 7])
        #expect(sim.log.contains("# sim_bad_gps_fixes: 5.000, 7.000 (accuracy > 100 m, positions off by as much)"))
        var fixes = 0
        for case .gps(let fix) in sim.samples {
            fixes += 1
            let truth = simulator.trajectory.position(fix.time)
            let p = simulator.trajectory.plane.enu(fix.coordinate)
            let off = hypot(p.x - truth.x, p.y - truth.y)
            if fix.time == 5 || fix.time == 7 {
                #expect(off >= 150 && off <= 400 && fix.horizontalAccuracy! > off && fix.horizontalAccuracy! < 1.11 * off)
            } else {
                #expect(off < 20 && fix.horizontalAccuracy == 3)
            }
        }
        #expect(fixes == 12)  // 0…12 s less the outage's fix at 6 s
    }

    @Test func theTrackIsTheTruthAtFrameTimes() throws {
        var c = config(try shortScript())
        c.fps = 4
        let simulator = try Simulator(config: c)
        var log: [String] = [], track: [String] = []
        try simulator.run(log: { log.append($0) }, truth: nil, track: { track.append($0) })
        #expect(track.first == "time,lat,lon,alt,heading_deg,pitch_deg,roll_deg")
        let frames = log.filter { $0.contains(",frame,") }.map { Double($0.split(separator: ",")[0])! }
        #expect(track.count == frames.count + 1)
        for (line, t) in zip(track.dropFirst(), frames) {
            let v = line.split(separator: ",").map { Double($0)! }
            #expect(v[0] == t)
            let truth = simulator.trajectory.position(t)
            let p = simulator.trajectory.plane.enu(GeoCoordinate(latitude: v[1], longitude: v[2], altitude: v[3]))
            #expect((p - truth).norm < 1e-3)
            let q = Pose(headingDeg: v[4], pitchDeg: v[5], rollDeg: v[6]).orientation
            #expect(q.angle(to: simulator.trajectory.attitude(t)) * 180 / .pi < 1e-3)
            #expect(v[4] >= 0 && v[4] < 360)
        }
    }

    /// The committed sample is the script's output, byte for byte.
    @Test func theSampleScriptMakesTheSampleWalk() throws {
        let dir = packageRoot.appendingPathComponent("SampleLogs")
        let script = try MotionScript.parse(Data(contentsOf: dir.appendingPathComponent("walk.script.json")), file: "walk.script.json")
        var c = SimulationConfig(waypoints: try #require(script.waypoints), timeline: script.timeline, startUTC: startUTC)
        c.motionName = "walk.script.json"
        script.apply(to: &c)
        var log: [String] = [], truth: [String] = [], track: [String] = []
        try Simulator(config: c).run(log: { log.append($0) }, truth: { truth.append($0) }, track: { track.append($0) })
        for (name, lines) in [("walk.csv", log), ("walk.truth.csv", truth), ("walk.track.csv", track)] {
            let file = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            #expect(file == lines.joined(separator: "\n") + "\n", "SampleLogs/\(name) is not what walk.script.json makes: run tools/make_sample_walk.sh")
        }
    }

    @Test func scriptErrorsNameTheField() throws {
        #expect(error("[1, 2]") == "s.json: expected a JSON object")
        #expect(error("{").hasPrefix("s.json:1: not valid JSON"))
        #expect(error("{}") == "s.json (timeline): missing: a script needs a list of segments")
        #expect(error(#"{"timeline": []}"#) == "s.json (timeline): expected a non-empty list of segments")
        #expect(error(#"{"format": "poiar-sim-script/2", "timeline": [{"stand": 1}]}"#)
            == #"s.json (format): expected "poiar-sim-script/1", got "poiar-sim-script/2""#)
        #expect(error(#"{"timeline": [{"stand": -1}]}"#) == "s.json (timeline[0].stand): expected a duration in seconds > 0, got -1")
        #expect(error(#"{"timeline": [{"stand": true}]}"#) == "s.json (timeline[0].stand): expected a number, got true")
        #expect(error(#"{"timeline": [{"stand": 1}, {"stand": 1, "pitchh": 3}]}"#).hasPrefix("s.json (timeline[1].pitchh): unknown key; expected one of "))
        #expect(error(#"{"timeline": [{"stand": 1, "walk_to": 5}]}"#) == "s.json (timeline[0]): give one of stand, walk_to, not several")
        #expect(error(#"{"timeline": [{"pitch": 1}]}"#).hasPrefix("s.json (timeline[0]): expected one of stand (s), turn (s) or walk_to"))
        #expect(error(#"{"timeline": [{"stand": 1, "look_at": "Engel"}]}"#) == #"s.json (timeline[0].look_at): no target named "Engel" in targets (there are none)"#)
        #expect(error(#"{"timeline": [{"stand": 1, "look_at": [91, 24]}]}"#) == "s.json (timeline[0].look_at[0]): latitude must be within ±90°, got 91")
        #expect(error(#"{"timeline": [{"stand": 1, "heading": 10, "heading_offset": 5}]}"#) == "s.json (timeline[0]): give one of heading, heading_offset, not several")
        #expect(error(#"{"timeline": [{"stand": 1, "speed": 2}]}"#) == "s.json (timeline[0].speed): only a walk_to segment has a speed")
        #expect(error(#"{"timeline": [{"walk_to": "there"}]}"#).hasPrefix(#"s.json (timeline[0].walk_to): no target named "there""#))
        #expect(error(#"{"defaults": {"pitch_sweep": [{"amplitude": 1, "period": 0}]}, "timeline": [{"stand": 1}]}"#)
            == "s.json (defaults.pitch_sweep[0].period): expected seconds within 0.05…3600, got 0")
        #expect(error(#"{"defaults": {"look_at": [60, 24]}, "timeline": [{"stand": 1}]}"#).hasPrefix("s.json (defaults.look_at): unknown key"))
        #expect(error(#"{"timeline": [{"stand": 1}], "sensors": {"delivery": "pigeon"}}"#).hasPrefix("s.json (sensors.delivery): expected in-order or phone"))
        #expect(error(#"{"timeline": [{"stand": 1}], "sensors": {"delivery": {"gyro": {"batch": 2.5}}}}"#)
            == "s.json (sensors.delivery.gyro.batch): expected a whole number of samples, got 2.5")
        #expect(error(#"{"timeline": [{"stand": 1}], "sensors": {"gps_bad": [[5, 3]]}}"#) == "s.json (sensors.gps_bad[0]): expected 0 ≤ t0 < t1, got [5, 3]")
        #expect(error(#"{"timeline": [{"stand": 1}], "sensors": {"seed": 1.5}}"#) == "s.json (sensors.seed): expected a whole number ≥ 0, got 1.5")
        #expect(error(#"{"timeline": [{"stand": 1}], "start_utc": "noon"}"#).hasPrefix("s.json (start_utc): expected an ISO 8601 UTC time"))
    }

    /// Errors only the path can tell: they name the segment too.
    @Test func timelineErrorsAgainstThePath() throws {
        func simulationError(_ json: String, waypoints: [GeoCoordinate] = esplanadi) throws -> String {
            let script = try parse(json)
            do { _ = try Simulator(config: SimulationConfig(waypoints: waypoints, timeline: script.timeline, startUTC: startUTC)); return "no error" }
            catch let e as SimulationError { return e.description }
        }
        #expect(try simulationError(#"{"timeline": [{"walk_to": 50}, {"walk_to": 20}]}"#)
            == "timeline[1].walk_to: the place is 20.00 m along the path, not beyond where the walker is (50.00 m); the walker only walks forward")
        #expect(try simulationError(#"{"timeline": [{"walk_to": 500}]}"#).hasPrefix("timeline[0].walk_to: 500.00 m is beyond the path's end"))
        #expect(try simulationError(#"{"timeline": [{"walk_to": "end"}]}"#, waypoints: [esplanadi[0]])
            == "timeline[0].walk_to: walking needs a path of two or more waypoints")
        // Walking through the place looked at (a waypoint 50 m along): the direction flips.
        #expect(try simulationError(#"{"timeline": [{"walk_to": 100, "look_at": [60.1678645, 24.9485086]}]}"#)
            .hasPrefix("timeline[0].look_at: at "))
        // Looking at Karl Fazer Café (90 m along the path, 74 m north of it) from looking left,
        // then walking past it: the phone turns right through more than 180° from where it
        // began, continuously.
        let past = try parse(#"{"timeline": [{"stand": 1, "heading_offset": -90}, {"walk_to": 200, "look_at": [60.1685094, 24.9476869]}]}"#)
        let traj = try Simulator(config: SimulationConfig(waypoints: esplanadi, timeline: past.timeline, startUTC: startUTC)).trajectory
        let offsets = stride(from: 0.0, to: traj.duration, by: 0.01).map { t in
            traj.angles(t).heading - traj.path!.path.bearing(at: traj.distance(t))
        }
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { abs($1 - $0) < 2 })
        #expect(abs(offsets.first! + 90) < 1e-9 && offsets.last! > 120)
        // A stand-only script needs no path.
        #expect(try simulationError(#"{"timeline": [{"stand": 5, "heading": 90}]}"#, waypoints: [esplanadi[0]]) == "no error")
    }
}
