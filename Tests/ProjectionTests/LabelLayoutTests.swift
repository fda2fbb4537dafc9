import Foundation
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

    @Test func aLabelPushedOffTheTopHangsBelowItsAnchor() {
        // Anchors at y = 200, 2 px apart: the first box at 120…160, then 75, 30, −15 → the 4th
        // would leave the top; it hangs the leader's length below its anchor (its leader leaves
        // its top edge), the 5th under it. Their lines run in the first card's column above
        // the anchor only, so none shares one.
        let cs = (0..<5).map { candidate("p\($0)", Double($0 + 1), 500, 200) }
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.leaderSpacing = 0
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 800).layout(cs, sizing: FixedSizing())
        #expect(r[0].visible && r[1].visible && r[2].visible)
        #expect(r[3].visible && r[3].box!.y == 240 && r[3].stackLevel == 0)
        #expect(r[4].visible && r[4].box!.y == 285 && r[4].stackLevel == 1)
        #expect(r[3].box!.leaderStart(toward: Point2(500, 200), inset: 0) == Point2(500, 240))
        assertNoVisibleOverlap(r)
    }

    @Test func twoLeadersNeverShareAColumn() {
        // Two anchors 3 px apart: the second card would stack above the first with its line
        // beside the first's; it hangs below its anchor instead.
        let r = layout.layout([candidate("near", 10, 500, 400), candidate("far", 20, 503, 400)], sizing: FixedSizing())
        #expect(r[0].visible && r[1].visible)
        #expect(r[0].box!.maxY < 400 && r[1].box!.minY > 400)
    }

    @Test func withNoRoomAboveOrBelowACardStandsBesideItsAnchor() {
        // A frame 200 px tall, an anchor in the middle: 40 px leader + 40 px card fit neither
        // above (the tape takes the top 44 px) nor below (the radar takes the bottom); beside it does.
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.keepOut = [Rect(x: 0, y: 0, width: 1000, height: 44), Rect(x: 0, y: 150, width: 1000, height: 50)]
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 200).layout([candidate("a", 10, 500, 100)], sizing: FixedSizing())
        #expect(r[0].visible && r[0].box == Rect(x: 520, y: 80, width: 100, height: 40))
        #expect(r[0].box!.leaderStart(toward: Point2(500, 100), inset: 0) == Point2(520, 100))
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
        var rng = SplitMix64(seed: 42)
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


@Suite struct LayoutOptionTests {
    func candidate(_ id: String, _ distance: Double, _ x: Double, _ y: Double) -> LabelCandidate {
        LabelCandidate(id: id, name: id, detail: "", distance: distance, anchor: Point2(x, y))
    }

