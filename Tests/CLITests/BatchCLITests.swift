import Footage
@testable import FolderExtras
import Foundation
import Manifest
import Testing
import POIARCore
import Rendering
@testable import Replay

/// Output and batch options through the command line: resume after a killed run, shards and
/// merge, scale, contact sheet, video, several logs, progress lines.
@Suite struct BatchCLITests {
    /// A fresh folder with `log` (and the walk's camera and POIs).
    func folder(_ log: String, named name: String = "log.csv") throws -> (dir: URL, log: URL) {
        let dir = try makeTempDir("poiar-batch")
        return (dir, try writeLog(log, named: name, in: dir))
    }

    /// Every file of `a` and `b` (hidden ones too), byte for byte; returns the names compared.
    @discardableResult
    func expectSameFolders(_ a: URL, _ b: URL, _ context: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b.path).sorted()), "\(context): listings differ")
        for n in names {
            #expect(try Data(contentsOf: a.appendingPathComponent(n)) == Data(contentsOf: b.appendingPathComponent(n)),
                    "\(context): \(n) differs")
        }
        return names
    }

    /// True when the PNG ends with its IEND chunk (a complete file).
    func pngIsComplete(_ url: URL) throws -> Bool {
        let d = try Data(contentsOf: url)
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return d.count > 20 && Array(d.suffix(12)) == iend
    }

    // MARK: resume

    /// With --video: the killed run's video (a hidden temporary) is removed, and the resumed
    /// run's, whose kept frames are read back from their PNGs, is the unbroken run's, byte for byte.
    @Test func resumeAfterAKilledRunGivesTheUnbrokenRunsBytes() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 100))
        let args = ["--filter", "cafe", "--size", "360x640", "--progress-interval", "0", "--video"]
        let unbroken = dir.appendingPathComponent("unbroken"), out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", unbroken.path] + args)
        #expect(r.status == 0, "\(r.stderr)")
        let total = try ManifestReader.frames(unbroken.appendingPathComponent("frames.jsonl")).count
        #expect(total == 200)

        // Start a run and SIGKILL it once some frames are on disk.
        let p = Process()
        p.executableURL = poiarExecutable
        p.arguments = ["replay", log.path, "--out", out.path] + args
        p.standardError = FileHandle.nullDevice
        try p.run()
        func frames() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0.hasPrefix("frame_") }
        }
        let deadline = Date().addingTimeInterval(120)
        while frames().count < 10 && p.isRunning && Date() < deadline { usleep(5_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal, "the run finished before it could be killed")
        let before = frames()
        #expect(before.count >= 10 && before.count < total, "\(before.count) frames when killed")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
        for name in before { #expect(try pngIsComplete(out.appendingPathComponent(name)), "\(name) is truncated") }

        let resumed = try runPoiar(["replay", log.path, "--out", out.path, "--resume"] + args)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        // Frames renamed into place before the kill are kept (the last one may lack its journal line).
        let kept = try #require(resumed.stderr.firstMatch(of: /\((\d+) already complete, kept\)/)).1
        #expect(Int(kept)! >= before.count - 1 && Int(kept)! <= before.count, "\(resumed.stderr)")
        let names = try expectSameFolders(unbroken, out, "resumed")
        #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "journal or temporaries left: \(names)")
    }

    @Test func resumeRendersFramesWhoseSettingsChanged() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 6))
        let out = dir.appendingPathComponent("out"), fresh = dir.appendingPathComponent("fresh")
        // A shard keeps its journal: shard 0/1 is every frame.
        var r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--shard", "0/1"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--shard", "0/1", "--resume"])
        #expect(r.stderr.contains("wrote 0 frames (12 already complete, kept) and frames.shard-0-of-1.jsonl"), "\(r.stderr)")
        // Other categories: other labels, so every frame is drawn again.
        r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "restaurant", "--shard", "0/1", "--resume"])
        #expect(r.stderr.contains("wrote 12 frames and frames.shard-0-of-1.jsonl"), "\(r.stderr)")
        r = try runPoiar(["merge", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        r = try runPoiar(["replay", log.path, "--out", fresh.path, "--filter", "restaurant"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectSameFolders(fresh, out, "after the settings changed")
    }

    // MARK: shards

    @Test func shardsRunAsSeparateProcessesThenMergedEqualOneRun() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 16))
        let args = ["--filter", "cafe,restaurant", "--size", "360x640"]
        let one = dir.appendingPathComponent("one"), sharded = dir.appendingPathComponent("sharded")
        let r = try runPoiar(["replay", log.path, "--out", one.path, "--contact-sheet", "5"] + args)
        #expect(r.status == 0, "\(r.stderr)")

        // Three processes at once into one folder, as on a shared volume.
        let n = 3
        let processes = try (0..<n).map { i -> Process in
            let p = Process()
            p.executableURL = poiarExecutable
            p.arguments = ["replay", log.path, "--out", sharded.path, "--shard", "\(i)/\(n)", "--jobs", "\(1 + i % 2)"] + args
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
        let listed = try FileManager.default.contentsOfDirectory(atPath: sharded.path)
        #expect(!listed.contains("frames.jsonl"))
        #expect(Set(listed.filter { $0.hasSuffix(".jsonl") }) == ["frames.shard-0-of-3.jsonl", "frames.shard-1-of-3.jsonl", "frames.shard-2-of-3.jsonl"])

        let m = try runPoiar(["merge", sharded.path, "--contact-sheet", "5"])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.stderr.contains("merged 3 shards: 32 frames"), "\(m.stderr)")
        let names = try expectSameFolders(one, sharded, "merged shards")
        #expect(names.filter { $0.hasPrefix("frame_") }.count == 32)
        #expect(names.contains("contact-sheet.png") && names.contains("frames.jsonl"))
    }

    @Test func shardsInSeparateFoldersCopiedTogetherMergeToo() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 5))
        let one = dir.appendingPathComponent("one"), gathered = dir.appendingPathComponent("gathered")
        #expect(try runPoiar(["replay", log.path, "--out", one.path, "--filter", "cafe"]).status == 0)
        try FileManager.default.createDirectory(at: gathered, withIntermediateDirectories: true)
        for i in 0..<4 {  // 10 frames in 4 shards: 3, 3, 2, 2
            let own = dir.appendingPathComponent("machine\(i)")
            let r = try runPoiar(["replay", log.path, "--out", own.path, "--filter", "cafe", "--shard", "\(i)/4"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("wrote shard \(i)/4's \(i < 2 ? 3 : 2) frames (of the run's 10)"), "\(r.stderr)")
            for name in try FileManager.default.contentsOfDirectory(atPath: own.path) where !name.hasPrefix(".") {
                try FileManager.default.copyItem(at: own.appendingPathComponent(name), to: gathered.appendingPathComponent(name))
            }
        }
        #expect(try runPoiar(["merge", gathered.path]).status == 0)
        try expectSameFolders(one, gathered, "gathered shards")
    }

    @Test func mergeRefusesMissingAndMismatchedShards() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 3))
        let out = dir.appendingPathComponent("out")
        #expect(try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--shard", "0/2"]).status == 0)
        var m = try runPoiar(["merge", out.path])
        #expect(m.status != 0)
        #expect(m.stderr.contains("shard 1/2 missing"), "\(m.stderr)")
        // Shard 1 of another replay (other categories).
        #expect(try runPoiar(["replay", log.path, "--out", out.path, "--filter", "restaurant", "--shard", "1/2"]).status == 0)
        m = try runPoiar(["merge", out.path])
        #expect(m.status != 0)
        #expect(m.stderr.contains("is a shard of another replay"), "\(m.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
        // A frame removed from the folder.
        #expect(try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--shard", "1/2"]).status == 0)
        try FileManager.default.removeItem(at: out.appendingPathComponent("frame_000002.png"))
        m = try runPoiar(["merge", out.path])
        #expect(m.status != 0)
        #expect(m.stderr.contains("frame_000002.png: frame 2 is missing"), "\(m.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
    }

    @Test func shardOptionIsChecked() throws {
        let (_, log) = try folder(try walkPrefix(seconds: 2))
        for bad in ["2/2", "1", "-1/3", "a/b", "0/0"] {
            let r = try runPoiar(["replay", log.path, "--shard", bad])
            #expect(r.status != 0 && r.stderr.contains("--shard"), "\(bad): \(r.stderr)")
        }
        let r = try runPoiar(["replay", log.path, "--shard", "0/2", "--contact-sheet", "2"])
        #expect(r.status != 0 && r.stderr.contains("poiar merge"), "\(r.stderr)")
    }

    // MARK: output options

    @Test func scaleScalesFramesCameraAndPixelPositions() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 4))
        let full = dir.appendingPathComponent("full"), half = dir.appendingPathComponent("half")
        #expect(try runPoiar(["replay", log.path, "--out", full.path, "--filter", "cafe", "--no-calm"]).status == 0)
        let r = try runPoiar(["replay", log.path, "--out", half.path, "--filter", "cafe", "--no-calm", "--scale", "0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try pngSize(half.appendingPathComponent("frame_000001.png"))! == (360, 640))
        let a = try ManifestReader.frames(full.appendingPathComponent("frames.jsonl")), b = try ManifestReader.frames(half.appendingPathComponent("frames.jsonl"))
        #expect(a.count == b.count && a.count == 8)
        var anchors = 0
        for (x, y) in zip(a, b) {
            #expect(y.camera.width == 360 && y.camera.height == 640)
            #expect(abs(y.camera.fx - x.camera.fx / 2) < 1e-9)
            for (p, q) in zip(x.annotations, y.annotations) {
                #expect(p.id == q.id)
                if let u = p.anchorX, let v = q.anchorX {
                    #expect(abs(u / 2 - v) < 2e-3, "\(u) → \(v)")
                    anchors += 1
                }
            }
        }
        #expect(anchors > 20)
        let bad = try runPoiar(["replay", log.path, "--scale", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("--scale"))
    }

    @Test func contactSheetHasEveryNthFrame() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 8))
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--contact-sheet", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        // 16 frames (720×1280): 1, 4, …, 16 → 6 thumbnails of 144×256.
        let layout = ContactSheetLayout(frameWidth: 720, frameHeight: 1280, count: 6)
        #expect(layout.thumbnailWidth == 144 && layout.thumbnailHeight == 256)
        let sheet = try loadStill(out.appendingPathComponent("contact-sheet.png"))
        #expect(sheet.width == layout.width && sheet.height == layout.height)
        let background = sheet.pixel(x: 2, y: 2)
        // Each thumbnail is its frame scaled down by 5: compare it with the frame's 5×5 block means,
        // and with the next frame on the sheet (which differs: the walk turns).
        let frames = try [1, 4, 7, 10, 13, 16].map { try loadStill(out.appendingPathComponent(String(format: "frame_%06d.png", $0))) }
        func difference(thumbnail i: Int, frame: RasterImage) -> Double {
            let (x0, y0) = layout.origin(of: i)
            var sum = 0.0, n = 0.0
            for ty in stride(from: 1, to: layout.thumbnailHeight - 1, by: 3) {
                for tx in stride(from: 1, to: layout.thumbnailWidth - 1, by: 3) {
                    var mean = 0.0
                    for fy in (ty * 5)..<(ty * 5 + 5) { for fx in (tx * 5)..<(tx * 5 + 5) { mean += Double(frame.pixel(x: fx, y: fy).g) } }
                    sum += abs(mean / 25 - Double(sheet.pixel(x: x0 + tx, y: y0 + ty).g))
                    n += 1
                }
            }
            return sum / n
        }
        for i in 0..<6 {
            let own = difference(thumbnail: i, frame: frames[i]), other = difference(thumbnail: i, frame: frames[(i + 1) % 6])
            #expect(own < 4 && own < other / 2, "thumbnail \(i): \(own) against its frame, \(other) against another")
        }
        // Nothing where a seventh thumbnail would go.
        if layout.count < layout.columns * layout.rows {
            let (x, y) = layout.origin(of: 6)
            #expect(sheet.pixel(x: x + 20, y: y + 20) == background)
        }
        #expect(throws: InputError.self) { try ContactSheetWriter.check(total: 1200, every: 2) }
        #expect(throws: Never.self) { try ContactSheetWriter.check(total: 1200, every: 3) }
    }

    /// `video.mp4` of `dir` read back: every frame at the frames' rate, the frames' size, and
    /// the first frame within a lossy codec's error of `frame_000001.png`.
    func expectVideoOfFrames(in dir: URL, count: Int, width: Int, height: Int, rate: Double) throws {
        let video = try VideoDecoder(path: dir.appendingPathComponent("video.mp4").path)
        #expect(video.frameCount == count && video.width == width && video.height == height,
                "\(video.frameCount) frames of \(video.width)×\(video.height)")
        #expect(video.stream.codecName == "h264")
        let times = video.frameTimes
        #expect(abs((times[count - 1] - times[0]) / Double(count - 1) - 1 / rate) < 1e-6, "\(times)")
        let png = try loadStill(dir.appendingPathComponent("frame_000001.png"))
        let first = try video.frame(at: 0)
        var total = 0
        for i in stride(from: 0, to: png.pixels.count, by: 4) {
            for c in 0..<3 { total += abs(Int(first.pixels[i + c]) - Int(png.pixels[i + c])) }
        }
        // H.264 at crf 20 and yuv420p (colour at half resolution, sharp label text): about 2
        // levels of 255 on the walk's frames; a wrong frame or colour matrix is far above 5.
        let meanError = Double(total) / Double(png.pixels.count / 4 * 3)
        #expect(meanError < 5, "mean error \(meanError)")
        #expect(leftoverTemporaries(in: dir).isEmpty, "\(leftoverTemporaries(in: dir))")
    }

    @Test func videoHasEveryFrameAtTheLogsRate() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 6))
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--video", "--size", "180x320"])
        #expect(r.status == 0, "\(r.stderr)")
        // 12 frames at 0.1, 0.6, … 5.6 s: 2 frames/s.
        try expectVideoOfFrames(in: out, count: 12, width: 180, height: 320, rate: 2)

        // Merged shards make the same video, byte for byte.
        let sharded = dir.appendingPathComponent("sharded")
        for i in 0..<2 {
            let s = try runPoiar(["replay", log.path, "--out", sharded.path, "--filter", "cafe", "--size", "180x320", "--shard", "\(i)/2"])
            #expect(s.status == 0, "\(s.stderr)")
        }
        let m = try runPoiar(["merge", sharded.path, "--video"])
        #expect(m.status == 0, "\(m.stderr)")
        try expectVideoOfFrames(in: sharded, count: 12, width: 180, height: 320, rate: 2)
        #expect(try Data(contentsOf: out.appendingPathComponent("video.mp4")) == Data(contentsOf: sharded.appendingPathComponent("video.mp4")))
    }

    @Test func aVideoThatCannotBeWrittenLeavesNoPartialFile() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 4))
        let out = dir.appendingPathComponent("out")
        for i in 0..<2 {
            #expect(try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--size", "91x161", "--shard", "\(i)/2"]).status == 0)
        }
        // A damaged frame: the video stops there, and nothing of it is left.
        let frame = out.appendingPathComponent("frame_000005.png")
        let bytes = try Data(contentsOf: frame)
        try bytes.prefix(bytes.count / 2).write(to: frame)
        let m = try runPoiar(["merge", out.path, "--video"])
        #expect(m.status != 0)
        // Refused before the merge (every frame is probed first): the shards stay as they were,
        // their journals too.
        #expect(m.stderr.contains("poiar: error: \(frame.path): frame 5 is damaged"), "\(m.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("video.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
        #expect(leftoverTemporaries(in: out).filter { !$0.hasPrefix(".poiar-journal") }.isEmpty, "\(leftoverTemporaries(in: out))")
        // Where the video goes cannot be written (a folder of that name): one line naming it.
        try bytes.write(to: frame)
        let blocked = out.appendingPathComponent("video.mp4")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let r = try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--size", "91x161", "--video"])
        #expect(r.status != 0)
        // Refused before any frame is drawn (the one output gate).
        #expect(r.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: error:") } == ["poiar: error: \(blocked.path): is a folder: --video names a file"], "\(r.stderr)")
        #expect(leftoverTemporaries(in: out).filter { !$0.hasPrefix(".poiar-journal") }.isEmpty, "\(leftoverTemporaries(in: out))")
        // The odd size is padded to even, and the video is complete once it can be written.
        try FileManager.default.removeItem(at: blocked)
        #expect(try runPoiar(["replay", log.path, "--out", out.path, "--filter", "cafe", "--size", "91x161", "--video"]).status == 0)
        let video = try VideoDecoder(path: blocked.path)
        #expect(video.width == 92 && video.height == 162 && video.frameCount == 8)
    }

    // MARK: several logs

    @Test func severalLogsAndAFolderOfLogsInOneCall() throws {
        let (dir, a) = try folder(try walkPrefix(seconds: 3), named: "a.csv")
        let b = try writeLog(try walkPrefix(seconds: 4), named: "b.csv", in: dir)
        try "time,qw,qx,qy,qz\n0,1,0,0,0\n".write(to: dir.appendingPathComponent("truth.csv"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", dir.path, "--out", out.path, "--filter", "cafe"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("truth.csv: skipped, not a poiar-log/1 log"), "\(r.stderr)")
        #expect(r.stderr.contains("(2 of 2)"))
        // Each as if replayed alone.
        for (log, frames) in [(a, 6), (b, 8)] {
            let name = log.deletingPathExtension().lastPathComponent
            let alone = dir.appendingPathComponent("alone-\(name)")
            #expect(try runPoiar(["replay", log.path, "--out", alone.path, "--filter", "cafe"]).status == 0)
            let names = try expectSameFolders(alone, out.appendingPathComponent(name), name)
            #expect(names.filter { $0.hasSuffix(".png") }.count == frames)
        }
        // Sharded, then both folders merged in one call: the same again.
        let sharded = dir.appendingPathComponent("sharded")
        for i in 0..<2 {
            #expect(try runPoiar(["replay", dir.path, "--out", sharded.path, "--filter", "cafe", "--shard", "\(i)/2"]).status == 0)
        }
        let m = try runPoiar(["merge", sharded.appendingPathComponent("a").path, sharded.appendingPathComponent("b").path])
        #expect(m.status == 0, "\(m.stderr)")
        for name in ["a", "b"] {
            try expectSameFolders(out.appendingPathComponent(name), sharded.appendingPathComponent(name), "sharded \(name)")
        }
        // Logs given one by one, one of them broken: the others are still replayed, exit 1.
        let broken = try writeLog("time,sensor,x,y,z,accuracy\n0,gyro,1,2\n", named: "broken.csv", in: dir)
        let out2 = dir.appendingPathComponent("out2")
        let r2 = try runPoiar(["replay", a.path, broken.path, b.path, "--out", out2.path, "--filter", "cafe"])
        #expect(r2.status != 0)
        #expect(r2.stderr.contains("1 of 3 logs failed: \(broken.path)"), "\(r2.stderr)")
        #expect(FileManager.default.fileExists(atPath: out2.appendingPathComponent("b/frames.jsonl").path))
        #expect(!FileManager.default.fileExists(atPath: out2.appendingPathComponent("broken/frames.jsonl").path))
        // Two logs that would share an output folder.
        _ = try writeLog(try walkPrefix(seconds: 2), named: "a.csv.gz", in: dir)
        let r3 = try runPoiar(["replay", a.path, dir.appendingPathComponent("a.csv.gz").path, "--out", out2.path])
        #expect(r3.status != 0 && r3.stderr.contains("same folder"), "\(r3.stderr)")
    }

    // MARK: progress

    @Test func progressIsAPlainPeriodicLineWhenStderrIsNotATerminal() throws {
        let (dir, log) = try folder(try walkPrefix(seconds: 10))
        let r = try runPoiar(["replay", log.path, "--out", dir.appendingPathComponent("out").path, "--filter", "cafe",
                              "--progress-interval", "0.05"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: frame ") }
        #expect(!lines.isEmpty, "\(r.stderr)")
        for line in lines {
            #expect(line.wholeMatch(of: /poiar: frame \d+\/20 \(\d+%\), \d+\.\d frames\/s, ETA (\d+:\d\d|–)/) != nil, "\(line)")
        }
        #expect(!r.stderr.contains("\r"))
        let quiet = try runPoiar(["replay", log.path, "--out", dir.appendingPathComponent("q").path, "--filter", "cafe",
                                  "--progress-interval", "0"])
        #expect(!quiet.stderr.contains("poiar: frame "))
    }
}
