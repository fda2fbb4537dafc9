import POIARCore

/// What an OSM reader found of buildings (`ParsedPOIs.buildings`).
public struct ParsedBuildings: Equatable, Sendable {
    /// The footprints, ways (in file order) before multipolygon relations.
    public var buildings: [Building] = []
    /// Buildings not kept, counted per reason (`BuildingSkipReason`).
    public var skipped: [String: Int] = [:]
    /// Height tags that were there but not understood, and were treated as missing
    /// (`BuildingHeights`).
    public var unreadableHeightTags = 0

    public init() {}

    mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }
}

/// Reasons a building is not kept.
enum BuildingSkipReason {
    /// Some of its nodes, or member ways, are not in the file: an extract's edge cut it. Kept
    /// out rather than closed along the cut, which would make up a shape.
    static let cut = "cut by the extract's edge"
    /// A way whose ends do not meet, or member ways that do not join into closed rings.
    static let notClosed = "ring not closed"
    /// A ring of fewer than three distinct vertices.
    static let degenerate = "fewer than 3 vertices"
    /// A multipolygon with no member way of role `outer` (or no role).
    static let noOuter = "no outer ring"
    static let duplicateID = "duplicate id"
}

/// Collects building footprints from OSM elements, beside `OSMElementCollector`'s POIs (which
/// owns one, so every OSM reader — PBF, XML, Overpass JSON — goes through here):
///
/// - a way tagged `building=*` (any value but `no`) that is closed (first node = last node)
///   is a `Building` `osm:way/<id>` with one outer ring;
/// - a relation tagged `type=multipolygon` and `building=*` is a `Building`
///   `osm:relation/<id>`: its member ways of role `outer` (or no role) joined end to end into
///   the outer rings, those of role `inner` into the inner rings (courtyards). Member ways
///   are joined where their end vertices coincide (shared nodes have the same position), so
///   Overpass `out geom` members (vertices inline, no node ids) join the same way.
///
/// A building with a node or member way missing from the file (cut at an extract's edge), a
/// ring that does not close or has fewer than three vertices is skipped and counted
/// (`BuildingSkipReason`), never reshaped. A way that is both a building and a POI (a cafe
/// mapped as a building) is both. Heights come from the tags (`BuildingHeights`).
struct OSMBuildingCollector {
    private struct PendingWay { var id: Int64, refs: [Int64], tags: [String: String], geometry: [GeoCoordinate]? }
    private struct PendingRelation { var id: Int64, members: [OSMElementCollector.Member], tags: [String: String] }

    private var ways: [PendingWay] = []
    private var relations: [PendingRelation] = []
    private var seenRelations = Set<Int64>()
    /// Vertices of ways given inline (Overpass `out geom`, PBF LocationsOnWays), for member
    /// ways whose nodes are not in the file.
    private var inlineGeometry: [Int64: [GeoCoordinate]] = [:]
    private var result = ParsedBuildings()

    /// `building=*` with any value but `no`.
    static func isBuilding(_ tags: [String: String]) -> Bool {
        guard let value = tags["building"] else { return false }
        return value != "no"
    }

    /// Records a way (called once per way id: the element collector drops repeats).
    mutating func addWay(id: Int64, nodeRefs: [Int64], tags: [String: String], geometry: [GeoCoordinate]?) {
        if let geometry { inlineGeometry[id] = geometry }
        if Self.isBuilding(tags) { ways.append(PendingWay(id: id, refs: nodeRefs, tags: tags, geometry: geometry)) }
    }

    /// Records a relation; only building multipolygons are kept.
    mutating func addRelation(id: Int64, members: [OSMElementCollector.Member], tags: [String: String]) {
        guard tags["type"] == "multipolygon", Self.isBuilding(tags) else { return }
        guard seenRelations.insert(id).inserted else { return result.skip(BuildingSkipReason.duplicateID) }
        relations.append(PendingRelation(id: id, members: members, tags: tags))
    }

    /// The buildings, once every node and way is known.
    mutating func finish(nodes: NodeLocations, wayRefs: [Int64: [Int64]]) -> ParsedBuildings {
        for way in ways {
            guard let vertices = Self.vertices(refs: way.refs, inline: way.geometry, nodes: nodes) else {
                result.skip(BuildingSkipReason.cut)
                continue
            }
            let closed = way.refs.count >= 4 ? way.refs.first == way.refs.last
                : vertices.count >= 4 && vertices.first == vertices.last
            guard closed else {
                result.skip(BuildingSkipReason.notClosed)
                continue
            }
            add(id: "osm:way/\(way.id)", outer: [vertices], inner: [], tags: way.tags)
        }
        for relation in relations {
            var outer: [[GeoCoordinate]] = [], inner: [[GeoCoordinate]] = []
            var missing = false
            for member in relation.members where member.type == "way" {
                let isInner = member.role == "inner"
                guard isInner || member.role == "outer" || member.role.isEmpty else { continue }
                let vertices = member.geometry.flatMap { Self.complete($0) }
                    ?? wayRefs[member.ref].flatMap { Self.vertices(refs: $0, inline: inlineGeometry[member.ref], nodes: nodes) }
                guard let vertices, !vertices.isEmpty else {
                    missing = true
                    break
                }
                if isInner { inner.append(vertices) } else { outer.append(vertices) }
            }
            if missing {
                result.skip(BuildingSkipReason.cut)
                continue
            }
            guard !outer.isEmpty else {
                result.skip(BuildingSkipReason.noOuter)
                continue
            }
            let outerRings = OSMElementCollector.joinRings(outer), innerRings = OSMElementCollector.joinRings(inner)
            guard outerRings.leftover.isEmpty, innerRings.leftover.isEmpty else {
                result.skip(BuildingSkipReason.notClosed)
                continue
            }
            add(id: "osm:relation/\(relation.id)", outer: outerRings.rings, inner: innerRings.rings, tags: relation.tags)
        }
        return result
    }

    /// Stores a building whose rings are closed (first vertex repeated at the end).
    private mutating func add(id: String, outer: [[GeoCoordinate]], inner: [[GeoCoordinate]], tags: [String: String]) {
        let outer = outer.map { Array($0.dropLast()) }, inner = inner.map { Array($0.dropLast()) }
        guard (outer + inner).allSatisfy({ Set($0).count >= 3 }) else { return result.skip(BuildingSkipReason.degenerate) }
        let heights = BuildingHeights.of(tags)
        result.unreadableHeightTags += heights.unreadableTags
        result.buildings.append(Building(id: id, outer: outer, inner: inner, minHeight: heights.minHeight,
                                         height: heights.height, heightSource: heights.source))
    }

    /// A way's vertices: its nodes' positions, or its inline ones; nil when any is missing.
    private static func vertices(refs: [Int64], inline: [GeoCoordinate]?, nodes: NodeLocations) -> [GeoCoordinate]? {
        if let inline, inline.count == refs.count || refs.isEmpty { return inline }
        var vertices: [GeoCoordinate] = []
        vertices.reserveCapacity(refs.count)
        for ref in refs {
            guard let c = nodes[ref] else { return nil }
            vertices.append(c)
        }
        return vertices
    }

    /// Inline member vertices, nil when one is missing (Overpass writes null for a vertex it
    /// left out).
    private static func complete(_ vertices: [GeoCoordinate?]) -> [GeoCoordinate]? {
        let present = vertices.compactMap { $0 }
        return present.count == vertices.count ? present : nil
    }
}