    @Test func manualDistanceOffsetRaisesFartherLabels() {
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.distanceOffset = .manual(threshold: 100, pixelsPerMetre: 0.2)
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 800)
            .layout([candidate("near", 50, 200, 600), candidate("far", 600, 700, 600)], sizing: FixedSizing())
        #expect(r[0].box!.y == 520)
        #expect(r[1].box!.y == 520 - (600 - 100) * 0.2)
        #expect(r.allSatisfy { $0.stackLevel == 0 })
    }

    @Test func automaticDistanceOffsetIsMonotonic() {
        var o = LayoutOptions()
        o.distanceOffset = .automatic(maxDistance: 1500, fraction: 0.25)
        let layout = LabelLayout(options: o, imageWidth: 4000, imageHeight: 800)
        let cs = (0..<5).map { candidate("p\($0)", Double($0) * 300, Double($0) * 800 + 100, 700) }
        let ys = layout.layout(cs, sizing: FixedSizing()).map { $0.box!.y }
        #expect(ys == ys.sorted(by: >))
        #expect(abs((ys[0] - ys[4]) - 0.25 * 800 * 1200 / 1500) < 1e-9)
    }

    @Test func maxStackHangsTheFartherLabel() {
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.maxStackLevel = 1
        o.leaderSpacing = 0
        let cs = (0..<4).map { candidate("p\($0)", Double($0 + 1), 500, 600) }
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 800).layout(cs, sizing: FixedSizing())
        // Two stack above the anchor; the third hangs below it, the fourth under the third; a
        // fifth would need a second push below, past the cap: it stands beside the anchor.
        #expect(r.map(\.visible) == [true, true, true, true])
        #expect(r[2].box!.y == 640 && r[3].box!.y == 685 && r[3].stackLevel == 1)
        let five = LabelLayout(options: o, imageWidth: 1000, imageHeight: 800)
            .layout((0..<5).map { candidate("p\($0)", Double($0 + 1), 500, 600) }, sizing: FixedSizing())
        #expect(five[4].visible && five[4].box == Rect(x: 520, y: 580, width: 100, height: 40))
    }

    @Test func maxDistanceDropsFarLabels() {
        var o = LayoutOptions()
        o.maxDistance = 100
        let r = LabelLayout(options: o, imageWidth: 1000, imageHeight: 800)
            .layout([candidate("a", 50, 200, 600), candidate("b", 150, 700, 600)], sizing: FixedSizing())
        #expect(r.map(\.visible) == [true, false])
    }

    /// Two labels at almost the same distance whose distances keep crossing: without memory
    /// they swap stack levels every frame; with it each keeps its level.
    @Test func crossingDistancesDoNotSwapLevels() {
        let layout = LabelLayout(options: LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40), imageWidth: 1000, imageHeight: 800)
        var memory: LayoutMemory? = LayoutMemory()
        var swapsWithout = 0, swapsWith = 0
        var lastWithout: Int?, lastWith: Int?
        for k in 0..<20 {
            let wobble = k % 2 == 0 ? 3.0 : -3.0
            let cs = [candidate("a", 200 + wobble, 500, 600), candidate("b", 200 - wobble, 520, 600)]
            let plain = layout.layout(cs, sizing: FixedSizing())
            let calm = layout.layout(cs, sizing: FixedSizing(), memory: &memory, time: Double(k) * 0.5)
            if let l = lastWithout, l != plain[0].stackLevel { swapsWithout += 1 }
            if let l = lastWith, l != calm[0].stackLevel { swapsWith += 1 }
            lastWithout = plain[0].stackLevel; lastWith = calm[0].stackLevel
        }
        #expect(swapsWithout == 19)
        #expect(swapsWith == 0)
    }

    /// An anchor jittering at the edge of an overlap: the stacked label stays stacked.
    @Test func stackHysteresisHoldsAnOverlapThatBarelyEnds() {
        let layout = LabelLayout(options: LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40), imageWidth: 1000, imageHeight: 800)
        var memory: LayoutMemory? = LayoutMemory()
        var levels: [Int] = []
        for k in 0..<10 {
            // Boxes 100 wide: anchors 98…103 px apart overlap, or just miss.
            let gap = k % 2 == 0 ? 98.0 : 103.0
            let r = layout.layout([candidate("near", 10, 400, 600), candidate("far", 50, 400 + gap, 600)],
                                  sizing: FixedSizing(), memory: &memory, time: Double(k) * 0.5)
            levels.append(r[1].stackLevel)
        }
        #expect(levels.allSatisfy { $0 == 1 })
    }

    /// A label whose stack level changes glides there with the time constant (in seconds),
    /// and never into another box.
    @Test func levelChangesEaseWithATimeConstantInSeconds() {
        var options = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        options.dropDelay = 0  // drop at once, to see the easing alone
        let layout = LabelLayout(options: options, imageWidth: 1000, imageHeight: 800)
        for dt in [0.05, 0.125] {
            var memory: LayoutMemory? = LayoutMemory()
            // Frame 0: "far" stacked over "near" (level 1, 45 px up). Then "near" leaves.
            _ = layout.layout([candidate("near", 10, 400, 600), candidate("far", 50, 420, 600)], sizing: FixedSizing(), memory: &memory, time: 0)
            var t = 0.0
            var y = 0.0
            while t < 0.25 - 1e-9 {
                t += dt
                y = layout.layout([candidate("far", 50, 420, 600)], sizing: FixedSizing(), memory: &memory, time: t)[0].box!.y
            }
            // After τ = 0.25 s, e⁻¹ of the 45 px lift remains, whatever the frame rate.
            #expect(abs(y - (520 - 45 * exp(-1))) < 1e-6, "dt \(dt)")
        }
    }
}

