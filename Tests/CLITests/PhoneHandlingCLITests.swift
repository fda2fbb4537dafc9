import Foundation
import Manifest
import POIARCore
import Rendering
import Replay
import Testing

/// How poiar handles recordings as phones make them, through the command line: the camera
/// taken from how the phone was held, the map while it points at the ground, the closing
/// summary, recordings without GPS (`--at`), the HUD's areas kept clear, and negative numbers
/// as option values.
@Suite struct PhoneHandlingCLITests {
    /// A recording simulated along the sample walk's street, with no camera of its own: the
    /// phone `stand`s upright, walks `walk` seconds with the camera at `walkPitch` and the
    /// given `roll`, and stands upright again. In its own folder with the sample POIs.
    func simulated(walkPitch: Double, roll: Double = 0, walk: Double = 14) throws -> (dir: URL, log: URL) {
        let dir = try makeTempDir()
        try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent("helsinki-esplanadi.osm"),
                                         to: dir.appendingPathComponent("helsinki-esplanadi.osm"))
        let script: [String: Any] = [
            "format": "poiar-sim-script/1", "start_utc": "2025-06-14T10:02:11Z", "pois": "helsinki-esplanadi.osm",
            "ground_altitude": 20.0,
            "waypoints": [[60.1678863, 24.9493217], [60.1678645, 24.9485086], [60.1678391, 24.9475584]],
            "targets": ["Karl Fazer Café": [60.1685094, 24.9476869]],
            "timeline": [
                ["stand": 4, "look_at": "Karl Fazer Café", "pitch": 5, "roll": roll],
                ["walk_to": walk * 1.3, "speed": 1.3, "pitch": walkPitch, "roll": roll, "transition": 1.5],
                ["stand": 4, "pitch": 5, "roll": roll, "transition": 1.5],
            ],
        ]
        let scriptURL = dir.appendingPathComponent("script.json")
        try JSONSerialization.data(withJSONObject: script).write(to: scriptURL)
        let log = dir.appendingPathComponent("rec.csv")
        let r = try runPoiar(["simulate", "--script", scriptURL.path, "--out", log.path, "--fps", "2"])
        try #require(r.status == 0, "\(r.stderr)")
        return (dir, log)
    }

    func replay(_ log: URL, _ extra: [String] = []) throws -> (RunResult, [ManifestFrame], URL) {
        let out = log.deletingLastPathComponent().appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--filter", "cafe", "--out", out.path] + extra)
        let lines = r.status == 0 ? try ManifestReader.frames(out.appendingPathComponent("frames.jsonl")) : []
        return (r, lines, out)
    }

    @Test func aPhoneHeldFlatShowsAMapWhileUprightFramesHaveLabels() throws {
        let (dir, log) = try simulated(walkPitch: -80)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every cafe in view labelled (most are behind buildings): upright frames are what is counted.
        let (r, frames, out) = try replay(log, ["--occlusion", "off"])
        try #require(r.status == 0, "\(r.stderr)")
        // Mostly flat: the flat share first, the holding of the others after it.
        #expect(r.stderr.contains("camera: none given; a phone's main camera (67° across the long side) held lying flat in "), "\(r.stderr)")
        #expect(r.stderr.contains("% of frames, else portrait ("), "\(r.stderr)")
        let maps = frames.filter(\.isMapView)
        let labelled = frames.filter { f in f.annotations.contains(where: \.visible) }
        #expect(maps.count >= 20 && labelled.count >= 10, "maps \(maps.count), labelled \(labelled.count)")
        // Map frames draw no cards; every frame is portrait 720×1280.
        for m in maps { #expect(!m.annotations.contains { $0.visible }) }
        #expect(try pngSize(out.appendingPathComponent("frame_000001.png"))! == (720, 1280))
        // The summary counts both and names what the rest lacked.
        let summary = try #require(r.stderr.split(separator: "\n").first { $0.contains(" frames: ") })
        #expect(summary.contains("\(labelled.count) with labels") && summary.contains("\(maps.count) as a map (phone pointing down)"), "\(summary)")
        // A map frame is a map: mostly the map's light land and building colours (the sample
        // extract has the buildings around the street), not sky and ground.
        let image = try loadStill(out.appendingPathComponent(maps[maps.count / 2].image))
        let land = (0..<200).filter { i in
            let p = image.pixel(x: 40 + (i * 37) % 640, y: 200 + (i * 53) % 900)
            let building = abs(Int(p.r) - 217) < 8 && abs(Int(p.g) - 209) < 8 && abs(Int(p.b) - 201) < 8
            return (p.r > 225 && p.g > 225 && p.b > 210) || building
        }.count
        #expect(land > 120, "\(land) of 200 sampled pixels are map land or buildings")

        // --no-flat-map keeps the camera view, and the summary says why those frames have no label.
        let (kept, keptFrames, _) = try replay(log, ["--no-flat-map"])
        #expect(kept.status == 0)
        #expect(!keptFrames.contains { $0.view != nil })
        #expect(kept.stderr.contains("with the camera facing the ground"), "\(kept.stderr)")
    }

    @Test func aPhoneHeldInLandscapeGetsALandscapeCamera() throws {
        let (dir, log) = try simulated(walkPitch: 3, roll: 90, walk: 6)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, frames, out) = try replay(log, ["--fps", "1"])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("held landscape-right"), "\(r.stderr)")
        #expect(try pngSize(out.appendingPathComponent("frame_000001.png"))! == (1280, 720))
        let labelled = frames.filter { f in f.annotations.contains(where: \.visible) }
        #expect(labelled.count * 2 > frames.count, "\(labelled.count) of \(frames.count) frames labelled")
    }

    @Test func withoutGPSTheRunStopsAtOnceNamingAt() throws {
        let (dir, log) = try simulated(walkPitch: 5, walk: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOf: log, encoding: .utf8)
        let noGPS = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(",gps,") }.joined(separator: "\n")
        try noGPS.write(to: log, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no usable GPS fix") && r.stderr.contains("--at LAT,LON"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let map = try runPoiar(["map", log.path, "--out", dir.appendingPathComponent("m.png").path])
        #expect(map.status == 1 && map.stderr.contains("--at"))

        // --at places the device (and true north), south and west of Greenwich too.
        let at = try runPoiar(["replay", log.path, "--out", out.path, "--at", "60.16786,24.94932,20", "--filter", "cafe"])
        #expect(at.status == 0, "\(at.stderr)")
        #expect(at.stderr.contains("true north: WMM2025 declination") && at.stderr.contains("(--at)"))
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        #expect(frames.allSatisfy { $0.location.lat == 60.16786 })
        let south = try runPoiar(["map", log.path, "--out", dir.appendingPathComponent("m.png").path, "--at", "-33.86,-70.4"])
        #expect(south.status == 0, "\(south.stderr)")
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let pois = sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path
        let query = try runPoiar(["pois", "query", "--db", pois, "--near", "-33.86,151.2", "--radius", "500"])
        #expect(query.status == 0 && query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(query.stderr)")
        let angles = try runPoiar(["project", "--at", "-24.6,-70.4", "--heading", "-90", "--pitch", "-5", "--roll", "-10",
                                   "--size", "320x240", "--hfov", "60", "--pois", pois])
        #expect(angles.status == 0, "\(angles.stderr)")
        #expect(angles.stdout.contains("\"heading\": 270") && angles.stdout.contains("\"pitch\": -5") && angles.stdout.contains("\"roll\": -10"))
        let quat = try runPoiar(["project", "--at", "-24.6,-70.4", "--quat", "-0.5,0.5,0.5,0.5", "--size", "320x240",
                                 "--hfov", "60", "--pois", pois])
        #expect(quat.status == 0, "\(quat.stderr)")
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sim = try runPoiar(["simulate", "--waypoints", "-33.86,151.2;-33.861,151.201", "--script", "walking",
                                "--out", dir.appendingPathComponent("s.csv").path, "--hard-iron", "-30,12,-18"])
        #expect(sim.status == 0, "\(sim.stderr)")
        // A negative radius is a bad value, said as such (not a missing one).
        let bad = try runPoiar(["pois", "query", "--db", pois, "--near", "60.17,24.95", "--radius", "-5"])
        #expect(bad.status != 0 && bad.stderr.contains("--radius") && !bad.stderr.contains("Missing value"), "\(bad.stderr)")
    }

    @Test func cardsAndArrowsKeepOutOfTheHUD() throws {
        let out = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try runPoiar(["replay", sampleLogs.appendingPathComponent("walk.csv").path, "--filter", "cafe,restaurant",
                              "--out", out.path, "--fps", "0.5", "--jobs", "2"])
        try #require(r.status == 0, "\(r.stderr)")
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl"))
        let (w, h) = (frames[0].camera.width, frames[0].camera.height)
        let style = try CardStyle(imageWidth: w, imageHeight: h)
        let reserved = try HUDLayout(width: w, height: h, compass: true, status: true, radar: true, scale: style.scale).reservedAreas()
        var cards = 0, arrows = 0
        for frame in frames {
            for a in frame.annotations {
                if a.visible, let b = a.box {
                    cards += 1
                    let box = Rect(x: b.x, y: b.y, width: b.w, height: b.h)
                    #expect(!reserved.contains { $0.intersects(box) }, "frame \(frame.frame): \(a.name) at \(box)")
                }
                if let o = a.offscreen {
                    arrows += 1
                    let footprint = style.indicatorFootprint(tip: Point2(o.x, o.y), angleDeg: o.angle,
                                                             name: o.short == true ? "" : a.name, detail: formatDistance(a.distance),
                                                             imageWidth: w, imageHeight: h)
                    #expect(!reserved.contains { $0.intersects(footprint) }, "frame \(frame.frame): arrow to \(a.name)")
                }
            }
        }
        #expect(cards > 500 && arrows > 50, "\(cards) cards, \(arrows) arrows")
    }

    /// A value from `evaluate`'s report ("heading_rmse_deg: 3.346").
    func reported(_ key: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
            .flatMap { Double($0.dropFirst(key.count + 1).split(separator: " ")[0].trimmingCharacters(in: .whitespaces)) }
    }

    @Test func withoutAMagnetometerTheHeadingComesFromTheGPSCourse() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let walk = try String(contentsOf: sampleLogs.appendingPathComponent("walk.csv"), encoding: .utf8)
        let log = try writeLog(walk.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(",mag,") }
            .joined(separator: "\n"), named: "nomag.csv", in: dir)
        let truth = sampleLogs.appendingPathComponent("walk.truth.csv").path
        let r = try runPoiar(["evaluate", log.path, "--truth", truth])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("heading: from the GPS course while moving"), "\(r.stderr)")
        // The walker sweeps the phone ±14° and stops to look at cafes; still within a few degrees.
        let heading = try #require(reported("heading_rmse_deg", in: r.stdout))
        #expect(heading < 6, "\(r.stdout)")
        // --causal cannot look at the whole course: relative, and said so.
        let causal = try runPoiar(["pose", log.path, "--causal", "--out", dir.appendingPathComponent("p.csv").path])
        #expect(causal.status == 0 && causal.stderr.contains("heading is relative"), "\(causal.stderr)")
    }

    @Test func withoutAMagnetometerThePhonesOwnOrientationIsUsed() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = dir.appendingPathComponent("rec")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-android"), to: rec)
        try FileManager.default.removeItem(at: rec.appendingPathComponent("Magnetometer.csv"))
        let auto = try runPoiar(["evaluate", rec.path, "--truth", rec.path, "--magnetic"])
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.contains("the phone's own orientation is used"), "\(auto.stderr)")
        #expect(try #require(reported("heading_rmse_deg", in: auto.stdout)) < 0.01, "\(auto.stdout)")
        // fused: poiar's own fusion (no phone orientation), so not the truth to the letter.
        let fused = try runPoiar(["evaluate", rec.path, "--truth", rec.path, "--magnetic", "--pose-source", "fused"])
        #expect(fused.status == 0 && !fused.stderr.contains("phone's own orientation is used"), "\(fused.stderr)")
        #expect(try #require(reported("heading_rmse_deg", in: fused.stdout)) > 0.01)
        // phone, on a recording without the phone's orientation: an error naming the option.
        try FileManager.default.removeItem(at: rec.appendingPathComponent("Orientation.csv"))
        let none = try runPoiar(["pose", rec.path, "--pose-source", "phone"])
        #expect(none.status == 1 && none.stderr.contains("--pose-source") && none.stderr.contains("Orientation.csv"), "\(none.stderr)")
        let bad = try runPoiar(["pose", rec.path, "--pose-source", "compass"])
        #expect(bad.status != 0 && bad.stderr.contains("'--pose-source <source>'. Please provide one of 'auto', 'fused' or 'phone'."), "\(bad.stderr)")
    }

    @Test func aRecordingWithoutAPOISourceIsReplayedAndToldHowToGiveOne() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = packageRoot.appendingPathComponent("Tests/Fixtures/phone/sensorlogger-android").path
        let r = try runPoiar(["replay", rec, "--out", dir.appendingPathComponent("out").path, "--size", "180x320"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("no POI source") && r.stderr.contains("--pois FILE") && r.stderr.contains("--fetch"))
        #expect(!r.stderr.contains("# pois:"), "\(r.stderr)")
        #expect(r.stderr.contains("without a label") && r.stderr.contains("with no POI source (--pois)"), "\(r.stderr)")
        let map = try runPoiar(["map", rec, "--out", dir.appendingPathComponent("m.png").path])
        #expect(map.status == 0 && map.stderr.contains("the map shows the track alone"), "\(map.stderr)")
        // pose takes --at for its north too.
        let pose = try runPoiar(["pose", rec, "--at", "-33.86,151.2", "--out", dir.appendingPathComponent("p.csv").path])
        #expect(pose.status == 0 && pose.stderr.contains("at -33.86000, 151.20000 (--at)"), "\(pose.stderr)")
    }

    static let realPhones = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/phones")

    /// Every real export in ../shared/data/phones through pose, convert, map and replay with
    /// default options: each runs, or (no location) is refused at once naming --at.
    static let realExportsRequired = SharedData.required("phones")

    @Test(realExportsRequired.trait)
    func realExportsRunWithDefaultOptions() throws {
        try Self.realExportsRequired.check()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exports = try FileManager.default.contentsOfDirectory(atPath: Self.realPhones.path).sorted()
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }
        #expect(!exports.isEmpty)
        for name in exports {
            let rec = Self.realPhones.appendingPathComponent(name).path
            let out = dir.appendingPathComponent(name)
            let pose = try runPoiar(["pose", rec, "--out", out.path + ".pose.csv"])
            #expect(pose.status == 0, "\(name): \(pose.stderr)")
            let convert = try runPoiar(["convert", rec, "--out", out.path + ".csv"])
            #expect(convert.status == 0, "\(name): \(convert.stderr)")
            let hasLocation = FileManager.default.fileExists(atPath: rec + "/Location.csv")
            for run in [try runPoiar(["map", rec, "--out", out.path + ".png"]), try runPoiar(["replay", rec, "--out", out.path])] {
                if hasLocation {
                    #expect(run.status == 0, "\(name): \(run.stderr)")
                } else {
                    #expect(run.status == 1 && run.stderr.contains("--at LAT,LON"), "\(name): \(run.stderr)")
                }
            }
            if hasLocation {
                #expect(try ManifestReader.frames(out.appendingPathComponent("frames.jsonl")).count > 100)
            }
        }
    }
}
