import Foundation
import POIARCore

/// Reads a GeoJSON (RFC 7946) FeatureCollection, or a single Feature, of POIs.
///
/// - Geometry: a `Point` (its optional third coordinate is the altitude); a `Polygon` at the
///   area-weighted centroid of its outer ring; a `MultiPolygon` at the area-weighted centroid
///   of all its outer rings. A feature without geometry, or with another geometry type, is
///   skipped and counted.
/// - Id: an OSM-style `@id` property or feature id (`node/123`, as overpass-turbo exports)
///   gives `osm:node/123`; otherwise `geojson:<feature id>`, else `geojson:<properties.id>`,
///   else `geojson:<properties.@id>`, else `geojson:<file name>#<feature index>`.
/// - Categories: `properties.category` when it names a known category (the primary one), and
///   those of the properties read as OSM tags (`POICategory.categories(forTags:)`); none →
///   skipped, counted.
/// - Name, address, phone, website, opening hours: from the properties as from OSM tags
///   (`TagFields`). Tags: every non-null property, as a string.
public enum GeoJSONImporter {
    /// Parses the GeoJSON in `data`.
    /// - Parameter file: the name used in error messages and fallback ids.
    /// - Throws: `InputError` naming the file (and line, for JSON syntax errors) and the field
    ///   (`features[3].geometry.coordinates`) for malformed input.
    public static func parse(_ data: Data, file: String) throws -> ParsedPOIs {
        try parse(JSONValue.parse(data, file: file), file: file)
    }

    static func parse(_ root: JSONValue, file: String) throws -> ParsedPOIs {
        let features: [(JSONValue, String)]
        switch root["type"]?.string {
        case "FeatureCollection":
            guard let list = root["features"]?.array else {
                throw InputError(file: file, field: "features", "expected an array of features")
            }
            features = list.enumerated().map { ($1, "features[\($0)]") }
        case "Feature":
            features = [(root, "feature")]
        default:
            throw InputError(file: file, field: "type",
                             "expected a GeoJSON FeatureCollection or Feature, got \(root["type"]?.jsonText ?? "no type")")
        }
        let stem = (file as NSString).lastPathComponent
        var result = ParsedPOIs()
        for (index, (feature, field)) in features.enumerated() {
            guard feature.object != nil, feature["type"]?.string == "Feature" else {
                throw InputError(file: file, field: field, "expected an object with \"type\": \"Feature\"")
            }
            let properties = feature["properties"]?.object ?? [:]
            let tags = properties.compactMapValues(\.tagString)

            guard let position = try position(of: feature["geometry"], file: file,
                                              field: "\(field).geometry", result: &result) else { continue }
            let declared = tags["category"]?.trimmingWhitespace().lowercased()
            var categories = POICategory.categories(forTags: tags)
            if let declared, POICategory.isKnown(declared) {
                categories.removeAll { $0 == declared }
                categories.insert(declared, at: 0)
            }
            guard !categories.isEmpty else {
                result.skip(SkipReason.noCategory)
                continue
            }
            let id = poiID(featureID: feature["id"], tags: tags, fallback: "\(stem)#\(index)")
            result.pois.append(TagFields.poi(id: id, categories: categories, coordinate: position, tags: tags))
        }
        return result
    }

    /// The stable id of a feature (see the type's documentation).
    static func poiID(featureID: JSONValue?, tags: [String: String], fallback: String) -> String {
        let featureIDText = featureID?.tagString
        for candidate in [tags["@id"], featureIDText] {
            if let candidate, let osm = osmID(candidate) { return "osm:\(osm)" }
        }
        let native = [featureIDText, tags["id"], tags["@id"]].compactMap { $0 }.first { !$0.isEmpty }
        return "geojson:\(native ?? fallback)"
    }

    /// `node/123`, `way/4`, `relation/56` (OSM element references), else nil.
    static func osmID(_ s: String) -> String? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, ["node", "way", "relation"].contains(parts[0]),
              !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), Int64(parts[1]) != nil else { return nil }
        return s
    }

    /// Where a feature's geometry places its POI; nil (counted) when it has none or an
    /// unsupported type.
    private static func position(of geometry: JSONValue?, file: String, field: String,
                                 result: inout ParsedPOIs) throws -> GeoCoordinate? {
        guard let geometry, geometry != .null else {
            result.skip(SkipReason.noGeometry)
            return nil
        }
        let coordinatesField = "\(field).coordinates"
        func point(_ value: JSONValue) throws -> GeoCoordinate {
            guard let numbers = value.array?.compactMap(\.number), numbers.count >= 2,
                  numbers.count == value.array?.count else {
                throw InputError(file: file, field: coordinatesField, "expected a position [lon, lat] or [lon, lat, alt]")
            }
            let c = GeoCoordinate(latitude: numbers[1], longitude: numbers[0],
                                  altitude: numbers.count >= 3 ? numbers[2] : nil)
            guard c.isValid else {
                throw InputError(file: file, field: coordinatesField,
                                 "position [\(numbers[0]), \(numbers[1])] is out of range (expected [lon, lat])")
            }
            return c
        }
        func ring(_ value: JSONValue?) throws -> [GeoCoordinate] {
            guard let points = value?.array, !points.isEmpty else {
                throw InputError(file: file, field: coordinatesField, "expected a linear ring of positions")
            }
            return try points.map(point)
        }
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.string {
        case "Point":
            guard let coordinates else {
                throw InputError(file: file, field: coordinatesField, "missing coordinates")
            }
            return try point(coordinates)
        case "Polygon":
            guard let rings = coordinates?.array else {
                throw InputError(file: file, field: coordinatesField, "expected an array of linear rings")
            }
            return Centroid.ofRings([try ring(rings.first)])
        case "MultiPolygon":
            guard let polygons = coordinates?.array, !polygons.isEmpty else {
                throw InputError(file: file, field: coordinatesField, "expected an array of polygons")
            }
            return Centroid.ofRings(try polygons.map { try ring($0.array?.first) })
        case let type:
            result.skip(SkipReason.unsupportedGeometry(type ?? "(no type)"))
            return nil
        }
    }
}
