import Foundation
import POIARCore

/// Where a POI mapped as an area or a line is placed.
///
/// Areas (closed rings) are placed at their area-weighted centroid, computed with the
/// shoelace formula (the centroid of a polygon, e.g. Bourke, "Calculating the area and
/// centroid of a polygon", 1988) in a local equirectangular projection around the first
/// vertex: x = Δlon·cos(lat₀), y = Δlat, in degrees. For the building-sized to park-sized
/// shapes POIs have, the projection's distortion moves the centroid by far less than the
/// mapping accuracy. Longitudes are unwrapped relative to the first vertex, so a shape
/// straddling ±180° is handled.
enum Centroid {
    /// Area-weighted centroid of one or more closed outer rings (each may or may not repeat
    /// its first vertex at the end; either winding). Falls back to the mean of the distinct vertices when the
    /// total area is zero (a degenerate ring) or the centroid falls outside the vertices' bounding box
    /// (a self-intersecting ring). Nil for no vertices.
    static func ofRings(_ rings: [[GeoCoordinate]]) -> GeoCoordinate? {
        guard let origin = rings.first(where: { !$0.isEmpty })?.first else { return nil }
        let cosLat0 = cos(radians(origin.latitude))
        func project(_ c: GeoCoordinate) -> (x: Double, y: Double) {
            (wrap180(c.longitude - origin.longitude) * cosLat0, c.latitude - origin.latitude)
        }
        var twiceArea = 0.0, cx = 0.0, cy = 0.0
        for ring in rings where ring.count >= 3 {
            let points = ring.map(project)
            var a = 0.0, x = 0.0, y = 0.0
            for i in points.indices {
                let p = points[i], q = points[(i + 1) % points.count]
                let cross = p.x * q.y - q.x * p.y
                a += cross
                x += (p.x + q.x) * cross
                y += (p.y + q.y) * cross
            }
            // Rings are all outer rings here; weigh each by its unsigned area whatever its winding.
            let sign = a < 0 ? -1.0 : 1.0
            twiceArea += sign * a; cx += sign * x; cy += sign * y
        }
        // Relative threshold: a ring whose area is negligible against its extent is a line.
        let projected = rings.joined().map(project)
        let extent = projected.reduce(0.0) { max($0, abs($1.x), abs($1.y)) }
        guard abs(twiceArea) > 1e-12 * max(extent * extent, 1e-18) else {
            return mean(distinctVertices(rings.joined()))
        }
        let x = cx / (3 * twiceArea), y = cy / (3 * twiceArea)
        // The centroid of a simple polygon lies within its bounding box. A self-intersecting
        // ring, whose parts' signed areas nearly cancel, can put it anywhere (even past the
        // poles): then the mean of the vertices is used.
        let slack = 1e-9 * max(extent, 1e-9)
        guard x >= projected.map(\.x).min()! - slack, x <= projected.map(\.x).max()! + slack,
              y >= projected.map(\.y).min()! - slack, y <= projected.map(\.y).max()! + slack else {
            return mean(distinctVertices(rings.joined()))
        }
        let lon = cosLat0 > 1e-12 ? origin.longitude + x / cosLat0 : origin.longitude
        return GeoCoordinate(latitude: origin.latitude + y, longitude: wrap180(lon))
    }

    /// Mean of the vertices (for open lines), longitudes unwrapped around the first.
    static func mean<S: Sequence>(_ vertices: S) -> GeoCoordinate? where S.Element == GeoCoordinate {
        var first: GeoCoordinate?
        var n = 0.0, lat = 0.0, dLon = 0.0
        for v in vertices {
            if first == nil { first = v }
            n += 1
            lat += v.latitude
            dLon += wrap180(v.longitude - first!.longitude)
        }
        guard let first else { return nil }
        return GeoCoordinate(latitude: lat / n, longitude: wrap180(first.longitude + dLon / n))
    }

    /// The vertices with exact repeats removed (a closed ring's last vertex, mostly).
    static func distinctVertices<S: Sequence>(_ vertices: S) -> [GeoCoordinate]
    where S.Element == GeoCoordinate {
        var seen = Set<GeoCoordinate>()
        return vertices.filter { seen.insert($0).inserted }
    }
}
