import Foundation
import PoiarTestSupport
import Replay
import Report
import Testing

/// The second bad-input campaign of issue 29 (docs/robustness-campaigns.md, "Campaign 3"): the
/// features added after the first (`pose --track`, `--report`, `merge` on a finished folder,
/// `report --basemap`, the benchmarks' folders, simulator settings) and the classes it found:
/// outputs missing from the up-front check, a folder or pipe where a file is read, standard
/// output that cannot be written, settings that make a log poiar refuses.
extension OutputSafetyCatalogue {
    static func folder(_ name: String, in dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(name), withIntermediateDirectories: true)
    }

    static let simulate = ["simulate", "--waypoints", "60.1,24.9;60.1005,24.9", "--script", "look-around", "--duration", "2", "--out", "a.csv"]

    static let campaign2: [BadInput] = [
        BadInput(name: "output: pose --track the log itself", make: logCase([]), arguments: ["pose", "log.csv", "--out", "p.csv", "--track", "log.csv"],
                 location: #"log\.csv"#, message: "--track would overwrite the recording it reads", absent: ["p.csv"]),
        BadInput(name: "output: replay --report where report.html is a folder", make: logCase([]) >> { try folder("out/report.html", in: $0) },
                 arguments: replay("--report"), location: #"out/report\.html"#, message: "is a folder: --report names a file",
                 absent: ["out/frames.jsonl", "out/frame_000001.png"]),
        BadInput(name: "output: merge --report where report.html is a FIFO", make: { dir in
                     try folder("run", in: dir)
                     try fifo("run/report.html", in: dir)
                 }, arguments: ["merge", "run", "--report"], location: #"run/report\.html"#,
                 message: "is a FIFO (named pipe), not a regular file: --report writes a new file", absent: []),
        BadInput(name: "output: report --basemap its own report.html", make: { try put("<html></html>\n", "run/report.html", in: $0) },
                 arguments: ["report", "run", "--basemap", "run/report.html"], location: #"run/report\.html"#,
                 message: "the report would overwrite the base map it reads", absent: []),
        BadInput(name: "output: bench-render --out over its still", make: { try put(smallPNG(), "bench-frame.png", in: $0) },
                 arguments: ["bench-render", "--still", "bench-frame.png", "--out", ".", "--iterations", "1"], location: #"bench-frame\.png"#,
                 message: "--out would overwrite the still it reads", absent: ["labels.json", "bench-floor.png"]),
        BadInput(name: "output: bench-footage --out a file", make: { try put("x", "o", in: $0) },
                 arguments: ["bench-footage", "clip.mp4", "--out", "o"], location: #"o"#,
                 message: "is a file, not a folder: --out names the output folder", absent: []),
        BadInput(name: "input: report --basemap a folder (crashed)", make: { dir in try folder("run", in: dir); try folder("D", in: dir) },
                 arguments: ["report", "run", "--basemap", "D"], location: #"D"#,
                 message: "is a folder, not a file: expected an OSM extract or a poiar database", absent: ["run/report.html"]),
        BadInput(name: "input: map --basemap a FIFO (hung)", make: logCase([]) >> { try fifo("b.osm", in: $0) },
                 arguments: ["map", "log.csv", "--out", "m.png", "--basemap", "b.osm"], location: #"b\.osm"#,
                 message: "is a FIFO (named pipe), not a file: an OSM extract or a poiar database must be a file", absent: ["m.png"]),
        BadInput(name: "input: replay --camera a FIFO (\"missing or unreadable\")", make: logCase([]) >> { try fifo("cam.json", in: $0) },
                 arguments: replay("--camera", "cam.json"), location: #"cam\.json"#,
                 message: "is a FIFO (named pipe), not a file: the camera file must be a file"),
        BadInput(name: "input: evaluate --truth a FIFO (blamed on its header)", make: { dir in
                     try put("time,qw,qx,qy,qz\n0,1,0,0,0\n", "p.csv", in: dir)
                     try fifo("t.csv", in: dir)
                 }, arguments: ["evaluate", "--truth", "t.csv", "--poses", "p.csv"], location: #"t\.csv"#,
                 message: "is a FIFO (named pipe), not a file: the truth must be a file", absent: []),
        BadInput(name: "input: replay --font a folder (\"font file not found\")", make: logCase([]) >> { try folder("D", in: $0) },
                 arguments: replay("--font", "D"), location: #"D"#, message: "is a folder, not a file: expected a font file"),
        BadInput(name: "simulate: a gyro noise no phone has (wrote a log poiar refuses)", make: { _ in },
                 arguments: simulate + ["--gyro-noise", "1e10"], location: "--gyro-noise, --gyro-bias",
                 message: "beyond any phone gyroscope", absent: ["a.csv"]),
        BadInput(name: "simulate: a hard iron no phone has", make: { _ in },
                 arguments: simulate + ["--hard-iron", "6000,0,0"], location: "--mag-noise, --hard-iron, --mag-disturbance",
                 message: "beyond any phone magnetometer", absent: ["a.csv"]),
        BadInput(name: "simulate: a gyro outage after the log's end (changed nothing)", make: { _ in },
                 arguments: simulate + ["--gyro-outage", "10,20"], location: "--gyro-outage",
                 message: "10,20 lies outside the log (0 to 2.0 s): it would change nothing", absent: ["a.csv"]),
    ]
}

@Suite struct OutputSafetyCampaign2Tests {
    @Test(arguments: OutputSafetyCatalogue.campaign2)
    func refused(_ c: BadInput) throws {
        try OutputSafetyCatalogueTests().refused(c)
    }

    /// Runs poiar through the shell, its standard streams redirected by `redirect`.
    func runRedirected(_ arguments: [String], _ redirect: String, cwd: URL) throws -> RunResult {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \"$@\" " + redirect, poiarExecutable.path] + arguments,
                       cwd: cwd, environment: ProcessInfo.processInfo.environment)
    }

    /// Standard output full or closed: an error naming it, status 1 (it crashed with `pose`;
    /// `pois query` exited 0 having printed nothing).
    @Test func standardOutputThatCannotBeWrittenIsAnError() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try logCase([])(dir)
        for (arguments, redirect, message) in [
            (["pose", "log.csv"], ">/dev/full", "standard output: cannot write (No space left on device)"),
            (["pois", "query", "--db", "pois.csv", "--near", "60.1675,24.9495"], ">/dev/full", "standard output: cannot write (No space left on device)"),
            (["pose", "log.csv"], ">&-", "standard output: is closed (>&-)"),
        ] {
            let r = try runRedirected(arguments, redirect, cwd: dir)
            #expect(r.status == 1, "\(arguments) \(redirect): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("poiar: error: \(message)"), "\(arguments) \(redirect): \(r.stderr)")
        }
    }

    /// Standard error closed: the run goes on, and no notice lands in the file it writes (the
    /// first file opened would have been given descriptor 2).
    @Test func aClosedStandardErrorIsNotWrittenIntoAnOutput() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try logCase([])(dir)
        let r = try runRedirected(["pose", "log.csv", "--out", "p.csv"], "2>&-", cwd: dir)
        #expect(r.status == 0)
        let text = try String(contentsOf: dir.appendingPathComponent("p.csv"), encoding: .utf8)
        #expect(text.hasPrefix("time,qw,qx,qy,qz"))
        #expect(!text.contains("poiar:"))
    }

    /// `report` and `merge` on a folder written with `--no-frames`: said as such (report wrote
    /// a page of missing pictures with status 0; merge asked to replay again with --resume).
    @Test func aFolderWithoutFrameFilesIsSaidAsSuch() throws {
        let dir = try makeTempDir("poiar-output-safety")
        defer { cleanUp(dir) }
        try logCase([])(dir)
        let run = try runPoiar(["replay", "log.csv", "--out", "out", "--no-frames", "--video"], cwd: dir)
        #expect(run.status == 0, "\(run.stderr)")
        for arguments in [["report", "out"], ["merge", "out", "--contact-sheet", "1"]] {
            let r = try runPoiar(arguments, cwd: dir)
            #expect(r.status == 1, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("has no frame files, only video.mp4 (a replay with --no-frames?)"), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/report.html").path))
        }
    }

    /// `BatchOptions.reportFileName` is the report's own name (Replay does not link Report).
    @Test func theReportsNameIsOne() {
        #expect(BatchOptions.reportFileName == ReplayReport.fileName)
    }
}
