import Foundation
import POIARCore

/// Reads an Overpass API JSON response (`{"elements": [...]}`) as it streams in, one element
/// at a time: nodes with `lat`/`lon`, ways with `nodes` (and, from `out geom` / `out center`,
/// inline `geometry` / `center`), relations with `members` (with `out geom`, each member's
/// own `lat`/`lon` or `geometry`). POIs and buildings are made and placed as for OSM
/// XML (`OSMElementCollector`).
///
/// - A `remark` reporting a runtime error (a timeout, out of memory) fails the import: the
///   answer is partial (`OverpassAnswer.failure`).
/// - An element without a position where one belongs — a node without `lat`/`lon` (`out
///   tags`), a `"center": {}` — is skipped and counted ("no geometry"); a position that is
///   there but not numbers, or out of range, is an error naming the field.
public enum OverpassJSONImporter {
    /// Parses the Overpass JSON in `data`.
    /// - Throws: `InputError` naming the file and the field (`elements[12].lat`).
    public static func parse(_ data: Data, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        try parse(SourceStream(data: data, file: file), baseMap: baseMap)
    }

    static func parse(_ source: SourceStream, baseMap: Bool = false) throws -> ParsedPOIs {
        let file = source.file
        let reader = JSONStreamReader(source)
        var collector = OSMElementCollector(baseMap: baseMap)
        var sawElements = false
        var remark: String?
        guard try reader.peek() == UInt8(ascii: "{") else {
            throw InputError(file: file, field: "elements", "expected an object with an array of OSM elements")
        }
        try reader.members { key in
            switch key {
            case "elements" where try reader.peek() == UInt8(ascii: "["):
                sawElements = true
                try reader.items { index in
                    try add(reader.value(), field: "elements[\(index)]", file: file, to: &collector)
                }
            case "remark":
                remark = try reader.value().tagString
            default:
                try reader.skipValue()
            }
        }
        try reader.expectEnd()
        if let remark, let failure = OverpassAnswer.failure(remark: remark) {
            throw InputError(file: file, field: "remark", failure)
        }
        guard sawElements else { throw InputError(file: file, field: "elements", "expected an array of OSM elements") }
        return collector.finish()
    }

    private static func add(_ element: JSONValue, field: String, file: String, to collector: inout OSMElementCollector) throws {
        guard let type = element["type"]?.string else {
            throw InputError(file: file, field: "\(field).type", "expected \"node\", \"way\" or \"relation\"")
        }
        guard ["node", "way", "relation"].contains(type) else { return }  // "area", "count", … are not map data
        guard let id = element["id"]?.integer else {
            throw InputError(file: file, field: "\(field).id", "expected an integer id")
        }
        let tags = (element["tags"]?.object ?? [:]).compactMapValues(\.tagString)
        let center = try coordinate(element["center"], file: file, field: "\(field).center")
        switch type {
        case "node":
            guard let c = try coordinate(element, file: file, field: field) else {
                if !tags.isEmpty { collector.skip(SkipReason.noGeometry) }
                return
            }
            collector.addNode(id: id, coordinate: c, tags: tags)
        case "way":
            let refs = try (element["nodes"]?.array ?? []).enumerated().map { i, ref in
                guard let r = ref.integer else {
                    throw InputError(file: file, field: "\(field).nodes[\(i)]", "expected an integer node id")
                }
                return r
            }
            // `out geom(bbox)` gives null for the nodes outside the box: a cut way.
            let geometry = try element["geometry"]?.array?.enumerated().compactMap { i, point in
                try coordinate(point, file: file, field: "\(field).geometry[\(i)]")
            }
            collector.addWay(id: id, nodeRefs: refs, tags: tags, geometry: geometry?.isEmpty == true ? nil : geometry,
                             center: center)
        default:
            var members: [OSMElementCollector.Member] = []
            var inline: [(role: String, points: [GeoCoordinate])] = []
            for (i, member) in (element["members"]?.array ?? []).enumerated() {
                guard let type = member["type"]?.string, let ref = member["ref"]?.integer else { continue }
                let role = member["role"]?.string ?? ""
                // A member way's inline vertices (`out geom`), for buildings; one that is not a
                // position (Overpass writes null for a vertex it leaves out) makes the way incomplete.
                let vertices = member["geometry"]?.array?.map { point -> GeoCoordinate? in
                    guard let lat = point["lat"]?.number, let lon = point["lon"]?.number else { return nil }
                    let c = GeoCoordinate(latitude: lat, longitude: lon)
                    return c.isValid ? c : nil
                }
                members.append(.init(type: type, ref: ref, role: role, geometry: vertices))
                let memberField = "\(field).members[\(i)]"
                var points = try coordinate(member, file: file, field: memberField).map { [$0] } ?? []
                points += try (member["geometry"]?.array ?? []).enumerated().compactMap { j, point in
                    try coordinate(point, file: file, field: "\(memberField).geometry[\(j)]")
                }
                inline.append((role, points))
            }
            let fromMembers = inline.contains { !$0.points.isEmpty } ? OverpassAnswer.relationPosition(inline) : nil
            collector.addRelation(id: id, members: members, tags: tags, center: center ?? fromMembers)
        }
    }

    /// The `lat`/`lon` of `value`: nil when absent (or `value` is null or `{}`), an error when
    /// they are not numbers or out of range.
    private static func coordinate(_ value: JSONValue?, file: String, field: String) throws -> GeoCoordinate? {
        guard let value, value != .null else { return nil }
        let lat = value["lat"], lon = value["lon"]
        if (lat == nil || lat == .null) && (lon == nil || lon == .null) { return nil }
        guard let lat = lat?.number, let lon = lon?.number else {
            throw InputError(file: file, field: field, "expected numeric lat and lon")
        }
        let c = GeoCoordinate(latitude: lat, longitude: lon)
        guard c.isValid else { throw InputError(file: file, field: field, "coordinate \(lat),\(lon) is out of range") }
        return c
    }
}

extension OverpassJSONImporter: POISourceReader {
    static let format = POISourceFormat("Overpass JSON", isOSM: true)
    static let jsonForm: String? = #"an Overpass answer's "elements""#

    /// An object with `"elements"`.
    static func recognises(_ head: SourceHead) -> Bool { head.jsonObjectHas(#""elements"\s*:"#) }

    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs { try parse(source) }

    static func readBaseMap(_ source: SourceStream) throws -> [MapFeature]? { try parse(source, baseMap: true).baseMap }
}
