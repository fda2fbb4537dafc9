import Foundation
import PoiarTestSupport
import Testing

/// The third pass over issue 29's classes (docs/robustness-campaigns.md, "Campaign 4"): new variants of
/// each class, and what they found — a file the simulated log names written over, a video or
/// zip arriving through a pipe as the log, `report --log` and `--basemap` taken unchecked,
/// frame files `merge` took damaged inside, of another size or another run, and PNG stills
/// damaged inside found only when drawn.
extension OutputSafetyCatalogue {
    struct SetupFailed: Error, CustomStringConvertible { var description: String }

    /// Runs poiar in `dir` as a case's setup; its failure fails the case.
    static func setUp(_ arguments: [String], in dir: URL) throws {
        let r = try runPoiar(arguments, cwd: dir)
        guard r.status == 0 else { throw SetupFailed(description: "\(arguments): \(r.stderr)") }
    }

    /// The catalogue's log replayed into `run` (frames 1 and 2).
    static func replayed(_ dir: URL) throws {
        try logCase([])(dir)
        try setUp(["replay", "log.csv", "--out", "run"], in: dir)
    }

    /// The catalogue's log replayed as two shards into `run`, not merged: frame 1 from shard
    /// 0/2, frame 2 from shard 1/2.
    static func sharded(_ dir: URL) throws {
        try logCase([])(dir)
        for shard in ["0/2", "1/2"] { try setUp(["replay", "log.csv", "--out", "run", "--shard", shard], in: dir) }
    }

    /// `name`'s PNG with `edit` applied to its bytes.
    static func edit(_ name: String, in dir: URL, _ edit: (inout [UInt8]) -> Void) throws {
        let url = dir.appendingPathComponent(name)
        var bytes = [UInt8](try Data(contentsOf: url))
        edit(&bytes)
        try Data(bytes).write(to: url)
    }

    /// Flips 32 bytes in the middle of a PNG's first IDAT chunk: its length stays, its CRC no
    /// longer matches.
    static func damageInside(_ png: inout [UInt8]) {
        let idat = (8..<png.count - 4).first { png[$0..<$0 + 4].elementsEqual("IDAT".utf8) }!
        let length = Int(png[idat - 4]) << 24 | Int(png[idat - 3]) << 16 | Int(png[idat - 2]) << 8 | Int(png[idat - 1])
        for k in 0..<32 { png[idat + 4 + length / 2 + k] ^= 0x5A }
    }

    /// A tEXt chunk (with its CRC) put before IEND: a PNG as valid, the same picture, more bytes.
    static func addText(_ png: inout [UInt8]) {
        let body = Array("tEXtComment\0copied".utf8)
        png.insert(contentsOf: bigEndian32(UInt32(body.count - 4)) + body + bigEndian32(crc32(body)), at: png.count - 12)
    }