@Suite struct DelayedDropTests {
    /// The label under a stacked one leaves; the stacked one keeps its height for `dropDelay`
    /// seconds, then drops (and eases down).
    @Test func aLabelWaitsBeforeDropping() {
        var options = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        options.dropDelay = 1
        options.verticalSmoothingTau = 0
        let layout = LabelLayout(options: options, imageWidth: 1000, imageHeight: 800)
        var memory: LayoutMemory? = LayoutMemory()
        let near = LabelCandidate(id: "near", name: "near", detail: "", distance: 10, anchor: Point2(400, 600))
        let far = LabelCandidate(id: "far", name: "far", detail: "", distance: 50, anchor: Point2(420, 600))
        _ = layout.layout([near, far], sizing: FixedSizing(), memory: &memory, time: 0)
        var levels: [Int] = []
        for k in 1...6 {
            levels.append(layout.layout([far], sizing: FixedSizing(), memory: &memory, time: Double(k) * 0.25)[0].stackLevel)
        }
        // Held at level 1 while less than 1 s has passed since it could drop (0.25 … 1.0 s).
        #expect(levels == [1, 1, 1, 1, 0, 0])
    }

    /// A stacked label whose lower neighbour moves under another stack does not rise with it
    /// while its own place stays clear.
    @Test func aLabelKeepsItsHeightWhileItsPlaceIsClear() {
        let layout = LabelLayout(options: LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40), imageWidth: 1000, imageHeight: 800)
        var memory: LayoutMemory? = LayoutMemory()
        let a = LabelCandidate(id: "a", name: "a", detail: "", distance: 10, anchor: Point2(400, 600))
        let b = LabelCandidate(id: "b", name: "b", detail: "", distance: 20, anchor: Point2(420, 600))
        let first = layout.layout([a, b], sizing: FixedSizing(), memory: &memory, time: 0)
        #expect(first[1].stackLevel == 1)
        let second = layout.layout([a, b], sizing: FixedSizing(), memory: &memory, time: 0.5)
        #expect(second[1].stackLevel == 1 && second[1].box == first[1].box)
    }
}

@Suite struct CalmLevelTests {
    func candidate(_ id: String, _ distance: Double, _ x: Double, _ y: Double = 600) -> LabelCandidate {
        LabelCandidate(id: id, name: id, detail: "", distance: distance, anchor: Point2(x, y))
    }
    func layout(dropDelay: Double = 8) -> LabelLayout {
        var o = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        o.dropDelay = dropDelay
        o.verticalSmoothingTau = 0
        return LabelLayout(options: o, imageWidth: 1000, imageHeight: 800)
    }

    /// A label that keeps its level is placed before any that moves: one dropping (here at
    /// once) cannot take the place of one that stays, which would push that one up.
    @Test func aDroppingLabelDoesNotPushOneThatStays() {
        let l = layout(dropDelay: 0)
        var memory: LayoutMemory? = LayoutMemory()
        let first = l.layout([candidate("a", 10, 400), candidate("b", 20, 420), candidate("c", 30, 560)],
                             sizing: FixedSizing(), memory: &memory, time: 0)
        #expect(first.map(\.stackLevel) == [0, 1, 0])
        // "a" leaves; "c" slides under "b"'s unstacked place. "b" (earlier in the order) could
        // drop to level 0 only by taking "c"'s place: it stays at 1, "c" stays at 0.
        let second = l.layout([candidate("b", 20, 420), candidate("c", 30, 470)], sizing: FixedSizing(), memory: &memory, time: 0.5)
        #expect(second.map(\.stackLevel) == [1, 0])
        #expect(second.allSatisfy { $0.visible })
    }

