import Foundation
import Manifest
import POIARCore
import Testing
@testable import Replay

/// The pieces of batch runs without processes: shard arithmetic, journal lines, progress text.
@Suite struct BatchUnitTests {
    @Test func shardsSplitTheFramesRoundRobinWithoutGapsOrOverlaps() throws {
        #expect(ShardSpec(parsing: "2/4") == ShardSpec(index: 2, count: 4))
        for bad in ["4/4", "-1/4", "1", "1/0", "a/2", "1/2/3", ""] { #expect(ShardSpec(parsing: bad) == nil, "\(bad)") }
        for n in 1...5 {
            for total in [0, 1, 4, 5, 13] {
                var owners = [Int](repeating: 0, count: total + 1)
                for i in 0..<n {
                    let shard = ShardSpec(index: i, count: n)!
                    let mine = (1...max(1, total)).filter { $0 <= total && shard.owns(frame: $0) }
                    #expect(mine.count == shard.frameCount(of: total), "\(shard) of \(total)")
                    for k in mine { owners[k] += 1 }
                }
                #expect(owners.dropFirst().allSatisfy { $0 == 1 })
            }
        }
        let s = ShardSpec(index: 3, count: 12)!
        #expect(s.manifestName == "frames.shard-3-of-12.jsonl")
        #expect(ShardSpec.fromManifestName(s.manifestName) == s)
        #expect(ShardSpec.fromManifestName("frames.shard-03-of-12.jsonl") == nil)
        #expect(ShardSpec.fromManifestName("frames.jsonl") == nil)
    }

    @Test func trailerAndManifestHeadsRoundTrip() throws {
        let t = ShardTrailer(shard: ShardSpec(index: 1, count: 3)!, frames: 446, fingerprint: "0123456789abcdef")
        #expect(ShardTrailer(line: t.jsonLine) == t)
        #expect(ShardTrailer(line: "{\"frame\": 1}") == nil)
        let head = try JSONInput.decode(ManifestFrame.Head.self, from: Data("{\"frame\": 12, \"time\": 5.6, \"image\": \"frame_000012.png\"}".utf8), file: "m.jsonl")
        #expect(head.frame == 12 && head.time == 5.6)
        #expect(throws: InputError(file: "m.jsonl", field: "frame", "missing")) {
            try JSONInput.decode(ManifestFrame.Head.self, from: Data("{\"time\": 5.6}".utf8), file: "m.jsonl")
        }
    }

    @Test func manifestReaderTakesLongLinesAndALastLineWithoutNewline() throws {
        let dir = try makeTempDir("poiar-manifest")
        let url = dir.appendingPathComponent("m.jsonl")
        let long = String(repeating: "x", count: 3 << 20)
        try Data("a\n\(long)\n\nlast".utf8).write(to: url)
        let reader = try ManifestReader(url: url)
        var lines: [String] = []
        while let line = try reader.nextLine() { lines.append(line) }
        #expect(lines.map(\.count) == [1, 3 << 20, 0, 4])
        #expect(lines.last == "last" && reader.lineNumber == 4)
    }

    @Test func journalLinesWithdrawnAndTornLinesAreIgnored() throws {
        let dir = try makeTempDir("poiar-journal")
        let url = dir.appendingPathComponent(RenderJournal.fileName)
        try """
        frame_000001.png 0123456789abcdef 100
        frame_000002.png 1111111111111111 200
        frame_000002.png -
        frame_000003.png 2222222222222222 300
        frame_000004.png 33333333
        """.write(to: url, atomically: true, encoding: .utf8)
        let entries = RenderJournal.read(url)
        #expect(entries.keys.sorted() == [1, 3])
        #expect(entries[3] == RenderJournal.Entry(key: "2222222222222222", bytes: 300))
        // A frame counts as complete only with the same key and size on disk.
        try Data(count: 100).write(to: dir.appendingPathComponent("frame_000001.png"))
        try Data(count: 299).write(to: dir.appendingPathComponent("frame_000003.png"))
        let journal = RenderJournal(dir: dir, shard: nil)
        #expect(journal.isComplete(frame: 1, key: "0123456789abcdef"))
        #expect(!journal.isComplete(frame: 1, key: "fedcba9876543210"))
        #expect(!journal.isComplete(frame: 3, key: "2222222222222222"))
        #expect(!journal.isComplete(frame: 2, key: "1111111111111111"))
    }

    @Test func settingsKeyIgnoresWhereAndHowButNotWhat() {
        var a = ReplayOptions(logPath: "/a/walk.csv")
        var b = ReplayOptions(logPath: "/elsewhere/walk.csv")
        b.outputDir = "/tmp/x"; b.jobs = 8; b.batch.resume = true; b.batch.shard = ShardSpec(index: 1, count: 2)
        b.poiSource = "/mnt/pois.osm"
        b.camera.cameraFile = "/mnt/walk.camera.json"
        #expect(a.renderSettingsKey == b.renderSettingsKey)
        a.pngCompressionLevel = 9
        #expect(a.renderSettingsKey != b.renderSettingsKey)
        a.pngCompressionLevel = b.pngCompressionLevel
        a.batch.scale = 0.5
        #expect(a.renderSettingsKey != b.renderSettingsKey)
    }

    @Test func progressBarOnATerminalAndPeriodicLinesOtherwise() {
        final class Clock: @unchecked Sendable { var t = 100.0 }
        final class Output: @unchecked Sendable { var text = "" }
        let clock = Clock(), out = Output()
        let plain = ProgressReporter(terminal: false, interval: 10, now: { clock.t }, write: { out.text += $0 })
        plain.update(RenderProgress(handled: 5, rendered: 5, total: 100))
        #expect(out.text.isEmpty)  // not 10 s yet
        clock.t = 110
        plain.update(RenderProgress(handled: 40, rendered: 20, total: 100))  // 20 skipped by --resume
        #expect(out.text == "poiar: frame 40/100 (40%), 2.0 frames/s, ETA 0:30\n")
        clock.t = 115
        plain.update(RenderProgress(handled: 50, rendered: 30, total: 100))
        #expect(out.text.split(separator: "\n").count == 1)
        clock.t = 300
        plain.update(RenderProgress(handled: 100, rendered: 80, total: 100))  // the end: the summary says it
        #expect(out.text.split(separator: "\n").count == 1)

        out.text = ""
        clock.t = 0
        let bar = ProgressReporter(terminal: true, now: { clock.t }, write: { out.text += $0 })
        bar.update(RenderProgress(handled: 0, rendered: 0, total: 8))
        clock.t = 2
        bar.update(RenderProgress(handled: 4, rendered: 4, total: 8))
        clock.t = 4
        bar.update(RenderProgress(handled: 8, rendered: 8, total: 8))
        #expect(out.text == "\r[························] 0/8    0%  0.0 frames/s  ETA – "
            + "\r[############············] 4/8   50%  2.0 frames/s  ETA 0:02 "
            + "\r[########################] 8/8  100%  2.0 frames/s  ETA 0:00 \n")
        #expect(ProgressReporter.clock(3725) == "1:02:05")
    }
}
