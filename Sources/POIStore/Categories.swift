/// poiar's POI categories and how OpenStreetMap-style tags map onto them.
///
/// The mapping is one table, `POICategory.rules`, read top to bottom: the first rule whose
/// tag matches decides the category. The rules are grouped by key in this order of
/// precedence — `amenity` first, then `shop`, `tourism`, `leisure` — so a node tagged both
/// `amenity=cafe` and `shop=coffee` is a `cafe`, and a museum shop (`tourism=museum`,
/// `shop=gift`) is a `store`. docs/categories.md shows the same table for users; keep the two
/// in step.
public enum POICategory {
    /// One row of the mapping: tag `key` = `value` (`nil`: any value but those in
    /// `nonValues`) → `category`.
    public struct Rule: Equatable, Sendable {
        public var key: String
        public var value: String?
        public var category: String
    }

    /// The mapping, in order of precedence (see the type's documentation).
    public static let rules: [Rule] = [
        Rule(key: "amenity", value: "atm", category: "atm"),
        Rule(key: "amenity", value: "bank", category: "bank"),
        Rule(key: "amenity", value: "bar", category: "bar"),
        Rule(key: "amenity", value: "cafe", category: "cafe"),
        Rule(key: "amenity", value: "cinema", category: "cinema"),
        Rule(key: "amenity", value: "college", category: "university"),
        Rule(key: "amenity", value: "fast_food", category: "fast_food"),
        Rule(key: "amenity", value: "library", category: "library"),
        Rule(key: "amenity", value: "parking", category: "parking"),
        Rule(key: "amenity", value: "pharmacy", category: "pharmacy"),
        Rule(key: "amenity", value: "pub", category: "pub"),
        Rule(key: "amenity", value: "restaurant", category: "restaurant"),
        Rule(key: "amenity", value: "school", category: "school"),
        Rule(key: "amenity", value: "theatre", category: "theatre"),
        Rule(key: "amenity", value: "university", category: "university"),
        // Any shop, except the values marking the absence of one (`nonValues`).
        Rule(key: "shop", value: nil, category: "store"),
        Rule(key: "tourism", value: "attraction", category: "attraction"),
        Rule(key: "tourism", value: "hotel", category: "hotel"),
        Rule(key: "tourism", value: "museum", category: "museum"),
        Rule(key: "leisure", value: "park", category: "park"),
    ]

    /// Values of a wildcard key that do not count as a match (`shop=no`, `shop=vacant`, …).
    static let nonValues: Set<String> = ["no", "vacant", "none"]

    /// Every category name, sorted.
    public static let known: [String] = Array(Set(rules.map(\.category))).sorted()

    static let knownSet = Set(known)

    /// Whether `name` (already lower-case) is one of `known`.
    public static func isKnown(_ name: String) -> Bool { knownSet.contains(name) }

    /// The category of an element with these OSM-style tags, or nil when none applies.
    public static func category(forTags tags: [String: String]) -> String? {
        for rule in rules {
            guard let raw = tags[rule.key] else { continue }
            let value = raw.trimmingWhitespace().lowercased()
            if let wanted = rule.value {
                if value == wanted { return rule.category }
            } else if !value.isEmpty, !nonValues.contains(value) {
                return rule.category
            }
        }
        return nil
    }

    /// Parses a `--filter` value: comma-separated category names, trimmed and lower-cased,
    /// duplicates dropped (first occurrence kept).
    /// - Throws: `POICategoryError` for an empty filter, an empty item or an unknown name;
    ///   the message of an unknown name lists every known category.
    public static func parseFilter(_ s: String) throws(POICategoryError) -> [String] {
        let items = s.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingWhitespace().lowercased() }
        if items.allSatisfy(\.isEmpty) { throw .emptyFilter }
        var result: [String] = []
        for item in items {
            if item.isEmpty { throw .emptyItem(filter: s) }
            guard isKnown(item) else { throw .unknown(item) }
            if !result.contains(item) { result.append(item) }
        }
        return result
    }
}

/// A bad category filter (`--filter`).
public enum POICategoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The filter names no category at all.
    case emptyFilter
    /// The filter has an empty item, as in `cafe,,bar`.
    case emptyItem(filter: String)
    /// The filter names a category poiar does not know.
    case unknown(String)

    public var description: String {
        let known = "(known: \(POICategory.known.joined(separator: ", ")))"
        switch self {
        case .emptyFilter:
            return "empty category filter: expected one or more comma-separated categories \(known)"
        case .emptyItem(let filter):
            return "empty category in filter \"\(filter)\" \(known)"
        case .unknown(let name):
            return "unknown category \"\(name)\" \(known)"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
