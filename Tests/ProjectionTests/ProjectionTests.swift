import Foundation
import Testing
import Geodesy
import POIARCore
@testable import Projection

/// Values derived by hand from the contract's pinhole model: u = fx·X/Z + cx, v = fy·Y/Z + cy,
/// with X = dx, Y = −dy, Z = −dz in the device frame.
@Suite struct ProjectionTests {
    let camera = CameraIntrinsics(width: 1280, height: 720, horizontalFOVDeg: 60)  // fx = 640/tan 30° = 1108.51
    let origin = GeoCoordinate(latitude: 60.1689, longitude: 24.9517, altitude: 20)

    /// A point `distance` metres from the origin at `azimuth` degrees, same altitude.
    func poi(distance: Double, azimuthDeg: Double, up: Double = 0) -> GeoCoordinate {
        let plane = LocalTangentPlane(origin: origin)
        var p = plane.geodetic(enu: Vector3(distance * sin(radians(azimuthDeg)), distance * cos(radians(azimuthDeg)), up))
        if up == 0 { p.altitude = nil }  // no altitude: sits at the device's
        return p
    }

    func anchor(_ p: GeoCoordinate, _ pose: Pose) -> Point2? {
        CameraProjection(camera: camera, pose: pose).project(enu: LocalTangentPlane(origin: origin).enu(p))
    }

    @Test func focalLengthFromFieldOfView() {
        #expect(abs(camera.fx - 640 / tan(radians(30))) < 1e-9)
        #expect(abs(camera.horizontalFOVDeg - 60) < 1e-9)
    }

    @Test func poiDueNorthWithHeadingZeroIsOnThePrincipalColumn() throws {
        let a = try #require(anchor(poi(distance: 100, azimuthDeg: 0), Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)))
        #expect(abs(a.x - camera.cx) < 1e-6)
        // Same altitude: on the principal row, less the Earth's curvature over 100 m (0.8 mm → 0.009 px).
        #expect(abs(a.y - camera.cy) < 0.02)
    }

    @Test func headingNinetyPutsANorthernPoiBehindOrBeside() {
        let p = poi(distance: 100, azimuthDeg: 0)
        #expect(anchor(p, Pose(headingDeg: 180, pitchDeg: 0, rollDeg: 0)) == nil)
        #expect(anchor(p, Pose(headingDeg: 91, pitchDeg: 0, rollDeg: 0)) == nil)
        // Exactly 90°: Z is 0 up to rounding, so either behind or far off the image.
        if let a = anchor(p, Pose(headingDeg: 90, pitchDeg: 0, rollDeg: 0)) { #expect(a.x < -1e6) }
    }

    @Test func poiAtTheEdgeOfTheFieldOfViewLandsOnTheImageEdge() throws {
        let pose = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)
        let right = try #require(anchor(poi(distance: 200, azimuthDeg: 30), pose))
        #expect(abs(right.x - 1280) < 1e-6)
        let left = try #require(anchor(poi(distance: 200, azimuthDeg: -30), pose))
        #expect(abs(left.x - 0) < 1e-6)
        // And with the camera turned: heading 45, POI at azimuth 75 → right edge.
        let turned = try #require(anchor(poi(distance: 200, azimuthDeg: 75), Pose(headingDeg: 45, pitchDeg: 0, rollDeg: 0)))
        #expect(abs(turned.x - 1280) < 1e-6)
    }

    @Test func pitchUpMovesAnchorsDownByFTanPitch() throws {
        let p = poi(distance: 100, azimuthDeg: 0)
        let level = try #require(anchor(p, Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)))
        let up = try #require(anchor(p, Pose(headingDeg: 0, pitchDeg: 10, rollDeg: 0)))
        #expect(up.y > level.y)
        #expect(abs(up.y - (level.y + camera.fy * tan(radians(10)))) < 0.05)
        #expect(abs(up.x - camera.cx) < 1e-6)
    }

    @Test func aPoiAboveTheDeviceProjectsAboveTheCentre() throws {
        // 100 m north, 100 m up: 45° above the axis → v = cy − fy·tan 45°.
        let a = try #require(anchor(poi(distance: 100, azimuthDeg: 0, up: 100), Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)))
        #expect(abs(a.y - (camera.cy - camera.fy)) < 0.05)
    }

