import Foundation
import Testing
import POIARCore
@testable import Projection

/// How the phone was held (`PhoneHolding`), the phone camera, the flat-phone map switch and
/// the HUD areas labels keep out of.
@Suite struct PhoneViewTests {
    /// The holding is not said of frames that lay flat: mostly flat, the flat share comes first
    /// and the orientation is of the others.
    @Test func holdingDescriptionDoesNotContradictItself() {
        let flat = PhoneHolding(orientation: .portrait, flatFraction: 0.99, confidence: 0.93, upsideDownFraction: 0)
        #expect(flat.description == "lying flat in 99% of frames, else portrait (93% of the others' tilt)")
        let upright = PhoneHolding(orientation: .portrait, flatFraction: 0.12, confidence: 0.97, upsideDownFraction: 0)
        #expect(upright.description == "portrait (97% of the frames' tilt), lying flat in 12% of frames")
    }

    /// The pose of a phone whose camera has `heading`, `pitch` and `roll` (pose CSV angles).
    func pose(_ heading: Double, _ pitch: Double, _ roll: Double) -> Pose { Pose(headingDeg: heading, pitchDeg: pitch, rollDeg: roll) }

    @Test func holdingComesFromWhereGravityPointsInTheDevice() {
        // Upright in portrait, with a little sway.
        let portrait = PhoneHolding.estimate((0..<50).map { pose(Double($0) * 7, Double($0 % 9) - 4, Double($0 % 5) - 2) })
        #expect(portrait.orientation == .portrait && portrait.flatFraction == 0 && portrait.confidence > 0.99)
        // Turned clockwise by 90° (the top edge to the user's right): device +x points down.
        let right = PhoneHolding.estimate((0..<50).map { pose(Double($0) * 7, 3, 90) })
        #expect(right.orientation == .landscapeRight)
        let left = PhoneHolding.estimate((0..<50).map { pose(Double($0) * 7, 3, -90) })
        #expect(left.orientation == .landscapeLeft)
        // Lying flat (camera straight down) with the top edge raised a little: portrait, flat.
        let flat = PhoneHolding.estimate((0..<50).map { pose(Double($0) * 7, -85, 0) })
        #expect(flat.orientation == .portrait && flat.flatFraction == 1)
        // Mostly flat, but held in landscape whenever it is lifted: the lifted frames decide.
        let mixed = PhoneHolding.estimate((0..<40).map { _ in pose(10, -88, 0) } + (0..<10).map { _ in pose(10, 0, 90) })
        #expect(mixed.orientation == .landscapeRight && abs(mixed.flatFraction - 0.8) < 1e-9)
        #expect(PhoneHolding.estimate([Pose]()).orientation == .portrait)
    }

    @Test func thePhoneCameraSpans67DegreesAlongItsLongSide() {
        #expect(abs(PhoneCamera.longSideFOVDeg - 67.30) < 0.01)
        let portrait = PhoneCamera.intrinsics(holding: .portrait)
        #expect(portrait.width == 720 && portrait.height == 1280 && portrait.orientation == .portrait)
        let vfov = 2 * atan(640 / portrait.fy) * 180 / .pi
        #expect(abs(vfov - PhoneCamera.longSideFOVDeg) < 1e-9)
        #expect(abs(portrait.horizontalFOVDeg - 41.1) < 0.1)
        let landscape = PhoneCamera.intrinsics(holding: .landscapeLeft)
        #expect(landscape.width == 1280 && landscape.height == 720 && landscape.orientation == .landscapeLeft)
        #expect(abs(landscape.horizontalFOVDeg - PhoneCamera.longSideFOVDeg) < 1e-9)
        let sized = PhoneCamera.intrinsics(holding: .portrait, size: (1080, 1920))
        #expect(abs(sized.fx / portrait.fx - 1.5) < 1e-12 && sized.cx == 540)
    }

    @Test func theMapTakesOverBelowMinus60AndLeavesAboveMinus45() {
        var s = FlatViewSwitch()
        #expect(s.update(time: 0, pitchDeg: 0) == 0)
        #expect(s.update(time: 1, pitchDeg: -55) == 0)  // in between: stays in the camera view
        #expect(s.update(time: 2, pitchDeg: -61) == 1)  // a second later the fade is over
        #expect(s.update(time: 3, pitchDeg: -50) == 1)  // in between: stays on the map
        #expect(s.update(time: 4, pitchDeg: -40) == 0)
        // The cross-fade takes `fadeSeconds`, at any frame rate.
        var fast = FlatViewSwitch()
        _ = fast.update(time: 0, pitchDeg: 0)
        let step = FlatViewSwitch.fadeSeconds / 4
        let fractions = (1...5).map { fast.update(time: Double($0) * step, pitchDeg: -80) }
        #expect(fractions.map { ($0 * 100).rounded() / 100 } == [0.25, 0.5, 0.75, 1, 1])
        // A recording that starts flat starts on the map.
        var flatStart = FlatViewSwitch()
        #expect(flatStart.update(time: 5, pitchDeg: -85) == 1)
    }

    @Test func labelsKeepOutOfReservedAreas() {
        var options = LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40)
        let tape = Rect(x: 0, y: 0, width: 1000, height: 44), radar = Rect(x: 8, y: 630, width: 170, height: 170)
        options.keepOut = [tape, radar]
        let layout = LabelLayout(options: options, imageWidth: 1000, imageHeight: 800)
        let candidates = [
            LabelCandidate(id: "over radar", name: "a", detail: "", distance: 10, anchor: Point2(90, 760)),
            LabelCandidate(id: "under tape", name: "b", detail: "", distance: 20, anchor: Point2(500, 110)),
            LabelCandidate(id: "plain", name: "c", detail: "", distance: 30, anchor: Point2(700, 400)),
            // Beside the radar, its card would overlap it: lifted over it (not a stack level),
            // the leader line runs down beside the radar.
            LabelCandidate(id: "beside radar", name: "d", detail: "", distance: 40, anchor: Point2(200, 700)),
        ]
        for memory in [false, true] {
            var m: LayoutMemory? = memory ? LayoutMemory() : nil
            let r = layout.layout(candidates, sizing: FixedSizing(), memory: &m, time: 0)
            // Its anchor is under the radar: lifted over it, its leader line would cross the
            // radar, so it is not drawn.
            #expect(!r[0].visible)
            // Its place would overlap the tape, and it cannot go higher: it hangs below its anchor.
            #expect(r[1].visible && r[1].box!.minY == 150)
            #expect(r[2].visible && r[2].box == Rect(x: 650, y: 320, width: 100, height: 40))
            #expect(r[3].visible && r[3].box!.maxY <= radar.minY && r[3].stackLevel == 0)
            for p in r where p.visible { #expect(!options.keepOut.contains { $0.intersects(p.box!) }) }
        }
    }
}
