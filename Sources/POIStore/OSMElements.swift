import POIARCore

/// Turns OpenStreetMap elements, as any OSM reader (XML, Overpass JSON) delivers them, into
/// POIs.
///
/// - A node with tags of a known category is a POI `osm:node/<id>` at the node.
/// - A way with such tags is a POI `osm:way/<id>`: a closed way (first node = last node) at
///   the area-weighted centroid of its polygon, an open way at the mean of its nodes
///   (`Centroid`); a way some of whose nodes are missing (cut at the extract's edge) at the
///   mean of the distinct nodes present, counted as a notice.
/// - A relation with such tags is a POI `osm:relation/<id>`: at the area-weighted centroid of
///   its outer rings — closed member ways, and rings joined end to end from open member ways
///   (members with role `inner` excluded) — or else the mean of its member nodes and the
///   nodes of member ways that form no ring.
/// - An id seen twice (of the same element type) is kept the first time and counted as
///   "duplicate id" afterwards.
///
/// Ways and relations are resolved in `finish()`, once every node is known, so the order of
/// elements in the file does not matter. Node coordinates are kept in memory (`NodeLocations`, 24
/// bytes per node: fine for city extracts).
///
/// Building footprints are collected beside the POIs, from the same elements
/// (`OSMBuildingCollector`, `ParsedPOIs.buildings`).
struct OSMElementCollector {
    struct Member {
        var type: String; var ref: Int64; var role: String
        /// A member way's vertices given inline (Overpass `out geom`), nil for one left out.
        var geometry: [GeoCoordinate?]? = nil
    }

    private struct PendingWay {
        var id: Int64, categories: [String], tags: [String: String]
        var refs: [Int64], geometry: [GeoCoordinate]?, center: GeoCoordinate?
    }
    private struct PendingRelation {
        var id: Int64, categories: [String], tags: [String: String], members: [Member]
        var center: GeoCoordinate?
    }

    private var nodeCoordinates = NodeLocations()
    private var wayRefs: [Int64: [Int64]] = [:]
    private var pendingWays: [PendingWay] = []
    private var pendingRelations: [PendingRelation] = []
    private var nodePOIs: [POI] = []
    private var seenNodePOIs = Set<Int64>(), seenWays = Set<Int64>(), seenRelations = Set<Int64>()
    private var result = ParsedPOIs()
    /// Ways to draw on a map (streets, buildings, green, water), when asked for (`init(baseMap: true)`).
    private var mapWays: [(kind: MapFeature.Kind, refs: [Int64], geometry: [GeoCoordinate]?)]?
    private var buildings = OSMBuildingCollector()

    /// - Parameter baseMap: also keep the ways a map draws (`ParsedPOIs.baseMap`).
    init(baseMap: Bool = false) {
        mapWays = baseMap ? [] : nil
    }

    /// Records a node; a node with POI tags becomes a POI.
    mutating func addNode(id: Int64, coordinate: GeoCoordinate, tags: [String: String]) {
        if nodeCoordinates.updateValue(coordinate, forKey: id) != nil, tags.isEmpty {
            return  // a repeated bare vertex: the last position wins
        }
        guard !tags.isEmpty else { return }  // a bare vertex of some way
        let categories = POICategory.categories(forTags: tags)
        guard !categories.isEmpty else { return result.skip(SkipReason.noCategory) }
        guard seenNodePOIs.insert(id).inserted else { return result.skip(SkipReason.duplicateID) }
        nodePOIs.append(TagFields.poi(id: "osm:node/\(id)", categories: categories,
                                      coordinate: coordinate, tags: tags))
    }

    /// Records a way. `geometry` (its vertices) and `center` are used when the reader has
    /// them inline (Overpass `out geom` / `out center`) and the nodes are not in the file.
    mutating func addWay(id: Int64, nodeRefs: [Int64], tags: [String: String],
                         geometry: [GeoCoordinate]? = nil, center: GeoCoordinate? = nil) {
        guard seenWays.insert(id).inserted else {
            if !tags.isEmpty { result.skip(SkipReason.duplicateID) }
            return
        }
        wayRefs[id] = nodeRefs
        buildings.addWay(id: id, nodeRefs: nodeRefs, tags: tags, geometry: geometry)
        if mapWays != nil, let kind = MapFeature.Kind(tags: tags) { mapWays!.append((kind, nodeRefs, geometry)) }
        guard !tags.isEmpty else { return }
        let categories = POICategory.categories(forTags: tags)
        guard !categories.isEmpty else { return result.skip(SkipReason.noCategory) }
        pendingWays.append(PendingWay(id: id, categories: categories, tags: tags, refs: nodeRefs,
                                      geometry: geometry, center: center))
    }

