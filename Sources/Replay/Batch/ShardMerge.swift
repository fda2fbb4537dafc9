import FolderExtras
import Foundation
import Frames
import Manifest
import Maps
import POIARCore
import POIStore
import Rendering

extension ReplayOptions {
    /// What a frame's pixels depend on besides its manifest line: every option except where
    /// and how the run goes (log, output, POI source and camera file paths — the camera itself
    /// is in every manifest line —, jobs, resume, shard, video, contact sheet). Part of the
    /// render journal's keys and of the shards' fingerprint, so runs on machines with other
    /// paths agree. Options added later are included without further work (the whole value is
    /// printed).
    var renderSettingsKey: String {
        var o = self
        o.logPath = ""
        o.outputDir = nil
        o.poiSource = nil
        o.camera.cameraFile = nil
        o.jobs = 1
        o.batch = BatchOptions()
        o.batch.scale = batch.scale
        return "poiar replay settings 1\n" + String(reflecting: o)
    }
}

/// The last line of a shard's manifest: which shard it is, of how many frames, and a
/// fingerprint of the settings and of every frame's manifest line (each shard annotates the
/// whole log), so `poiar merge` can tell shards of one replay from a mix.
struct ShardTrailer: Equatable {
    static let key = "poiar_shard"
    var shard: ShardSpec
    var frames: Int
    var fingerprint: String

    var jsonLine: String {
        var w = JSONWriter()
        w.beginObject()
        w.beginObject(ShardTrailer.key)
        w.int("index", shard.index)
        w.int("count", shard.count)
        w.int("frames", frames)
        w.string("fingerprint", fingerprint)
        w.endObject()
        w.endObject()
        return w.text
    }

    init(shard: ShardSpec, frames: Int, fingerprint: String) {
        self.shard = shard; self.frames = frames; self.fingerprint = fingerprint
    }

    /// The trailer in `line`, nil when the line is not one (a frame's line, told by its start
    /// without decoding it).
    init?(line: String) {
        struct Line: Decodable {
            struct Trailer: Decodable { var index: Int, count: Int, frames: Int, fingerprint: String }
            var trailer: Trailer
            enum CodingKeys: String, CodingKey { case trailer = "poiar_shard" }
        }
        guard line.hasPrefix("{\"\(ShardTrailer.key)\""),
              let t = try? JSONInput.decode(Line.self, from: Data(line.utf8), file: "").trailer,
              let shard = ShardSpec(index: t.index, count: t.count), t.frames >= 0 else { return nil }
        self.init(shard: shard, frames: t.frames, fingerprint: t.fingerprint)
    }
}

/// What `poiar merge` did.
public struct MergeSummary: Sendable {
    public var frames: Int
    /// Shards merged (0: the folder was finished already, only its extras were made).
    public var shards: Int
    public var outputDir: URL
    /// A line per extra file written (map, contact sheet, video).
    public var extras: [String] = []
}

