import POIARCore

/// Turns OpenStreetMap elements, as any OSM reader (XML, Overpass JSON) delivers them, into
/// POIs.
///
/// - A node with tags of a known category is a POI `osm:node/<id>` at the node.
/// - A way with such tags is a POI `osm:way/<id>`: a closed way (first node = last node) at
///   the area-weighted centroid of its polygon, an open way at the mean of its nodes
///   (`Centroid`).
/// - A relation with such tags is a POI `osm:relation/<id>`: at the area-weighted centroid of
///   its closed member ways (inner ones excluded), or else the mean of its member nodes and
///   the nodes of its open member ways.
///
/// Ways and relations are resolved in `finish()`, once every node is known, so the order of
/// elements in the file does not matter. Node coordinates are kept in memory (a few tens of
/// bytes per node: fine for city extracts).
struct OSMElementCollector {
    struct Member { var type: String; var ref: Int64; var role: String }

    private struct PendingWay {
        var id: Int64, category: String, tags: [String: String]
        var refs: [Int64], geometry: [GeoCoordinate]?, center: GeoCoordinate?
    }
    private struct PendingRelation {
        var id: Int64, category: String, tags: [String: String], members: [Member]
        var center: GeoCoordinate?
    }

    private var nodeCoordinates: [Int64: GeoCoordinate] = [:]
    private var wayRefs: [Int64: [Int64]] = [:]
    private var pendingWays: [PendingWay] = []
    private var pendingRelations: [PendingRelation] = []
    private var nodePOIs: [POI] = []
    private var result = ParsedPOIs()

    /// Records a node; a node with POI tags becomes a POI.
    mutating func addNode(id: Int64, coordinate: GeoCoordinate, tags: [String: String]) {
        nodeCoordinates[id] = coordinate
        guard !tags.isEmpty else { return }  // a bare vertex of some way
        guard let category = POICategory.category(forTags: tags) else {
            return result.skip(SkipReason.noCategory)
        }
        nodePOIs.append(TagFields.poi(id: "osm:node/\(id)", category: category,
                                      coordinate: coordinate, tags: tags))
    }

    /// Records a way. `geometry` (its vertices) and `center` are used when the reader has
    /// them inline (Overpass `out geom` / `out center`) and the nodes are not in the file.
    mutating func addWay(id: Int64, nodeRefs: [Int64], tags: [String: String],
                         geometry: [GeoCoordinate]? = nil, center: GeoCoordinate? = nil) {
        wayRefs[id] = nodeRefs
        guard !tags.isEmpty else { return }
        guard let category = POICategory.category(forTags: tags) else {
            return result.skip(SkipReason.noCategory)
        }
        pendingWays.append(PendingWay(id: id, category: category, tags: tags, refs: nodeRefs,
                                      geometry: geometry, center: center))
    }

    /// Records a relation; only relations with POI tags are kept.
    mutating func addRelation(id: Int64, members: [Member], tags: [String: String],
                              center: GeoCoordinate? = nil) {
        guard !tags.isEmpty else { return }
        guard let category = POICategory.category(forTags: tags) else {
            return result.skip(SkipReason.noCategory)
        }
        pendingRelations.append(PendingRelation(id: id, category: category, tags: tags,
                                                members: members, center: center))
    }

    /// Counts an element the reader dropped (e.g. a deleted one).
    mutating func skip(_ reason: String) { result.skip(reason) }

    /// Places the ways and relations and returns everything read.
    mutating func finish() -> ParsedPOIs {
        var pois = nodePOIs
        for way in pendingWays {
            let vertices = way.geometry ?? way.refs.compactMap { nodeCoordinates[$0] }
            guard let position = Self.place(vertices: vertices, closed: Self.isClosed(way.refs, vertices))
                    ?? way.center else {
                result.skip(SkipReason.noGeometry)
                continue
            }
            pois.append(TagFields.poi(id: "osm:way/\(way.id)", category: way.category,
                                      coordinate: position, tags: way.tags))
        }
        for relation in pendingRelations {
            guard let position = place(relation) ?? relation.center else {
                result.skip(SkipReason.noGeometry)
                continue
            }
            pois.append(TagFields.poi(id: "osm:relation/\(relation.id)", category: relation.category,
                                      coordinate: position, tags: relation.tags))
        }
        result.pois = pois
        return result
    }

    private static func isClosed(_ refs: [Int64], _ vertices: [GeoCoordinate]) -> Bool {
        if refs.count >= 4 { return refs.first == refs.last }
        return vertices.count >= 4 && vertices.first == vertices.last
    }

    private static func place(vertices: [GeoCoordinate], closed: Bool) -> GeoCoordinate? {
        if vertices.isEmpty { return nil }
        if closed { return Centroid.ofRings([vertices]) }
        return Centroid.mean(vertices)
    }

    private func place(_ relation: PendingRelation) -> GeoCoordinate? {
        var rings: [[GeoCoordinate]] = []
        var loose: [GeoCoordinate] = []
        for member in relation.members where member.role != "inner" {
            switch member.type {
            case "node":
                if let c = nodeCoordinates[member.ref] { loose.append(c) }
            case "way":
                guard let refs = wayRefs[member.ref] else { continue }
                let vertices = refs.compactMap { nodeCoordinates[$0] }
                if vertices.count == refs.count, Self.isClosed(refs, vertices) {
                    rings.append(vertices)
                } else {
                    loose += vertices
                }
            default:
                continue  // sub-relations are not followed
            }
        }
        if !rings.isEmpty { return Centroid.ofRings(rings) }
        return Centroid.mean(Centroid.distinctVertices(loose))
    }
}
