import Foundation
import POIARCore

/// Reads an Overpass API JSON response (`{"elements": [...]}`): nodes with `lat`/`lon`, ways
/// with `nodes` (and, from `out geom` / `out center`, inline `geometry` / `center`), relations
/// with `members` (and their ways' inline `geometry`). POIs and buildings are made and placed
/// as for OSM XML (`OSMElementCollector`).
public enum OverpassJSONImporter {
    /// Parses the Overpass JSON in `data`.
    /// - Throws: `InputError` naming the file and the field (`elements[12].lat`).
    public static func parse(_ data: Data, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        try parse(JSONValue.parse(data, file: file), file: file, baseMap: baseMap)
    }

    static func parse(_ root: JSONValue, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        guard let elements = root["elements"]?.array else {
            throw InputError(file: file, field: "elements", "expected an array of OSM elements")
        }
        var collector = OSMElementCollector(baseMap: baseMap)
        for (index, element) in elements.enumerated() {
            let field = "elements[\(index)]"
            guard let type = element["type"]?.string else {
                throw InputError(file: file, field: "\(field).type", "expected \"node\", \"way\" or \"relation\"")
            }
            guard let id = element["id"]?.integer else {
                throw InputError(file: file, field: "\(field).id", "expected an integer id")
            }
            let tags = (element["tags"]?.object ?? [:]).compactMapValues(\.tagString)
            switch type {
            case "node":
                let c = try coordinate(element, file: file, field: field)
                collector.addNode(id: id, coordinate: c, tags: tags)
            case "way":
                let refs = try (element["nodes"]?.array ?? []).enumerated().map { i, ref in
                    guard let r = ref.integer else {
                        throw InputError(file: file, field: "\(field).nodes[\(i)]", "expected an integer node id")
                    }
                    return r
                }
                let geometry = try element["geometry"]?.array?.enumerated().map { i, point in
                    try coordinate(point, file: file, field: "\(field).geometry[\(i)]")
                }
                let center = try element["center"].map { try coordinate($0, file: file, field: "\(field).center") }
                collector.addWay(id: id, nodeRefs: refs, tags: tags, geometry: geometry, center: center)
            case "relation":
                let members = (element["members"]?.array ?? []).compactMap { member -> OSMElementCollector.Member? in
                    guard let type = member["type"]?.string, let ref = member["ref"]?.integer else { return nil }
                    // A member way's inline vertices (`out geom`); one that is not a position
                    // (Overpass writes null for a vertex it leaves out) makes the way incomplete.
                    let geometry = member["geometry"]?.array?.map { point -> GeoCoordinate? in
                        guard let lat = point["lat"]?.number, let lon = point["lon"]?.number else { return nil }
                        let c = GeoCoordinate(latitude: lat, longitude: lon)
                        return c.isValid ? c : nil
                    }
                    return .init(type: type, ref: ref, role: member["role"]?.string ?? "", geometry: geometry)
                }
                let center = try element["center"].map { try coordinate($0, file: file, field: "\(field).center") }
                collector.addRelation(id: id, members: members, tags: tags, center: center)
            default:
                continue  // "area", "count", … are not map data
            }
        }
        return collector.finish()
    }

    private static func coordinate(_ value: JSONValue, file: String, field: String) throws -> GeoCoordinate {
        guard let lat = value["lat"]?.number, let lon = value["lon"]?.number else {
            throw InputError(file: file, field: field, "expected numeric lat and lon")
        }
        let c = GeoCoordinate(latitude: lat, longitude: lon)
        guard c.isValid else { throw InputError(file: file, field: field, "coordinate \(lat),\(lon) is out of range") }
        return c
    }
}