    /// A label back in view within `levelMemory` seconds takes its old level if it is clear.
    @Test func aReturningLabelTakesItsOldLevel() {
        let l = layout()
        var memory: LayoutMemory? = LayoutMemory()
        _ = l.layout([candidate("a", 10, 400), candidate("b", 20, 420)], sizing: FixedSizing(), memory: &memory, time: 0)
        _ = l.layout([candidate("a", 10, 400)], sizing: FixedSizing(), memory: &memory, time: 1)  // "b" out of view
        let back = l.layout([candidate("a", 10, 400), candidate("b", 20, 700)], sizing: FixedSizing(), memory: &memory, time: 3)
        #expect(back[1].stackLevel == 1)  // level 0 is clear, but 1 was its level
        // After `levelMemory` (10 s) out of view it is new again: the lowest clear level.
        _ = l.layout([candidate("a", 10, 400)], sizing: FixedSizing(), memory: &memory, time: 4)
        let late = l.layout([candidate("a", 10, 400), candidate("b", 20, 700)], sizing: FixedSizing(), memory: &memory, time: 15)
        #expect(late[1].stackLevel == 0)
    }

    /// A label taking a level needs `levelMargin` px clear on each side; the stateless layout
    /// needs only a clear box.
    @Test func aNewLabelNeedsAMarginToTakeALevel() {
        let l = layout()
        var memory: LayoutMemory? = LayoutMemory()
        // Boxes 100 wide: "b" at x 515 leaves a 15 px gap to "a" at level 0.
        let cs = [candidate("a", 10, 400), candidate("b", 20, 515)]
        #expect(l.layout(cs, sizing: FixedSizing()).map(\.stackLevel) == [0, 0])
        #expect(l.layout(cs, sizing: FixedSizing(), memory: &memory, time: 0).map(\.stackLevel) == [0, 1])
        // With 30 px it fits beside.
        var other: LayoutMemory? = LayoutMemory()
        #expect(l.layout([candidate("a", 10, 400), candidate("b", 20, 530)], sizing: FixedSizing(), memory: &other, time: 0)
            .map(\.stackLevel) == [0, 0])
    }

    /// Random drifting labels over many frames: visible boxes never overlap, stay on the
    /// image, and a label's level changes far less often than without memory.
    @Test func visibleBoxesNeverOverlapAndLevelsStayPut() {
        let l = layout()
        var memory: LayoutMemory? = LayoutMemory()
        var rng = SplitMix64(seed: 3)
        var xs = (0..<14).map { _ in Double(rng.next() % 900) + 50 }
        let ds = (0..<14).map { Double($0) * 37 + 20 }
        var previousCalm: [String: Int] = [:], previousPlain: [String: Int] = [:]
        var changesCalm = 0, changesPlain = 0
        for frame in 0..<400 {
            let sweep = 60 * sin(Double(frame) / 9)  // the view swings: all anchors shift together
            for k in xs.indices { xs[k] += Double(Int(rng.next() % 7) - 3) * 0.5 }  // and drift a little
            let cs = xs.indices.map { candidate("p\($0)", ds[$0], xs[$0] + sweep, 600 + 10 * sin(Double(frame + $0) / 5)) }
            let calm = l.layout(cs, sizing: FixedSizing(), memory: &memory, time: Double(frame) * 0.5)
            let plain = l.layout(cs, sizing: FixedSizing())
            let shown = calm.filter(\.visible)
            for i in shown.indices {
                let b = shown[i].box!
                // Every visible box lies on the 1000×800 image (cards are kept off its edges).
                #expect(b.minX >= 0 && b.maxX <= 1000 && b.minY >= 0 && b.maxY <= 800, "\(shown[i].id): \(b)")
                for j in shown.indices where j > i { #expect(!b.intersects(shown[j].box!)) }
            }
            for r in calm where r.visible {
                if let p = previousCalm[r.id], p != r.stackLevel { changesCalm += 1 }
            }
            for r in plain where r.visible {
                if let p = previousPlain[r.id], p != r.stackLevel { changesPlain += 1 }
            }
            previousCalm = Dictionary(uniqueKeysWithValues: calm.filter(\.visible).map { ($0.id, $0.stackLevel) })
            previousPlain = Dictionary(uniqueKeysWithValues: plain.filter(\.visible).map { ($0.id, $0.stackLevel) })
        }
        #expect(changesCalm * 4 < changesPlain, "calm \(changesCalm), stateless \(changesPlain)")
    }
}
