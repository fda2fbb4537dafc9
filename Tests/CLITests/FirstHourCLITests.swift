import Foundation
import Manifest
import Testing

/// What a new user meets in the first hour (issue 30): words typed wrong answered with the one
/// meant, help that shows every default, `--fps`, `--from`, `--to` and `--every` on a log with
/// frame rows, a line per extra file, and notices that count one thing each.
@Suite struct FirstHourCLITests {
    @Test func aSubcommandTypedWrongGetsTheOneMeantAndFails() throws {
        let help = try runPoiar(["help", "replya"])
        #expect(help.status == 64, "\(help.stderr)")
        #expect(help.stderr == "poiar: error: unknown command 'replya' of 'poiar': did you mean 'poiar replay'?\n")
        #expect(help.stdout.isEmpty)
        let nested = try runPoiar(["pois", "improt", "x.osm"])
        #expect(nested.status == 64 && nested.stderr.contains("did you mean 'poiar pois import'?"), "\(nested.stderr)")
        let far = try runPoiar(["frobnicate"])
        #expect(far.status == 64 && far.stderr.contains("its commands are replay, pose, project, pois,"), "\(far.stderr)")
        // A right one still runs.
        #expect(try runPoiar(["help", "replay"]).status == 0)
    }

    @Test func aValueOrCategoryTypedWrongGetsTheOneMeant() throws {
        let value = try runPoiar(["replay", "SampleLogs/walk.csv", "--occlusion", "hid"])
        #expect(value.status == 64 && value.stderr.contains("Please provide one of 'hide', 'dim' or 'off'. Did you mean 'hide'?"),
                "\(value.stderr)")
        let category = try runPoiar(["map", "SampleLogs/walk.csv", "--filter", "cafes", "-o", "unused.png"])
        #expect(category.status == 1, "\(category.stderr)")
        #expect(category.stderr.contains("unknown category \"cafes\": did you mean \"cafe\"?"), "\(category.stderr)")
        #expect(!category.stderr.contains("bicycle_rental"))
    }

    /// The values poiar checks itself (lists, words with a number after them, a script's name)
    /// get the word meant too, as argument-parser's own word lists do.
    @Test func wordsInsideAValueGetTheOneMeant() throws {
        let cases: [(arguments: [String], meant: String)] = [
            (["replay", "SampleLogs/walk.csv", "--hud", "gps,compas"], "Did you mean 'compass'?"),
            (["replay", "SampleLogs/walk.csv", "--distance-offset", "autoo"], "Did you mean 'auto'?"),
            (["replay", "SampleLogs/walk.csv", "--distance-offset", "manul:10:2"], "Did you mean 'manual'?"),
            (["replay", "SampleLogs/walk.csv", "--mcap-images", "pnng"], "Did you mean 'png'?"),
            (["simulate", "--script", "walkin", "--waypoints", "60.1,24.9;60.2,24.9", "-o", "unused.csv"], "Did you mean 'walking'?"),
            (["pois", "import", "x.csv", "--db", "unused.db", "--category", "librari"], "did you mean \"library\"? (all 39: poiar pois categories)"),
            (["pois", "import", "x.csv", "--db", "unused.db", "--columns", "latt=Y"], "Did you mean 'lat'?"),
            (["pois", "bench", "--db", "unused.db", "--near", "60,24", "--index", "rtee"], "Did you mean 'rtree'?"),
        ]
        for (arguments, meant) in cases {
            let r = try runPoiar(arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").first?.hasSuffix(meant) == true, "\(arguments): \(r.stderr)")
        }
        // A word that is right, with something else wrong, is not "corrected" into itself.
        let quality = try runPoiar(["replay", "SampleLogs/walk.csv", "--mcap-images", "jpeg:500"])
        #expect(quality.status == 64 && !quality.stderr.contains("Did you mean"), "\(quality.stderr)")
        // Nothing near: no guess.
        let far = try runPoiar(["replay", "SampleLogs/walk.csv", "--hud", "speedometer"])
        #expect(far.status == 64 && !far.stderr.contains("Did you mean"), "\(far.stderr)")
    }

    @Test func topLevelHelpShowsThreeExamplesThatRun() throws {
        let help = try runPoiar(["--help"])
        let examples = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("poiar ") }
        #expect(examples.count == 3, "\(help.stdout)")
        #expect(examples.allSatisfy { $0.count <= 78 }, "an example the help wraps: \(examples)")
        // The pose, the quickest, runs as written in a copy of the sample walk.
        let pose = try #require(examples.first { $0.hasPrefix("poiar pose ") })
        let dir = try makeTempDir("help-example")
        defer { cleanUp(dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("SampleLogs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent("walk.csv"),
                                         to: dir.appendingPathComponent("SampleLogs/walk.csv"))
        let r = try runPoiar(pose.split(separator: " ").dropFirst().map(String.init), cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOf: dir.appendingPathComponent("Output/walk-pose.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,heading_sigma_deg" && rows.count > 1000)
    }

    @Test func replayHelpHasTitledSectionsAndEveryValueOptionsDefault() throws {
        let help = try runPoiar(["replay", "--help"]).stdout
        for title in ["INPUT:", "POIS:", "CAMERA:", "FUSION:", "LAYOUT AND HUD:", "OUTPUT:", "BATCH:"] {
            #expect(help.contains("\n\(title)\n"), "\(title)")
        }
        // Each option's entry: from its line to the next option's (or section's) line.
        let entries = help.components(separatedBy: "\n  -").dropFirst()
        var valueOptions = 0
        for entry in entries where entry.range(of: #"^[-\w, ]+ <[^>]+>"#, options: .regularExpression) != nil {
            valueOptions += 1
            let text = entry.components(separatedBy: "\n\n")[0].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(text.contains("default: "), "no default shown: -\(text)")
            #expect(!text.lowercased().contains("defaults to"), "a default in prose: -\(text)")
        }
        #expect(valueOptions >= 45)
        #expect(help.contains("-o, --out <dir>") && help.contains("-f, --filter <cats>") && help.contains("-j, --jobs <n>"))
    }

    /// Every command's help gives a default one way: "(default: X)", or with the words an option
    /// takes "(values: a, b; default: X)" — not the default in prose and the words after it.
    @Test func everyHelpShowsDefaultsInOneStyle() throws {
        let commands = ["replay", "pose", "project", "convert", "simulate", "evaluate", "map", "merge", "report", "bench-render",
                        "bench-footage", "pois import", "pois query", "pois show", "pois categories", "pois fetch", "pois bench"]
        for command in commands {
            let r = try runPoiar(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.status == 0, "\(command): \(r.stderr)")
            let text = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            for twoStyles in [#"\(default: [^)]*\) \(values: "#, #"(?i)defaults? to "#, #"\(default [^:]"#] {
                let found = text.range(of: twoStyles, options: .regularExpression).map { String(text[$0]) }
                #expect(found == nil, "\(command) --help: a default in another style: \(found ?? "")")
            }
            // Every value option the command line may leave out shows what it is then.
            let required = requiredOptions(r.stdout)
            for entry in optionEntries(r.stdout) where !required.contains(entry.name) {
                #expect(entry.text.contains("default: "), "\(command) --help: no default shown: \(entry.text)")
            }
        }
    }

    /// `project` has no log: its camera help says what to give, not "the log's camera".
    @Test func projectHelpIsInTitledSectionsWithItsOwnCameraDefaults() throws {
        let help = try runPoiar(["project", "--help"]).stdout
        let text = help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        for title in ["POSE:", "CAMERA:", "POIS:", "LAYOUT AND HUD:", "OUTPUT:"] {
            #expect(help.contains("\n\(title)\n"), "\(title)")
        }
        #expect(!text.contains("the log's"), "\(help)")
        #expect(text.contains("(default: none; --hfov, --intrinsics or --camera is needed)"), "\(help)")
        let replay = try runPoiar(["replay", "--help"]).stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(replay.joined(separator: " ").contains("(default: the log's camera, else the phone's as it was held)"))
    }

    /// Options a command's usage line names outside brackets: those it cannot run without.
    private func requiredOptions(_ help: String) -> Set<String> {
        guard let start = help.range(of: "USAGE: ") else { return [] }
        var usage = String(help[start.upperBound...].prefix { $0 != "\n" })
        while let optional = usage.range(of: #"\[[^\[\]]*\]"#, options: .regularExpression) { usage.removeSubrange(optional) }
        return Set(usage.matches(of: /--[\w-]+/).map { String($0.output) })
    }

    /// Each value option's help entry: its long name and its text on one line (from its line to
    /// the next option's, a blank line or a section's title).
    private func optionEntries(_ help: String) -> [(name: String, text: String)] {
        var entries: [(name: String, text: String)] = []
        var current: (name: String?, lines: [String])?
        func close() {
            if let c = current, let name = c.name { entries.append((name, c.lines.joined(separator: " "))) }
            current = nil
        }
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                close()
                let name = line.firstMatch(of: /^  (?:-\w, )?(--[\w-]+) </)?.output.1
                current = (name.map(String.init), [line.trimmingCharacters(in: .whitespaces)])
            } else if line.hasPrefix("   "), current != nil {
                current?.lines.append(line.trimmingCharacters(in: .whitespaces))
            } else {
                close()
            }
        }
        close()
        return entries
    }

    @Test func fpsOnTheWalksFrameRowsGivesHalfAFrameASecond() throws {
        let out = try makeTempDir("fps")
        defer { cleanUp(out) }
        let r = try runPoiar(["replay", "SampleLogs/walk.csv", "--fps", "0.5", "--size", "90x160", "-j", "2", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: frames: 112 of 446 selected: at most 0.5 a second (--fps 0.5)\n"), "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(frames.count == 112)
        let span = try #require(frames.last).time - frames[0].time
        #expect(abs(Double(frames.count - 1) / span - 0.5) < 0.01)
        #expect(frames.enumerated().allSatisfy { $0.element.frame == $0.offset + 1 })
        // The sample walk runs without alarming notices.
        #expect(!r.stderr.contains("not calibrated"), "\(r.stderr)")
    }

    /// `--from`, `--to` and `--every` compose with shards (merged, byte for byte the single
    /// run) and with `--resume`; each shard says its own share.
    @Test func aSelectionComposesWithShardsAndResume() throws {
        let root = try makeTempDir("selection")
        defer { cleanUp(root) }
        let single = root.appendingPathComponent("single"), sharded = root.appendingPathComponent("sharded")
        let selection = ["--from", "20", "--to", "40", "--every", "3", "--size", "90x160"]
        let one = try runPoiar(["replay", "SampleLogs/walk.csv", "-o", single.path] + selection)
        #expect(one.status == 0 && one.stderr.contains("frames: 14 of 446 selected: from 20.0 s to 40.0 s of the log, every 3rd (--every 3)\n"), "\(one.stderr)")
        for i in 0..<2 {
            let shard = try runPoiar(["replay", "SampleLogs/walk.csv", "-o", sharded.path, "--shard", "\(i)/2"] + selection)
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(shard.stderr.contains("poiar: shard \(i)/2: 7 of the run's 14 frames: "), "\(shard.stderr)")
            #expect(shard.stderr.contains("poiar: shard \(i)/2, labels: "), "\(shard.stderr)")
            #expect(shard.stderr.contains("poiar: wrote shard \(i)/2's 7 frames (of the run's 14) and frames.shard-\(i)-of-2.jsonl"), "\(shard.stderr)")
        }
        let merged = try runPoiar(["merge", sharded.path])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Data(contentsOf: single.appendingPathComponent("frames.jsonl")) == Data(contentsOf: sharded.appendingPathComponent("frames.jsonl")))
        for k in 1...14 {
            let name = String(format: "frame_%06d.png", k)
            #expect(try Data(contentsOf: single.appendingPathComponent(name)) == Data(contentsOf: sharded.appendingPathComponent(name)), "\(name)")
        }
        // A resumed run of the same selection into the merged folder gives the same manifest.
        let resumed = try runPoiar(["replay", "SampleLogs/walk.csv", "-o", sharded.path, "--resume"] + selection)
        #expect(resumed.status == 0 && resumed.stderr.contains("wrote 14 frames and frames.jsonl"), "\(resumed.stderr)")
        #expect(try Data(contentsOf: single.appendingPathComponent("frames.jsonl")) == Data(contentsOf: sharded.appendingPathComponent("frames.jsonl")))
    }

    @Test func eachExtraIsSaidAndAFinishedFolderGetsItsVideoWithoutRedrawing() throws {
        let out = try makeTempDir("extras")
        defer { cleanUp(out) }
        let r = try runPoiar(["replay", "SampleLogs/walk.csv", "-f", "cafe", "--to", "10", "--size", "90x160", "--map",
                              "--contact-sheet", "5", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\npoiar: wrote map.png: the track, view cones every 5 s and the POIs ("), "\(r.stderr)")
        #expect(r.stderr.contains("\npoiar: wrote contact-sheet.png: 4 thumbnails (frames 1, 6, …) ("), "\(r.stderr)")
        #expect(!r.stderr.contains("video.mp4"))
        // Cafes behind buildings are counted once each, with how many a frame has.
        #expect(r.stderr.range(of: #"; behind buildings: \d+ POIs?, a median of \d+ a frame\n"#, options: .regularExpression) != nil, "\(r.stderr)")

        let frame = out.appendingPathComponent("frame_000001.png")
        let drawn = try FileManager.default.attributesOfItem(atPath: frame.path)[.modificationDate] as? Date
        let nothing = try runPoiar(["merge", out.path])
        #expect(nothing.status == 1 && nothing.stderr.contains("is finished already (frames.jsonl, no shard manifests): nothing to merge"),
                "\(nothing.stderr)")
        let finished = try runPoiar(["merge", out.path, "--video", "--contact-sheet", "10"])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("finished already (20 frames); its frames are kept as they are"), "\(finished.stderr)")
        #expect(finished.stderr.contains("poiar: wrote video.mp4: 20 frames at 2.00 fps, "), "\(finished.stderr)")
        #expect(finished.stderr.contains("poiar: wrote contact-sheet.png: 2 thumbnails (frames 1, 11, …)"), "\(finished.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("video.mp4").path))
        #expect(try FileManager.default.attributesOfItem(atPath: frame.path)[.modificationDate] as? Date == drawn)
        #expect(leftoverTemporaries(in: out).isEmpty)
    }

    @Test func aFolderOfLogsSaysWhatItSkipped() throws {
        let dir = try makeTempDir("folder")
        defer { cleanUp(dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("clip.mp4"),
                                                   withDestinationURL: sampleLogs.appendingPathComponent("gopro-walk.mp4"))
        try writeFile("notes", to: "notes.txt", in: dir)
        let r = try runPoiar(["replay", dir.path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir.path): skipped 2 other items, not logs: clip.mp4, notes.txt (a GoPro clip is replayed when named on its own"),
                "\(r.stderr)")
    }
}

@Suite struct EvaluateNorthAdviceTests {
    /// `evaluate` advises --magnetic against a magnetic-north truth only when the poses are fused
    /// to true north: not when the recording has no position (its poses are magnetic already).
    @Test func adviceOnlyWhenThePosesAreTrueNorth() throws {
        let dir = try makeTempDir("evaluate-north")
        defer { cleanUp(dir) }
        let rec = dir.appendingPathComponent("rec")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-android"), to: rec)
        let advice = "give --magnetic or --align-heading"
        let trueNorth = try runPoiar(["evaluate", rec.path, "--truth", rec.appendingPathComponent("Orientation.csv").path])
        #expect(trueNorth.status == 0 && trueNorth.stderr.contains(advice), "\(trueNorth.stderr)")
        try FileManager.default.removeItem(at: rec.appendingPathComponent("Location.csv"))
        let magnetic = try runPoiar(["evaluate", rec.path, "--truth", rec.appendingPathComponent("Orientation.csv").path])
        #expect(magnetic.status == 0, "\(magnetic.stderr)")
        #expect(magnetic.stderr.contains("north: magnetic north"), "\(magnetic.stderr)")
        #expect(!magnetic.stderr.contains(advice), "\(magnetic.stderr)")
    }

    /// `replay --report --truth` advises only what replay takes (--magnetic, no --align-heading),
    /// and nothing once the poses are magnetic; `report` fuses nothing and advises nothing.
    @Test func replayAndReportAdviseOnlyWhatTheyTake() throws {
        let dir = try makeTempDir("replay-north")
        defer { cleanUp(dir) }
        let rec = packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-android").path
        let pois = sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path
        func replay(_ extra: [String], into name: String) throws -> String {
            let r = try runPoiar(["replay", rec, "--pois", pois, "--filter", "cafe", "--report", "--truth", rec,
                                  "--out", dir.appendingPathComponent(name).path] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stderr
        }
        let trueNorth = try replay([], into: "true")
        #expect(trueNorth.contains("magnetic north (poses fused to true north differ from it by the declination: give --magnetic)"), "\(trueNorth)")
        let magnetic = try replay(["--magnetic"], into: "magnetic")
        #expect(magnetic.contains("truth: the phone's own orientation") && !magnetic.contains("give --magnetic"), "\(magnetic)")
        let report = try runPoiar(["report", dir.appendingPathComponent("true").path, "--truth", rec, "--log", rec])
        #expect(report.status == 0 && report.stderr.contains("truth: the phone's own orientation"), "\(report.stderr)")
        #expect(!report.stderr.contains("give --"), "\(report.stderr)")
    }
}
