import Foundation
import Testing

/// What poiar writes (docs/robustness-campaigns.md) beyond the catalogue's one-line
/// refusals: interrupted and killed writes, refusals that need a replay first, inputs that
/// gave wrong output with exit status 0.
@Suite struct OutputSafetyTests {
    /// The catalogue's log (with its POIs) in a fresh folder.
    func folderWithLog(_ extra: [String] = [], meta: [String] = ["# pois: pois.csv", "# camera_hfov_deg: 60"]) throws -> URL {
        let dir = try makeTempDir("poiar-output-safety")
        try logCase(extra, meta: meta)(dir)
        return dir
    }

    func names(in dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    /// SIGTERM and Ctrl-C (SIGINT) during `--mcap`: the process ends as the signal ends it and
    /// its temporary MCAP file is gone.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalRemovesTheTemporaries(_ sig: Int32) throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        for name in ["walk.csv", "walk.camera.json", "helsinki-esplanadi.osm"] {
            try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        // The POI cache first, so that the replay below is writing its MCAP file soon.
        #expect(try runPoiar(["pois", "query", "--db", "helsinki-esplanadi.osm", "--near", "60.1679,24.9493", "--limit", "1"], cwd: dir).status == 0)
        let p = Process()
        p.executableURL = poiarExecutable
        p.arguments = ["replay", "walk.csv", "--out", "out", "--mcap", "walk.mcap", "--progress-interval", "0"]
        p.currentDirectoryURL = dir
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Until the temporary MCAP file is there (the replay is writing it), then the signal.
        let deadline = Date().addingTimeInterval(60)
        while try !names(in: dir).contains(where: { $0.hasPrefix(".walk.mcap.") }) && p.isRunning && Date() < deadline {
            usleep(20_000)
        }
        #expect(p.isRunning, "the replay ended before it was interrupted")
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == sig, "status \(p.terminationStatus)")
        let left = try names(in: dir)
        #expect(left.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(left)")
        #expect(!left.contains("walk.mcap"))
    }

    /// A killed run (SIGKILL) leaves `.x.mcap.PID.N.tmp`; the next run writing x.mcap removes
    /// those of processes that no longer run, and leaves a running process's alone.
    @Test func aLaterRunRemovesADeadProcesssTemporaries() throws {
        let dir = try folderWithLog()
        defer { cleanUp(dir) }
        let dead = ".x.mcap.2147483646.17.tmp", live = ".x.mcap.1.17.tmp", other = ".y.mcap.2147483646.17.tmp"
        for name in [dead, live, other] { try put("half a file", name, in: dir) }
        let r = try runPoiar(["pose", "log.csv", "--out", "p.csv", "--mcap", "x.mcap"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let left = try names(in: dir)
        #expect(!left.contains(dead))
        #expect(left.contains(live))  // PID 1 runs
        #expect(left.contains(other))  // another output's
        #expect(left.contains("x.mcap"))
    }

    /// Whether `chattr +i` works here (root, on a file system with the flag): a probe file.
    static let immutableFiles: Bool = {
        guard let dir = try? makeTempDir("poiar-immutable-probe") else { return false }
        defer { cleanUp(dir) }
        let file = dir.appendingPathComponent("probe")
        guard FileManager.default.createFile(atPath: file.path, contents: Data()),
              (try? runProcess(URL(fileURLWithPath: "/usr/bin/chattr"), ["+i", file.path], environment: ProcessInfo.processInfo.environment))?.status == 0 else { return false }
        _ = try? runProcess(URL(fileURLWithPath: "/usr/bin/chattr"), ["-i", file.path], environment: ProcessInfo.processInfo.environment)
        return true
    }()

    /// An immutable output (`chattr +i`) is refused before any work, even as root, and stays.
    @Test(.enabled(if: immutableFiles, "needs chattr +i (root on a file system with the flag)"))
    func anImmutableOutputIsRefused() throws {
        let dir = try folderWithLog()
        defer { _ = try? runProcess(URL(fileURLWithPath: "/usr/bin/chattr"), ["-i", dir.appendingPathComponent("x.mcap").path], environment: ProcessInfo.processInfo.environment); cleanUp(dir) }
        try put("kept", "x.mcap", in: dir)
        #expect(try runProcess(URL(fileURLWithPath: "/usr/bin/chattr"), ["+i", dir.appendingPathComponent("x.mcap").path], environment: ProcessInfo.processInfo.environment).status == 0)
        let r = try runPoiar(["pose", "log.csv", "--out", "p.csv", "--mcap", "x.mcap"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("x.mcap: cannot be written (Operation not permitted): a read-only or immutable file is not replaced"), "\(r.stderr)")
        #expect(try names(in: dir).filter { $0.hasPrefix(".") || $0 == "p.csv" }.isEmpty)
        #expect(try String(contentsOf: dir.appendingPathComponent("x.mcap"), encoding: .utf8) == "kept")
    }

    /// A JPEG damaged inside (its end marker intact) is refused when it is decoded, naming the
    /// still and the log line; no manifest is written.
    @Test func aJPEGDamagedInsideIsRefused() throws {
        let dir = try folderWithLog(["0.3,frame,damaged.jpg,,,"])
        defer { cleanUp(dir) }
        var jpeg = [UInt8](try Data(contentsOf: fixtureFolder.appendingPathComponent("stills/lund-01.jpg")))
        let scan = jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }!
        let middle = scan + (jpeg.count - scan) / 2
        var seed: UInt64 = 1
        for k in middle..<middle + 64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            jpeg[k] = UInt8(truncatingIfNeeded: seed >> 33) & 0x7F  // no 0xFF: no marker
        }
        try put(Data(jpeg), "damaged.jpg", in: dir)
        let r = try runPoiar(["replay", "log.csv", "--out", "out"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("damaged.jpg: the JPEG is damaged inside (libjpeg-turbo: Corrupt JPEG data"), "\(r.stderr)")
        #expect(r.stderr.contains("(still of log.csv:9)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/frames.jsonl").path))
    }

    /// A truth with no usable rows is refused by `report --truth`, `replay --report --truth`
    /// and `evaluate` alike (one check), each with the same line.
    @Test func aTruthWithoutUsableRowsIsRefusedEverywhere() throws {
        let dir = try folderWithLog(["1.0,gyro,0,0,0,", "1.5,gyro,0,0,0,", "2.0,gyro,0,0,0,"])
        defer { cleanUp(dir) }
        var r = try runPoiar(["replay", "log.csv", "--out", "out", "--size", "64x48"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        r = try runPoiar(["pose", "log.csv", "--out", "p.csv"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let truths: [(text: String, message: String)] = [
            ("time,qw,qx,qy,qz\n", "t.csv: no rows (a header only)"),
            ("time,qw,qx,qy,qz\n0.5,0,0,0,0\n1.0,0,0,0,0\n", "t.csv: none of its 2 rows has a usable quaternion"),
            ("time,qw,qx,qy,qz\n0.5,nan,0,0,0\n1.0,nan,0,0,0\n", "t.csv: none of its 2 rows has a usable quaternion"),
            ("time,qw,qx,qy,qz\n1.0,1,0,0,0\n0.5,1,0,0,0\n", "t.csv:3 (time): time 0.5 steps back from 1.0"),
            ("time,qw,qx,qy,qz\n1.0,1,0,0,0\n1.0,1,0,0,0\n", "t.csv: all 2 rows have the same time (1.0 s)"),
            ("time,qw,qx,qy,qz\n1749895331.0,1,0,0,0\n1749895332.0,1,0,0,0\n", "is it on another clock?"),
        ]
        for (text, message) in truths {
            try put(text, "t.csv", in: dir)
            for arguments in [["report", "out", "--truth", "t.csv"], ["evaluate", "--truth", "t.csv", "--poses", "p.csv"],
                              ["replay", "log.csv", "--out", "out2", "--report", "--truth", "t.csv"]] {
                // The replay checks the truth's rows before drawing; the clock once it has frames.
                guard arguments[0] != "replay" || !message.contains("clock") else { continue }
                r = try runPoiar(arguments, cwd: dir)
                #expect(r.status == 1, "\(arguments): \(r.stderr)")
                #expect(r.stderr.contains("poiar: error: " + message) || r.stderr.contains(message), "\(arguments): \(r.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/report.html").path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out2").path))
        }
    }

    /// `--columns lat=Y,lon=Y` reads one column as two of poiar's: refused as the option is read.
    @Test func oneColumnForTwoIsRefused() throws {
        let dir = try folderWithLog()
        defer { cleanUp(dir) }
        let r = try runPoiar(["pois", "import", "pois.csv", "--db", "p.sqlite", "--columns", "lat=Y,lon=Y"], cwd: dir)
        #expect(r.status != 0)
        #expect(r.stderr.contains("column \"Y\" is given for both lat and lon"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p.sqlite").path))
    }

    /// `merge` probes every frame PNG: one cut to 300 bytes is refused, naming it.
    @Test func mergeRefusesATruncatedFrame() throws {
        let dir = try folderWithLog()
        defer { cleanUp(dir) }
        var r = try runPoiar(["replay", "log.csv", "--out", "out", "--size", "64x48", "--shard", "0/1"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let frame = dir.appendingPathComponent("out/frame_000001.png")
        try Data(try Data(contentsOf: frame).prefix(300)).write(to: frame)
        r = try runPoiar(["merge", "out"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("frame_000001.png: frame 1 is damaged (not a readable PNG: file is truncated"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/frames.jsonl").path))
    }

    /// A POI with a 10 MB name — 10 million characters, or one character: "a" and three
    /// million combining accents (6 MB, kept whole by a bound in characters alone: 8 s for two
    /// frames) — is imported with its name cut (a notice says so), and a frame showing it is
    /// drawn as fast as any. Returns the manifest.
    func replayWithName(_ name: String) throws -> String {
        let dir = try folderWithLog(meta: ["# pois: big.csv", "# camera_hfov_deg: 60"])
        defer { cleanUp(dir) }
        try put("id,name,category,lat,lon\n1," + name + ",cafe,60.1680,24.9493\n", "big.csv", in: dir)
        let start = Date()
        let r = try runPoiar(["replay", "log.csv", "--out", "out", "--size", "640x480"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("names or other texts over 1000 characters, cut with an ellipsis: 1"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < 20)
        return try String(contentsOf: dir.appendingPathComponent("out/frames.jsonl"), encoding: .utf8)
    }

    @Test func aTenMegabyteNameIsCutAtImport() throws {
        let manifest = try replayWithName(String(repeating: "x", count: 10_000_000))
        #expect(manifest.utf8.count < 20_000)
        #expect(manifest.contains(String(repeating: "x", count: 999)))
        #expect(!manifest.contains(String(repeating: "x", count: 1000)))
    }

    @Test func aNameOfOneHugeCharacterIsCutAtImport() throws {
        let name = "a" + String(repeating: "\u{0301}", count: 3_000_000)
        #expect(name.count == 1)
        let manifest = try replayWithName(name)
        #expect(manifest.utf8.count < 40_000, "\(manifest.utf8.count) bytes")
    }
}
