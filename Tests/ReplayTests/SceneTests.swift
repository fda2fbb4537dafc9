import Foundation
import Geodesy
import POIARCore
import Projection
import Rendering
import Testing
@testable import Frames

/// The map scene and the building outlines through the frame path (`Scenery` → `FrameBackground`
/// and `FrameLayer` → `renderFrame`): a POI the line-of-sight check hides is drawn hidden behind
/// its building, and outlines drawn over a picture of the scene sit on its edges, with the lines
/// a nearer building hides left out. The scene is a golden image in Fixtures/golden.
@Suite struct SceneTests {
    let labels = TrueLabelsTests()
    /// Helsinki at 16:00 local time in June: the sun high in the west-south-west, behind the camera.
    let startUTC = ISO8601DateFormatter().date(from: "2025-06-14T13:00:00Z")!
    /// Upright, looking a little east of north, a little up.
    let pose = Pose(headingDeg: 5, pitchDeg: 6, rollDeg: 0)

    /// A street of blocks: tagged heights on the left, a guessed one (two storeys) on the right,
    /// a tower behind, and a low block in front of a taller one.
    var buildings: [Building] {
        var guessed = labels.building("osm:way/guess", 35, 40, 60, 70, height: 6)
        guessed.heightSource = .assumed
        return [labels.building("osm:way/left", -70, 30, -12, 80, height: 18),
                labels.building("osm:way/front", 8, 110, 40, 125, height: 10),
                labels.building("osm:way/behind", 14, 150, 30, 170, height: 30),
                labels.building("osm:way/tower", -40, 220, -10, 250, height: 60),
                guessed]
    }

    func scenery(outlines: Bool = false, scene: Bool = true) -> Scenery {
        Scenery(buildings: BuildingScene(lineOfSight: LineOfSight(buildings: buildings, origin: labels.origin)), scene: scene,
                outlines: outlines, eyeHeight: 1.5, reach: 1500, startUTC: startUTC)
    }

    func record(_ frameLabels: FrameLabels) -> FrameRecord {
        FrameRecord(index: 1, time: 0, logLine: nil, image: "frame_000001.png", still: nil,
                    location: GPSFix(time: 0, coordinate: labels.origin, horizontalAccuracy: 4), pose: pose, camera: labels.camera,
                    annotations: frameLabels.annotations, clusters: frameLabels.clusters)
    }

    @Test func aPlaceHiddenByABuildingIsSeenHidden() throws {
        let (annotator, style) = try labels.annotator(buildings: buildings)
        // One cafe down the open street, one behind the left block, one behind the low front block
        // (each more than 15 m from the block that hides it: nearer, a place counts as at its facade).
        let hits = [labels.hit("Street Cafe", 2, 140), labels.hit("Hidden Cafe", -30, 110), labels.hit("Courtyard Bar", 25, 145)]
            .sorted { $0.distance < $1.distance }
        var memory: LayoutMemory? = nil
        let frameLabels = annotator.labels(hits: hits, location: labels.origin, pose: pose, memory: &memory, time: 0)
        let byName = Dictionary(uniqueKeysWithValues: frameLabels.annotations.map { ($0.poi.name, $0) })
        #expect(byName["Street Cafe"]?.occluded == false && byName["Street Cafe"]?.visible == true)
        #expect(byName["Hidden Cafe"]?.occluded == true && byName["Courtyard Bar"]?.occluded == true)

        var overlay = FrameOverlay()
        overlay.scenery = scenery()
        let frame = record(frameLabels)
        let background = try #require(overlay.scenery?.background(for: frame))
        let image = try renderFrame(drawing(for: frame, background: background, overlay: overlay), style: style)
        try labels.expectGolden(image, "scene-480x720.png")

        // Where the hidden places project, a building covers the sky and ground; where the seen
        // one does, nothing does.
        let bare = FrameDrawing(width: labels.camera.width, height: labels.camera.height, background: background, cards: [])
        let plain = FrameDrawing(width: labels.camera.width, height: labels.camera.height,
                                 background: syntheticBackground(camera: labels.camera, pose: pose), cards: [])
        let scene = try renderFrame(bare, style: style), sky = try renderFrame(plain, style: style)
        func covered(_ name: String) throws -> Bool {
            let anchor = try #require(byName[name]?.anchor)
            let a = scene.pixel(x: Int(anchor.x), y: Int(anchor.y) - 2), b = sky.pixel(x: Int(anchor.x), y: Int(anchor.y) - 2)
            return abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 30
        }
        #expect(try covered("Hidden Cafe") && covered("Courtyard Bar"))
        #expect(try !covered("Street Cafe"))
    }

    @Test func outlinesOverAPictureOfTheSceneSitOnItsEdges() throws {
        let style = try CardStyle(imageWidth: labels.camera.width, imageHeight: labels.camera.height)
        let frame = record(FrameLabels(annotations: [], clusters: []))
        // The scene drawn without outlines is the "photograph"; the outlines go over it.
        let photo = try renderFrame(FrameDrawing(width: labels.camera.width, height: labels.camera.height,
                                                 background: try #require(scenery().background(for: frame)), cards: []), style: style)
        let outlined = try renderFrame(drawing(for: frame, background: .still(photo), overlay: {
            var o = FrameOverlay(); o.scenery = scenery(outlines: true, scene: false); return o }()), style: style)
        let projection = CameraProjection(camera: labels.camera, pose: pose)
        // An outline's yellow (blended with its halo where a thin line half-covers a pixel) within
        // a pixel of where the point projects; no colour of the scene is that far from grey toward yellow.
        func yellow(east: Double, north: Double, up: Double) -> Bool {
            let p = projection.project(enu: Vector3(east, north, up - 1.5))!
            return (-1...1).contains { dy in (-1...1).contains { dx in
                let c = outlined.pixel(x: Int(p.x) + dx, y: Int(p.y) + dy)
                return Int(c.r) - Int(c.b) > 90 && Int(c.g) - Int(c.b) > 70
            } }
        }
        // The front block's near corners, base and top, are outlined.
        #expect(yellow(east: 8, north: 110, up: 5) && yellow(east: 40, north: 110, up: 5))
        // The block behind it is taller: its corner shows above the front block, not through it.
        #expect(yellow(east: 14, north: 150, up: 20))
        #expect(!yellow(east: 14, north: 150, up: 4))
        // Nothing is outlined where there is no building.
        #expect(!yellow(east: 0, north: 300, up: 1.5))
    }
}
