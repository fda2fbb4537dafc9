import Foundation
import Testing

/// The bad-input catalogue's second part (docs/robustness-campaigns.md, "Campaign 2"): outputs
/// that are inputs, special files or unusable targets, refused by the one gate before any work;
/// inputs that gave exit status 0 with wrong output; errors that did not say what was wrong.
/// Each case is checked as the first part's are (`BadInputCatalogueTests.expectRefused`).
enum OutputSafetyCatalogue {
    /// A FIFO at `name` in `dir` (what a rename would have replaced with a plain file).
    static func fifo(_ name: String, in dir: URL) throws {
        guard mkfifo(dir.appendingPathComponent(name).path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static let outputs: [BadInput] = [
        BadInput(name: "output: pose --out the log itself", make: logCase([]), arguments: ["pose", "log.csv", "--out", "log.csv"],
                 location: #"log\.csv"#, message: "--out would overwrite the recording it reads (log.csv)", absent: []),
        BadInput(name: "output: pose --out a hard link to the log", make: logCase([]) >> { dir in
                     try FileManager.default.linkItem(at: dir.appendingPathComponent("log.csv"), to: dir.appendingPathComponent("same.csv"))
                 }, arguments: ["pose", "log.csv", "--out", "same.csv"],
                 location: #"same\.csv"#, message: "--out would overwrite the recording it reads", absent: []),
        BadInput(name: "output: replay --mcap the log itself", make: logCase([]), arguments: replay("--mcap", "log.csv"),
                 location: #"log\.csv"#, message: "--mcap would overwrite the recording it reads"),
        BadInput(name: "output: replay --mcap the POI source the log names", make: logCase([]), arguments: replay("--mcap", "pois.csv"),
                 location: #"pois\.csv"#, message: "--mcap would overwrite the POI source it reads"),
        BadInput(name: "output: replay --mcap the same path as --out", make: logCase([]), arguments: replay("--mcap", "out"),
                 location: #"out"#, message: "given for both --out and --mcap"),
        BadInput(name: "output: replay --mcap a folder", make: logCase([]) >> { dir in
                     try FileManager.default.createDirectory(at: dir.appendingPathComponent("dir"), withIntermediateDirectories: true)
                 }, arguments: replay("--mcap", "dir"), location: #"dir"#, message: "is a folder: --mcap names a file"),
        BadInput(name: "output: replay --mcap a FIFO", make: logCase([]) >> { try fifo("pipe.mcap", in: $0) },
                 arguments: replay("--mcap", "pipe.mcap"), location: #"pipe\.mcap"#,
                 message: "is a FIFO (named pipe), not a regular file: --mcap writes a new file and renames it over the path"),
        BadInput(name: "output: pose --out a FIFO", make: logCase([]) >> { try fifo("pipe.csv", in: $0) },
                 arguments: ["pose", "log.csv", "--out", "pipe.csv"], location: #"pipe\.csv"#, message: "is a FIFO (named pipe), not a regular file"),
        BadInput(name: "output: pose --out and --mcap the same file", make: logCase([]),
                 arguments: ["pose", "log.csv", "--out", "p.csv", "--mcap", "p.csv"], location: #"p\.csv"#, message: "given for both --out and --mcap"),
        BadInput(name: "output: convert --out the log itself", make: logCase([]), arguments: ["convert", "log.csv", "--out", "log.csv"],
                 location: #"log\.csv"#, message: "--out would overwrite the recording it reads", absent: []),
        BadInput(name: "output: map --out the POI source", make: logCase([]), arguments: ["map", "log.csv", "--out", "pois.csv"],
                 location: #"pois\.csv"#, message: "--out would overwrite the POI source it reads", absent: []),
        BadInput(name: "output: project --png the POI source", make: logCase([]),
                 arguments: ["project", "--at", "60.1679,24.9493", "--heading", "0", "--pitch", "0", "--size", "64x48", "--hfov", "60",
                             "--pois", "pois.csv", "--png", "pois.csv"],
                 location: #"pois\.csv"#, message: "--png would overwrite the POI source it reads", absent: []),
        BadInput(name: "output: pois import --db the source", make: logCase([]), arguments: ["pois", "import", "pois.csv", "--db", "pois.csv"],
                 location: #"pois\.csv"#, message: "--db would overwrite a POI source it reads", absent: []),
        BadInput(name: "output: simulate --out and --truth the same file", make: { _ in },
                 arguments: ["simulate", "--waypoints", "60.1,24.9;60.1005,24.9", "--script", "look-around", "--duration", "2",
                             "--out", "a.csv", "--truth", "a.csv"],
                 location: #"a\.csv"#, message: "given for both --out and --truth", absent: ["a.csv"]),
        BadInput(name: "output: replay --out over the log's stills (frame_000001.png)", make: { dir in
                     try logCase(["0.3,frame,frame_000001.png,,,"])(dir)
                     try put(smallPNG(), "frame_000001.png", in: dir)
                 }, arguments: ["replay", "log.csv", "--out", "."], location: #"frame_000001\.png"#,
                 message: "--out would overwrite a still it reads", absent: ["frames.jsonl"]),
        BadInput(name: "output: --mcap with times before 1970 and no start_utc", make: logCase([], rows: ["-5.0,accel,0,9.8,0,", "-5.0,mag,0,20,-40,",
                                                                                                        "-5.0,gps,60.16787,24.94926,20,5", "-4.9,gyro,0,0,0,", "-4.5,gyro,0,0,0,"]),
                 arguments: replay("--mcap", "x.mcap"), location: #"log\.csv:\d+ \(time\)"#,
                 message: "falls before 1970 on the log's clock", absent: ["out", "x.mcap"]),
    ]

    /// Inputs that gave exit status 0 with wrong output, or unclear errors.
    static let inputs: [BadInput] = [
        footageCase("footage: a still that is a symbolic link out of the stills folder", "stills",
                    location: #"stills/1749895331300\.jpg"#, message: "is a symbolic link to") { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("stills"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("stills/lund-01.jpg"),
                                             to: dir.appendingPathComponent("stills/1749895331200.jpg"))
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("stills/1749895331300.jpg").path,
                                                       withDestinationPath: fixtureFolder.appendingPathComponent("stills/lund-01.jpg").path)
        },
        footageCase("footage: a clip cut short, its index whole", "cut.mp4", more: ["--fps", "0.5"], location: #"cut\.mp4"#,
                    message: "is cut short: the file ends at byte") { dir in
            let clip = indexFirstMP4(try Data(contentsOf: fixtureFolder.appendingPathComponent("footage/hevc-12-frames.mp4")))
            try put(clip.prefix(clip.count - 150), "cut.mp4", in: dir)
        },
        footageCase("footage: the same clip without --fps", "cut.mp4", location: #"cut\.mp4"#,
                    message: "is cut short: the file ends at byte") { dir in
            let clip = indexFirstMP4(try Data(contentsOf: fixtureFolder.appendingPathComponent("footage/hevc-12-frames.mp4")))
            try put(clip.prefix(clip.count - 150), "cut.mp4", in: dir)
        },
        BadInput(name: "log: a GoPro clip cut at 99 %, its index whole", make: { dir in
                     let clip = indexFirstMP4(try Data(contentsOf: sampleLogs.appendingPathComponent("gopro-walk.mp4")))
                     try put(clip.prefix(clip.count * 99 / 100), "cut.mp4", in: dir)
                 }, arguments: ["pose", "cut.mp4", "--out", "out"], location: #"cut\.mp4"#,
                 message: "video frames of stream 0 after that"),
        footageCase("footage: a video through a pipe", "pipe.mp4", location: #"pipe\.mp4"#,
                    message: "is a FIFO (named pipe), not a file: a video is read with seeking") { try fifo("pipe.mp4", in: $0) },
        BadInput(name: "POIs: --columns on a GeoJSON source", make: { try put(#"{"type":"FeatureCollection","features":[]}"#, "g.geojson", in: $0) },
                 arguments: ["pois", "import", "g.geojson", "--db", "g.sqlite", "--columns", "lat=Y"], location: #"g\.geojson"#,
                 message: "--columns names a CSV file's columns, but this source is GeoJSON", absent: ["g.sqlite"]),
        BadInput(name: "POIs: OSM XML with a 10 MB attribute", make: logCase([]) >> { dir in
                     try put("<osm version=\"0.6\">\n<node id=\"1\" lat=\"60.1679\" lon=\"24.9493\">\n<tag k=\"name\" v=\""
                             + String(repeating: "x", count: 10_000_001) + "\"/>\n</node>\n</osm>\n", "big.osm", in: dir)
                 }, arguments: replay("--pois", "big.osm"), location: #"big\.osm:\d+"#,
                 message: "an attribute, name or text longer than 10 MB", absent: ["out", "big.osm.poiar.sqlite"]),
        BadInput(name: "stills: a still 1×20000 pixels (frames over 16384 px a side)", make: { dir in
                     try logCase(["0.3,frame,tall.png,,,"])(dir)
                     try put(pngHeader(width: 1, height: 20000), "tall.png", in: dir)
                 }, arguments: replay(), location: #"tall\.png"#, message: "frames would be 1×20000 pixels, over the 16384 px a side poiar draws"),
        BadInput(name: "manifest: a time of 1e400", make: { try put(#"{"frame": 1, "time": 1e400}"# + "\n", "run/frames.jsonl", in: $0) },
                 arguments: ["report", "run"], location: #"run/frames\.jsonl:1"#,
                 message: #"the number 1e400 ("time") is out of range"#, absent: ["run/report.html"]),
        BadInput(name: "truth: a folder that is no export", make: { dir in
                     try FileManager.default.createDirectory(at: dir.appendingPathComponent("run"), withIntermediateDirectories: true)
                     try put("time,qw,qx,qy,qz\n0,1,0,0,0\n", "p.csv", in: dir)
                 }, arguments: ["evaluate", "--truth", "run", "--poses", "p.csv"], location: #"run"#,
                 message: "has no Orientation.csv: not a Sensor Logger export", absent: []),
    ]

    static let all = outputs + inputs
}

@Suite("Bad-input catalogue: what poiar writes")
struct OutputSafetyCatalogueTests {
    @Test(arguments: OutputSafetyCatalogue.all)
    func refused(_ c: BadInput) throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { try? FileManager.default.removeItem(at: dir) }
        try c.make(dir)
        let before = try BadInputCatalogueTests().allFiles(in: dir)
        let contents = try snapshot(dir, before)
        let result = try runPoiar(c.arguments, cwd: dir)
        try BadInputCatalogueTests().expectRefused(c, result, dir: dir, before: before)
        // Every input is as it was: nothing was written over.
        #expect(try snapshot(dir, before) == contents, "\(c.name): an input changed")
    }

    /// The bytes of every regular file among `paths` (FIFOs and folders by their kind).
    func snapshot(_ dir: URL, _ paths: Set<String>) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for path in paths {
            let url = dir.appendingPathComponent(path)
            let type = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            out[path] = type == .typeRegular ? try Data(contentsOf: url) : Data("\(String(describing: type))".utf8)
        }
        return out
    }
}
