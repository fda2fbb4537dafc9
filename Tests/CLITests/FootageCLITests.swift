import Footage
import Foundation
import Manifest
import Rendering
import Testing

/// `replay --footage`: frames over a real video's frames (the GoPro walk) or a folder of
/// stills named by capture time, at the right instants, the same whatever --jobs, --shard and
/// --resume (bad footage: the bad-input catalogue).
@Suite struct FootageCLITests {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    /// The walk's first 12 s with the clip at log time 1 s, at 5 frames/s, without labels or
    /// HUD: each frame must be the clip's frame, byte for byte.
    @Test func framesAreTheVideosFramesAtTheirInstants() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 12), in: dir)
        let out = dir.appendingPathComponent("out")
        let run = try runPoiar(["replay", log.path, "--footage", clip, "--footage-offset", "1", "--fps", "5", "--hfov", "100",
                                "--radius", "0.001", "--no-hud", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        // 315 frames at 29.97 fps span 10.48 s: one per 0.2 s bucket, 53 of them.
        #expect(lines.count == 53)
        let video = try VideoDecoder(path: clip)
        for line in [lines[0], lines[17], lines[52]] {
            let frame = try #require(line.footageFrame)
            let footageTime = try #require(line.footageTime)
            #expect(line.footage == "gopro-walk.mp4")
            #expect(abs(footageTime - video.frameTimes[frame - 1]) < 1e-6)
            #expect(abs(line.time - (footageTime + 1)) < 1e-6, "log time = footage time + offset")
            let decoded = try video.frame(at: frame - 1)
            let png = try loadStill(out.appendingPathComponent(line.image))
            #expect(png.width == 848 && png.height == 480)
            #expect(png.pixels == decoded.pixels, "frame \(frame)")
        }
        #expect(run.stderr.contains("footage offset: 1.000 s (--footage-offset)"))
    }

    /// Every footage frame by default; byte-identical with --jobs 2, with two shards merged,
    /// and after --resume of a run that lost frames.
    @Test func footageFramesAreTheSameWhateverJobsShardsAndResume() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 4.2), in: dir)
        let common = ["replay", log.path, "--footage", clip, "--footage-offset", "0.5", "--hfov", "100", "--filter", "cafe"]
        let one = dir.appendingPathComponent("one"), two = dir.appendingPathComponent("two"), shards = dir.appendingPathComponent("shards")
        #expect(try runPoiar(common + ["--out", one.path]).status == 0)
        #expect(try runPoiar(common + ["--out", two.path, "--jobs", "2"]).status == 0)
        for i in 0..<2 { #expect(try runPoiar(common + ["--out", shards.path, "--shard", "\(i)/2"]).status == 0) }
        #expect(try runPoiar(["merge", shards.path]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: one.path).filter { $0.hasPrefix("frame_") }.sorted()
        // The log's 0…4.2 s holds footage 0…3.7 s: 111 frames of 29.97 fps.
        #expect(names.count == 111)
        for name in names {
            let a = try Data(contentsOf: one.appendingPathComponent(name))
            #expect(a == (try Data(contentsOf: two.appendingPathComponent(name))), "--jobs 2: \(name)")
            #expect(a == (try Data(contentsOf: shards.appendingPathComponent(name))), "shards: \(name)")
        }
        #expect(try Data(contentsOf: one.appendingPathComponent("frames.jsonl")) == Data(contentsOf: shards.appendingPathComponent("frames.jsonl")))
        // Lose frames 40…60 and resume: the video is decoded from the keyframe before frame 40.
        for k in 40...60 { try FileManager.default.removeItem(at: two.appendingPathComponent(String(format: "frame_%06d.png", k))) }
        let resumed = try runPoiar(common + ["--out", two.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for name in names { #expect(try Data(contentsOf: one.appendingPathComponent(name)) == Data(contentsOf: two.appendingPathComponent(name)), "resume: \(name)") }
    }

    /// Stills named by epoch milliseconds are placed by the log's start_utc (2025-06-14T10:02:11Z).
    @Test func stillsNamedByCaptureTimeArePlacedByTheLogsStart() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 6), in: dir)
        let camera = dir.appendingPathComponent("Camera")
        try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
        let lund = packageRoot.appendingPathComponent("Tests/Fixtures/stills/lund-01.jpg")
        for ms in [1_749_895_333_000, 1_749_895_333_500, 1_749_895_334_250] {
            try FileManager.default.copyItem(at: lund, to: camera.appendingPathComponent("\(ms).jpg"))
        }
        try Data("notes".utf8).write(to: camera.appendingPathComponent("README.txt"))
        let out = dir.appendingPathComponent("out")
        let run = try runPoiar(["replay", log.path, "--footage", camera.path, "--hfov", "60", "--filter", "cafe", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(lines.map(\.time) == [2.0, 2.5, 3.25])
        #expect(lines[0].still == "Camera/1749895333000.jpg")
        let footageTime = try #require(lines[2].footageTime)
        #expect(abs(footageTime - 1_749_895_334.25) < 1e-6)
        #expect(lines[0].footage == nil)
        #expect(run.stderr.contains("1 file(s) that are not stills left alone (README.txt)"))
    }

    /// The footage's bad inputs are in the bad-input catalogue; an offset that is neither seconds
    /// nor auto is refused by the option's own check.
    @Test func anOffsetThatIsNoNumberIsRefused() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 3), in: dir)
        let bad = try runPoiar(["replay", log.path, "--footage", clip, "--footage-offset", "soon"])
        #expect(bad.status != 0 && bad.stderr.contains("--footage-offset"))
    }
}

