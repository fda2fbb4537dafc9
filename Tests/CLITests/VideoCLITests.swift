import Foundation
import Manifest
import Testing

/// `replay --video`, encoded while the frames are drawn, and `--no-frames` (the video alone):
/// the same video whatever --jobs, with or without the PNG files.
@Suite struct VideoCLITests {
    static let args = ["--filter", "cafe", "--size", "180x320", "--progress-interval", "0"]

    func frameFiles(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix("frame_") }
    }

    @Test func theVideoAloneIsTheVideoOfTheFramesWhateverJobs() throws {
        let dir = try makeTempDir("poiar-video")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 6), in: dir)
        let frames = dir.appendingPathComponent("frames"), alone = dir.appendingPathComponent("alone")
        var r = try runPoiar(["replay", log.path, "--out", frames.path, "--video", "--jobs", "1"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(frameFiles(in: frames).count == 12)

        // A PNG run first into the folder of the video alone: its frames do not belong to the
        // next frames.jsonl, and go.
        #expect(try runPoiar(["replay", log.path, "--out", alone.path] + Self.args).status == 0)
        r = try runPoiar(["replay", log.path, "--out", alone.path, "--video", "--no-frames", "--jobs", "3"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("wrote video.mp4 (12 frames) and frames.jsonl to \(alone.path)"), "\(r.stderr)")
        #expect(frameFiles(in: alone).isEmpty, "\(frameFiles(in: alone))")
        #expect(try Data(contentsOf: alone.appendingPathComponent("frames.jsonl")) == Data(contentsOf: frames.appendingPathComponent("frames.jsonl")))
        // The same frames in the same order: the same bytes (the video was encoded in frame
        // order from three render threads).
        #expect(try Data(contentsOf: alone.appendingPathComponent("video.mp4")) == Data(contentsOf: frames.appendingPathComponent("video.mp4")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: alone.path).sorted() == ["frames.jsonl", "video.mp4"])
    }

    @Test func noFramesIsRefusedWithWhatReadsTheFrames() throws {
        let dir = try makeTempDir("poiar-video")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 2), in: dir)
        let out = dir.appendingPathComponent("out")
        let cases: [([String], String)] = [
            (["--no-frames"], "--no-frames: goes with --video"),
            (["--video", "--no-frames", "--resume"], "--resume: keeps the frame files of an interrupted run, which --no-frames does not write"),
            (["--video", "--no-frames", "--contact-sheet", "2"], "--contact-sheet: reads the frame files, which --no-frames does not write"),
            (["--video", "--no-frames", "--mcap", dir.appendingPathComponent("a.mcap").path], "--mcap: reads the frame files"),
            (["--video", "--no-frames", "--report"], "--report: reads the frame files"),
            (["--video", "--no-frames", "--shard", "0/2"], "--shard"),
        ]
        for (extra, message) in cases {
            let r = try runPoiar(["replay", log.path, "--out", out.path] + Self.args + extra)
            #expect(r.status != 0 && r.stderr.contains(message), "\(extra): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