/// `poiar merge DIR`: checks that the folder holds every shard of one replay and all their
/// frames, then writes `frames.jsonl` exactly as one unsharded run writes it, removes the
/// shards' manifests and stale frames, and makes the map, contact sheet and video if asked. A
/// finished folder (its frames.jsonl written, no shards) only gets the map, contact sheet and
/// video, from its frames.jsonl and frames as they are.
public enum ShardMerge {
    /// `addsOther`: the caller adds a file of its own to the folder (the report), so a finished
    /// folder with no contact sheet or video asked for is not an error. `map`: draw map.png from
    /// the folder's frames.jsonl (`TrackMap.writeForFolder`) over that base map, a cone every so
    /// many seconds; before the video and the contact sheet, so a frames.jsonl it cannot read
    /// stops the merge before they are made.
    public static func run(dir: URL, batch: BatchOptions, fontPath: String? = nil, pngCompressionLevel: Int = 6,
                           fps: Double = 2, map: (baseMap: [MapFeature]?, coneInterval: Double)? = nil,
                           addsOther: Bool = false) throws -> MergeSummary {
        let video = batch.video ? try VideoEncoder() : nil
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw InputError(file: dir.path, "no such folder")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        if !names.contains(where: { ShardSpec.fromManifestName($0) != nil }) && names.contains("frames.jsonl") {
            guard batch.video || batch.contactSheetEvery != nil || map != nil || addsOther else {
                throw InputError(file: dir.path, "is finished already (frames.jsonl, no shard manifests): nothing to merge; give --video, --contact-sheet N, --map or --report to add them to it")
            }
            let finished = try FolderExtras.ofFinishedFolder(dir, framesRead: batch.video || batch.contactSheetEvery != nil)
            if let every = batch.contactSheetEvery { try ContactSheetWriter.check(total: finished.total, every: every) }
            let mapLine = try map.map { try TrackMap.writeForFolder(dir, baseMap: $0.baseMap, coneInterval: $0.coneInterval) }
            let lines = try finished.write(dir: dir, contactSheetEvery: batch.contactSheetEvery, video: video, fontPath: fontPath,
                                           pngCompressionLevel: pngCompressionLevel, fps: fps)
            return MergeSummary(frames: finished.total, shards: 0, outputDir: dir, extras: (mapLine.map { [$0] } ?? []) + lines)
        }
        let shards = try findShards(in: dir)
        let n = shards[0].count

        // Pass 1: every shard complete, of the same replay, with exactly its frames.
        var trailer: ShardTrailer?
        for shard in shards {
            let url = dir.appendingPathComponent(shard.manifestName)
            let reader = try ManifestReader(url: url)
            var expected = shard.index + 1
            var shardTrailer: ShardTrailer?
            while let line = try reader.nextLine() {
                guard shardTrailer == nil else {
                    throw InputError(file: url.path, line: reader.lineNumber - 1, "a shard trailer before the last line: not a manifest poiar replay --shard wrote")
                }
                if let t = ShardTrailer(line: line) { shardTrailer = t; continue }
                let head = try reader.decode(ManifestFrame.Head.self, line)
                guard head.frame == expected else {
                    throw InputError(file: url.path, line: reader.lineNumber, field: "frame",
                                     "expected frame \(expected) (shard \(shard) has frames \(shard.index + 1), \(shard.index + 1 + n), …), found \(head.frame)")
                }
                expected += n
            }
            guard let t = shardTrailer, t.shard == shard else {
                throw InputError(file: url.path, line: reader.lineNumber, "no shard trailer: not a manifest poiar replay --shard wrote")
            }
            let count = (expected - shard.index - 1) / n
            guard count == shard.frameCount(of: t.frames) else {
                throw InputError(file: url.path, "has \(count) frames, shard \(shard) of \(t.frames) frames has \(shard.frameCount(of: t.frames))")
            }
            if let first = trailer {
                guard t.frames == first.frames, t.fingerprint == first.fingerprint else {
                    throw InputError(file: url.path, "is a shard of another replay than \(shards[0].manifestName) (other log, options or poiar version): rerun the shards with the same command")
                }
            } else {
                trailer = t
            }
        }
        let total = trailer!.frames
        if let every = batch.contactSheetEvery { try ContactSheetWriter.check(total: total, every: every) }

        // Pass 2: interleave the shards' lines, frame k from shard (k − 1) mod N.
        let readers = try shards.map { try ManifestReader(url: dir.appendingPathComponent($0.manifestName)) }
        let manifest = try AtomicTextWriter(url: dir.appendingPathComponent("frames.jsonl"))
        var firstTime = 0.0, lastTime = 0.0
        var frameSize: (width: Int, height: Int)?
        var times: [Double] = []
        guard total > 0 else { throw InputError(file: dir.path, "the shards list no frames") }
        let journal = RenderJournal(dir: dir, shard: nil).entries
        for k in 1...total {
            let reader = readers[(k - 1) % n]
            guard let line = try reader.nextLine(), let head = try? reader.decode(ManifestFrame.Head.self, line), head.frame == k else {
                throw InputError(file: reader.path, "changed while merging")
            }
            let image = dir.appendingPathComponent(FrameRecord.imageName(index: k))
            guard FileManager.default.fileExists(atPath: image.path) else {
                throw InputError(file: image.path, "frame \(k) is missing: its shard (\(k - 1) % \(n) = \((k - 1) % n)) did not write it here; copy it into \(dir.path) or rerun that shard")
            }
            // Whole (a PNG, chunks to IEND, CRCs right), as a copy from another machine may not
            // be; the size its line gives; the bytes its shard's journal recorded (when the
            // journal came along): another frame's file under this name is refused.
            let rerun = "copy it again or rerun shard \((k - 1) % n)/\(n)"
            let size: (width: Int, height: Int)
            do { size = try probeFramePNG(image) } catch let e as InputError {
                throw InputError(file: image.path, "frame \(k) is damaged (\(e.message)): \(rerun)")
            }
            let camera = try reader.decode(ManifestFrame.self, line).camera
            guard camera.width <= 0 || (size.width == camera.width && size.height == camera.height) else {
                throw InputError(file: image.path, "frame \(k) is \(size.width)×\(size.height) pixels, but its line in \(reader.path) says \(camera.width)×\(camera.height): not this replay's frame; \(rerun)")
            }
            if let recorded = journal[k], let bytes = try? FileManager.default.attributesOfItem(atPath: image.path)[.size] as? Int,
               bytes != recorded.bytes {
                throw InputError(file: image.path, "frame \(k) has \(bytes) bytes, but shard \((k - 1) % n)/\(n) wrote \(recorded.bytes) (its journal says so): not the file it wrote; \(rerun)")
            }
            if k == 1 {
                firstTime = head.time
                if camera.width > 0, camera.height > 0 { frameSize = (camera.width, camera.height) }
            }
            lastTime = head.time
            times.append(head.time)
            try manifest.write(line)
        }
        try manifest.commit()
        RenderJournal.removeAll(in: dir, except: nil)
        removeShardManifests(in: dir)
        removeFrames(in: dir, above: total)
        let mapLine = try map.map { try TrackMap.writeForFolder(dir, baseMap: $0.baseMap, coneInterval: $0.coneInterval) }
        let extras = FolderExtras(total: total, firstTime: firstTime, lastTime: lastTime, frameSize: frameSize) { times[$0 - 1] }
        let lines = try extras.write(dir: dir, contactSheetEvery: batch.contactSheetEvery, video: video, fontPath: fontPath,
                                     pngCompressionLevel: pngCompressionLevel, fps: fps)
        return MergeSummary(frames: total, shards: n, outputDir: dir, extras: (mapLine.map { [$0] } ?? []) + lines)
    }

