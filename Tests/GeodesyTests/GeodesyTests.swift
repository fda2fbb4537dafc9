import Foundation
import Testing
import POIARCore
@testable import Geodesy

/// Degrees from degrees, minutes, seconds.
private func dms(_ d: Double, _ m: Double, _ s: Double) -> Double {
    let sign: Double = d < 0 ? -1 : 1
    return sign * (abs(d) + m / 60 + s / 3600)
}

@Suite struct GeodesyTests {
    @Test func ecefOnTheEquatorAndAtThePole() {
        let e = ecef(GeoCoordinate(latitude: 0, longitude: 0, altitude: 0))
        #expect(abs(e.x - 6_378_137) < 1e-6 && abs(e.y) < 1e-6 && abs(e.z) < 1e-6)
        let east = ecef(GeoCoordinate(latitude: 0, longitude: 90, altitude: 100))
        #expect(abs(east.y - 6_378_237) < 1e-6 && abs(east.x) < 1e-6)
        let pole = ecef(GeoCoordinate(latitude: 90, longitude: 0, altitude: 0))
        // b = 6 356 752.314 245 m (NIMA TR8350.2 table 3.3)
        #expect(abs(pole.z - 6_356_752.314245) < 1e-3)
    }

    @Test func geodeticRoundTrip() {
        for (lat, lon, h) in [(60.1689, 24.9517, 20.0), (-33.9, 151.2, 500.0), (89.9, -179.9, 0.0), (0.0, 180.0, 8848.0)] {
            let p = GeoCoordinate(latitude: lat, longitude: lon, altitude: h)
            let back = geodetic(ecef: ecef(p))
            #expect(abs(back.latitude - lat) < 1e-9)
            #expect(abs(wrap180(back.longitude - lon)) < 1e-9)
            #expect(abs(back.altitude! - h) < 1e-4)
        }
    }

    /// Vincenty's own published example (Survey Review 1975; Geoscience Australia):
    /// Flinders Peak → Buninyong, s = 54 972.271 m, α1 = 306°52′05.37″.
    @Test func vincentyFlindersPeakToBuninyong() {
        let flinders = GeoCoordinate(latitude: dms(-37, 57, 3.72030), longitude: dms(144, 25, 29.52440))
        let buninyong = GeoCoordinate(latitude: dms(-37, 39, 10.15610), longitude: dms(143, 55, 35.38390))
        let r = geodesicInverse(from: flinders, to: buninyong)
        #expect(abs(r.distance - 54_972.271) < 0.001)
        #expect(abs(r.azimuthDeg - dms(306, 52, 5.37)) < 0.01 / 3600)
    }

    @Test func meridianAndEquatorDistances() {
        // One degree of longitude on the equator is a·π/180 = 111 319.491 m.
        let r = geodesicInverse(from: GeoCoordinate(latitude: 0, longitude: 0), to: GeoCoordinate(latitude: 0, longitude: 1))
        #expect(abs(r.distance - 111_319.4908) < 0.001)
        #expect(abs(r.azimuthDeg - 90) < 1e-9)
        // Due north and due south.
        let n = geodesicInverse(from: GeoCoordinate(latitude: 60, longitude: 25), to: GeoCoordinate(latitude: 60.001, longitude: 25))
        #expect(abs(n.azimuthDeg) < 1e-9)
        let s = geodesicInverse(from: GeoCoordinate(latitude: 60.001, longitude: 25), to: GeoCoordinate(latitude: 60, longitude: 25))
        #expect(abs(s.azimuthDeg - 180) < 1e-9)
        // Across the antimeridian: 0.002° of longitude, not 359.998°.
        let w = geodesicInverse(from: GeoCoordinate(latitude: 0, longitude: 179.999), to: GeoCoordinate(latitude: 0, longitude: -179.999))
        #expect(abs(w.distance - 222.639) < 0.001)
        #expect(abs(w.azimuthDeg - 90) < 1e-6)
    }

    @Test func nearlyAntipodalFallsBackToAFiniteAnswer() {
        let r = geodesicInverse(from: GeoCoordinate(latitude: 0, longitude: 0), to: GeoCoordinate(latitude: 0.5, longitude: 179.7))
        #expect(r.distance.isFinite && r.distance > 19_900_000 && r.distance < 20_050_000)
    }

