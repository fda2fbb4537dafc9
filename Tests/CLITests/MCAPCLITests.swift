import Foundation
import Manifest
import Testing

/// `replay --mcap` and `pose --mcap`, read back by Foxglove's reference reader (the `mcap`
/// package from PyPI, through tools/mcap_check.py): every channel with its schema, one image
/// and one annotation message per frame, log times never going back, CRCs valid.
@Suite struct MCAPCLITests {
    static let reader = PythonTools.mcapReaderRequired

    /// tools/mcap_check.py's report of `file` (and of the frames of `frames`).
    func check(_ file: URL, frames: URL? = nil) throws -> (status: Int32, report: [String: Any]) {
        try Self.reader.check()
        let python = try PythonTools.mcapReader.get()
        var args = [packageRoot.appendingPathComponent("tools/mcap_check.py").path, file.path]
        if let frames { args += ["--frames", frames.path] }
        let r = PythonTools.run(python.path, args)
        let report = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (r.status, try #require(report, "mcap_check.py printed no report: \(r.output)"))
    }

    func channels(_ report: [String: Any]) -> [String: [String: Any]] {
        report["channels"] as? [String: [String: Any]] ?? [:]
    }

    @Test(reader.trait)
    func replayMCAPIsReadWholeByTheReferenceReader() throws {
        let dir = try makeTempDir("poiar-mcap")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 30), in: dir)
        let out = dir.appendingPathComponent("out"), mcap = dir.appendingPathComponent("walk.mcap")
        let r = try runPoiar(["replay", log.path, "--filter", "cafe", "--size", "180x320", "--out", out.path,
                              "--progress-interval", "0", "--mcap", mcap.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("mcap: wrote \(mcap.path)"), "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))

        let (status, report) = try check(mcap, frames: out.appendingPathComponent("frames.jsonl"))
        #expect(status == 0, "\(report["problems"] ?? "")")
        #expect(report["file_order_non_decreasing"] as? Bool == true)
        let c = channels(report)
        let schemas = c.mapValues { $0["schema"] as? String ?? "" }
        #expect(schemas == ["/pose": "foxglove.PoseInFrame", "/gps": "foxglove.LocationFix",
                            "/camera/image": "foxglove.CompressedImage", "/camera/annotations": "foxglove.ImageAnnotations",
                            "/imu/gyro": "poiar.SensorSample", "/imu/accel": "poiar.SensorSample", "/imu/mag": "poiar.SensorSample"])
        #expect(c.values.allSatisfy { $0["message_encoding"] as? String == "json" && $0["schema_encoding"] as? String == "jsonschema" })
        #expect(c["/camera/image"]?["count"] as? Int == frames.count)
        #expect(c["/camera/annotations"]?["count"] as? Int == frames.count)
        #expect(c.values.allSatisfy { $0["non_decreasing"] as? Bool == true })

        // Log times: the log's start_utc (2025-06-14T10:02:11Z) plus the log's time.
        let startNs = 1_749_895_331 * 1_000_000_000
        let firstFrameTime = try #require(frames.first?.time)
        #expect(c["/camera/image"]?["first_time"] as? Int == startNs + Int((firstFrameTime * 1e9).rounded()))

        // The raw channels have every sample of the log; the poses are the pose CSV's rows.
        let text = try String(contentsOf: log, encoding: .utf8)
        for sensor in ["gyro", "accel", "mag", "gps"] {
            let n = text.split(separator: "\n").filter { $0.split(separator: ",", maxSplits: 2).dropFirst().first == Substring(sensor) }.count
            let topic = sensor == "gps" ? "/gps" : "/imu/\(sensor)"
            #expect(c[topic]?["count"] as? Int == n, "\(topic)")
        }
        let poses = try runPoiar(["pose", log.path])
        #expect(c["/pose"]?["count"] as? Int == poses.stdout.split(separator: "\n").count - 1)