    /// The shards in `dir`: all N of one count, else an error naming what is missing.
    static func findShards(in dir: URL) throws -> [ShardSpec] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let found = names.compactMap(ShardSpec.fromManifestName)
        guard !found.isEmpty else {
            throw InputError(file: dir.path, "no frames.jsonl and no shard manifests (frames.shard-I-of-N.jsonl): not a replay's output folder, nothing to merge or add to; run poiar replay (--shard I/N) first")
        }
        let counts = Set(found.map(\.count))
        guard counts.count == 1, let n = counts.first else {
            throw InputError(file: dir.path, "holds shards of different splits (of \(counts.sorted().map(String.init).joined(separator: ", "))): remove the ones of an earlier split")
        }
        let present = Set(found.map(\.index))
        let missing = (0..<n).filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw InputError(file: dir.path, "shard\(missing.count > 1 ? "s" : "") \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) missing (no frames.shard-\(missing[0])-of-\(n).jsonl): wait for \(missing.count > 1 ? "them" : "it") to finish or rerun \(missing.count > 1 ? "them" : "it")")
        }
        return (0..<n).map { ShardSpec(index: $0, count: n)! }
    }

    /// Removes every `frames.shard-I-of-N.jsonl` (after a merge, or a plain run's manifest).
    static func removeShardManifests(in dir: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names where ShardSpec.fromManifestName(name) != nil {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
    }

    /// Removes `frame_NNNNNN.png` files numbered above `count` (left by a longer run).
    static func removeFrames(in dir: URL, above count: Int) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for name in names {
            if let n = RenderJournal.frameNumber(name), n > count {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            }
        }
    }
}
