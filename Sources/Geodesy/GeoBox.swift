import Foundation
import POIARCore

/// A latitude/longitude box, degrees; its longitudes never wrap (minLon ≤ maxLon, within
/// ±180°), so an index can search it as it is.
public struct GeoBox: Equatable, Sendable {
    public var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double
    public init(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) {
        self.minLat = minLat; self.maxLat = maxLat; self.minLon = minLon; self.maxLon = maxLon
    }
}

extension GeoBox {
    /// The smallest radius of curvature of the WGS84 ellipsoid: the meridional one at the
    /// equator, M = a(1 − e²) ≈ 6 335 439 m. Since M(φ) and N(φ) are both ≥ this, every path on
    /// the ellipsoid is at least as long as the path with the same (φ, λ) on a sphere of this
    /// radius; a geodesic circle of radius r therefore lies inside the spherical cap of angular
    /// radius r / M_min, whose bounding box is exact and simple.
    static let minimumRadiusOfCurvature = WGS84.semiMajorAxis * (1 - WGS84.eccentricitySquared)
    /// Slack (degrees) against rounding; the R*Tree itself rounds its boxes outward.
    private static let slackDeg = 1e-9

    /// Boxes (one, or two when the circle crosses ±180°) that together contain every point
    /// within geodesic distance `radius` metres of `center`.
    public static func covering(center: GeoCoordinate, radius: Double) -> [GeoBox] {
        let delta = radius / minimumRadiusOfCurvature  // angular radius on the small sphere, rad
        let lat = center.latitude
        let dLat = degrees(delta) + slackDeg
        let minLat = lat - dLat, maxLat = lat + dLat
        // A cap reaching a pole (or wider than a hemisphere) spans every longitude.
        guard delta < .pi / 2, maxLat < 90, minLat > -90 else {
            return [GeoBox(minLat: max(minLat, -90), maxLat: min(maxLat, 90), minLon: -180, maxLon: 180)]
        }
        // Widest longitude of a spherical cap of angular radius δ centred at latitude φ:
        // sin Δλ = sin δ / cos φ (the cap's tangent meridians).
        let ratio = sin(delta) / cos(radians(lat))
        guard ratio < 1 else {
            return [GeoBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180)]
        }
        let dLon = degrees(asin(ratio)) + slackDeg
        let lon = wrap180(center.longitude)
        let minLon = lon - dLon, maxLon = lon + dLon
        if minLon < -180 {
            return [GeoBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon),
                    GeoBox(minLat: minLat, maxLat: maxLat, minLon: minLon + 360, maxLon: 180)]
        }
        if maxLon > 180 {
            return [GeoBox(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: 180),
                    GeoBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon - 360)]
        }
        return [GeoBox(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon)]
    }

    /// One box holding every point within geodesic distance `radius` metres of the bounding box
    /// of `places` (a track, or one position): the box of the corners' `covering` boxes, every
    /// longitude when one of them crosses ±180°. nil without places.
    public static func around(_ places: [GeoCoordinate], radius: Double) -> GeoBox? {
        guard let first = places.first else { return nil }
        var south = first.latitude, north = first.latitude, west = first.longitude, east = first.longitude
        for p in places {
            south = min(south, p.latitude); north = max(north, p.latitude)
            west = min(west, p.longitude); east = max(east, p.longitude)
        }
        let corners = [(south, west), (south, east), (north, west), (north, east)]
        let boxes = corners.flatMap { covering(center: GeoCoordinate(latitude: $0.0, longitude: $0.1), radius: radius) }
        return GeoBox(minLat: boxes.map(\.minLat).min()!, maxLat: boxes.map(\.maxLat).max()!,
                      minLon: boxes.map(\.minLon).min()!, maxLon: boxes.map(\.maxLon).max()!)
    }
}
