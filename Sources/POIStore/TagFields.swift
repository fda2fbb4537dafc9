import POIARCore

/// What an importer read from one source file, before anything is stored.
public struct ParsedPOIs: Equatable, Sendable {
    /// The POIs, in file order (nodes before ways before relations for OSM data).
    public var pois: [POI] = []
    /// Elements not imported, counted per reason (e.g. `"no known category": 412`).
    public var skipped: [String: Int] = [:]
    /// True when the reader already made every id unique (then nobody checks again).
    var idsAreUnique = false
    /// The ways a map draws, when the reader was asked for them (OSM sources only).
    public var baseMap: [MapFeature] = []
    /// Building footprints (OSM sources only; empty for the others).
    public var buildings = ParsedBuildings()

    public init(pois: [POI] = [], skipped: [String: Int] = [:]) {
        self.pois = pois; self.skipped = skipped
    }

    mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }
}

/// Reasons importers give for skipping an element.
enum SkipReason {
    static let noCategory = "no known category"
    static let noGeometry = "no geometry"
    static func unsupportedGeometry(_ type: String) -> String { "unsupported geometry \(type)" }
    static let deleted = "deleted"
    static let duplicateID = "duplicate id"
    static let unknownCategory = "unknown category"
}

/// The POI fields poiar reads from OSM-style tags (OSM elements, GeoJSON properties).
enum TagFields {
    /// `name`, or "" for an unnamed POI (still imported).
    static func name(_ tags: [String: String]) -> String { tags["name"] ?? "" }

    /// "street housenumber, postcode city" from `addr:*`, leaving out what is missing;
    /// `addr:full` when there are no parts; nil when there is nothing.
    static func address(_ tags: [String: String]) -> String? {
        func join(_ keys: [String]) -> String {
            keys.compactMap { tags[$0]?.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let parts = [join(["addr:street", "addr:housenumber"]), join(["addr:postcode", "addr:city"])]
            .filter { !$0.isEmpty }
        if !parts.isEmpty { return parts.joined(separator: ", ") }
        return nonEmpty(tags["addr:full"])
    }

    static func phone(_ tags: [String: String]) -> String? {
        nonEmpty(tags["phone"]) ?? nonEmpty(tags["contact:phone"])
    }

    static func website(_ tags: [String: String]) -> String? {
        nonEmpty(tags["website"]) ?? nonEmpty(tags["contact:website"])
    }

    static func openingHours(_ tags: [String: String]) -> String? { nonEmpty(tags["opening_hours"]) }

    /// The altitude from `ele` (metres above sea level, "12", "12.5" or "12 m"), nil when
    /// absent or not a finite number. OSM heights are above the geoid; poiar takes them as
    /// they are (the geoid–ellipsoid separation, tens of metres at most, is not applied).
    static func altitude(_ tags: [String: String]) -> Double? {
        guard var text = nonEmpty(tags["ele"]) else { return nil }
        if text.hasSuffix("m") { text = String(text.dropLast()).trimmingWhitespace() }
        guard let value = Double(text), value.isFinite, abs(value) < 20_000 else { return nil }
        return value
    }

    /// A POI with every field taken from `tags` (the altitude from `ele` unless `coordinate`
    /// has one); `categories` is not empty, the primary first.
    static func poi(id: String, categories: [String], coordinate: GeoCoordinate, tags: [String: String]) -> POI {
        var position = coordinate
        if position.altitude == nil { position.altitude = altitude(tags) }
        return POI(id: id, name: name(tags), category: categories[0], coordinate: position,
                   address: address(tags), phone: phone(tags), website: website(tags),
                   openingHours: openingHours(tags), tags: tags, categories: categories)
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let t = s?.trimmingWhitespace(), !t.isEmpty else { return nil }
        return t
    }
}
