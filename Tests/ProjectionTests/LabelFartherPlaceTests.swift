import Foundation
import Testing
import POIARCore
@testable import Projection

/// A card with no place above, below or beside its anchor stands farther off, at the end of an
/// angled leader that crosses nothing (the GoPro clip's frame 315, where the ATM was a dot).
@Suite struct LabelFartherPlaceTests {
    /// A 1000 × 200 frame, the anchor at (500, 100): a 20 px tape at the top and the radar's
    /// band under y = 150; a pill right above the anchor (as the GPS pill), and blocks on either
    /// side (as other cards) where the card would stand beside it.
    var options: LayoutOptions {
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.keepOut = [Rect(x: 0, y: 0, width: 1000, height: 20), Rect(x: 0, y: 150, width: 1000, height: 50),
                     Rect(x: 400, y: 20, width: 150, height: 30),
                     Rect(x: 360, y: 75, width: 100, height: 75), Rect(x: 560, y: 75, width: 100, height: 75)]
        return o
    }
    let anchor = Point2(500, 100)

    @Test func aCardWithNoPlaceNearItsAnchorStandsFartherOffOnAnAngledLeader() throws {
        let layout = LabelLayout(options: options, imageWidth: 1000, imageHeight: 200)
        let r = layout.layout([LabelCandidate(id: "atm", name: "ATM", detail: "", distance: 160, anchor: anchor)],
                              sizing: FixedSizing())
        #expect(r[0].visible)
        let box = try #require(r[0].box)
        // Up and to the right of the pill, its leader leaving the bottom edge at a slant.
        #expect(box == Rect(x: 551, y: 35, width: 100, height: 40))
        let start = box.leaderStart(toward: anchor, inset: 0)
        #expect(start == Point2(551, 75))
        #expect(!options.keepOut.contains { box.intersects($0) })
        #expect(hypot(anchor.x - start.x, anchor.y - start.y) <= LabelLayout.fartherReach * 40)
    }

    @Test func aLeaderThatWouldCrossACardIsNotDrawnThere() throws {
        // The same frame with the right block raised to the pill: every place whose leader
        // stays clear is gone, and the POI is a dot rather than a card on a line through a block.
        var o = options
        o.keepOut[4] = Rect(x: 552, y: 20, width: 100, height: 130)
        o.keepOut[3] = Rect(x: 300, y: 20, width: 160, height: 130)
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 200)
            .layout([LabelCandidate(id: "atm", name: "ATM", detail: "", distance: 160, anchor: anchor)], sizing: FixedSizing())
        #expect(!r[0].visible)
    }
}
