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
