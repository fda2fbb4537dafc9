import Foundation
import Geodesy
import POIARCore
import Projection
import Rendering
import Testing
@testable import Frames
@testable import Replay

/// Labels true to the world, through the frame path (`FrameAnnotator.labels` → the record →
/// `drawing(for:)` → `renderFrame`): a POI behind a building dimmed, far crowds as one cluster
/// card, a card at the image edge shifted inward, and a POI that goes behind a building and
/// back fading instead of popping. The three scenes are golden images in Fixtures/golden.
@Suite struct TrueLabelsTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/golden")
    let origin = GeoCoordinate(latitude: 60.1678, longitude: 24.9450, altitude: 21.5)
    /// A portrait phone frame, 480 × 720 (cards two thirds of their 720-px size).
    let camera = CameraIntrinsics(width: 480, height: 720, horizontalFOVDeg: 62)

    func place(_ east: Double, _ north: Double) -> GeoCoordinate {
        var c = LocalTangentPlane(origin: GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude, altitude: 0))
            .geodetic(enu: Vector3(east, north, 0))
        c.altitude = nil
        return c
    }

    func hit(_ name: String, _ east: Double, _ north: Double, category: String = "cafe") -> POIHit {
        let p = place(east, north)
        let g = geodesicInverse(from: origin, to: p)
        return POIHit(poi: POI(id: "test:\(name)", name: name, category: category, coordinate: p), distance: g.distance, bearing: g.azimuthDeg)
    }

    /// A building from (x0, y0) to (x1, y1) metres east and north of the origin.
    func building(_ id: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, height: Double = 20) -> Building {
        Building(id: id, outer: [[place(x0, y0), place(x1, y0), place(x1, y1), place(x0, y1)]], height: height, heightSource: .height)
    }

    /// The phone held upright looking north, a little up.
    let pose = Pose(headingDeg: 0, pitchDeg: 8, rollDeg: 0)

    func annotator(occlusion: OcclusionMode = .hide, buildings: [Building] = [], maxCards: Int = 10) throws -> (FrameAnnotator, CardStyle) {
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height)
        var layout = LayoutOptions()
        layout.declutter.maxCards = maxCards
        var annotation = AnnotationOptions()
        annotation.occlusion = occlusion
        annotation.offscreenIndicators = 0
        let sight = buildings.isEmpty ? nil : LineOfSight(buildings: buildings, origin: origin)
        return (try FrameAnnotator(camera: camera, layout: layout, annotation: annotation, style: style, overlay: FrameOverlay(),
                                   lineOfSight: sight), style)
    }

    func render(_ labels: FrameLabels, style: CardStyle, time: Double = 0) throws -> (FrameRecord, RasterImage) {
        let record = FrameRecord(index: 1, time: time, logLine: nil, image: "frame_000001.png", still: nil,
                                 location: GPSFix(time: time, coordinate: origin, horizontalAccuracy: 4), pose: pose, camera: camera,
                                 annotations: labels.annotations, clusters: labels.clusters)
        let image = try renderFrame(drawing(for: record, background: syntheticBackground(camera: camera, pose: pose)), style: style)
        return (record, image)
    }

    func expectGolden(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mismatch = try GoldenImage.mismatch(image, Self.golden.appendingPathComponent(name))
        #expect(mismatch == nil, "\(mismatch ?? "")", sourceLocation: sourceLocation)
    }

    @Test func aPlaceBehindABuildingIsDimmedWithoutACard() throws {
        // A block 60–90 m north, west of the line of sight to "Seen".
        let block = building("osm:way/1", -80, 60, -5, 90)
        let hits = [hit("Seen Cafe", 12, 120), hit("Hidden Cafe", -30, 150), hit("Also Hidden", -55, 200)]
        var hiddenImage: RasterImage?
        for mode in [OcclusionMode.hide, .dim, .off] {
            let (annotator, style) = try annotator(occlusion: mode, buildings: [block])
            var memory: LayoutMemory? = nil
            let labels = annotator.labels(hits: hits, location: origin, pose: pose, memory: &memory, time: 0)
            let a = labels.annotations
            #expect(a[0].visible && a[0].occluded == (mode == .off ? nil : false))
            switch mode {
            case .hide:
                #expect(!a[1].visible && a[1].occluded == true && a[1].marker == nil)
                hiddenImage = try render(labels, style: style).1
            case .dim:
                #expect(!a[1].visible && a[1].marker == .dim && !a[2].visible && a[2].marker == .dim)
                let (record, image) = try render(labels, style: style)
                try expectGolden(image, "occluded-dim-480x720.png")
                // The dim marker is drawn where hide draws nothing.
                // On the marker's grey ring (4.5 px at 720).
                let p = a[1].anchor!, x = Int(p.x), y = Int(p.y - 4.5 * style.scale)
                let dimmed = image.pixel(x: x, y: y), hidden = try #require(hiddenImage).pixel(x: x, y: y)
                #expect(abs(Int(dimmed.r) - Int(hidden.r)) + abs(Int(dimmed.b) - Int(hidden.b)) > 30)
                #expect(record.jsonLine.contains("\"occluded\": true, \"marker\": \"dim\""))
            case .off:
                #expect(a.allSatisfy { $0.visible && $0.occluded == nil })
            }
        }
    }

    @Test func aFarCrowdBecomesOneClusterCard() throws {
        let (annotator, style) = try annotator(maxCards: 3)
        // Two near cafes either side, and six far ones in a narrow wedge ahead-right.
        var hits = [hit("Kahvila Lähellä", -20, 60), hit("Corner Café", 30, 90)]
        for k in 0..<6 { hits.append(hit("Far \(k)", 40 + Double(k) * 6, 300 + Double(k) * 25)) }
        hits.sort { $0.distance < $1.distance }
        var memory: LayoutMemory? = nil
        let labels = annotator.labels(hits: hits, location: origin, pose: pose, memory: &memory, time: 0)
        #expect(labels.clusters.count == 1)
        let cluster = try #require(labels.clusters.first)
        #expect(cluster.name == "6 cafes" && cluster.detail == "300–430 m")
        #expect(labels.annotations.filter(\.visible).map(\.poi.name).sorted() == ["Corner Café", "Kahvila Lähellä"])
        #expect(labels.annotations.filter { $0.cluster == 0 }.count == 6)
        let (record, image) = try render(labels, style: style)
        try expectGolden(image, "cluster-card-480x720.png")
        #expect(record.jsonLine.contains("\"clusters\": [{\"id\": \"cluster:cafe:"))
    }

    @Test func aCardAtTheEdgeIsShiftedInwardWithItsLeaderBent() throws {
        let (annotator, style) = try annotator()
        // Bearing 30.3°: the anchor ~6 px from the right edge of a 62° view.
        let hits = [hit("Ravintola Kappeli ja Kesäterassi", 60.6, 103.6, category: "restaurant")]
        var memory: LayoutMemory? = nil
        let labels = annotator.labels(hits: hits, location: origin, pose: pose, memory: &memory, time: 0)
        let a = try #require(labels.annotations.first)
        let anchor = try #require(a.anchor), box = try #require(a.box)
        #expect(anchor.x > Double(camera.width) - 15 && anchor.x < Double(camera.width))
        #expect(a.visible && box.maxX <= Double(camera.width) - 3.9 && box.minX >= 0)
        // The leader leaves the card's bottom edge as near the anchor as the rounded corner allows.
        let start = box.leaderStart(toward: anchor, inset: 10)
        #expect(start.x < anchor.x && start.y == box.maxY)
        let (_, image) = try render(labels, style: style)
        try expectGolden(image, "edge-shifted-card-480x720.png")
    }

    @Test func aPlaceThatGoesBehindABuildingAndBackFades() throws {
        // Walking east along y = 0 at 1.5 m/s, looking north at a cafe 80 m north; a
        // building 30–45 m north spans x = 15…45 and hides it while the walker is at x ≈ −4…60.
        let block = building("osm:way/2", 15, 30, 45, 45)
        let (annotator, _) = try annotator(buildings: [block])
        var memory: LayoutMemory? = LayoutMemory()
        var opacities: [Double] = []
        var occluded: [Bool] = []
        for step in 0...120 {
            let t = Double(step) * 0.5
            let walker = place(t * 1.5 - 10, 0)
            let device = GeoCoordinate(latitude: walker.latitude, longitude: walker.longitude, altitude: 21.5)
            let poi = place(30, 80)
            let g = geodesicInverse(from: device, to: poi)
            let hits = [POIHit(poi: POI(id: "test:cafe", name: "Cafe", category: "cafe", coordinate: poi), distance: g.distance, bearing: g.azimuthDeg)]
            let a = annotator.labels(hits: hits, location: device, pose: pose, memory: &memory, time: t).annotations[0]
            opacities.append(a.visible ? a.opacity : 0)
            occluded.append(a.occluded ?? false)
        }
        let hidden = occluded.indices.filter { occluded[$0] }
        try #require(!hidden.isEmpty && hidden.first! > 0 && hidden.last! < 118)
        #expect(hidden == Array(hidden.first!...hidden.last!))
        // Going behind: the card fades out over frames (opacity e^(−0.5 s/0.3 s) = 0.19 of the
        // last), then is gone; coming back it fades in (86 % on its first frame at 2 frames/s).
        let goes = hidden.first!
        #expect(opacities[goes - 1] == 1)
        #expect(abs(opacities[goes] - exp(-0.5 / 0.3)) < 1e-6)
        #expect(opacities[goes + 1] == 0)
        let back = hidden.last! + 1
        #expect(abs(opacities[back] - (1 - exp(-0.5 / 0.3))) < 1e-6)
        #expect(abs(opacities[back + 1] - (1 - exp(-1.0 / 0.3))) < 1e-6)
    }
}
