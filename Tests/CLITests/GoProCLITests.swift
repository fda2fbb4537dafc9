import Foundation
import Manifest
import POIARCore
import SensorLog
import Testing

/// A GoPro clip as the recording, through the command line: `pose`, `convert`, `replay` on the
/// real clip (SampleLogs/gopro-walk.mp4), and the heading from a camera's own orientation.
@Suite struct GoProCLITests {
    var clip: URL { sampleLogs.appendingPathComponent("gopro-walk.mp4") }

    func rows(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `pose CLIP`: the camera's own orientation (the stabilised view's, IORI ⊗ CORI), its
    /// heading aligned to the GPS course: on the 13 m walk the high-rate track's fix-to-fix
    /// jitter, not its stated 4.6 m, sets how far apart the fixes must be (8 m).
    @Test func poseOfTheClip() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let out = dir.appendingPathComponent("pose.csv")
        let r = try runPoiar(["pose", clip.path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: \(clip.path): MAGN (the magnetometer) not used: its field is 521 µT"), "\(r.stderr)")
        #expect(r.stderr.contains("poiar: heading: the camera's own orientation (316 samples; the recording has no magnetometer) aligned to the GPS course while moving: 71 course samples; the top edge or camera is taken to face the direction of travel, and stays within 1° of it (median)"), "\(r.stderr)")
        #expect(!r.stderr.contains("error"))
        let poses = try rows(out)
        #expect(poses.count == 316)
        // Upright, the lens below the horizon all along; facing the walk's course (148–151°).
        #expect(abs(Double(poses[0][5])! - 148.4) <= 1)
        let pitches = poses.map { Double($0[6])! }
        #expect(pitches.allSatisfy { $0 > -21 && $0 < -3 }, "\(pitches.min()!)…\(pitches.max()!)")

        // --pose-source fused: poiar's own fusion (the body's), aligned the same way, turning
        // as the view does within a few degrees.
        let fusedOut = dir.appendingPathComponent("fused.csv")
        let fused = try runPoiar(["pose", clip.path, "--pose-source", "fused", "--out", fusedOut.path])
        #expect(fused.status == 0, "\(fused.stderr)")
        #expect(fused.stderr.contains("poiar: heading: from the GPS course while moving (the recording has no magnetometer): "), "\(fused.stderr)")
        let f = try rows(fusedOut)
        #expect(f.count == 2081)
        func heading(_ rows: [[String]], at t: Double) -> Double { Double(rows.min { abs(Double($0[0])! - t) < abs(Double($1[0])! - t) }![5])! }
        func turn(_ rows: [[String]], from t0: Double, to t1: Double) -> Double { (heading(rows, at: t1) - heading(rows, at: t0) + 540).truncatingRemainder(dividingBy: 360) - 180 }
        #expect(abs(turn(poses, from: 5, to: 8) - turn(f, from: 5, to: 8)) <= 4, "the turn from 5 to 8 s, the view against the fusion")
        // In the final pan the stabilised view turns further than the body (IORI: up to 19.4°).
        let viewTurn = turn(poses, from: 8, to: 10.5), bodyTurn = turn(f, from: 8, to: 10.5)
        #expect(bodyTurn > 10)  // to the right at the end
        #expect(abs((viewTurn - bodyTurn) - 12) <= 7.4, "the view's turn beyond the body's in the final pan")
    }

    /// `convert CLIP`: the camera's orientation rows with `orientation_north: unknown`, and the
    /// clip as `footage`, relative to the new log's folder (left out, with a notice, when the
    /// clip is outside it).
    @Test func convertWritesTheOrientationAndTheFootage() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("clips"), withIntermediateDirectories: true)
        let copy = dir.appendingPathComponent("clips/walk.mp4")
        try FileManager.default.copyItem(at: clip, to: copy)
        let log = dir.appendingPathComponent("walk.csv")
        let r = try runPoiar(["convert", copy.path, "--out", log.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("poiar: wrote \(log.path): 2082 gyro, 2082 accel, 191 gps, 316 orientation, 10.5 s\n"), "\(r.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        for line in ["# format: poiar-log/1", "# start_utc: 2019-11-18T23:45:15Z", "# device: GoPro Max", "# footage: clips/walk.mp4",
                     "# orientation_north: unknown", "# orientation_source: camera", "time,sensor,x,y,z,accuracy",
                     "0.000000,gps,33.12677000,-117.32734360,-22.959,4.620"] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        #expect(text.contains("\n0.000000,orientation,"))
        // The log poses as the clip does.
        let fromLog = try runPoiar(["pose", log.path, "--out", dir.appendingPathComponent("a.csv").path])
        let fromClip = try runPoiar(["pose", copy.path, "--out", dir.appendingPathComponent("b.csv").path])
        #expect(fromLog.status == 0, "\(fromLog.stderr)")
        let a = try rows(dir.appendingPathComponent("a.csv")), b = try rows(dir.appendingPathComponent("b.csv"))
        #expect(a.count == b.count)
        #expect(abs(Double(a.last![5])! - Double(b.last![5])!) <= 0.01)
        #expect(fromClip.status == 0)

        // Converted into a folder beside the clips: the footage line leaves the folder, so none.
        let elsewhere = dir.appendingPathComponent("logs/walk.csv")
        try FileManager.default.createDirectory(at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        let o = try runPoiar(["convert", copy.path, "--out", elsewhere.path])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stderr.contains("poiar: \(elsewhere.path): no \"# footage:\" line: the clip \(copy.standardizedFileURL.path) is outside the log's folder"), "\(o.stderr)")
        #expect(!(try String(contentsOf: elsewhere, encoding: .utf8).contains("# footage:")))
    }

