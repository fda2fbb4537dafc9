import Testing
import POIARCore
@testable import Projection

/// Every label 100 × 40 px.
struct FixedSizing: LabelSizing {
    var width = 100.0, height = 40.0
    func labelSize(name: String, detail: String) -> (width: Double, height: Double) { (width, height) }
}

@Suite struct LabelLayoutTests {
    let layout = LabelLayout(options: LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40), imageWidth: 1000, imageHeight: 800)

    func candidate(_ id: String, _ distance: Double, _ x: Double, _ y: Double) -> LabelCandidate {
        LabelCandidate(id: id, name: id, detail: "", distance: distance, anchor: Point2(x, y))
    }

    @Test func aLoneLabelSitsCentredAboveItsAnchor() {
        let r = layout.layout([candidate("a", 10, 500, 600)], sizing: FixedSizing())
        #expect(r[0].box == Rect(x: 450, y: 520, width: 100, height: 40))
        #expect(r[0].stackLevel == 0 && r[0].visible)
    }

    @Test func anOverlappingFartherLabelIsLiftedAboveTheNearerWithAFivePixelGap() {
        let r = layout.layout([candidate("far", 200, 530, 600), candidate("near", 10, 500, 600)], sizing: FixedSizing())
        // Results keep the input order; the nearer label is placed first.
        #expect(r[1].box == Rect(x: 450, y: 520, width: 100, height: 40))
        #expect(r[0].box == Rect(x: 480, y: 520 - 5 - 40, width: 100, height: 40))
        #expect(r[0].stackLevel == 1 && r[1].stackLevel == 0)
    }

    @Test func liftsRepeatUntilClear() {
        let cs = (0..<4).map { candidate("p\($0)", Double($0 + 1) * 10, 500 + Double($0) * 10, 600) }
        let r = layout.layout(cs, sizing: FixedSizing())
        for i in 0..<4 {
            #expect(r[i].stackLevel == i)
            #expect(r[i].box!.y == 520 - Double(i) * 45)
        }
        assertNoVisibleOverlap(r)
    }

    @Test func labelsThatDoNotOverlapStayOnTheirAnchors() {
        let r = layout.layout([candidate("a", 10, 200, 600), candidate("b", 20, 800, 600)], sizing: FixedSizing())
        #expect(r.allSatisfy { $0.stackLevel == 0 && $0.visible })
    }

    @Test func aLabelPushedOffTheTopIsNotDrawn() {
        // Anchors at y = 200: the first box at 120…160, then 75, 30, −15 → the 4th is off the top.
        let cs = (0..<4).map { candidate("p\($0)", Double($0 + 1), 500, 200) }
        let r = layout.layout(cs, sizing: FixedSizing())
        #expect(r[0].visible && r[1].visible && r[2].visible)
        #expect(!r[3].visible && r[3].stackLevel == 3)
    }

    @Test func anchorsOffTheImageOrBehindGetNoLabel() {
        let cs = [candidate("left", 1, -1, 400), candidate("below", 2, 500, 801),
                  LabelCandidate(id: "behind", name: "b", detail: "", distance: 3, anchor: nil), candidate("ok", 4, 500, 400)]
        let r = layout.layout(cs, sizing: FixedSizing())
        #expect(r.map(\.visible) == [false, false, false, true])
        #expect(r[0].box == nil && r[2].box == nil)
    }

    @Test func maxVisibleKeepsTheNearest() {
        let small = LabelLayout(options: LayoutOptions(maxVisible: 2), imageWidth: 1000, imageHeight: 800)
        let cs = [candidate("c", 30, 100, 600), candidate("a", 10, 400, 600), candidate("b", 20, 700, 600)]
        let r = small.layout(cs, sizing: FixedSizing())
        #expect(r.map(\.visible) == [false, true, true])
    }

    @Test func visibleBoxesNeverOverlapOnRandomScenes() {
        var rng = SplitMix(seed: 42)
        for _ in 0..<200 {
            let n = Int(rng.next() % 40) + 1
            let cs = (0..<n).map { i in
                candidate("p\(i)", Double(rng.next() % 1500), Double(rng.next() % 1000), Double(rng.next() % 800))
            }
            assertNoVisibleOverlap(layout.layout(cs, sizing: FixedSizing(width: Double(rng.next() % 150 + 20))))
        }
    }

    func assertNoVisibleOverlap(_ r: [PlacedLabel]) {
        let boxes = r.filter(\.visible).map { $0.box! }
        for i in boxes.indices { for j in boxes.indices where j > i { #expect(!boxes[i].intersects(boxes[j])) } }
        #expect(boxes.allSatisfy { $0.minY >= 0 })
    }
}

/// A tiny deterministic generator for the random scenes.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
