import Foundation
import POIARCore

/// Reads GeoJSON (RFC 7946) POIs as they stream in: a FeatureCollection (its features one by
/// one, never the whole array), a single Feature, or a sequence of Features — GeoJSONSeq
/// (RFC 8142, each after a record separator) or newline-delimited, one per line.
///
/// - Geometry: a `Point` (its optional third coordinate is the altitude); a `MultiPoint`, one
///   POI per point (ids `<id>#1`, `<id>#2`, …; a single point keeps the feature's id); a
///   `Polygon` at the area-weighted centroid of its outer ring; a `MultiPolygon` at the
///   area-weighted centroid of all its outer rings. A feature without geometry, or with
///   another geometry type, is skipped and counted.
/// - Properties: every non-null one is a tag (as a string); the tags of osmtogeojson's older
///   layout, nested in `properties.tags`, are read as tags too.
/// - Id: an OSM-style `@id` property or feature id (`node/123`, as overpass-turbo exports;
///   osmtogeojson's older `properties.type` + `properties.id`) gives `osm:node/123`; otherwise
///   `geojson:<feature id>`, else `geojson:<properties.id>`, else `geojson:<properties.@id>`,
///   else `geojson:<hash>` of the feature's geometry and properties — the same on every
///   import of the same feature, wherever it is in whichever file.
/// - Categories (`ImportOptions.categories`): `properties.category` (one name, several as
///   `cafe;store`, or an array), a `--category-from` property's, those of the properties read
///   as OSM tags (`POICategory.categories(forTags:)`), else `--category`; none → skipped,
///   counted (an unknown `category` value: "unknown category", listed).
/// - Name, address, phone, website, opening hours: from the properties as from OSM tags
///   (`TagFields`).
public enum GeoJSONImporter {
    /// Parses the GeoJSON in `data`.
    /// - Parameter file: the name used in error messages.
    /// - Throws: `InputError` naming the file (and line, for JSON syntax errors) and the field
    ///   (`features[3].geometry.coordinates`) for malformed input.
    public static func parse(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ParsedPOIs {
        try parse(SourceStream(data: data, file: file), options: options)
    }

    static func parse(_ source: SourceStream, options: ImportOptions = ImportOptions()) throws -> ParsedPOIs {
        let file = source.file
        let reader = JSONStreamReader(source)
        var result = ParsedPOIs()
        var texts = 0, featureIndex = 0
        while try reader.nextText() {
            texts += 1
            let line = reader.line
            guard try reader.peek() == UInt8(ascii: "{") else {
                throw InputError(file: file, line: line, "expected a GeoJSON FeatureCollection or Feature object")
            }
            var members: [String: JSONValue] = [:]
            var streamed = false
            try reader.members { key in
                guard key == "features", try reader.peek() == UInt8(ascii: "[") else {
                    members[key] = try reader.value()
                    return
                }
                streamed = true
                try reader.items { _ in
                    try add(reader.value(), field: "features[\(featureIndex)]", file: file, options: options, into: &result)
                    featureIndex += 1
                }
            }
            switch members["type"]?.string {
            case "FeatureCollection":
                guard streamed else { throw InputError(file: file, field: "features", "expected an array of features") }
            case "Feature":
                // A lone Feature, or one of a sequence (then its line says which).
                let sequence = try texts > 1 || reader.peek() != nil
                try add(.object(members), field: sequence ? "features[\(featureIndex)]" : "feature", line: sequence ? line : nil,
                        file: file, options: options, into: &result)
                featureIndex += 1
            default:
                throw InputError(file: file, line: texts > 1 ? line : nil, field: "type",
                                 "expected a GeoJSON FeatureCollection or Feature, got \(members["type"]?.jsonText ?? "no type")")
            }
        }
        if texts == 0 { throw reader.error("unexpected end of file: the JSON is cut short") }
        return result
    }

    /// Reads one feature into `result`.
    private static func add(_ feature: JSONValue, field: String, line: Int? = nil, file: String, options: ImportOptions,
                            into result: inout ParsedPOIs) throws {
        guard feature.object != nil, feature["type"]?.string == "Feature" else {
            throw InputError(file: file, line: line, field: field, "expected an object with \"type\": \"Feature\"")
        }
        let properties = feature["properties"]?.object ?? [:]
        var tags = properties.compactMapValues(\.tagString)
        // osmtogeojson's older layout: the OSM tags in `properties.tags`, beside `type` and `id`.
        var osmType: String?
        if let nested = properties["tags"]?.object {
            tags["tags"] = nil
            for (key, value) in nested { if let text = value.tagString { tags[key] = text } }
            if let type = properties["type"]?.string, ["node", "way", "relation"].contains(type),
               let id = properties["id"]?.integer {
                osmType = "\(type)/\(id)"
            }
        }
        guard let positions = try positions(of: feature["geometry"], file: file, line: line,
                                            field: "\(field).geometry", result: &result) else { return }
        guard !positions.isEmpty else { return result.skip(SkipReason.noGeometry) }  // a degenerate polygon
        let declared = properties["category"]?.array?.compactMap(\.tagString) ?? ImportOptions.values(tags["category"])
        let (categories, unknown) = options.categories(
            declared: declared, property: ImportOptions.values(options.categoryProperty.flatMap { tags[$0] }),
            fromTags: POICategory.categories(forTags: tags))
        guard !categories.isEmpty else { return result.skipForCategories(unknown: unknown) }
        let id = poiID(featureID: feature["id"] ?? osmType.map(JSONValue.string), tags: tags,
                       fallback: { FNV1a64.hex(feature["geometry"]?.jsonText ?? "", JSONValue.object(properties).jsonText) })
        for (k, position) in positions.enumerated() {
            let pointID = positions.count == 1 ? id : "\(id)#\(k + 1)"
            result.pois.append(TagFields.poi(id: pointID, categories: categories, coordinate: position, tags: tags))
        }
    }

    /// The stable id of a feature (see the type's documentation).
    static func poiID(featureID: JSONValue?, tags: [String: String], fallback: () -> String) -> String {
        let featureIDText = featureID?.tagString
        for candidate in [tags["@id"], featureIDText] {
            if let candidate, let osm = osmID(candidate) { return "osm:\(osm)" }
        }
        let native = [featureIDText, tags["id"], tags["@id"]].compactMap { $0 }.first { !$0.isEmpty }
        return "geojson:\(native ?? fallback())"
    }

    /// `node/123`, `way/4`, `relation/56` (OSM element references), else nil.
    static func osmID(_ s: String) -> String? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, ["node", "way", "relation"].contains(parts[0]),
              !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), Int64(parts[1]) != nil else { return nil }
        return s
    }

    /// Where a feature's geometry places its POIs (several for a MultiPoint); nil (counted)
    /// when it has none or an unsupported type.
    private static func positions(of geometry: JSONValue?, file: String, line: Int?, field: String,
                                  result: inout ParsedPOIs) throws -> [GeoCoordinate]? {
        guard let geometry, geometry != .null else {
            result.skip(SkipReason.noGeometry)
            return nil
        }
        let coordinatesField = "\(field).coordinates"
        func point(_ value: JSONValue) throws -> GeoCoordinate {
            guard let numbers = value.array?.compactMap(\.number), numbers.count >= 2,
                  numbers.count == value.array?.count else {
                throw InputError(file: file, line: line, field: coordinatesField, "expected a position [lon, lat] or [lon, lat, alt]")
            }
            let c = GeoCoordinate(latitude: numbers[1], longitude: numbers[0],
                                  altitude: numbers.count >= 3 ? numbers[2] : nil)
            guard c.isValid else {
                throw InputError(file: file, line: line, field: coordinatesField,
                                 "position [\(numbers[0]), \(numbers[1])] is out of range (expected [lon, lat])")
            }
            return c
        }
        func ring(_ value: JSONValue?) throws -> [GeoCoordinate] {
            guard let points = value?.array, !points.isEmpty else {
                throw InputError(file: file, line: line, field: coordinatesField, "expected a linear ring of positions")
            }
            return try points.map(point)
        }
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.string {
        case "Point":
            guard let coordinates else {
                throw InputError(file: file, line: line, field: coordinatesField, "missing coordinates")
            }
            return [try point(coordinates)]
        case "MultiPoint":
            guard let points = coordinates?.array else {
                throw InputError(file: file, line: line, field: coordinatesField, "expected an array of positions")
            }
            guard !points.isEmpty else {
                result.skip(SkipReason.noGeometry)
                return nil
            }
            return try points.map(point)
        case "Polygon":
            guard let rings = coordinates?.array else {
                throw InputError(file: file, line: line, field: coordinatesField, "expected an array of linear rings")
            }
            return [Centroid.ofRings([try ring(rings.first)])].compactMap { $0 }
        case "MultiPolygon":
            guard let polygons = coordinates?.array, !polygons.isEmpty else {
                throw InputError(file: file, line: line, field: coordinatesField, "expected an array of polygons")
            }
            return [Centroid.ofRings(try polygons.map { try ring($0.array?.first) })].compactMap { $0 }
        case let type:
            result.skip(SkipReason.unsupportedGeometry(type ?? "(no type)"))
            return nil
        }
    }
}

extension GeoJSONImporter: POISourceReader {
    static let format = POISourceFormat("GeoJSON")
    static let jsonForm: String? = "a GeoJSON FeatureCollection, Feature or feature sequence (GeoJSONSeq, one Feature a line)"

    /// A record separator first (RFC 8142: every text of a GeoJSONSeq starts with one), or an
    /// object with `"type": "FeatureCollection"` or `"Feature"`.
    static func recognises(_ head: SourceHead) -> Bool {
        head.firstCharacter == 0x1E || head.jsonObjectHas(#""type"\s*:\s*"(FeatureCollection|Feature)""#)
    }

    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs { try parse(source, options: options) }
}