/// A Sensor Logger export with a `Camera/` folder replays over its own stills with no option,
/// zipped or unpacked.
@Suite struct PhoneCameraCLITests {
    @Test func sensorLoggerExportReplaysOverItsCameraStills() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let zip = packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-camera.zip")
        // The same export unpacked: the CSVs and Camera/.
        let folder = dir.appendingPathComponent("export")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-android"), to: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Camera"), withIntermediateDirectories: true)
        for ms in [1_749_895_332_500, 1_749_895_334_250] {
            try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/stills/lund-01.jpg"),
                                             to: folder.appendingPathComponent("Camera/\(ms).jpg"))
        }
        var images: [Data] = []
        for (k, export) in [zip, folder].enumerated() {
            let out = dir.appendingPathComponent("out\(k)")
            let run = try runPoiar(["replay", export.path, "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path,
                                    "--filter", "cafe", "--out", out.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("(the recording's camera folder): 2 stills"), "\(run.stderr)")
            let lines = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
            #expect(lines.map(\.time) == [1.5, 3.25])
            #expect(lines.map(\.still) == ["Camera/1749895332500.jpg", "Camera/1749895334250.jpg"])
            // The stills' size (1024×768 stored; the output is as wide and high as they are).
            #expect(try pngSize(out.appendingPathComponent("frame_000001.png")).map { [$0.0, $0.1] } == [1024, 768])
            images.append(try Data(contentsOf: out.appendingPathComponent("frame_000002.png")))
        }
        #expect(images[0] == images[1], "the zipped and the unpacked export draw the same frames")
    }
}

extension PhoneCameraCLITests {
    /// Sensor Logger's camera video (fixture by tools/make_camera_video_fixture.py): its frames
    /// are placed by their capture times from the MP4's timed-metadata track (the first at
    /// 0.7 s after the file name's time, which is the session's start), with no option.
    @Test func sensorLoggerVideoIsPlacedByItsCaptureTimeTrack() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let export = packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-video")
        let out = dir.appendingPathComponent("out")
        let run = try runPoiar(["replay", export.path, "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path,
                                "--filter", "cafe", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("capture time from its timed-metadata track (45 samples)"), "\(run.stderr)")
        let lines = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(lines.count == 45)
        // Time 0 of the export is 1749895331 s; the first frame was captured 0.7 s later.
        #expect(abs(lines[0].time - 0.7) < 1e-6)
        #expect(abs(lines[44].time - (0.7 + 44 * 1001 / 30000)) < 1e-4)
        #expect(lines[0].footage == "1749895331000.mp4")
    }
}

/// `--footage-offset auto` on the real GoPro walk: its telemetry converted to a log, the log's
/// clock moved, and the offset found again from the picture's motion (issue target: within
/// 20 ms of the shift).
@Suite struct FootageSyncCLITests {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    /// The converted log with every row's time moved by `shift` seconds.
    func shiftedLog(_ shift: Double, in dir: URL) throws -> URL {
        let converted = dir.appendingPathComponent("walk.csv")
        if !FileManager.default.fileExists(atPath: converted.path) {
            let run = try runPoiar(["convert", clip, "--out", converted.path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let lines = try String(contentsOf: converted, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let moved = lines.map { line -> String in
            guard let comma = line.firstIndex(of: ","), let t = Double(line[..<comma]) else { return String(line) }
            return String(format: "%.6f", t + shift) + line[comma...]
        }
        let out = dir.appendingPathComponent(String(format: "shifted%+.3f.csv", shift))
        try moved.joined(separator: "\n").write(to: out, atomically: true, encoding: .utf8)
        return out
    }

    /// The offset `replay` printed (`footage offset: X s (…)`).
    func printedOffset(_ stderr: String) -> Double? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains("footage offset: ") && $0.contains("estimated") }),
              let range = line.range(of: "footage offset: ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }

    @Test func autoFindsTheShiftOfTheConvertedGoProLog() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        for shift in [0.3, -0.2] {
            let log = try shiftedLog(shift, in: dir)
            let run = try runPoiar(["replay", log.path, "--footage", clip, "--footage-offset", "auto", "--fps", "2",
                                    "--pois", sampleLogs.appendingPathComponent("gopro-walk.demo-pois.csv").path,
                                    "--out", dir.appendingPathComponent("out").path])
            #expect(run.status == 0, "\(run.stderr)")
            let offset = try #require(printedOffset(run.stderr), "\(run.stderr)")
            #expect(abs(offset - shift) <= 0.020, "shift \(shift): estimated \(offset)")
            #expect(run.stderr.contains("against the camera's own orientation"))
        }
    }

    /// The simulated walk's gyro has nothing to do with the clip's picture: refused, one line
    /// naming the clip, nothing written.
    @Test func autoRefusesFootageTheRecordingDidNotFilm() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 14), in: dir)
        let out = dir.appendingPathComponent("out")
        let run = try runPoiar(["replay", log.path, "--footage", clip, "--footage-offset", "auto", "--hfov", "100", "--out", out.path])
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: error:") }
        #expect(errors.count == 1 && errors[0].contains(clip), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
    }
}
