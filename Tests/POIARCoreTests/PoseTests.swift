import Testing
@testable import POIARCore

@Suite struct PoseTests {
    @Test func uprightPortraitFacingNorthIsRxPlus90() {
        let p = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)
        // device x → east, y → up, z → south
        let r = p.orientation.matrix
        #expect((r * Vector3(1, 0, 0) - Vector3(1, 0, 0)).norm < 1e-12)
        #expect((r * Vector3(0, 1, 0) - Vector3(0, 0, 1)).norm < 1e-12)
        #expect((r * Vector3(0, 0, 1) - Vector3(0, -1, 0)).norm < 1e-12)
        #expect(abs(p.orientation.w - 0.5.squareRoot()) < 1e-12)
        #expect(abs(p.orientation.x - 0.5.squareRoot()) < 1e-12)
    }

    @Test func headingNinetyLooksEast() {
        let p = Pose(headingDeg: 90, pitchDeg: 0, rollDeg: 0)
        #expect((p.cameraAxis - Vector3(1, 0, 0)).norm < 1e-12)
    }

    @Test func pitchUpRaisesTheOpticalAxis() {
        let p = Pose(headingDeg: 0, pitchDeg: 30, rollDeg: 0)
        #expect(abs(p.cameraAxis.z - 0.5) < 1e-12)
        #expect(abs(p.cameraAxis.y - 0.75.squareRoot()) < 1e-12)
    }

    @Test func positiveRollTurnsTheScreenClockwise() {
        // Turned clockwise as the user sees the screen: the screen's top (device +y)
        // tips toward the user's right, i.e. east when facing north.
        let p = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 30)
        let top = p.orientation.rotate(Vector3(0, 1, 0))
        #expect(top.x > 0.49 && top.x < 0.51)
        #expect(abs(top.z - 0.75.squareRoot()) < 1e-12)
    }

    @Test(arguments: [
        (0.0, 0.0, 0.0), (41.2, 2.0, -0.5), (359.0, -45.0, 170.0), (180.0, 80.0, -90.0),
        (270.5, -89.0, 12.0), (123.0, 10.0, 179.5),
    ])
    func anglesRoundTrip(h: Double, p: Double, r: Double) {
        let pose = Pose(headingDeg: h, pitchDeg: p, rollDeg: r)
        let a = pose.angles
        #expect(abs(wrap180(a.heading - h)) < 1e-7)
        #expect(abs(a.pitch - p) < 1e-7)
        #expect(abs(wrap180(a.roll - r)) < 1e-7)
    }

    @Test func matrixRoundTrip() {
        let q = Quaternion(w: 0.3, x: -0.5, y: 0.7, z: 0.2).normalized
        let back = Quaternion(matrix: q.matrix)
        #expect(back.angle(to: q) < 1e-9)
        let v = Vector3(0.3, -2, 5)
        #expect((q.rotate(v) - q.matrix * v).norm < 1e-12)
    }
}
