import Foundation
import Geodesy
import POIARCore
import Projection
import Rendering
import Testing
@testable import Frames

/// Cards in both directions and edge arrows beside anchors, through the frame path
/// (`FrameAnnotator.labels` → the record → `drawing(for:)` → `renderFrame`), with the HUD on:
/// a camera pitched down, whose horizon sits under the compass tape, hangs its cards below their
/// anchors; an edge arrow toward a place just out of view moves off the anchor at the edge.
/// Golden images in Fixtures/golden.
@Suite struct LayoutBothWaysTests {
    let origin = GeoCoordinate(latitude: 60.1678, longitude: 24.9450, altitude: 21.5)
    let scene = TrueLabelsTests()

    func frame(_ hits: [POIHit], camera: CameraIntrinsics, pose: Pose, arrows: Int) throws -> (FrameLabels, RasterImage) {
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height)
        var annotation = AnnotationOptions()
        annotation.offscreenIndicators = arrows
        let overlay = FrameOverlay(hud: .all, radarRange: 300, clock: false)
        let annotator = try FrameAnnotator(camera: camera, layout: LayoutOptions(), annotation: annotation, style: style, overlay: overlay)
        var memory: LayoutMemory? = nil
        let labels = annotator.labels(hits: hits.sorted { $0.distance < $1.distance }, location: origin, pose: pose, memory: &memory, time: 0)
        let record = FrameRecord(index: 1, time: 0, logLine: nil, image: "frame_000001.png", still: nil,
                                 location: GPSFix(time: 0, coordinate: origin, horizontalAccuracy: 4), pose: pose, camera: camera,
                                 annotations: labels.annotations, clusters: labels.clusters)
        let image = try renderFrame(drawing(for: record, background: syntheticBackground(camera: camera, pose: pose), overlay: overlay),
                                    style: style)
        return (labels, image)
    }

    @Test func withTheHorizonUnderTheTapeCardsHangBelowTheirAnchors() throws {
        // 848 × 480 (the GoPro clip's size), 100° across, pitched 28° down: the horizon is ~80 px
        // from the top, just under the compass tape and the GPS pill. Six cafes ahead.
        let camera = CameraIntrinsics(width: 848, height: 480, horizontalFOVDeg: 100)
        let pose = Pose(headingDeg: 0, pitchDeg: -28, rollDeg: 0)
        let hits = [scene.hit("Kahvila Kulma", -25, 60), scene.hit("Café Torni", 8, 140), scene.hit("Bar Aalto", 35, 90),
                    scene.hit("Leipomo", -60, 120), scene.hit("Espresso House", 70, 150), scene.hit("Tea Room", 0, 45)]
        let (labels, image) = try frame(hits, camera: camera, pose: pose, arrows: 0)
        let inPicture = labels.annotations.filter { a in
            a.anchor.map { $0.x >= 0 && $0.x <= 848 && $0.y >= 0 && $0.y <= 480 } ?? false
        }
        #expect(inPicture.count == 6)
        // Every POI in the picture has a card; most hang below their anchors, their boxes apart.
        let everyOneCarded = inPicture.allSatisfy { $0.visible }
        #expect(everyOneCarded)
        let hanging = inPicture.filter { $0.box!.minY > $0.anchor!.y }
        #expect(hanging.count >= 3)
        let boxes = inPicture.compactMap(\.box)
        for i in boxes.indices { for j in boxes.indices where j > i { #expect(!boxes[i].intersects(boxes[j])) } }
        // The text is the 720p size at 848 × 480: a card is at least 36 px tall (24 px before).
        let shortest = boxes.map(\.height).min() ?? 0
        #expect(shortest >= 36)
        try expectGolden(image, "hanging-cards-848x480.png")
    }

    @Test func anEdgeArrowMovesOffTheAnchorBesideIt() throws {
        // A 480 × 720 portrait frame looking north (62° across): "Edge Café" stands 29° right,
        // its anchor ~10 px from the right edge on the horizon; "Round the Corner" 36° right is
        // just out of view, its arrow on the right edge at the horizon's row — over the anchor,
        // until it moves along the edge.
        let camera = scene.camera
        let pose = Pose(headingDeg: 0, pitchDeg: 8, rollDeg: 0)
        let hits = [scene.hit("Edge Café", 60 * sin(29 * .pi / 180), 60 * cos(29 * .pi / 180)),
                    scene.hit("Round the Corner", 40 * sin(36 * .pi / 180), 40 * cos(36 * .pi / 180))]
        let (labels, image) = try frame(hits, camera: camera, pose: pose, arrows: 3)
        let edge = try #require(labels.annotations.first { $0.poi.name == "Edge Café" })
        let corner = try #require(labels.annotations.first { $0.poi.name == "Round the Corner" })
        let anchor = try #require(edge.anchor)
        #expect(anchor.x > 440 && anchor.x < 480 && edge.visible)
        let arrow = try #require(corner.offscreen)
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height)
        let footprint = style.indicatorFootprint(tip: arrow.position, angleDeg: arrow.angleDeg, name: corner.poi.labelText,
                                                 detail: formatDistance(corner.distance), imageWidth: camera.width, imageHeight: camera.height)
        let dot = Rect(x: anchor.x - 10 * style.scale, y: anchor.y - 10 * style.scale, width: 20 * style.scale, height: 20 * style.scale)
        #expect(!footprint.intersects(dot), "arrow \(footprint) over the anchor at \(anchor)")
        let edgeBox = try #require(edge.box)
        #expect(!footprint.intersects(edgeBox))
        try expectGolden(image, "arrow-beside-anchor-480x720.png")
    }

    func expectGolden(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mismatch = try GoldenImage.mismatch(image, TrueLabelsTests.golden.appendingPathComponent(name))
        #expect(mismatch == nil, "\(mismatch ?? "")", sourceLocation: sourceLocation)
    }
}
