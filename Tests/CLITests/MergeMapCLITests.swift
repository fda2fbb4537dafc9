import Foundation
import Rendering
import Testing

/// `poiar merge DIR --map` (issue 30): a finished folder's map drawn from its frames.jsonl
/// alone, by the drawing `replay --map` uses, without the log.
@Suite struct MergeMapCLITests {
    /// The replay of the first 30 s of the sample walk (the whole log, so its map's track is the
    /// frames' track), with its own map moved aside as `replay-map.png`.
    func replayWithMap(in dir: URL, _ extra: [String] = []) throws -> URL {
        let log = try writeLog(try walkPrefix(seconds: 30), in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--filter", "cafe", "--size", "90x160", "--map", "-o", out.path] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        try FileManager.default.moveItem(at: out.appendingPathComponent("map.png"), to: dir.appendingPathComponent("replay-map.png"))
        return out
    }

    @Test func aFinishedFoldersMapIsReplaysMapWithoutTheLog() throws {
        let dir = try makeTempDir("merge-map")
        defer { cleanUp(dir) }
        let out = try replayWithMap(in: dir)
        // The log and its camera gone: the map comes from frames.jsonl alone (and the replay's
        // POI source as the base map, which the replay drew under its map).
        let osm = dir.appendingPathComponent("elsewhere.osm")
        try FileManager.default.moveItem(at: dir.appendingPathComponent("helsinki-esplanadi.osm"), to: osm)
        for name in ["log.csv", "walk.camera.json"] { try FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
        let frame = out.appendingPathComponent("frame_000001.png")
        let drawn = try FileManager.default.attributesOfItem(atPath: frame.path)[.modificationDate] as? Date
        let r = try runPoiar(["merge", out.path, "--map", "--basemap", osm.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("finished already (60 frames); its frames are kept as they are"), "\(r.stderr)")
        #expect(r.stderr.range(of: #"\npoiar: wrote map.png from frames.jsonl: 1200×\d+ px, [0-9.]+ m/px, 11 POIs, 6 view cones, \d+ streets/buildings/areas \(\d+ kB\)\n"#,
                               options: .regularExpression) != nil, "\(r.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: frame.path)[.modificationDate] as? Date == drawn)
        #expect(leftoverTemporaries(in: out).isEmpty)

        // The same map as the replay drew: the same size (the track's extent), and the track,
        // its band, the cones and the badges where the replay put them. The replay's track
        // passes through its fixes (1 a second), the folder's through its frames (2 a second)
        // along the same smoothed path, and the folder's POIs are those the frames annotated:
        // a few pixels of the line's bends and the badges' stacking may differ.
        let (replayMap, mergeMap) = try sameSize(dir.appendingPathComponent("replay-map.png"), out.appendingPathComponent("map.png"))
        let difference = GoldenImage.difference(mergeMap, replayMap)
        #expect(difference.far <= 200 && difference.mean < 1, "\(difference)")
        // Not a blank map: the track is drawn (its red) where the replay drew it.
        let track = trackPixels(replayMap)
        #expect(track.count > 300)
        let shared = track.filter { p in trackPixels(mergeMap, near: p) }.count
        #expect(Double(shared) >= 0.98 * Double(track.count), "\(shared) of \(track.count)")
    }

    @Test func aShardedRunGetsItsMapWhenMerged() throws {
        let dir = try makeTempDir("merge-map-shards")
        defer { cleanUp(dir) }
        let whole = try replayWithMap(in: dir)
        let sharded = dir.appendingPathComponent("sharded")
        for i in 0..<2 {
            let r = try runPoiar(["replay", "log.csv", "--filter", "cafe", "--size", "90x160", "--shard", "\(i)/2", "-o", sharded.path], cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let r = try runPoiar(["merge", sharded.path, "--map", "--map-every", "10"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("merged 2 shards: 60 frames") && r.stderr.contains(", 3 view cones, no base map (grid)"), "\(r.stderr)")
        #expect(try Data(contentsOf: whole.appendingPathComponent("frames.jsonl")) == Data(contentsOf: sharded.appendingPathComponent("frames.jsonl")))
        #expect(try pngSize(sharded.appendingPathComponent("map.png")).map { $0.0 } == 1200)
    }

    @Test func theBaseMapIsAnOSMExtract() throws {
        let dir = try makeTempDir("merge-map-base")
        defer { cleanUp(dir) }
        let out = try replayWithMap(in: dir)
        let osm = dir.appendingPathComponent("helsinki-esplanadi.osm").path
        // Without one, the grid of a replay whose POI source has no streets ("No map data").
        let r = try runPoiar(["merge", out.path, "--map"])
        #expect(r.status == 0 && r.stderr.contains(" 11 POIs, 6 view cones, no base map (grid) ("), "\(r.stderr)")

        let csv = dir.appendingPathComponent("pois.csv")
        try "id,name,category,lat,lon\n1,Kiosk,cafe,60.1679,24.949\n".write(to: csv, atomically: true, encoding: .utf8)
        let notOSM = try runPoiar(["merge", out.path, "--map", "--basemap", csv.path])
        #expect(notOSM.status == 1 && notOSM.stderr == "poiar: error: \(csv.path): is not an OSM extract (a poiar database, CSV, GeoJSON and Places answers have no streets): --basemap takes OSM PBF, OSM XML or Overpass JSON\n",
                "\(notOSM.stderr)")
        let alone = try runPoiar(["merge", out.path, "--basemap", osm])
        #expect(alone.status == 64 && alone.stderr.contains("--basemap: goes with --map"), "\(alone.stderr)")
        let every = try runPoiar(["merge", out.path, "--map-every", "3"])
        #expect(every.status == 64 && every.stderr.contains("--map-every: goes with --map"), "\(every.stderr)")
    }

    @Test func aFolderWithoutFramesJSONLIsRefused() throws {
        let dir = try makeTempDir("merge-map-empty")
        defer { cleanUp(dir) }
        try writeFile("not a frame", to: "frame_000001.png", in: dir)
        let r = try runPoiar(["merge", dir.path, "--map"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "poiar: error: \(dir.path): no frames.jsonl and no shard manifests (frames.shard-I-of-N.jsonl): not a replay's output folder, nothing to merge or add to; run poiar replay (--shard I/N) first\n",
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("map.png").path))
    }

    /// As `merge --video` and `--contact-sheet` do, `--map` replaces the folder's map.png; one
    /// that cannot be replaced (a folder of that name) is refused before anything is written.
    @Test func anExistingMapIsReplacedAsTheOtherExtrasAre() throws {
        let dir = try makeTempDir("merge-map-again")
        defer { cleanUp(dir) }
        let out = try replayWithMap(in: dir)
        let map = out.appendingPathComponent("map.png")
        try writeFile("an older map", to: "map.png", in: out)
        try writeFile("an older video", to: "video.mp4", in: out)
        let r = try runPoiar(["merge", out.path, "--map", "--video"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: wrote map.png from frames.jsonl: ") && r.stderr.contains("poiar: wrote video.mp4: 60 frames"), "\(r.stderr)")
        #expect(try pngSize(map) != nil)

        try FileManager.default.removeItem(at: map)
        try FileManager.default.createDirectory(at: map, withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: out.appendingPathComponent("video.mp4"))
        let refused = try runPoiar(["merge", out.path, "--video", "--map"])
        #expect(refused.status == 1 && refused.stderr == "poiar: error: \(map.path): is a folder: --map names a file\n", "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("video.mp4").path))
    }

    /// A frames.jsonl line the map cannot use: one line naming the file, the line and the
    /// field; nothing written, not the video asked for beside it either.
    @Test func aBadLineIsNamedAndNothingIsWritten() throws {
        let dir = try makeTempDir("merge-map-bad")
        defer { cleanUp(dir) }
        let out = try replayWithMap(in: dir)
        let manifest = out.appendingPathComponent("frames.jsonl")
        var lines = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: #""location": {"lat": "#, with: #""location": {"lat": 191.5, "was": "#)
        try lines.joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let r = try runPoiar(["merge", out.path, "--map", "--video"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("poiar: error: \(manifest.path):3 (location): no position on Earth: 191.5, ") && r.stderr.split(separator: "\n").count == 1,
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("map.png").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("video.mp4").path))
        #expect(leftoverTemporaries(in: out).isEmpty)
    }

    /// A folder written with `--no-frames` gets its map: the map reads no frame file.
    @Test func aFolderWithoutFrameFilesGetsItsMap() throws {
        let dir = try makeTempDir("merge-map-noframes")
        defer { cleanUp(dir) }
        let log = try writeLog(try walkPrefix(seconds: 10), in: dir)
        let out = dir.appendingPathComponent("out")
        let run = try runPoiar(["replay", log.path, "--size", "90x160", "--no-frames", "--video", "-o", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let r = try runPoiar(["merge", out.path, "--map"])
        #expect(r.status == 0 && r.stderr.contains("poiar: wrote map.png from frames.jsonl: "), "\(r.stderr)")
    }

    /// Two maps of one track, cut to the size they share: the replay's extent is its GPS
    /// fixes', the folder's the raw positions at its frames' times, a pixel or two apart.
    func sameSize(_ a: URL, _ b: URL) throws -> (RasterImage, RasterImage) {
        let x = try loadStill(a), y = try loadStill(b)
        #expect(abs(x.width - y.width) <= 2 && abs(x.height - y.height) <= 2, "\(x.width)×\(x.height), \(y.width)×\(y.height)")
        func cut(_ image: RasterImage, _ w: Int, _ h: Int) -> RasterImage {
            var pixels: [UInt8] = []
            for row in 0..<h { pixels += image.pixels[row * image.bytesPerRow..<row * image.bytesPerRow + w * 4] }
            return RasterImage(width: w, height: h, pixels: pixels)
        }
        let w = min(x.width, y.width), h = min(x.height, y.height)
        return (cut(x, w, h), cut(y, w, h))
    }

    /// The track's red (0.90, 0.16, 0.22), as `renderMap` draws the line.
    func trackPixels(_ image: RasterImage) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where isTrack(image.pixel(x: x, y: y)) { found.append((x, y)) }
        }
        return found
    }

    func trackPixels(_ image: RasterImage, near p: (x: Int, y: Int)) -> Bool {
        for y in max(0, p.y - 1)...min(image.height - 1, p.y + 1) {
            for x in max(0, p.x - 1)...min(image.width - 1, p.x + 1) where isTrack(image.pixel(x: x, y: y)) { return true }
        }
        return false
    }

    func isTrack(_ c: RGBA8) -> Bool { abs(Int(c.r) - 230) <= 6 && abs(Int(c.g) - 41) <= 6 && abs(Int(c.b) - 56) <= 6 }
}
