import Foundation
import Geodesy
import GRDB
import POIARCore

/// A latitude/longitude box (degrees) that the R*Tree can search; longitudes never wrap.
struct SearchBox: Equatable {
    var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double
}

extension SearchBox {
    /// The smallest radius of curvature of the WGS84 ellipsoid: the meridional one at the
    /// equator, M = a(1 − e²) ≈ 6 335 439 m. Since M(φ) and N(φ) are both ≥ this, every path on
    /// the ellipsoid is at least as long as the path with the same (φ, λ) on a sphere of this
    /// radius; a geodesic circle of radius r therefore lies inside the spherical cap of angular
    /// radius r / M_min, whose bounding box is exact and simple.
    private static let minimumRadiusOfCurvature = WGS84.semiMajorAxis * (1 - WGS84.eccentricitySquared)
    /// Slack (degrees) against rounding; the R*Tree itself rounds its boxes outward.
    private static let slackDeg = 1e-9

    /// Boxes (one, or two when the circle crosses ±180°) that together contain every point
    /// within geodesic distance `radius` metres of `center`.
    static func covering(center: GeoCoordinate, radius: Double) -> [SearchBox] {
        let delta = radius / minimumRadiusOfCurvature  // angular radius on the small sphere, rad
        let lat = center.latitude
        let dLat = degrees(delta) + slackDeg
        let minLat = lat - dLat, maxLat = lat + dLat
        // A cap reaching a pole (or wider than a hemisphere) spans every longitude.
        guard delta < .pi / 2, maxLat < 90, minLat > -90 else {
            return [SearchBox(minLat: max(minLat, -90), maxLat: min(maxLat, 90), minLon: -180, maxLon: 180)]
        }
        // Widest longitude of a spherical cap of angular radius δ centred at latitude φ:
        // sin Δλ = sin δ / cos φ (the cap's tangent meridians).
        let ratio = sin(delta) / cos(radians(lat))
        guard ratio < 1 else {
            return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180)]
        }
        let dLon = degrees(asin(ratio)) + slackDeg
        let lon = wrap180(center.longitude)
        let minLon = lon - dLon, maxLon = lon + dLon
        if minLon < -180 {
            return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon),
                    SearchBox(minLat: minLat, maxLat: maxLat, minLon: minLon + 360, maxLon: 180)]
        }
        if maxLon > 180 {
            return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: 180),
                    SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: maxLon - 360)]
        }
        return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon)]
    }
}

extension POIDatabase {
    /// The POIs within `radius` metres (geodesic, WGS84) of `center`, nearest first (ties by
    /// id), each with its distance and initial bearing from `center`.
    /// - Parameters:
    ///   - categories: only these categories; nil for all (an empty list finds nothing).
    ///   - limit: at most this many (the nearest); nil for all.
    /// - Throws: `InputError` for an invalid centre, a negative or non-finite radius or limit,
    ///   or a database error.
    public func query(near center: GeoCoordinate, radius: Double, categories: [String]? = nil,
                      limit: Int? = nil) throws -> [POIHit] {
        guard center.isValid else {
            throw InputError(file: path, field: "near", "invalid position \(center)")
        }
        guard radius.isFinite, radius >= 0 else {
            throw InputError(file: path, field: "radius", "radius must be a finite number ≥ 0 m, got \(radius)")
        }
        if let limit, limit < 0 {
            throw InputError(file: path, field: "limit", "limit must be ≥ 0, got \(limit)")
        }
        if categories?.isEmpty == true || limit == 0 { return [] }

        let boxes = SearchBox.covering(center: center, radius: radius)
        let rows: [Row] = try read { db in
            var sql = """
                SELECT poi.* FROM poi_rtree JOIN poi ON poi.rid = poi_rtree.rid
                WHERE poi_rtree.max_lat >= ? AND poi_rtree.min_lat <= ?
                  AND poi_rtree.max_lon >= ? AND poi_rtree.min_lon <= ?
                """
            if let categories {
                // Only the count of placeholders comes from the input, never its text.
                sql += " AND poi.category IN (\(Array(repeating: "?", count: categories.count).joined(separator: ", ")))"
            }
            var found: [Row] = []
            var seen = Set<Int64>()
            for box in boxes {
                var arguments: [any DatabaseValueConvertible] = [box.minLat, box.maxLat, box.minLon, box.maxLon]
                arguments += (categories ?? []) as [any DatabaseValueConvertible]
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
                where seen.insert(row["rid"]).inserted {
                    found.append(row)
                }
            }
            return found
        }

        var hits: [POIHit] = []
        for row in rows {
            let poi = Self.poi(from: row)
            let inverse = geodesicInverse(from: center, to: poi.coordinate)
            if inverse.distance <= radius {
                hits.append(POIHit(poi: poi, distance: inverse.distance, bearing: inverse.azimuthDeg))
            }
        }
        hits.sort { ($0.distance, $0.poi.id) < ($1.distance, $1.poi.id) }
        if let limit, hits.count > limit { hits.removeSubrange(limit...) }
        return hits
    }
}
