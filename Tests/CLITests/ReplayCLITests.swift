import Foundation
import Manifest
import POIARCore
import Testing

/// The command line on small logs: bad input, --jobs, --fps, project vs replay.
@Suite struct ReplayCLITests {
    /// Runs replay on `log` in a fresh folder; returns the result and the output folder.
    func replay(_ log: String, _ extra: [String] = []) throws -> (RunResult, URL, URL) {
        let dir = try makeTempDir()
        let logURL = try writeLog(log, in: dir)
        let out = dir.appendingPathComponent("out")
        return (try runPoiar(["replay", logURL.path, "--out", out.path] + extra), out, logURL)
    }

    /// A bad run: non-zero exit, one line on stderr naming the file and line, nothing in DIR.
    func expectCleanFailure(_ r: RunResult, out: URL, mentions: [String]) {
        #expect(r.status != 0)
        let errorLines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: error:") }
        #expect(errorLines.count == 1, "stderr: \(r.stderr)")
        for m in mentions { #expect(r.stderr.contains(m), "expected \"\(m)\" in: \(r.stderr)") }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(!left.contains("frames.jsonl"))
        #expect(left.filter { $0.hasSuffix(".png") || $0.hasSuffix(".tmp") || $0.hasPrefix(".") }.isEmpty, "left: \(left)")
    }

    @Test func malformedRowIsReportedWithItsLineAndNothingIsWritten() throws {
        var lines = try walkPrefix(seconds: 5).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let bad = 40
        lines[bad - 1] = "1.234,gyro,0.1,abc,0.2,"
        let (r, out, log) = try replay(lines.joined(separator: "\n"), ["--filter", "cafe"])
        expectCleanFailure(r, out: out, mentions: ["\(log.path):\(bad)", "(y)", "not a number"])
    }

    @Test func nonFiniteValueAndTimeStepBackAreReported() throws {
        var lines = try walkPrefix(seconds: 5).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[49] = "2.000,accel,nan,9.8,0.1,"
        var (r, out, log) = try replay(lines.joined(separator: "\n"))
        expectCleanFailure(r, out: out, mentions: ["\(log.path):50", "finite"])

        lines = try walkPrefix(seconds: 5).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("0.001,gyro,0.01,0.02,0.03,", at: 300)
        (r, out, log) = try replay(lines.joined(separator: "\n"))
        expectCleanFailure(r, out: out, mentions: ["\(log.path):301", "time"])
    }

    @Test func unknownCategoryListsTheKnownOnes() throws {
        let (r, out, _) = try replay(try walkPrefix(seconds: 2), ["--filter", "spaceport"])
        expectCleanFailure(r, out: out, mentions: ["spaceport", "cafe", "restaurant", "university"])
        // A slip names the one meant instead.
        let (slip, slipOut, _) = try replay(try walkPrefix(seconds: 2), ["--filter", "cafes"])
        expectCleanFailure(slip, out: slipOut, mentions: ["unknown category \"cafes\": did you mean \"cafe\"?"])
    }

    @Test func missingStillIsNamedWithItsLogLine() throws {
        var lines = try walkPrefix(seconds: 3).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let i = try #require(lines.firstIndex { $0.contains(",frame,") })
        lines[i] = lines[i].replacingOccurrences(of: ",frame,", with: ",frame,stills/missing.jpg")
        let (r, out, log) = try replay(lines.joined(separator: "\n"))
        expectCleanFailure(r, out: out, mentions: ["\(log.path):\(i + 1)", "missing.jpg", "does not exist"])
    }

    @Test func stillPathLeavingTheLogFolderIsRefused() throws {
        var lines = try walkPrefix(seconds: 3).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let i = try #require(lines.firstIndex { $0.contains(",frame,") })
        lines[i] = lines[i].replacingOccurrences(of: ",frame,", with: ",frame,../../etc/passwd")
        let (r, out, _) = try replay(lines.joined(separator: "\n"))
        expectCleanFailure(r, out: out, mentions: ["leaves the log's folder"])
    }

    @Test func truncatedGzipLogIsReported() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 20), in: dir)
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gz.arguments = ["gzip", "-f", log.path]
        try gz.run(); gz.waitUntilExit()
        let gzURL = URL(fileURLWithPath: log.path + ".gz")
        let data = try Data(contentsOf: gzURL)
        try data.prefix(data.count / 2).write(to: gzURL)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", gzURL.path, "--out", out.path])
        expectCleanFailure(r, out: out, mentions: [gzURL.path, "truncated"])
    }

    @Test func jobsGiveByteIdenticalOutput() throws {
        let log = try walkPrefix(seconds: 8)
        let (r1, out1, _) = try replay(log, ["--filter", "cafe,restaurant", "--jobs", "1"])
        let (r3, out3, _) = try replay(log, ["--filter", "cafe,restaurant", "--jobs", "3"])
        #expect(r1.status == 0 && r3.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: out1.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: out3.path).sorted()))
        #expect(names.filter { $0.hasSuffix(".png") }.count == 16)
        for n in names {
            #expect(try Data(contentsOf: out1.appendingPathComponent(n)) == Data(contentsOf: out3.appendingPathComponent(n)), "\(n) differs")
        }
    }

    @Test func logWithoutFrameRowsGetsFramesAtTheRequestedRate() throws {
        let log = try walkPrefix(seconds: 6).split(separator: "\n").filter { !$0.contains(",frame,") }.joined(separator: "\n")
        let (r, out, _) = try replay(log, ["--fps", "1", "--filter", "cafe"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        let times = frames.map(\.time)
        // Samples run from 0.000 to 5.99 s: frames at 0, 1, …, 5.
        #expect(times == [0, 1, 2, 3, 4, 5])
    }

    @Test func projectGivesTheSameAnswerAsReplayForOnePose() throws {
        // Without the calm layout's memory of earlier frames, which `project` does not have.
        let (r, out, _) = try replay(try walkPrefix(seconds: 12), ["--filter", "cafe", "--no-calm"])
        #expect(r.status == 0)
        let frame = try #require(try ManifestReader.frames(out.appendingPathComponent("frames.jsonl")).last)
        let loc = frame.location, alt = try #require(loc.alt)
        let p = try runPoiar(["project", "--at", "\(loc.lat),\(loc.lon),\(alt)",
                              "--quat", frame.pose.q.map { "\($0)" }.joined(separator: ","),
                              "--camera", sampleLogs.appendingPathComponent("walk.camera.json").path,
                              "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path,
                              "--filter", "cafe"])
        #expect(p.status == 0, "\(p.stderr)")
        let projected = try JSONInput.decode(ManifestFrame.self, from: Data(p.stdout.utf8), file: "project's output")
        let a = frame.annotations, b = projected.annotations
        #expect(a.count == b.count && !a.isEmpty)
        for (x, y) in zip(a, b) {
            #expect(x.id == y.id)
            #expect(x.anchorX == y.anchorX && x.anchorY == y.anchorY && x.distance == y.distance && x.bearing == y.bearing, "\(x.id)")
            #expect(x.box == y.box)
            #expect(x.stackLevel == y.stackLevel)
            #expect(x.visible == y.visible)
        }
    }

    @Test func projectPlacesADueNorthPoiOnThePrincipalColumn() throws {
        let dir = try makeTempDir()
        let geojson = dir.appendingPathComponent("one.geojson")
        // 0.0009° of latitude north of 60° N ≈ 100 m.
        try """
        {"type": "FeatureCollection", "features": [{"type": "Feature", "id": "n1",
          "geometry": {"type": "Point", "coordinates": [25.0, 60.0009]},
          "properties": {"name": "North Cafe", "amenity": "cafe"}}]}
        """.write(to: geojson, atomically: true, encoding: .utf8)
        let r = try runPoiar(["project", "--at", "60,25,10", "--heading", "0", "--pitch", "0", "--size", "1000x800",
                              "--hfov", "60", "--pois", geojson.path, "--png", dir.appendingPathComponent("p.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let a = try #require((obj["annotations"] as! [[String: Any]]).first)
        #expect(abs((a["anchor_x"] as! Double) - 500) < 1e-3)
        #expect(abs((a["anchor_y"] as! Double) - 400) < 0.05)
        #expect(a["visible"] as? Bool == true)
        #expect(try pngSize(dir.appendingPathComponent("p.png"))! == (1000, 800))
    }

    @Test func poisQueryPrintsNearestFirst() throws {
        let r = try runPoiar(["pois", "query", "--db", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path,
                              "--near", "60.1678,24.9460", "--radius", "200", "--filter", "cafe", "--limit", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let hits = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(hits.count == 3)
        #expect(hits[0]["id"] as? String == "osm:node/606996900")  // Café Strindberg
        let d = hits.map { $0["distance_m"] as! Double }
        #expect(d == d.sorted())
    }
}

/// Frames over real camera stills, and camera files that are wrong.
@Suite struct ReplayStillTests {
    let lundStill = packageRoot.appendingPathComponent("Tests/Fixtures/stills/lund-01.jpg")

    @Test func framesAreDrawnOverTheirStills() throws {
        let dir = try makeTempDir()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("stills"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: lundStill, to: dir.appendingPathComponent("stills/01.jpg"))
        // The first three frame rows of a short walk point at the still; the rest stay synthetic.
        var lines = try walkPrefix(seconds: 4).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var n = 0
        for i in lines.indices where lines[i].contains(",frame,") && n < 3 {
            lines[i] = lines[i].replacingOccurrences(of: ",frame,", with: ",frame,stills/01.jpg"); n += 1
        }
        let log = try writeLog(lines.joined(separator: "\n"), in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path, "--size", "512x384", "--hfov", "54", "--filter", "cafe"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(frames.prefix(3).allSatisfy { $0.still == "stills/01.jpg" })
        #expect(frames.dropFirst(3).allSatisfy { $0.still == nil })
        #expect(try pngSize(out.appendingPathComponent("frame_000001.png"))! == (512, 384))
        // The photo's pixels differ from the synthetic sky: compare the two kinds of frame.
        let still = try Data(contentsOf: out.appendingPathComponent("frame_000001.png"))
        let synthetic = try Data(contentsOf: out.appendingPathComponent("frame_000004.png"))
        #expect(still.count > 3 * synthetic.count)
    }

    @Test func aCameraFileWithZeroFocalLengthIsRefused() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 2), in: dir)
        try #"{"width": 720, "height": 1280, "fx": 0, "fy": 808.6, "cx": 360, "cy": 640}"#
            .write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path, "--camera", dir.appendingPathComponent("bad.json").path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("bad.json (fx): focal length must be > 0"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aTextFileNamedJPGIsReportedWithTheLogLine() throws {
        let dir = try makeTempDir()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("stills"), withIntermediateDirectories: true)
        try "not an image".write(to: dir.appendingPathComponent("stills/fake.jpg"), atomically: true, encoding: .utf8)
        var lines = try walkPrefix(seconds: 3).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let i = try #require(lines.firstIndex { $0.contains(",frame,") })
        lines[i] = lines[i].replacingOccurrences(of: ",frame,", with: ",frame,stills/fake.jpg")
        let log = try writeLog(lines.joined(separator: "\n"), in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("fake.jpg"), "\(r.stderr)")
        #expect(r.stderr.contains("\(log.path):\(i + 1)"), "\(r.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(!left.contains("frames.jsonl"))
        #expect(left.filter { $0.hasPrefix(".") }.isEmpty)
    }
}
