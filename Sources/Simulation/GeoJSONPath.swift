import Foundation
import POIARCore

/// Reads a path (`poiar simulate --path`) from GeoJSON: the first LineString (or
/// MultiLineString's first line, or Point) of a FeatureCollection, Feature or bare geometry.
/// Coordinates are [lon, lat(, alt)].
public enum GeoJSONPath {
    /// The path in the GeoJSON file at `path`.
    /// - Throws: `InputError` naming the file (and the coordinate) when it cannot be read, is not
    ///   JSON, holds no LineString or Point, or a coordinate is not [longitude, latitude(, altitude)].
    public static func read(_ path: String) throws -> [GeoCoordinate] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(file: path, "cannot read: \(error.localizedDescription)")
        }
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw InputError(file: path, "not JSON: expected a GeoJSON LineString")
        }
        func coordinates(_ any: Any) -> [[Double]]? {
            guard let obj = any as? [String: Any], let type = obj["type"] as? String else { return nil }
            switch type {
            case "FeatureCollection":
                for f in obj["features"] as? [Any] ?? [] { if let c = coordinates(f), c.count > 1 { return c } }
                for f in obj["features"] as? [Any] ?? [] { if let c = coordinates(f) { return c } }
                return nil
            case "Feature": return obj["geometry"].flatMap(coordinates)
            case "LineString": return (obj["coordinates"] as? [[Any]])?.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
            case "MultiLineString": return (obj["coordinates"] as? [[[Any]]])?.first?.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
            case "Point": return (obj["coordinates"] as? [Any]).map { [$0.compactMap { ($0 as? NSNumber)?.doubleValue }] }
            default: return nil
            }
        }
        guard let coords = coordinates(json), !coords.isEmpty else {
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
