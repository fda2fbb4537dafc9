import Foundation
import POIARCore
import Projection
import Rendering
import Testing
@testable import Frames

/// Edge arrows never over an anchor or a card, through the frame path with the HUD on: a
/// camera turned full circle among cafes all around, at the GoPro clip's size (848 × 480, where
/// the cards fill the picture's sides). An arrow that finds no place with its name shows its
/// distance alone; one that finds none even so is left out and counted. Before, an arrow with
/// no room clear of the cards was drawn over one (the GoPro clip's frame 315).
@Suite struct EdgeArrowClearanceTests {
    let layout = LayoutBothWaysTests()
    let camera = CameraIntrinsics(width: 848, height: 480, horizontalFOVDeg: 100)
    /// Pitched a little down, as the clip's camera.
    let pitch = -12.0

    /// Cafes every 15° around, 35 to 160 m away, so both side edges have POIs just beyond them.
    var hits: [POIHit] {
        (0..<24).map { k in
            let bearing = Double(k) * 15 * .pi / 180, distance = 35 + Double((k * 7) % 12) * 11
            return layout.scene.hit("Café \(k)", distance * sin(bearing), distance * cos(bearing))
        }
    }

    /// Every arrow drawn on `labels`'s frame, as its footprint with the text it shows, against the
    /// cards drawn and the marked anchors (10 px at 720 around each centre).
    func clashes(_ labels: FrameLabels, style: CardStyle) -> [String] {
        let reach = 10 * style.scale
        let cards = labels.annotations.filter(\.visible).compactMap(\.box) + labels.clusters.map(\.box)
        let anchors = labels.annotations.filter { $0.visible || $0.marker != nil }.compactMap(\.anchor) + labels.clusters.map(\.anchor)
        var found: [String] = []
        for a in labels.annotations {
            guard let o = a.offscreen else { continue }
            let footprint = style.indicatorFootprint(tip: o.position, angleDeg: o.angleDeg, name: o.showsName ? a.poi.labelText : "",
                                                     detail: formatDistance(a.distance), imageWidth: camera.width, imageHeight: camera.height)
            for card in cards where footprint.intersects(card) { found.append("\(a.poi.labelText)'s arrow \(footprint) over a card \(card)") }
            for p in anchors where footprint.intersects(Rect(x: p.x - reach, y: p.y - reach, width: 2 * reach, height: 2 * reach)) {
                found.append("\(a.poi.labelText)'s arrow \(footprint) over an anchor at \(p)")
            }
        }
        return found
    }

    @Test func arrowsKeepOffCardsAndAnchorsAllTheWayRound() throws {
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height)
        var arrows = 0, short = 0, leftOut = 0
        for heading in stride(from: 0.0, to: 360, by: 4) {
            let pose = Pose(headingDeg: heading, pitchDeg: pitch, rollDeg: 0)
            let (labels, _) = try layout.frame(hits, camera: camera, pose: pose, arrows: 3)
            let found = clashes(labels, style: style)
            #expect(found.isEmpty, "heading \(heading)°: \(found.joined(separator: "; "))")
            let drawn = labels.annotations.compactMap(\.offscreen)
            arrows += drawn.count
            short += drawn.filter { !$0.showsName }.count
            leftOut += labels.arrowsLeftOut
        }
        // The sweep reaches the cases the rule is for: arrows with their names, arrows shortened
        // to their distance, and arrows left out.
        #expect(arrows > 100 && short > 0 && leftOut > 0, "\(arrows) arrows, \(short) short, \(leftOut) left out")
    }

    @Test func anArrowWithNoRoomForItsNameShowsItsDistance() throws {
        // The first heading of the sweep where an arrow shows its distance alone.
        let style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height)
        for heading in stride(from: 0.0, to: 360, by: 4) {
            let pose = Pose(headingDeg: heading, pitchDeg: pitch, rollDeg: 0)
            let (labels, image) = try layout.frame(hits, camera: camera, pose: pose, arrows: 3)
            guard labels.annotations.contains(where: { $0.offscreen?.showsName == false }) else { continue }
            #expect(clashes(labels, style: style).isEmpty)
            try layout.expectGolden(image, "arrow-distance-only-848x480.png")
            return
        }
        Issue.record("no arrow with its distance alone in the sweep")
    }
}
