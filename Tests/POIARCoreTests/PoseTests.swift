import Foundation
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

/// `Pose.facingAzimuth`: the camera's azimuth upright, the top edge's lying flat, no jump between.
@Suite struct FacingAzimuthTests {
    func difference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return abs(d)
    }

    @Test func uprightItIsTheCamerasHeadingWhateverTheRoll() throws {
        for heading in stride(from: 0.0, to: 360, by: 37) {
            for roll in [-30.0, 0, 15, 45] {
                let facing = try #require(Pose(headingDeg: heading, pitchDeg: 0, rollDeg: roll).facingAzimuth())
                #expect(difference(facing, heading) < 1e-9)
            }
        }
    }

    @Test func flatItIsTheTopEdgesAzimuth() throws {
        // Camera straight down, top edge toward `heading` (the pose CSV's heading, continued).
        for heading in stride(from: 5.0, to: 360, by: 41) {
            let pose = Pose(headingDeg: heading, pitchDeg: -90, rollDeg: 0)
            let top = pose.orientation.rotate(Vector3(0, 1, 0))
            let topAzimuth = wrap360(degrees(atan2(top.x, top.y)))
            #expect(difference(try #require(pose.facingAzimuth()), topAzimuth) < 1e-6)
            #expect(difference(topAzimuth, heading) < 1e-6)
        }
        // In landscape the image's top is the device's +x or −x edge.
        let landscape = Pose(headingDeg: 80, pitchDeg: -90, rollDeg: 90)
        let up = Vector3(-1, 0, 0), top = landscape.orientation.rotate(up)
        #expect(difference(try #require(landscape.facingAzimuth(imageUp: up)), wrap360(degrees(atan2(top.x, top.y)))) < 1e-6)
    }

    @Test func tiltingFromUprightToFlatNeverJumps() throws {
        // With some roll the camera's heading swings as the pitch nears −90°; the facing
        // azimuth moves by a small step for a small tilt.
        for roll in [0.0, 10, -25] {
            var last: Double?
            for i in 0...900 {
                let pitch = -Double(i) / 10
                let facing = try #require(Pose(headingDeg: 120, pitchDeg: pitch, rollDeg: roll).facingAzimuth())
                if let last { #expect(difference(facing, last) < 0.5, "roll \(roll), pitch \(pitch)") }
                last = facing
            }
        }
    }
}