    @Test func enuAxes() {
        let origin = GeoCoordinate(latitude: 60.1689, longitude: 24.9517, altitude: 20)
        let plane = LocalTangentPlane(origin: origin)
        // Straight up.
        let up = plane.enu(GeoCoordinate(latitude: 60.1689, longitude: 24.9517, altitude: 120))
        #expect(abs(up.x) < 1e-6 && abs(up.y) < 1e-6 && abs(up.z - 100) < 1e-6)
        // 100 m north along the meridian: east 0, north ≈ 100, a drop of d²/(2R) ≈ 0.8 mm.
        let dLat = 100 / 111_412.0  // metres per degree of latitude at 60° (M·π/180 ≈ 111 412 m)
        let north = plane.enu(GeoCoordinate(latitude: 60.1689 + dLat, longitude: 24.9517))
        #expect(abs(north.x) < 1e-6)
        #expect(abs(north.y - 100) < 0.02)
        #expect(north.z < 0 && north.z > -0.002)
        // A POI without altitude sits at the origin's altitude (up to curvature).
        let east = plane.enu(GeoCoordinate(latitude: 60.1689, longitude: 24.9537))
        #expect(east.x > 110 && east.x < 112 && abs(east.y) < 0.01 && abs(east.z) < 0.01)
        // ENU length agrees with the geodesic distance for short baselines.
        let g = geodesicInverse(from: origin, to: GeoCoordinate(latitude: 60.1689, longitude: 24.9537))
        #expect(abs(hypot2(east.x, east.y) - g.distance) < 0.01)
        #expect((plane.geodetic(enu: east).longitude - 24.9537) < 1e-9)
    }
}

private func hypot2(_ a: Double, _ b: Double) -> Double { (a * a + b * b).squareRoot() }

/// ENU and the geodesic inverse are computed by unrelated methods (ECEF rotation vs Vincenty's
/// series); for short baselines the horizontal ENU length must equal the geodesic distance
/// (up to the chord/arc difference d³/(24R²) < 0.1 mm at 1 km) and the ENU azimuth the
/// geodesic azimuth, at any latitude, in both hemispheres, across the antimeridian.
@Suite struct ENUAgreementTests {
    @Test(arguments: [
        (0.0, 0.0), (45.0, 7.0), (-33.9, 151.2), (60.17, 24.94), (-77.85, 166.67), (89.5, 40.0), (-89.5, -120.0),
        (10.0, 179.9995), (-45.0, -179.9995),
    ])
    func enuMatchesTheGeodesic(lat: Double, lon: Double) {
        let origin = GeoCoordinate(latitude: lat, longitude: lon, altitude: 0)
        let plane = LocalTangentPlane(origin: origin)
        for (dLat, dLon) in [(0.005, 0.0), (0.0, 0.005), (-0.003, 0.004), (0.002, -0.006)] {
            let p = GeoCoordinate(latitude: lat + dLat, longitude: wrap180(lon + dLon), altitude: 0)
            let e = plane.enu(p)
            let g = geodesicInverse(from: origin, to: p)
            let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
            #expect(abs(horizontal - g.distance) < 0.002, "at \(lat), \(lon) → \(p)")
            #expect(abs(wrap180(degrees(atan2(e.x, e.y)) - g.azimuthDeg)) < 0.001)
            // The point lies on the ellipsoid below the tangent plane by ≈ d²/(2R).
            #expect(abs(e.z + g.distance * g.distance / (2 * 6_371_000)) < 0.05)
        }
    }

    @Test func atTheNorthPoleNorthPointsAlongTheOriginMeridian() {
        // At the pole ENU takes the origin's longitude for its axes: a point 0.001° down the
        // 0° meridian lies "south" of it, 111.694 m away (meridian arc per degree at 90°:
        // a²/b·π/180 = 111 693.9 m).
        let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: 90, longitude: 0, altitude: 0))
        let e = plane.enu(GeoCoordinate(latitude: 89.999, longitude: 0, altitude: 0))
        #expect(abs(e.y + 111.694) < 0.002)
        #expect(abs(e.x) < 1e-6)
    }

    @Test func altitudeSitsOnTheUpAxisAtAnyLatitude() {
        for lat in [-90.0, -45.0, 0.0, 30.0, 89.0] {
            let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: lat, longitude: 100, altitude: 500))
            let e = plane.enu(GeoCoordinate(latitude: lat, longitude: 100, altitude: 2500))
            #expect(abs(e.z - 2000) < 1e-6 && abs(e.x) < 1e-6 && abs(e.y) < 1e-6)
        }
    }
}
