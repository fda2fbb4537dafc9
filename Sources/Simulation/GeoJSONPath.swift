import Foundation
import POIARCore

/// Reads a path (`poiar simulate --path`) from GeoJSON: the first LineString (or
/// MultiLineString's first line, or Point) of a FeatureCollection, Feature or bare geometry.
/// Coordinates are [lon, lat(, alt)].
public enum GeoJSONPath {
    /// The path in the GeoJSON file at `path`.
    /// - Throws: `InputError` naming the file (and the field or coordinate) when it cannot be
    ///   read, is not JSON, holds no LineString or Point, or a coordinate is not [longitude,
    ///   latitude(, altitude)].
    public static func read(_ path: String) throws -> [GeoCoordinate] {
        try InputFile.checkRegular(path, what: "the path (GeoJSON)")
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(file: path, "cannot read: \(error.localizedDescription)")
        }
        let object = try JSONInput.decode(GeoJSONObject.self, from: data, file: path)
        guard let coords = object.path, !coords.isEmpty else {
            throw InputError(file: path, "no LineString or Point found: expected a GeoJSON path")
        }
        return try coords.enumerated().map { i, c in
            guard c.count >= 2, abs(c[1]) <= 90, abs(c[0]) <= 180 else {
                throw InputError(file: path, field: "coordinates[\(i)]", "expected [longitude, latitude(, altitude)] in degrees")
            }
            return GeoCoordinate(latitude: c[1], longitude: c[0], altitude: c.count > 2 ? c[2] : nil)
        }
    }
}

/// A GeoJSON object as far as a path needs it; a class, as a Feature holds its geometry.
/// Coordinates are read for the geometry types a path is taken from, other types' left alone.
private final class GeoJSONObject: Decodable {
    let type: String
    let features: [GeoJSONObject]?
    let geometry: GeoJSONObject?
    /// The positions of a LineString, a MultiLineString's first line, or a Point.
    let positions: [[Double]]?

    enum CodingKeys: String, CodingKey { case type, features, geometry, coordinates }

    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        features = type == "FeatureCollection" ? try c.decodeIfPresent([GeoJSONObject].self, forKey: .features) : nil
        geometry = type == "Feature" ? try c.decodeIfPresent(GeoJSONObject.self, forKey: .geometry) : nil
        switch type {
        case "LineString": positions = try c.decodeIfPresent([[Double]].self, forKey: .coordinates)
        case "MultiLineString": positions = try c.decodeIfPresent([[[Double]]].self, forKey: .coordinates)?.first
        case "Point": positions = try c.decodeIfPresent([Double].self, forKey: .coordinates).map { [$0] }
        default: positions = nil
        }
    }

    /// The first line with more than one position, else the first position list found.
    var path: [[Double]]? {
        if let positions { return positions }
        if let geometry { return geometry.path }
        let paths = (features ?? []).compactMap(\.path)
        return paths.first { $0.count > 1 } ?? paths.first
    }
}