    @Test func replayOfTheClip() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", clip.path, "--out", out.path, "--size", "212x120", "--fps", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(frames.count == 11)
        #expect(abs(frames[0].location.lat - 33.12677) <= 1e-5)
    }

    /// The clip with its made-up POIs (40–260 m ahead, bearings 118–200°; the walk goes toward
    /// 150°): the heading is settled from the GPS course (the high-rate track's jitter, not its
    /// stated 4.6 m, decides how far apart the fixes must be), and the frames are labelled.
    @Test func replayOfTheClipIsLabelledWithTheHeadingFromTheCourse() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let out = dir.appendingPathComponent("out")
        let pois = sampleLogs.appendingPathComponent("gopro-walk.demo-pois.csv")
        let r = try runPoiar(["replay", clip.path, "--pois", pois.path, "--out", out.path, "--fps", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: heading: the camera's own orientation (316 samples; the recording has no magnetometer) aligned to the GPS course while moving: 71 course samples;"), "\(r.stderr)")
        #expect(r.stderr.contains("the orientation rows are the view's (IORI ⊗ CORI)"), "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(frames.count == 11)
        let labelled = frames.filter { $0.annotations.contains(where: \.visible) }
        #expect(labelled.count >= 10, "frames with a visible label")
        // Facing the walk's course, 148–151°.
        #expect(abs((frames[0].pose.facing ?? 0) - 150) <= 5)
    }

    /// A camera's own orientation of unknown north, on a walk long enough for a course: its
    /// tilt and turns are used, its heading turned to the GPS course, and the notice says so.
    @Test func aCamerasOwnOrientationIsAlignedToTheCourse() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let course = 60.0, speed = 1.3, g = 9.80665
        let truth = Pose(headingDeg: course, pitchDeg: -5, rollDeg: 0).orientation
        // The camera's own frame has an arbitrary heading: here 60° short of the truth.
        let own = Pose(headingDeg: 0, pitchDeg: -5, rollDeg: 0).orientation
        var lines = ["# format: poiar-log/1", "# start_utc: 2025-06-14T10:00:00Z", "# orientation_north: unknown",
                     "# orientation_source: camera", "time,sensor,x,y,z,accuracy"]
        let up = truth.conjugate.rotate(Vector3(0, 0, g))
        for k in 0..<6000 {
            let t = Double(k) / 100
            lines.append(SensorLogFormat.row(.gyro(time: t, rate: Vector3(0, 0, 0))))
            lines.append(SensorLogFormat.row(.accel(time: t, force: up)))
            if k % 20 == 0 {
                let d = speed * t
                let c = GeoCoordinate(latitude: 60.17 + d * cos(course * .pi / 180) / 111_412, longitude: 24.95 + d * sin(course * .pi / 180) / 55_800, altitude: 20)
                lines.append(SensorLogFormat.row(.gps(GPSFix(time: t, coordinate: c, horizontalAccuracy: 3))))
            }
            if k % 3 == 0 { lines.append(SensorLogFormat.row(.orientation(time: t, attitude: own))) }
        }
        let log = dir.appendingPathComponent("camera.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("pose.csv")
        let r = try runPoiar(["pose", log.path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: heading: the camera's own orientation (2000 samples; the recording has no magnetometer) aligned to the GPS course while moving: "), "\(r.stderr)")
        let poses = try rows(out)
        #expect(poses.count == 2000)
        for p in poses { #expect(abs(Double(p[5])! - course) <= 1.5) }
        #expect(abs(Double(poses[1000][6])! - (-5)) <= 0.01)  // the camera's own tilt, kept
    }
}