    @Test func rollTurnsTheImageAboutThePrincipalPoint() throws {
        // Rolled 90° clockwise (as the user sees the screen), the screen's top edge points to
        // the world's right (east): a POI 10° to the right of the axis appears 10° *above* the
        // centre of the image.
        let a = try #require(anchor(poi(distance: 100, azimuthDeg: 10), Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 90)))
        #expect(abs(a.x - camera.cx) < 0.05)
        #expect(abs(a.y - (camera.cy - camera.fy * tan(radians(10)))) < 0.05)
    }

    @Test func distortionFollowsTheBrownConradyFormula() {
        let k = LensDistortion(k1: -0.1, k2: 0.02, p1: 0.001, p2: -0.002, k3: 0.005)
        let (x, y) = (0.3, -0.2)
        let r2 = x * x + y * y
        let radial = 1 + k.k1 * r2 + k.k2 * r2 * r2 + k.k3 * r2 * r2 * r2
        let xd = x * radial + 2 * k.p1 * x * y + k.p2 * (r2 + 2 * x * x)
        let yd = y * radial + k.p1 * (r2 + 2 * y * y) + 2 * k.p2 * x * y
        let d = CameraProjection.distort(x: x, y: y, k)
        #expect(abs(d.0 - xd) < 1e-15 && abs(d.1 - yd) < 1e-15)
    }

    @Test func horizonSeparatesSkyFromGround() {
        let projection = CameraProjection(camera: camera, pose: Pose(headingDeg: 0, pitchDeg: 10, rollDeg: 0))
        // Pitched up 10°: the horizon is fy·tan 10° below the centre.
        let horizonY = camera.cy + camera.fy * tan(radians(10))
        #expect(projection.horizonValue(at: Point2(640, horizonY - 5)) > 0)
        #expect(projection.horizonValue(at: Point2(640, horizonY + 5)) < 0)
        #expect(abs(projection.horizonValue(at: Point2(100, horizonY))) < 1e-12)
    }

    /// A phone turned into landscape for its stills: the image is upright again when the
    /// projection takes the holding orientation into account.
    @Test(arguments: [(DeviceOrientation.landscapeRight, 90.0), (DeviceOrientation.landscapeLeft, -90.0)])
    func landscapeStillsAreUpright(orientation: DeviceOrientation, roll: Double) throws {
        var landscape = CameraIntrinsics(width: 1280, height: 720, horizontalFOVDeg: 60)
        landscape.orientation = orientation
        let pose = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: roll)
        let plane = LocalTangentPlane(origin: origin)
        let projection = CameraProjection(camera: landscape, pose: pose)
        let right = try #require(projection.project(enu: plane.enu(poi(distance: 100, azimuthDeg: 10))))
        #expect(abs(right.x - (landscape.cx + landscape.fx * tan(radians(10)))) < 0.05)
        #expect(abs(right.y - landscape.cy) < 0.05)
        let above = try #require(projection.project(enu: plane.enu(poi(distance: 100, azimuthDeg: 0, up: 100))))
        #expect(abs(above.x - landscape.cx) < 1e-6)
        #expect(abs(above.y - (landscape.cy - landscape.fy)) < 0.05)
        // The horizon is level across the image.
        #expect(abs(projection.horizonValue(at: Point2(0, 360))) < 1e-9)
        #expect(abs(projection.horizonValue(at: Point2(1280, 360))) < 1e-9)
        #expect(projection.horizonValue(at: Point2(640, 100)) > 0)
    }

    @Test func distortionIsAppliedToAnchorsButNotToFarOffPoints() throws {
        var cam = camera
        cam.distortion = LensDistortion(k1: -0.2, k2: 0.05)
        let pose = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)
        let plane = LocalTangentPlane(origin: origin)
        let projection = CameraProjection(camera: cam, pose: pose)
        let a = try #require(projection.project(enu: plane.enu(poi(distance: 200, azimuthDeg: 20))))
        let x = tan(radians(20)), r2 = x * x
        #expect(abs(a.x - (cam.cx + cam.fx * x * (1 - 0.2 * r2 + 0.05 * r2 * r2))) < 0.05)
        // 85° off the axis: the polynomial would fold back; the point stays far off the image.
        let far = try #require(projection.project(enu: plane.enu(poi(distance: 200, azimuthDeg: 85))))
        #expect(far.x > 10 * 1280)
    }
}
