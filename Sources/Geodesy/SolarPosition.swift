import Foundation
import POIARCore

/// Where the sun stands in the sky at a place and time: what the map scene is lit by.
///
/// Hand-written from NOAA's "General Solar Position Calculations" (the formulas of NOAA's
/// Global Monitoring Laboratory solar calculator spreadsheet, after Meeus, *Astronomical
/// Algorithms*, 1991): the sun's mean longitude and anomaly, the equation of the centre, the
/// apparent longitude and the corrected obliquity give the declination and the equation of
/// time; the true solar time gives the hour angle, and the hour angle, declination and
/// latitude the zenith angle and azimuth. No atmospheric refraction (the sun is where the
/// light comes from, not where it appears). Within about 0.02° of an ephemeris (XEphem's
/// VSOP87 sun) for 1900–2100, far below what shading needs.
public struct SolarPosition: Equatable, Sendable {
    /// Degrees clockwise from true north, 0..<360.
    public var azimuthDeg: Double
    /// Degrees above the horizon (negative: below it).
    public var elevationDeg: Double

    /// The sun at `date` seen from `latitude`, `longitude` (degrees).
    public init(date: Date, latitude: Double, longitude: Double) {
        let julianDay = date.timeIntervalSince1970 / 86400 + 2440587.5
        let t = (julianDay - 2451545) / 36525  // Julian centuries since J2000.0
        let meanLongitude = wrap360(280.46646 + t * (36000.76983 + t * 0.0003032))
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = radians(meanAnomaly)
        let centre = sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
            + sin(3 * m) * 0.000289
        let node = radians(125.04 - 1934.136 * t)  // the moon's ascending node: nutation
        let apparentLongitude = radians(meanLongitude + centre - 0.00569 - 0.00478 * sin(node))
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = radians(meanObliquity + 0.00256 * cos(node))
        let declination = asin(sin(obliquity) * sin(apparentLongitude))

        // Equation of time, minutes.
        let y = pow(tan(obliquity / 2), 2)
        let l0 = radians(meanLongitude)
        let equationOfTime = 4 * degrees(y * sin(2 * l0) - 2 * eccentricity * sin(m)
                                         + 4 * eccentricity * y * sin(m) * cos(2 * l0)
                                         - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m))
        let utcMinutes = (date.timeIntervalSince1970 / 60).truncatingRemainder(dividingBy: 1440)
        let trueSolarMinutes = utcMinutes + equationOfTime + 4 * longitude
        let hourAngle = radians(wrap180(trueSolarMinutes / 4 - 180))

        let phi = radians(latitude)
        let cosZenith = sin(phi) * sin(declination) + cos(phi) * cos(declination) * cos(hourAngle)
        elevationDeg = degrees(asin(min(1, max(-1, cosZenith))))
        // Azimuth from north, clockwise: 180° + atan2(sin H, cos H sin φ − tan δ cos φ).
        azimuthDeg = wrap360(180 + degrees(atan2(sin(hourAngle), cos(hourAngle) * sin(phi) - tan(declination) * cos(phi))))
    }

    /// The unit vector toward the sun in the local east-north-up frame.
    public var direction: Vector3 {
        let a = radians(azimuthDeg), e = radians(elevationDeg)
        return Vector3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
    }

    /// The sun for a scene whose date is unknown (a single pose, a log without `start_utc`):
    /// the spring equinox of 2025 at 14:00 local mean solar time at the place — a mid-afternoon
    /// light from the south-west in the northern hemisphere, the north-west in the southern.
    public static func unknownDate(latitude: Double, longitude: Double) -> SolarPosition {
        let equinox = Date(timeIntervalSince1970: 1742428800)  // 2025-03-20T00:00:00Z
        let localAfternoon = equinox.addingTimeInterval((14 - longitude / 15) * 3600)
        return SolarPosition(date: localAfternoon, latitude: latitude, longitude: longitude)
    }
}