    /// Records a relation; only relations with POI tags are kept.
    mutating func addRelation(id: Int64, members: [Member], tags: [String: String],
                              center: GeoCoordinate? = nil) {
        guard !tags.isEmpty else { return }
        buildings.addRelation(id: id, members: members, tags: tags)
        let categories = POICategory.categories(forTags: tags)
        guard !categories.isEmpty else { return result.skip(SkipReason.noCategory) }
        guard seenRelations.insert(id).inserted else { return result.skip(SkipReason.duplicateID) }
        pendingRelations.append(PendingRelation(id: id, categories: categories, tags: tags,
                                                members: members, center: center))
    }

    /// Counts an element the reader dropped (e.g. a deleted one).
    mutating func skip(_ reason: String) { result.skip(reason) }

    /// Places the ways and relations and returns everything read.
    mutating func finish() -> ParsedPOIs {
        var pois = nodePOIs
        for way in pendingWays {
            let resolved = way.refs.compactMap { nodeCoordinates[$0] }
            // Overpass `out center` lists a way's nodes but leaves them out: when only some are
            // in the file, the centre Overpass computed is better than a partial shape.
            let vertices = way.geometry ?? (resolved.count == way.refs.count || way.center == nil ? resolved : [])
            // A way cut at the extract's edge (nodes outside it are not in the file, or `out
            // geom(bbox)` left their positions out): placed from the nodes present, counted.
            let cut = !vertices.isEmpty && vertices.count < way.refs.count
            if cut { result.note(NoticeReason.cutWay) }
            let placed = cut ? Centroid.mean(Centroid.distinctVertices(vertices))
                : Self.place(vertices: vertices, closed: Self.isClosed(way.refs, vertices))
            guard let position = placed ?? way.center else {
                result.skip(SkipReason.noGeometry)
                continue
            }
            pois.append(TagFields.poi(id: "osm:way/\(way.id)", categories: way.categories,
                                      coordinate: position, tags: way.tags))
        }
        for relation in pendingRelations {
            guard let position = relation.center ?? place(relation) else {
                result.skip(SkipReason.noGeometry)
                continue
            }
            pois.append(TagFields.poi(id: "osm:relation/\(relation.id)", categories: relation.categories,
                                      coordinate: position, tags: relation.tags))
        }
        result.pois = pois
        result.buildings = buildings.finish(nodes: nodeCoordinates, wayRefs: wayRefs)
        for way in mapWays ?? [] {
            let vertices = way.geometry ?? way.refs.compactMap { nodeCoordinates[$0] }
            guard vertices.count >= 2 else { continue }
            result.baseMap.append(MapFeature(kind: way.kind, points: vertices))
        }
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
        var openWays: [[Int64]] = []
        for member in relation.members where member.role != "inner" {
            switch member.type {
            case "node":
                if let c = nodeCoordinates[member.ref] { loose.append(c) }
            case "way":
                guard let refs = wayRefs[member.ref] else { continue }
                let vertices = refs.compactMap { nodeCoordinates[$0] }
                if vertices.count == refs.count, Self.isClosed(refs, vertices) {
                    rings.append(vertices)
                } else if vertices.count == refs.count, refs.count >= 2 {
                    openWays.append(refs)
                } else {
                    loose += vertices
                }
            default:
                continue  // sub-relations are not followed
            }
        }
        // Join open ways that share end nodes into rings (a long outer boundary is often split).
        let (joined, leftover) = Self.joinRings(openWays)
        rings += joined.map { $0.compactMap { nodeCoordinates[$0] } }
        for refs in leftover { loose += refs.compactMap { nodeCoordinates[$0] } }
        if !rings.isEmpty { return Centroid.ofRings(rings) }
        return Centroid.mean(Centroid.distinctVertices(loose))
    }

    /// Chains open ways (node id or vertex lists) end to end, reversing them where needed, into
    /// closed rings; returns the rings and the ways that close no ring. A closed way is a ring
    /// by itself.
    static func joinRings<Vertex: Equatable>(_ ways: [[Vertex]]) -> (rings: [[Vertex]], leftover: [[Vertex]]) {
        var unused = ways
        var rings: [[Vertex]] = []
        var leftover: [[Vertex]] = []
        while !unused.isEmpty {
            var chain = unused.removeFirst()
            var used: [[Vertex]] = [chain]
            while chain.first != chain.last {
                guard let i = unused.firstIndex(where: { $0.first == chain.last || $0.last == chain.last }) else { break }
                let next = unused.remove(at: i)
                used.append(next)
                chain += (next.first == chain.last ? next : next.reversed()).dropFirst()
            }
            if chain.count >= 4, chain.first == chain.last { rings.append(chain) } else { leftover += used }
        }
        return (rings, leftover)
    }
}
