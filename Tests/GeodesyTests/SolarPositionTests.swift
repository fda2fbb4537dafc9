import Foundation
import Testing
import POIARCore
@testable import Geodesy

@Suite struct SolarPositionTests {
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// The sun's azimuth and altitude from an independent ephemeris: XEphem's libastro (PyEphem
    /// 4.2.1, `ephem.Sun` with pressure 0, so no refraction), at sea level.
    static let ephemeris: [(place: String, lat: Double, lon: Double, utc: String, azimuth: Double, elevation: Double)] = [
        ("Helsinki, the sample walk", 60.1675, 24.9500, "2025-06-14T10:02:11Z", 172.9964, 52.9755),
        ("Carlsbad, the GoPro clip", 33.12677, -117.32734, "2019-11-18T23:45:14Z", 238.4974, 10.4678),
        ("Quito, an equinox noon", -0.18, -78.47, "2024-03-20T17:30:00Z", 280.6405, 87.7413),
        ("Sydney, a summer noon", -33.87, 151.21, "2023-12-21T02:00:00Z", 351.0571, 79.4481),
        ("Tromsø, the polar night", 69.65, 18.96, "2024-12-21T11:00:00Z", 184.0353, -3.1446),
        ("near the date line", 10.0, 179.5, "2030-09-01T23:59:00Z", 160.8809, 87.8530),
    ]

    @Test(arguments: ephemeris.indices)
    func agreesWithAnEphemeris(_ i: Int) {
        let e = Self.ephemeris[i]
        let sun = SolarPosition(date: Self.utc(e.utc), latitude: e.lat, longitude: e.lon)
        // Near the zenith the azimuth turns fast: compare the direction there.
        let azimuthTolerance = 0.03 / max(0.02, cos(radians(e.elevation)))
        #expect(abs(sun.elevationDeg - e.elevation) < 0.03, "\(e.place): elevation \(sun.elevationDeg)")
        #expect(abs(wrap180(sun.azimuthDeg - e.azimuth)) < azimuthTolerance, "\(e.place): azimuth \(sun.azimuthDeg)")
    }

    @Test func directionPointsAtTheSun() {
        let sun = SolarPosition(date: Self.utc("2025-06-14T10:02:11Z"), latitude: 60.1675, longitude: 24.95)
        let d = sun.direction
        #expect(abs(d.norm - 1) < 1e-12)
        #expect(abs(degrees(asin(d.z)) - sun.elevationDeg) < 1e-9)
        #expect(abs(wrap180(degrees(atan2(d.x, d.y)) - sun.azimuthDeg)) < 1e-9)
    }

    @Test func withoutADateTheSunIsAnAfternoonSunOnTheEquatorSide() {
        let north = SolarPosition.unknownDate(latitude: 60.17, longitude: 24.95)
        #expect(north.azimuthDeg > 200 && north.azimuthDeg < 250 && north.elevationDeg > 15 && north.elevationDeg < 30)
        let south = SolarPosition.unknownDate(latitude: -33.87, longitude: 151.21)
        #expect(south.azimuthDeg > 280 && south.azimuthDeg < 340 && south.elevationDeg > 35)
    }
}
