import Geodesy
import POIARCore

/// What an importer read from one source file, before anything is stored.
public struct ParsedPOIs: Equatable, Sendable {
    /// The POIs, in file order (nodes before ways before relations for OSM data).
    public var pois: [POI] = []
    /// Elements not imported, counted per reason (e.g. `"no known category": 412`).
    public var skipped: [String: Int] = [:]
    /// Elements imported with a caveat, counted per caveat (`NoticeReason`).
    public var notices: [String: Int] = [:]
    /// Category names a source gave that poiar does not know, counted.
    public var unknownCategories: [String: Int] = [:]
    /// True when the reader already made every id unique (then nobody checks again).
    var idsAreUnique = false
    /// The ways a map draws, when the reader was asked for them (OSM sources only).
    public var baseMap: [MapFeature] = []
    /// `ele` heights used as ellipsoidal altitudes for want of a geoid grid.
    public var unconvertedHeights = 0
    /// Building footprints (OSM sources only; empty for the others).
    public var buildings = ParsedBuildings()

    public init(pois: [POI] = [], skipped: [String: Int] = [:]) {
        self.pois = pois; self.skipped = skipped
    }

    mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

    /// Gives each POI without an altitude but with an `ele` tag (OSM's height above sea level,
    /// or a CSV `ele` column) its ellipsoidal altitude, `ele` + N from `geoid` — the one place
    /// where a POI's height above sea level becomes the height above the WGS84 ellipsoid that
    /// `GeoCoordinate.altitude` is (docs/altitude.md). Without a grid, `ele` is taken as
    /// ellipsoidal and `geoid.takeNotice()` says so. An altitude the source gave as
    /// ellipsoidal (a GeoJSON point's third coordinate, a CSV `alt`) is kept.
    /// - Returns: how many `ele` heights were left as they are (no grid, or outside it).
    @discardableResult
    mutating func placeSeaLevelHeights(geoid: Geoid) -> Int {
        let before = geoid.unconvertedHeights
        for i in pois.indices where pois[i].coordinate.altitude == nil {
            guard let ele = TagFields.seaLevelHeight(pois[i].tags) else { continue }
            let c = pois[i].coordinate
            pois[i].coordinate.altitude = geoid.ellipsoidalHeight(aboveSeaLevel: ele, latitude: c.latitude, longitude: c.longitude)
        }
        unconvertedHeights = geoid.unconvertedHeights - before
        return unconvertedHeights
    }
    mutating func note(_ reason: String) { notices[reason, default: 0] += 1 }
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

/// Caveats importers count for elements they did import.
enum NoticeReason {
    static let cutWay = "ways cut at the extract's edge, placed from the nodes present"
    static let longText = "names or other texts over \(ParsedPOIs.maxTextLength) characters, cut with an ellipsis"
}

extension ParsedPOIs {
    /// The longest name, address, tag or other text a POI keeps, in characters: more than a
    /// card shows on the widest frame (a name wider than 40 % of the image is ellipsised), so
    /// a source with a 10 MB name neither slows every frame nor fills every manifest line.
    public static let maxTextLength = 1000

    /// Cuts each POI's texts to `maxTextLength` characters of at most 4 Unicode scalars each
    /// on average (ending in "…"), counted: a character of a million combining accents is cut too.
    mutating func cutLongTexts() {
        func cut(_ text: inout String) -> Bool {
            guard text.utf8.count > Self.maxTextLength else { return false }
            let head = boundedPrefix(text, characters: Self.maxTextLength, scalars: 4 * Self.maxTextLength)
            guard !head.isWhole else { return false }
            text = boundedPrefix(text, characters: Self.maxTextLength - 1, scalars: 4 * Self.maxTextLength - 1).text + "…"
            return true
        }
        func cut(_ text: inout String?) -> Bool {
            guard var value = text, cut(&value) else { return false }
            text = value
            return true
        }
        for i in pois.indices {
            var poi = pois[i]
            var changed = cut(&poi.name)
            changed = cut(&poi.address) || changed
            changed = cut(&poi.phone) || changed
            changed = cut(&poi.website) || changed
            changed = cut(&poi.openingHours) || changed
            for (key, value) in poi.tags {
                var text = value
                if cut(&text) { poi.tags[key] = text; changed = true }
            }
            if changed { pois[i] = poi; note(NoticeReason.longText) }
        }
    }
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

    /// The height above sea level from `ele` ("12", "12.5" or "12 m"), nil when absent or not
    /// a finite number. OSM's `ele` is metres above mean sea level as EGM96 defines it
    /// (wiki.openstreetmap.org/wiki/Key:ele; for a building, the ground's, its `height` being
    /// above that ground): `ParsedPOIs.placeSeaLevelHeights` turns it into the POI's
    /// ellipsoidal altitude.
    static func seaLevelHeight(_ tags: [String: String]) -> Double? {
        guard var text = nonEmpty(tags["ele"]) else { return nil }
        if text.hasSuffix("m") { text = String(text.dropLast()).trimmingWhitespace() }
        guard let value = Double(text), value.isFinite, abs(value) < 20_000 else { return nil }
        return value
    }

    /// A POI with every field taken from `tags`; `categories` is not empty, the primary first.
    /// Its altitude is `coordinate`'s (ellipsoidal, e.g. a GeoJSON point's third coordinate);
    /// an `ele` tag becomes one later, through the geoid (`ParsedPOIs.placeSeaLevelHeights`).
    static func poi(id: String, categories: [String], coordinate: GeoCoordinate, tags: [String: String]) -> POI {
        POI(id: id, name: name(tags), category: categories[0], coordinate: coordinate,
            address: address(tags), phone: phone(tags), website: website(tags),
            openingHours: openingHours(tags), tags: tags, categories: categories)
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let t = s?.trimmingWhitespace(), !t.isEmpty else { return nil }
        return t
    }
}
