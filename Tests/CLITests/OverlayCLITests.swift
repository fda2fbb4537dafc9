import Foundation
import Manifest
import Testing

/// HUD, card and still options of `replay`, and `poiar map`, through the command line.
@Suite struct OverlayCLITests {
    @Test func theHUDChangesPixelsNotTheManifest() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 3), in: dir)
        let with = dir.appendingPathComponent("with"), without = dir.appendingPathComponent("without")
        let compass = dir.appendingPathComponent("compass")
        var r = try runPoiar(["replay", log.path, "--filter", "cafe", "--out", with.path])
        #expect(r.status == 0, "\(r.stderr)")
        r = try runPoiar(["replay", log.path, "--filter", "cafe", "--out", without.path, "--no-hud"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try runPoiar(["replay", log.path, "--filter", "cafe", "--out", compass.path, "--hud", "compass"])
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = { (d: URL) in try Data(contentsOf: d.appendingPathComponent("frames.jsonl")) }
        #expect(try manifest(with) == manifest(without))
        #expect(try manifest(with) == manifest(compass))
        let png = { (d: URL) in try Data(contentsOf: d.appendingPathComponent("frame_000001.png")) }
        #expect(try png(with) != png(without))
        #expect(try png(with) != png(compass) && png(compass) != png(without))
    }

    @Test func badHUDAndCardOptionsAreRefused() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 2), in: dir)
        let out = dir.appendingPathComponent("out")
        var r = try runPoiar(["replay", log.path, "--out", out.path, "--hud", "compass,speedometer"])
        #expect(r.status != 0 && r.stderr.contains("speedometer") && r.stderr.contains("compass, gps, radar"))
        r = try runPoiar(["replay", log.path, "--out", out.path, "--card-detail", "phone"])
        #expect(r.status != 0 && r.stderr.contains("--card-detail"))
        r = try runPoiar(["replay", log.path, "--out", out.path, "--radar-range", "-5"])
        #expect(r.status != 0 && r.stderr.contains("--radar-range"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func cardDetailWidensTheCardsOfPOIsWithAnAddress() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 2), in: dir)
        let plain = dir.appendingPathComponent("plain"), address = dir.appendingPathComponent("address")
        // Every card, behind buildings or not: the widths are what is compared.
        #expect(try runPoiar(["replay", log.path, "--filter", "cafe,restaurant", "--out", plain.path, "--occlusion", "off"]).status == 0)
        #expect(try runPoiar(["replay", log.path, "--filter", "cafe,restaurant", "--out", address.path, "--occlusion", "off",
                              "--card-detail", "address"]).status == 0)
        let a = try ManifestReader.frames(plain.appendingPathComponent("frames.jsonl"))[0].annotations
        let b = try ManifestReader.frames(address.appendingPathComponent("frames.jsonl"))[0].annotations
        let pairs = zip(a, b).compactMap { x, y in x.box.flatMap { wx in y.box.map { (wx.w, $0.w) } } }
        #expect(!pairs.isEmpty)
        #expect(pairs.allSatisfy { $0.1 >= $0.0 })
        #expect(pairs.contains { $0.1 > $0.0 })  // some sample POIs have addr:* tags
    }

    @Test func stillsComeFromTheStillsFolderAndMayNotLeaveIt() throws {
        let dir = try makeTempDir()
        let photos = try makeTempDir("poiar-photos")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/RenderingTests/Fixtures/exif-6.jpg"),
                                         to: photos.appendingPathComponent("p.jpg"))
        var lines = try walkPrefix(seconds: 2).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let i = try #require(lines.firstIndex { $0.contains(",frame,") })
        lines[i] = lines[i].replacingOccurrences(of: ",frame,", with: ",frame,p.jpg")
        let log = try writeLog(lines.joined(separator: "\n"), in: dir)
        let out = dir.appendingPathComponent("out")
        // Not in the log's folder: missing there.
        var r = try runPoiar(["replay", log.path, "--out", out.path])
        #expect(r.status != 0 && r.stderr.contains("\(log.path):\(i + 1)") && r.stderr.contains("does not exist"))
        // --stills finds it; the EXIF orientation (6) makes the 16×24 stored still a 24×16 frame.
        r = try runPoiar(["replay", log.path, "--out", out.path, "--stills", photos.path, "--hfov", "50"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try pngSize(out.appendingPathComponent("frame_000001.png"))! == (24, 16))
        // A path leaving --stills is refused, naming the log line.
        lines[i] = lines[i].replacingOccurrences(of: "p.jpg", with: "../\(dir.lastPathComponent)/log.csv")
        let escaping = try writeLog(lines.joined(separator: "\n"), named: "escape.csv", in: dir)
        let out2 = dir.appendingPathComponent("out2")
        r = try runPoiar(["replay", escaping.path, "--out", out2.path, "--stills", photos.path])
        #expect(r.status != 0 && r.stderr.contains("\(escaping.path):\(i + 1)") && r.stderr.contains("leaves the stills folder (--stills)"))
        #expect(!FileManager.default.fileExists(atPath: out2.appendingPathComponent("frames.jsonl").path))
    }

    @Test func mapCommandAndReplayMap() throws {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 30), in: dir)
        let map = dir.appendingPathComponent("map.png")
        var r = try runPoiar(["map", log.path, "--filter", "cafe", "--out", map.path, "--size", "600"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("POIs") && r.stderr.contains("view cones"))
        let size = try #require(try pngSize(map))
        #expect(max(size.0, size.1) == 600)
        // A CSV POI source has no streets: a grid, and no OSM credit needed for the base map.
        let csv = dir.appendingPathComponent("pois.csv")
        try "id,name,category,lat,lon\n1,Test kiosk,cafe,60.16790,24.94900\n".write(to: csv, atomically: true, encoding: .utf8)
        r = try runPoiar(["map", log.path, "--pois", csv.path, "--out", dir.appendingPathComponent("grid.png").path])
        #expect(r.status == 0 && r.stderr.contains("no base map (grid)") && r.stderr.contains("1 POIs"), "\(r.stderr)")
        // replay --map writes it beside the frames.
        let out = dir.appendingPathComponent("out")
        r = try runPoiar(["replay", log.path, "--filter", "cafe", "--out", out.path, "--fps", "0.5", "--map"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try pngSize(out.appendingPathComponent("map.png")) != nil)
        // A bad option.
        r = try runPoiar(["map", log.path, "--out", map.path, "--every", "0"])
        #expect(r.status != 0 && r.stderr.contains("--every"))
    }
}
