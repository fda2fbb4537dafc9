import Foundation
import POIARCore

/// The WGS84 ellipsoid (NIMA TR8350.2, 3rd ed., table 3.1).
public enum WGS84 {
    /// Semi-major axis a, metres.
    public static let semiMajorAxis = 6_378_137.0
    /// Flattening f = 1/298.257223563.
    public static let flattening = 1 / 298.257223563
    /// Semi-minor axis b = a(1 − f), metres.
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// First eccentricity squared e² = f(2 − f).
    public static let eccentricitySquared = flattening * (2 - flattening)
}

/// Earth-centred, earth-fixed coordinates (metres) of a geodetic position.
/// A missing altitude counts as 0 m (on the ellipsoid).
public func ecef(_ p: GeoCoordinate) -> Vector3 {
    let phi = radians(p.latitude), lambda = radians(p.longitude), h = p.altitude ?? 0
    let sinPhi = sin(phi), cosPhi = cos(phi)
    let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * sinPhi * sinPhi).squareRoot()
    return Vector3((n + h) * cosPhi * cos(lambda),
                   (n + h) * cosPhi * sin(lambda),
                   (n * (1 - WGS84.eccentricitySquared) + h) * sinPhi)
}

/// Geodetic position of ECEF coordinates (Bowring's method with iteration; sub-millimetre
/// for terrestrial heights).
public func geodetic(ecef v: Vector3) -> GeoCoordinate {
    let a = WGS84.semiMajorAxis, e2 = WGS84.eccentricitySquared
    let p = hypot(v.x, v.y)
    let lambda = atan2(v.y, v.x)
    var phi = atan2(v.z, p * (1 - e2))
    var h = 0.0
    for _ in 0..<6 {
        let sinPhi = sin(phi)
        let n = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
        h = abs(cos(phi)) > 1e-12 ? p / cos(phi) - n : abs(v.z) - WGS84.semiMinorAxis
        phi = atan2(v.z, p * (1 - e2 * n / (n + h)))
    }
    return GeoCoordinate(latitude: degrees(phi), longitude: degrees(lambda), altitude: h)
}

/// A local East-North-Up tangent frame at an origin on the ellipsoid. Exact (no flat-earth
/// approximation): points are taken through ECEF, so it holds at any latitude and distance.
public struct LocalTangentPlane: Sendable {
    public let origin: GeoCoordinate
    private let originECEF: Vector3
    /// Rows: east, north, up unit vectors in ECEF.
    private let rotation: Matrix3

    public init(origin: GeoCoordinate) {
        self.origin = origin
        originECEF = ecef(origin)
        let phi = radians(origin.latitude), lambda = radians(origin.longitude)
        let sp = sin(phi), cp = cos(phi), sl = sin(lambda), cl = cos(lambda)
        rotation = Matrix3(rows: Vector3(-sl, cl, 0),
                           Vector3(-sp * cl, -sp * sl, cp),
                           Vector3(cp * cl, cp * sl, sp))
    }

    /// ENU offset (metres) of `p` from the origin. A point without altitude is placed at the
    /// origin's altitude (the contract: a POI without altitude sits at the device's altitude).
    public func enu(_ p: GeoCoordinate) -> Vector3 {
        var q = p
        if q.altitude == nil { q.altitude = origin.altitude ?? 0 }
        return rotation * (ecef(q) - originECEF)
    }

    /// Geodetic position of an ENU offset from the origin.
    public func geodetic(enu v: Vector3) -> GeoCoordinate {
        Geodesy.geodetic(ecef: originECEF + rotation.transposed * v)
    }
}
