import Foundation
import Geodesy
import POIARCore
import Projection
import Testing
@testable import Frames
@testable import Replay

/// Every label 120 × 40 px.
struct BoxSizing: LabelSizing {
    func labelSize(name: String, detail: String) -> (width: Double, height: Double) { (120, 40) }
}

@Suite struct AnnotatorTests {
    let camera = CameraIntrinsics(width: 1000, height: 800, horizontalFOVDeg: 60)

    func hit(_ id: String, at origin: GeoCoordinate, distance: Double, azimuth: Double) -> POIHit {
        let p = LocalTangentPlane(origin: origin).geodetic(enu: Vector3(distance * sin(radians(azimuth)), distance * cos(radians(azimuth)), 0))
        let g = geodesicInverse(from: origin, to: p)
        return POIHit(poi: POI(id: id, name: id, category: "cafe", coordinate: GeoCoordinate(latitude: p.latitude, longitude: p.longitude)),
                      distance: g.distance, bearing: g.azimuthDeg)
    }

    /// POIs either side of north (bearings 359° and 1°) and of south (179°, 181°) stack as
    /// neighbours on the image: the 0°/360° and ±180° seams mean nothing in pixel space.
    @Test(arguments: [0.0, 180.0])
    func stackingAcrossTheSeams(heading: Double) {
        let origin = GeoCoordinate(latitude: 60, longitude: 179.9999, altitude: 10)  // and across the antimeridian
        let annotator = FrameAnnotator(camera: camera, layoutOptions: LayoutOptions(maxVisible: 100, stackGap: 5, leaderLength: 40), sizing: BoxSizing())
        let hits = [hit("left", at: origin, distance: 200, azimuth: heading - 1), hit("right", at: origin, distance: 300, azimuth: heading + 1)]
        let a = annotator.annotate(hits: hits, location: origin, pose: Pose(headingDeg: heading, pitchDeg: 0, rollDeg: 0))
        #expect(a.map(\.poi.id) == ["left", "right"])
        #expect(a.allSatisfy { $0.visible })
        #expect(a[0].anchor!.x < 500 && a[1].anchor!.x > 500)
        #expect(a[0].stackLevel == 0 && a[1].stackLevel == 1)
        #expect(!a[0].box!.intersects(a[1].box!))
    }

    @Test func offscreenIndicatorsPointToTheNearestPoisOutOfView() {
        let origin = GeoCoordinate(latitude: 48.2, longitude: 16.37, altitude: 180)
        var options = AnnotationOptions()
        options.offscreenIndicators = 2
        let annotator = FrameAnnotator(camera: camera, layoutOptions: LayoutOptions(), sizing: BoxSizing(), options: options)
        let hits = [hit("ahead", at: origin, distance: 100, azimuth: 0), hit("right", at: origin, distance: 150, azimuth: 90),
                    hit("behind-left", at: origin, distance: 200, azimuth: 200), hit("far-left", at: origin, distance: 900, azimuth: 280)]
        let a = annotator.annotate(hits: hits, location: origin, pose: Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0))
        #expect(a[0].visible && a[0].offscreen == nil)
        // Due east: an arrow at the right edge, on the horizon row, pointing right.
        let right = try! #require(a[1].offscreen)
        // (Just below the horizon row: curvature drops a POI at the device's altitude a little.)
        #expect(abs(right.position.x - (1000 - 14)) < 1e-6 && abs(right.position.y - 400) < 0.5)
        #expect(abs(wrap180(right.angleDeg)) < 0.01)
        // Behind and to the left (200°): turn left.
        let left = try! #require(a[2].offscreen)
        #expect(abs(left.position.x - 14) < 1e-6 && abs(left.angleDeg - 180) < 0.01)
        // Only the nearest two get one.
        #expect(a[3].offscreen == nil)
    }

    @Test func refractionLiftsFarPoisByKDSquaredOver2R() {
        let origin = GeoCoordinate(latitude: 46.5, longitude: 8.0, altitude: 2000)
        let plain = FrameAnnotator(camera: camera, layoutOptions: LayoutOptions(), sizing: BoxSizing(),
                                   options: { var o = AnnotationOptions(); o.refractionCoefficient = 0; return o }())
        let refracted = FrameAnnotator(camera: camera, layoutOptions: LayoutOptions(), sizing: BoxSizing())
        // A peak 50 km north at 4000 m.
        var peak = hit("peak", at: origin, distance: 50_000, azimuth: 0)
        peak.poi.coordinate.altitude = 4000
        let pose = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)
        let a = plain.annotate(hits: [peak], location: origin, pose: pose)[0].anchor!
        let b = refracted.annotate(hits: [peak], location: origin, pose: pose)[0].anchor!
        let enu = LocalTangentPlane(origin: origin).enu(peak.poi.coordinate)
        let lift = 0.13 * (enu.x * enu.x + enu.y * enu.y) / (2 * meanEarthRadius)
        // Raised by the lift seen at that distance (≈ 25 m at 50 km → ≈ 0.43 px at fy 866).
        #expect(abs((a.y - b.y) - camera.fy * lift / enu.y) < 0.01)
        #expect(a.y - b.y > 0.3)
        // Curvature: the peak 2000 m higher sits lower than 2000/50000 above the axis by d²/(2R).
        let expected = camera.cy - camera.fy * (2000 - 50_000 * 50_000 / (2 * meanEarthRadius)) / 50_000
        #expect(abs(a.y - expected) < 0.5)
    }
}