        // A frame's annotations: a box and a text for each card drawn.
        let cards = frames.map { $0.annotations.filter(\.visible).count }
        let first = try #require(c["/camera/annotations"]?["first"] as? [String: Any])
        #expect((first["texts"] as? [Any])?.count ?? -1 >= cards[0])
    }

    @Test(reader.trait)
    func poseMCAPHasTheRecordingWithoutFrames() throws {
        let dir = try makeTempDir("poiar-mcap")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 20), in: dir)
        let csv = dir.appendingPathComponent("pose.csv"), mcap = dir.appendingPathComponent("pose.mcap")
        let r = try runPoiar(["pose", log.path, "--out", csv.path, "--mcap", mcap.path])
        #expect(r.status == 0, "\(r.stderr)")
        let (status, report) = try check(mcap)
        #expect(status == 0, "\(report["problems"] ?? "")")
        let c = channels(report)
        #expect(Set(c.keys) == ["/pose", "/gps", "/imu/gyro", "/imu/accel", "/imu/mag"])
        let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(c["/pose"]?["count"] as? Int == rows.count)
        // The first pose is the CSV's first row's quaternion.
        let q = rows.first!.split(separator: ",").map { Double($0)! }
        let orientation = try #require((c["/pose"]?["first"] as? [String: Any])?["pose"] as? [String: Any])["orientation"] as? [String: Double]
        #expect(abs(orientation!["w"]! - q[1]) < 1e-8 && abs(orientation!["x"]! - q[2]) < 1e-8)
    }

    @Test(reader.trait)
    func jpegFramesAreReadAsJPEGAndSmaller() throws {
        let dir = try makeTempDir("poiar-mcap")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 10), in: dir)
        var sizes: [String: Int] = [:]
        for images in ["png", "jpeg:80"] {
            let out = dir.appendingPathComponent("out-\(images)"), mcap = dir.appendingPathComponent("\(images).mcap")
            let r = try runPoiar(["replay", log.path, "--filter", "cafe", "--size", "360x640", "--out", out.path,
                                  "--progress-interval", "0", "--mcap", mcap.path, "--mcap-images", images])
            #expect(r.status == 0, "\(r.stderr)")
            let (status, report) = try check(mcap, frames: out.appendingPathComponent("frames.jsonl"))
            #expect(status == 0, "\(report["problems"] ?? "")")  // the check decodes every image's magic
            let first = channels(report)["/camera/image"]?["first"] as? [String: Any]
            #expect(first?["format"] as? String == (images == "png" ? "png" : "jpeg"))
            sizes[images] = try FileManager.default.attributesOfItem(atPath: mcap.path)[.size] as? Int
        }
        #expect(sizes["jpeg:80"]! < sizes["png"]!, "\(sizes)")
        let r = try runPoiar(["replay", log.path, "--mcap", dir.appendingPathComponent("x.mcap").path, "--mcap-images", "jpeg:0"])
        #expect(r.status != 0 && r.stderr.contains("--mcap-images"), "\(r.stderr)")
    }

    /// Refused before anything is written: an MCAP file that cannot be made, --mcap with
    /// --shard, with several logs.
    @Test func badMCAPRequestsAreRefusedWithNothingWritten() throws {
        let dir = try makeTempDir("poiar-mcap")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 5), in: dir)
        let out = dir.appendingPathComponent("out")
        let missing = dir.appendingPathComponent("no/such/folder/x.mcap").path
        var r = try runPoiar(["replay", log.path, "--out", out.path, "--size", "180x320", "--mcap", missing])
        #expect(r.status != 0)
        #expect(r.stderr.contains(missing) && r.stderr.split(separator: "\n").filter { $0.contains("error") }.count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0.hasPrefix("frame_") }.isEmpty)

        r = try runPoiar(["replay", log.path, "--out", out.path, "--shard", "0/2", "--mcap", dir.appendingPathComponent("a.mcap").path])
        #expect(r.status != 0 && r.stderr.contains("--mcap"), "\(r.stderr)")
        let second = try writeLog(try walkPrefix(seconds: 5), named: "other.csv", in: dir)
        r = try runPoiar(["replay", log.path, second.path, "--out", out.path, "--mcap", dir.appendingPathComponent("a.mcap").path])
        #expect(r.status != 0 && r.stderr.contains("--mcap"), "\(r.stderr)")

        r = try runPoiar(["pose", log.path, "--mcap", missing])
        #expect(r.status != 0 && r.stderr.contains(missing), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".mcap") || $0.hasSuffix(".tmp") }.isEmpty)
    }
}
