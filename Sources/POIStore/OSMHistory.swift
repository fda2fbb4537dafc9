import POIARCore

/// One OSM element as a reader (OSM XML, OSM PBF) hands it on.
enum OSMElement {
    case node(id: Int64, coordinate: GeoCoordinate?, tags: [String: String])
    case way(id: Int64, refs: [Int64], tags: [String: String], geometry: [GeoCoordinate]?, center: GeoCoordinate?)
    case relation(id: Int64, members: [OSMElementCollector.Member], tags: [String: String], center: GeoCoordinate?)

    /// 0 node, 1 way, 2 relation, and the id: which object this is a version of.
    var key: (kind: Int, id: Int64) {
        switch self {
        case .node(let id, _, _): (0, id)
        case .way(let id, _, _, _, _): (1, id)
        case .relation(let id, _, _, _): (2, id)
        }
    }

    var hasTags: Bool {
        switch self {
        case .node(_, _, let tags), .way(_, _, let tags, _, _), .relation(_, _, let tags, _): !tags.isEmpty
        }
    }
}

/// Reads an OSM history file (`.osh`, `.osh.pbf`, history in XML, as osmium and the planet
/// history dumps write them) as the snapshot of its latest state: a history file lists every
/// version of each object, one after the other in version order, with `visible="false"` on
/// a version that deleted the object. Of consecutive versions of one object (the same id,
/// rising `version`s) only the last reaches the collector, and none when that version is a
/// deletion (counted as "deleted" when the object had tags, so was perhaps a POI). A plain
/// extract has one version per object and passes through unchanged; so does a JOSM file's
/// `action="delete"` element, as a deletion; an id repeated without a rising version is two
/// elements (the collector keeps the first, "duplicate id").
struct OSMLatestVersion {
    private var pending: (element: OSMElement, version: Int64?, visible: Bool, hadTags: Bool)?

    /// Hands on the element before this one unless this is a later version of it.
    mutating func add(_ element: OSMElement, version: Int64?, visible: Bool, to collector: inout OSMElementCollector) {
        if let p = pending, p.element.key == element.key, let old = p.version, let version, version > old {
            pending = (element, version, visible, p.hadTags || element.hasTags)
            return
        }
        flush(to: &collector)
        pending = (element, version, visible, element.hasTags)
    }

    /// Hands on the last element; call at the end of the file.
    mutating func flush(to collector: inout OSMElementCollector) {
        guard let p = pending else { return }
        pending = nil
        guard p.visible else {
            if p.hadTags { collector.skip(SkipReason.deleted) }
            return
        }
        switch p.element {
        case let .node(id, coordinate, tags):
            // A visible node always has a position (the readers check it).
            if let coordinate { collector.addNode(id: id, coordinate: coordinate, tags: tags) }
        case let .way(id, refs, tags, geometry, center):
            collector.addWay(id: id, nodeRefs: refs, tags: tags, geometry: geometry, center: center)
        case let .relation(id, members, tags, center):
            collector.addRelation(id: id, members: members, tags: tags, center: center)
        }
    }
}

/// What the OSM file readers hand their elements to: the collector, behind the latest-version
/// filter.
struct OSMElementSink {
    var collector: OSMElementCollector
    var history = OSMLatestVersion()

    init(baseMap: Bool) { collector = OSMElementCollector(baseMap: baseMap) }

    /// - Parameter version: the element's `version`, when the file gives it.
    mutating func add(_ element: OSMElement, version: Int64? = nil, visible: Bool = true) {
        history.add(element, version: version, visible: visible, to: &collector)
    }

    mutating func skip(_ reason: String) { collector.skip(reason) }

    mutating func finish() -> ParsedPOIs {
        history.flush(to: &collector)
        return collector.finish()
    }
}
