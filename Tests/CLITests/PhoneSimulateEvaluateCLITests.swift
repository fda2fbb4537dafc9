import Foundation
import Testing

/// `convert`, `simulate` and `evaluate` through the command line, and phone recordings in
/// `pose` and `replay`.
@Suite struct PhoneSimulateEvaluateCLITests {
    let phone = packageRoot.appendingPathComponent("Tests/Fixtures/phone")

    @Test func convertWritesAPoiarLogThatPoseReadsLikeTheRecording() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("ios.csv")
        let r = try runPoiar(["convert", phone.appendingPathComponent("sensorlogger-ios.zip").path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("401 gyro, 401 accel, 200 mag, 5 gps"))
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.hasPrefix("# format: poiar-log/1\n# start_utc: 2025-06-14T10:02:11Z\n# device: iPhone 13 (ios, Sensor Logger 1.59)\n"))
        #expect(text.contains("\ntime,sensor,x,y,z,accuracy\n0.000000,gyro,"))
        // pose on the zip and on the converted log: the same poses.
        let fromZip = try runPoiar(["pose", phone.appendingPathComponent("sensorlogger-ios.zip").path])
        let fromLog = try runPoiar(["pose", out.path])
        #expect(fromZip.status == 0 && fromLog.status == 0)
        #expect(fromZip.stdout == fromLog.stdout && fromZip.stdout.split(separator: "\n").count > 300)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!left.contains { $0.hasPrefix(".") })
    }

    @Test func replayReadsAZipAndNamesItsOutputAfterIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("phyphox.zip")
        try FileManager.default.copyItem(at: phone.appendingPathComponent("phyphox.zip"), to: zip)
        let r = try runPoiar(["replay", zip.path, "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path,
                              "--filter", "cafe", "--size", "180x320", "--fps", "1"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = dir.appendingPathComponent("Output/phyphox/frames.jsonl")
        #expect(FileManager.default.fileExists(atPath: manifest.path))
    }

    @Test func aBadRowInARecordingNamesTheFileInsideIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = dir.appendingPathComponent("rec")
        try FileManager.default.copyItem(at: phone.appendingPathComponent("sensorlogger-android"), to: rec)
        let gyro = rec.appendingPathComponent("Gyroscope.csv")
        var lines = try String(contentsOf: gyro, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[19] = "1749895331185000000,0.06,0.1,oops,0.2"
        try lines.joined(separator: "\n").write(to: gyro, atomically: true, encoding: .utf8)
        let r = try runPoiar(["convert", rec.path, "--out", dir.appendingPathComponent("x.csv").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("poiar: error: \(rec.path)/Gyroscope.csv:20 (y): \"oops\" is not a number"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.csv").path))
    }

    @Test func simulateThenEvaluateAgreesWithFusingTheLogDirectly() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("look.csv"), truth = dir.appendingPathComponent("look.truth.csv")
        let sim = try runPoiar(["simulate", "--waypoints", "60.1678863,24.9493217", "--script", "look-around", "--duration", "20",
                                "--seed", "5", "--out", log.path, "--truth", truth.path])
        #expect(sim.status == 0, "\(sim.stderr)")
        let again = dir.appendingPathComponent("again.csv")
        _ = try runPoiar(["simulate", "--waypoints", "60.1678863,24.9493217", "--script", "look-around", "--duration", "20",
                          "--seed", "5", "--out", again.path])
        #expect(try Data(contentsOf: log) == Data(contentsOf: again))

        let poses = dir.appendingPathComponent("poses.csv")
        #expect(try runPoiar(["pose", log.path, "--out", poses.path]).status == 0)
        let a = try runPoiar(["evaluate", "--truth", truth.path, "--poses", poses.path])
        let b = try runPoiar(["evaluate", log.path, "--truth", truth.path])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout && a.stdout.hasPrefix("heading_rmse_deg: "))
        let json = try runPoiar(["evaluate", "--truth", truth.path, "--poses", poses.path, "--json"])
        let obj = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((obj?["heading_rmse_deg"] as? Double ?? 99) < 5)
        // Poses covering half the truth: exit status 3, scores still printed.
        let half = try String(contentsOf: poses, encoding: .utf8).split(separator: "\n").prefix(1000).joined(separator: "\n")
        try half.write(to: poses, atomically: true, encoding: .utf8)
        let short = try runPoiar(["evaluate", "--truth", truth.path, "--poses", poses.path])
        #expect(short.status == 3 && short.stdout.contains("matched: "))
    }

    @Test func simulateChecksItsOptions() throws {
        let noPath = try runPoiar(["simulate", "--script", "walking", "--out", "/tmp/x.csv"])
        #expect(noPath.status == 64 && noPath.stderr.contains("--path"))
        let badScript = try runPoiar(["simulate", "--waypoints", "60,24", "--script", "run", "--out", "/tmp/x.csv"])
        #expect(badScript.status == 64 && badScript.stderr.contains("look-around"))
        let onePointWalk = try runPoiar(["simulate", "--waypoints", "60,24", "--script", "walking", "--out", "/tmp/poiar-never.csv"])
        #expect(onePointWalk.status == 1 && onePointWalk.stderr.contains("two distinct waypoints"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/poiar-never.csv"))
    }

    @Test func simulateRunsAScriptFileAndNamesItsErrors() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("s.json")
        try #"{"waypoints": [[60.1678863, 24.9493217], [60.1678645, 24.9485086]], "targets": {"engel": [60.1689130, 24.9517450]},"#
            .appending(#" "timeline": [{"stand": 2, "look_at": "engel"}, {"walk_to": "end", "speed": 1.5}], "sensors": {"seed": 4}}"#)
            .write(to: script, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("s.csv"), track = dir.appendingPathComponent("s.track.csv")
        let r = try runPoiar(["simulate", "--script", script.path, "--out", log.path, "--track", track.path,
                              "--gps-bad", "3,4", "--delivery", "phone", "--camera", "cam.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 bad GPS fixes") && r.stderr.contains("out of time order"), "\(r.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("# device: poiar simulate (script s.json, seed 4)\n# camera: cam.json\n"))
        #expect(text.contains("# sim_bad_gps_fixes: 3.000, 4.000"))
        #expect(try String(contentsOf: track, encoding: .utf8).hasPrefix("time,lat,lon,alt,heading_deg,pitch_deg,roll_deg\n0.100000,"))
        // The replay takes the log and drops the bad fixes.
        let out = dir.appendingPathComponent("out")
        let replay = try runPoiar(["replay", log.path, "--out", out.path, "--hfov", "60", "--size", "90x160",
                                   "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path])
        #expect(replay.status == 0 && replay.stderr.contains("2 GPS fixes with horizontal accuracy over 100 m not used"), "\(replay.stderr)")

        // A bad script: one line naming the file and field, nothing written.
        try #"{"timeline": [{"stand": 2}, {"walk_to": "end", "speed": -1}]}"#.write(to: script, atomically: true, encoding: .utf8)
        let never = dir.appendingPathComponent("never.csv")
        let bad = try runPoiar(["simulate", "--script", script.path, "--waypoints", "60.1678863,24.9493217;60.1678645,24.9485086",
                                "--out", never.path])
        #expect(bad.status == 1)
        #expect(bad.stderr == "poiar: error: \(script.path) (timeline[1].speed): expected a speed in m/s within 0.05…20, got -1\n")
        // An error only the path shows names the segment too.
        try #"{"timeline": [{"walk_to": 400}]}"#.write(to: script, atomically: true, encoding: .utf8)
        let far = try runPoiar(["simulate", "--script", script.path, "--waypoints", "60.1678863,24.9493217;60.1678645,24.9485086",
                                "--out", never.path])
        #expect(far.status == 1 && far.stderr.hasPrefix("poiar: error: \(script.path) (timeline[0].walk_to): 400.00 m is beyond the path's end"), "\(far.stderr)")
        // No path anywhere.
        let noPath = try runPoiar(["simulate", "--script", script.path, "--out", never.path])
        #expect(noPath.status == 1 && noPath.stderr.contains("(waypoints): missing"), "\(noPath.stderr)")
        #expect(!FileManager.default.fileExists(atPath: never.path))
    }

    @Test func simulateReadsAGeoJSONPath() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let geojson = dir.appendingPathComponent("path.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[24.9493217,60.1678863,2.5],[24.9485086,60.1678645,2.5]]}}]}"#
            .write(to: geojson, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("w.csv")
        let r = try runPoiar(["simulate", "--path", geojson.path, "--script", "pocket", "--out", log.path, "--fps", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("path 4"))  // ≈ 45 m
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(!text.contains(",frame,"))
    }
}