    /// The Android fixture export copied to `ex/`, its `name` replaced by a symbolic link to
    /// `target` (outside it: a secret's first line must not be read, nor quoted).
    static func exportLinkingOut(_ name: String, to target: String) -> @Sendable (URL) throws -> Void {
        { dir in
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("phone/sensorlogger-video"),
                                             to: dir.appendingPathComponent("ex"))
            try put("secret first line\n", "secret.csv", in: dir)
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
            let link = dir.appendingPathComponent("ex/" + name)
            try FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
        }
    }

    /// A log 100 km from the catalogue's, otherwise the same.
    static let elsewhere = catalogueLog(rows: catalogueRows.map { $0.replacingOccurrences(of: "60.16787,24.94926", with: "61.06787,24.94926") })

    static let campaign3: [BadInput] = [
        BadInput(name: "output: simulate --truth over the POI source the log names (it was written over)",
                 make: { try put(cataloguePOIs, "pois.csv", in: $0) },
                 arguments: simulate + ["--pois", "pois.csv", "--truth", "pois.csv"], location: #"pois\.csv"#,
                 message: "--truth would overwrite the POI source the log names", absent: ["a.csv"]),
        BadInput(name: "output: simulate --track over the camera file the log names, in the log's folder",
                 make: { try put(#"{"width": 64, "height": 48, "fx": 50, "fy": 50, "cx": 32, "cy": 24}"#, "sim/cam.json", in: $0) },
                 arguments: Array(simulate.dropLast()) + ["sim/a.csv", "--camera", "cam.json", "--track", "sim/cam.json"], location: #"sim/cam\.json"#,
                 message: "--track would overwrite the camera file the log names", absent: ["sim/a.csv"]),
        BadInput(name: "input: report --log that does not exist (named on the page, exit 0)", make: replayed,
                 arguments: ["report", "run", "--log", "nope.csv"], location: #"nope\.csv"#,
                 message: "no such file or folder: --log names the run's recording", absent: ["run/report.html"]),
        BadInput(name: "input: report --log a file that is no recording", make: replayed,
                 arguments: ["report", "run", "--log", "pois.csv"], location: #"pois\.csv:1"#,
                 message: "unknown column layout", absent: ["run/report.html"]),
        BadInput(name: "input: report --log the recording of another place", make: { dir in
                     try replayed(dir)
                     try put(elsewhere, "other.csv", in: dir)
                 }, arguments: ["report", "run", "--log", "other.csv"], location: #"other\.csv"#,
                 message: "is not the recording of", absent: ["run/report.html"]),
        BadInput(name: "input: report --log a recording on another clock", make: { dir in
                     try replayed(dir)
                     try put(catalogueLog(rows: catalogueRows.map { "1" + $0 }), "later.csv", in: dir)  // times 10.0 … 10.5
                 }, arguments: ["report", "run", "--log", "later.csv"], location: #"later\.csv"#,
                 message: "outside the recording's 10.000 … 10.500 s", absent: ["run/report.html"]),
        BadInput(name: "input: report --basemap a CSV (no streets, no notice)", make: replayed,
                 arguments: ["report", "run", "--basemap", "pois.csv"], location: #"pois\.csv"#,
                 message: "is not an OSM extract", absent: ["run/report.html"]),
        BadInput(name: "output: --mcap of a log whose start_utc lies beyond 2262 (crashed)",
                 make: logCase([], meta: ["# start_utc: 2600-01-01T00:00:00Z", "# pois: pois.csv", "# camera_hfov_deg: 60"]),
                 arguments: ["pose", "log.csv", "--out", "p.csv", "--mcap", "x.mcap"], location: #"log\.csv \(start_utc\)"#,
                 message: "2600-01-01T00:00:00Z lies beyond 2262, past what MCAP log times (nanoseconds since 1970) can hold",
                 absent: ["p.csv", "x.mcap"]),
        BadInput(name: "output: --mcap of a log whose start_utc is before 1970 (told to give one)",
                 make: logCase([], meta: ["# start_utc: 1969-12-31T23:59:59Z", "# pois: pois.csv", "# camera_hfov_deg: 60"]),
                 arguments: ["pose", "log.csv", "--out", "p.csv", "--mcap", "x.mcap"], location: #"log\.csv:5 \(time\)"#,
                 message: "falls before 1970 on the log's clock, where MCAP log times cannot go (its start_utc is before 1970)",
                 absent: ["p.csv", "x.mcap"]),
        BadInput(name: "phone: an export's Gyroscope.csv linking out of it (read, its first line quoted)",
                 make: exportLinkingOut("Gyroscope.csv", to: "../secret.csv"), arguments: ["pose", "ex", "--out", "p.csv"],
                 location: #"ex/Gyroscope\.csv"#, message: "is a symbolic link to", absent: ["p.csv"]),
        BadInput(name: "phone: an export's Camera folder linking out of it",
                 make: exportLinkingOut("Camera", to: "../elsewhere"), arguments: ["replay", "ex", "--out", "out"],
                 location: #"ex/Camera"#, message: "outside the recording ex: a recording's files must stay inside it"),
        BadInput(name: "stills: a PNG damaged inside, refused before any frame", make: logCase(["0.3,frame,still.png,,,"]) >> { dir in
                     try put(smallPNG(), "still.png", in: dir)
                     try edit("still.png", in: dir, damageInside)
                 }, arguments: replay(), location: #"still\.png"#,
                 message: "the IDAT chunk at byte 33 is damaged (its CRC does not match its data)"),
    ]

    /// Shard folders whose frame files `merge` must refuse (it merged them, exit 0): the file
    /// named, the message, and `run/frames.jsonl` not written. (Not catalogue cases: the
    /// shards' journals, hidden files, rightly stay.)
    static let mergeCases: [(name: String, frame: Int, edit: @Sendable (URL) throws -> Void, message: String)] = [
        ("a frame damaged inside (its length whole)", 2, { try edit("run/frame_000002.png", in: $0, damageInside) },
         "frame 2 is damaged (not a readable PNG: the IDAT chunk at byte"),
        ("a JPEG under a frame's name", 1, { dir in
            try FileManager.default.removeItem(at: dir.appendingPathComponent("run/frame_000001.png"))
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("stills/lund-01.jpg"),
                                             to: dir.appendingPathComponent("run/frame_000001.png"))
        }, "frame 1 is damaged (is a JPEG, not the PNG poiar writes for a frame)"),
        ("a frame of another size", 2, { try put(smallPNG(), "run/frame_000002.png", in: $0) }, "frame 2 is 64×48 pixels, but its line in"),
        ("a frame file its shard did not write (a whole PNG of the size)", 1, { try edit("run/frame_000001.png", in: $0, addText) },
         "but shard 0/2 wrote"),
    ]
}

@Suite struct OutputSafetyCampaign3Tests {
    @Test(arguments: OutputSafetyCatalogue.campaign3)
    func refused(_ c: BadInput) throws {
        try OutputSafetyCatalogueTests().refused(c)
    }

    @Test(arguments: OutputSafetyCatalogue.mergeCases.indices)
    func mergeRefusesAFrameFile(_ k: Int) throws {
        let c = OutputSafetyCatalogue.mergeCases[k]
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try OutputSafetyCatalogue.sharded(dir)
        try c.edit(dir)
        let r = try runPoiar(["merge", "run"], cwd: dir)
        #expect(r.status == 1, "\(c.name): \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: error: ") }
        #expect(errors.count == 1 && errors[0].contains("run/frame_00000\(c.frame).png: ") && errors[0].contains(c.message), "\(c.name): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/frames.jsonl").path), "\(c.name)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/frames.shard-0-of-2.jsonl").path), "\(c.name)")
    }

    /// A clip damaged inside (4 KB of its video data zeroed, its index and length whole) is
    /// refused when the damaged frame is decoded (it was drawn, libavcodec's concealment
    /// hiding the damage, with exit status 0); `frames.jsonl` is not written.
    @Test func aClipDamagedInsideIsRefused() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        var clip = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("SampleLogs/gopro-walk.mp4")))
        for k in clip.count / 2..<clip.count / 2 + 4096 { clip[k] = 0 }
        try put(Data(clip), "clip.mp4", in: dir)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("SampleLogs/gopro-walk.demo-pois.csv"),
                                         to: dir.appendingPathComponent("pois.csv"))
        let r = try runPoiar(["replay", "clip.mp4", "--pois", "pois.csv", "--out", "out", "--fps", "1"], cwd: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: error: clip.mp4: the video is damaged inside at"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/frames.jsonl").path))
    }

    /// A video or a phone export's zip through a pipe as the log: said as such (it was
    /// "unknown column layout" quoting the file's binary start).
    @Test func aVideoOrZipThroughAPipeIsSaidAsSuch() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try logCase([])(dir)
        let mp4 = Data([0, 0, 0, 0x14] + Array("ftypmp41".utf8) + [UInt8](repeating: 0, count: 60))
        try put(mp4, "clip.mp4", in: dir)
        try put(Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 60)), "export.zip", in: dir)
        for (file, kind) in [("clip.mp4", "an MP4/MOV video (a GoPro clip?)"), ("export.zip", "a zip archive (a phone export?)")] {
            for command in [["replay", "/dev/stdin", "--pois", "pois.csv", "--out", "out"], ["convert", "/dev/stdin", "--out", "c.csv"]] {
                let r = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "cat \(file) | exec \"$0\" \"$@\"", poiarExecutable.path] + command,
                                       cwd: dir, environment: ProcessInfo.processInfo.environment)
                #expect(r.status == 1, "\(file) \(command): \(r.stderr)")
                #expect(r.stderr.contains("poiar: error: /dev/stdin: is \(kind) arriving through a pipe: poiar reads it with seeking"),
                        "\(file) \(command): \(r.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c.csv").path))
    }

    /// `report --log` the run's own recording is taken and named on the page; a base map with
    /// nothing near the frames is said (it gave no word).
    @Test func theRunsLogIsTakenAndAFarBaseMapIsSaid() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try OutputSafetyCatalogue.replayed(dir)
        let own = try runPoiar(["report", "run", "--log", "log.csv"], cwd: dir)
        #expect(own.status == 0, "\(own.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("run/report.html"), encoding: .utf8)
        #expect(page.contains(#""log":"log.csv""#) || page.contains(#""log": "log.csv""#))
        #expect(!own.stderr.contains("base map"))
        // An OSM extract 100 km north: read, and nothing of it near the frames.
        let far = """
            <?xml version="1.0"?><osm version="0.6"><node id="1" lat="61.0" lon="24.9"/><node id="2" lat="61.001" lon="24.9"/>\
            <way id="3"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way></osm>
            """
        try put(far, "far.osm", in: dir)
        let r = try runPoiar(["report", "run", "--basemap", "far.osm"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the base map has nothing within 400 m of the frames, so the page's map has no streets"), "\(r.stderr)")
        let near = try runPoiar(["report", "run", "--basemap", "\(packageRoot.path)/SampleLogs/helsinki-esplanadi.osm"], cwd: dir)
        #expect(near.status == 0 && !near.stderr.contains("nothing within"), "\(near.stderr)")
    }

    /// A merge of whole shard frames (the same checks) still goes through.
    @Test func wholeShardsStillMerge() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try OutputSafetyCatalogue.sharded(dir)
        let r = try runPoiar(["merge", "run"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("run/frames.jsonl").path))
    }
}
