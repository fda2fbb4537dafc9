import POIARCore

/// poiar's POI categories and how OpenStreetMap tags and Google Places types map onto them.
///
/// The OSM mapping is one table, `POICategory.rules`, read top to bottom: **every** rule whose
/// tag matches adds its category (once), and the first match is the POI's primary category
/// (`POI.category`, the one the manifest shows). The rules are grouped by key in this order of
/// precedence — `amenity` first, then `shop`, `tourism`, `leisure`, `natural`, then secondary tags such as
/// `atm=yes` — so a node tagged `amenity=cafe` + `shop=bakery` is a `cafe` that is also a
/// `store`, and a museum shop (`tourism=museum`, `shop=gift`) is a `store` and a `museum`.
/// Google Places types map through `googleRules` (see `categories(forGoogleTypes:)`).
/// docs/categories.md shows both tables for users; keep them in step (a test checks).
public enum POICategory {
    /// One row of the OSM mapping: tag `key` = `value` (`nil`: any value but those in
    /// `nonValues`) → `category`.
    public struct Rule: Equatable, Sendable {
        public var key: String
        public var value: String?
        public var category: String
    }

    /// One row of the Google Places mapping: place type `type` → `category`.
    public struct GoogleRule: Equatable, Sendable {
        public var type: String
        public var category: String
    }

    /// The OSM mapping, in order of precedence (see the type's documentation).
    public static let rules: [Rule] = [
        Rule(key: "amenity", value: "atm", category: "atm"),
        Rule(key: "amenity", value: "bank", category: "bank"),
        Rule(key: "amenity", value: "bar", category: "bar"),
        Rule(key: "amenity", value: "biergarten", category: "bar"),
        Rule(key: "amenity", value: "bicycle_rental", category: "bicycle_rental"),
        Rule(key: "amenity", value: "bus_station", category: "bus_station"),
        Rule(key: "amenity", value: "cafe", category: "cafe"),
        Rule(key: "amenity", value: "charging_station", category: "charging_station"),
        Rule(key: "amenity", value: "cinema", category: "cinema"),
        Rule(key: "amenity", value: "clinic", category: "doctors"),
        Rule(key: "amenity", value: "college", category: "university"),
        Rule(key: "amenity", value: "dentist", category: "doctors"),
        Rule(key: "amenity", value: "doctors", category: "doctors"),
        Rule(key: "amenity", value: "fast_food", category: "fast_food"),
        Rule(key: "amenity", value: "food_court", category: "restaurant"),
        Rule(key: "amenity", value: "fuel", category: "fuel"),
        Rule(key: "amenity", value: "hospital", category: "hospital"),
        Rule(key: "amenity", value: "ice_cream", category: "ice_cream"),
        Rule(key: "amenity", value: "kindergarten", category: "kindergarten"),
        Rule(key: "amenity", value: "library", category: "library"),
        Rule(key: "amenity", value: "nightclub", category: "nightclub"),
        Rule(key: "amenity", value: "parking", category: "parking"),
        Rule(key: "amenity", value: "pharmacy", category: "pharmacy"),
        Rule(key: "amenity", value: "place_of_worship", category: "place_of_worship"),
        Rule(key: "amenity", value: "police", category: "police"),
        Rule(key: "amenity", value: "post_office", category: "post_office"),
        Rule(key: "amenity", value: "pub", category: "pub"),
        Rule(key: "amenity", value: "restaurant", category: "restaurant"),
        Rule(key: "amenity", value: "school", category: "school"),
        Rule(key: "amenity", value: "theatre", category: "theatre"),
        Rule(key: "amenity", value: "toilets", category: "toilets"),
        Rule(key: "amenity", value: "townhall", category: "townhall"),
        Rule(key: "amenity", value: "university", category: "university"),
        // Any shop, except the values marking the absence of one (`nonValues`); listed before
        // the specific shop rules so that every shop's primary category is `store`.
        Rule(key: "shop", value: nil, category: "store"),
        Rule(key: "shop", value: "ice_cream", category: "ice_cream"),
        Rule(key: "shop", value: "supermarket", category: "supermarket"),
        Rule(key: "tourism", value: "aquarium", category: "zoo"),
        Rule(key: "tourism", value: "attraction", category: "attraction"),
        Rule(key: "tourism", value: "gallery", category: "museum"),
        Rule(key: "tourism", value: "guest_house", category: "hotel"),
        Rule(key: "tourism", value: "hostel", category: "hotel"),
        Rule(key: "tourism", value: "hotel", category: "hotel"),
        Rule(key: "tourism", value: "motel", category: "hotel"),
        Rule(key: "tourism", value: "museum", category: "museum"),
        Rule(key: "tourism", value: "theme_park", category: "attraction"),
        Rule(key: "tourism", value: "viewpoint", category: "viewpoint"),
        Rule(key: "tourism", value: "zoo", category: "zoo"),
        Rule(key: "leisure", value: "fitness_centre", category: "sports"),
        Rule(key: "leisure", value: "park", category: "park"),
        Rule(key: "leisure", value: "playground", category: "playground"),
        Rule(key: "leisure", value: "sports_centre", category: "sports"),
        Rule(key: "leisure", value: "stadium", category: "sports"),
        // Summits: their `ele` (above sea level) puts the label on the peak (docs/altitude.md).
        Rule(key: "natural", value: "peak", category: "peak"),
        Rule(key: "natural", value: "volcano", category: "peak"),
        // Secondary tags: never a POI's primary category unless nothing above matches.
        Rule(key: "atm", value: "yes", category: "atm"),
    ]

    /// The Google Places mapping (Nearby Search `types`), grouped by category. The first row of
    /// a category is the type `poiar pois fetch --source google-places` asks for.
    public static let googleRules: [GoogleRule] = [
        GoogleRule(type: "atm", category: "atm"),
        GoogleRule(type: "tourist_attraction", category: "attraction"),
        GoogleRule(type: "amusement_park", category: "attraction"),
        GoogleRule(type: "bank", category: "bank"),
        GoogleRule(type: "bar", category: "bar"),
        GoogleRule(type: "bus_station", category: "bus_station"),
        GoogleRule(type: "cafe", category: "cafe"),
        GoogleRule(type: "electric_vehicle_charging_station", category: "charging_station"),
        GoogleRule(type: "movie_theater", category: "cinema"),
        GoogleRule(type: "doctor", category: "doctors"),
        GoogleRule(type: "dentist", category: "doctors"),
        GoogleRule(type: "meal_takeaway", category: "fast_food"),
        GoogleRule(type: "gas_station", category: "fuel"),
        GoogleRule(type: "hospital", category: "hospital"),
        GoogleRule(type: "lodging", category: "hotel"),
        GoogleRule(type: "library", category: "library"),
        GoogleRule(type: "museum", category: "museum"),
        GoogleRule(type: "art_gallery", category: "museum"),
        GoogleRule(type: "night_club", category: "nightclub"),
        GoogleRule(type: "park", category: "park"),
        GoogleRule(type: "parking", category: "parking"),
        GoogleRule(type: "pharmacy", category: "pharmacy"),
        GoogleRule(type: "drugstore", category: "pharmacy"),
        GoogleRule(type: "place_of_worship", category: "place_of_worship"),
        GoogleRule(type: "church", category: "place_of_worship"),
        GoogleRule(type: "hindu_temple", category: "place_of_worship"),
        GoogleRule(type: "mosque", category: "place_of_worship"),
        GoogleRule(type: "synagogue", category: "place_of_worship"),
        GoogleRule(type: "police", category: "police"),
        GoogleRule(type: "post_office", category: "post_office"),
        GoogleRule(type: "restaurant", category: "restaurant"),
        GoogleRule(type: "school", category: "school"),
        GoogleRule(type: "primary_school", category: "school"),
        GoogleRule(type: "secondary_school", category: "school"),
        GoogleRule(type: "gym", category: "sports"),
        GoogleRule(type: "stadium", category: "sports"),
        GoogleRule(type: "store", category: "store"),
        GoogleRule(type: "bakery", category: "store"),
        GoogleRule(type: "bicycle_store", category: "store"),
        GoogleRule(type: "book_store", category: "store"),
        GoogleRule(type: "clothing_store", category: "store"),
        GoogleRule(type: "convenience_store", category: "store"),
        GoogleRule(type: "department_store", category: "store"),
        GoogleRule(type: "electronics_store", category: "store"),
        GoogleRule(type: "florist", category: "store"),
        GoogleRule(type: "furniture_store", category: "store"),
        GoogleRule(type: "hardware_store", category: "store"),
        GoogleRule(type: "home_goods_store", category: "store"),
        GoogleRule(type: "jewelry_store", category: "store"),
        GoogleRule(type: "liquor_store", category: "store"),
        GoogleRule(type: "pet_store", category: "store"),
        GoogleRule(type: "shoe_store", category: "store"),
        GoogleRule(type: "shopping_mall", category: "store"),
        GoogleRule(type: "supermarket", category: "supermarket"),
        GoogleRule(type: "university", category: "university"),
        GoogleRule(type: "zoo", category: "zoo"),
        GoogleRule(type: "aquarium", category: "zoo"),
    ]

    /// Values of a wildcard key that do not count as a match (`shop=no`, `shop=vacant`, …).
    static let nonValues: Set<String> = ["no", "vacant", "none"]

    /// Every category name, sorted.
    public static let known: [String] = Array(Set(rules.map(\.category) + googleRules.map(\.category))).sorted()

    static let knownSet = Set(known)

    private static let googleTable: [String: String] = Dictionary(
        googleRules.map { ($0.type, $0.category) }, uniquingKeysWith: { first, _ in first })

    /// Whether `name` (already lower-case) is one of `known`.
    public static func isKnown(_ name: String) -> Bool { knownSet.contains(name) }

    /// The primary category of an element with these OSM-style tags, or nil when none applies.
    public static func category(forTags tags: [String: String]) -> String? {
        categories(forTags: tags).first
    }

    /// Every category of an element with these OSM-style tags, in rule order (the primary
    /// first), each once; empty when none applies.
    public static func categories(forTags tags: [String: String]) -> [String] {
        // Only the rules of the keys the element has are tried (a handful of lookups, not one
        // per rule), then the matches are put back in rule order.
        var matched: [Int] = []
        for (key, indices) in ruleIndicesByKey {
            guard let raw = tags[key] else { continue }
            let value = raw.trimmingWhitespace().lowercased()
            for i in indices {
                let matches = rules[i].value.map { value == $0 } ?? (!value.isEmpty && !nonValues.contains(value))
                if matches { matched.append(i) }
            }
        }
        var result: [String] = []
        for i in matched.sorted() where !result.contains(rules[i].category) { result.append(rules[i].category) }
        return result
    }

    /// The indices in `rules` of each key's rules.
    private static let ruleIndicesByKey: [(key: String, indices: [Int])] = {
        var keys: [String] = []
        var indices: [String: [Int]] = [:]
        for (i, rule) in rules.enumerated() {
            if indices[rule.key] == nil { keys.append(rule.key) }
            indices[rule.key, default: []].append(i)
        }
        return keys.map { ($0, indices[$0]!) }
    }()

    /// The categories of a Google place with these `types`, in the order of `types` (Google
    /// lists the most specific first), each once; empty when none maps.
    public static func categories(forGoogleTypes types: [String]) -> [String] {
        var result: [String] = []
        for type in types {
            if let c = googleTable[type.lowercased()], !result.contains(c) { result.append(c) }
        }
        return result
    }

    /// The OSM rules that give `category` (the reverse of the table, for Overpass queries).
    public static func osmRules(for category: String) -> [Rule] {
        rules.filter { $0.category == category }
    }

    /// The Google place type to ask for to find `category`, or nil when there is none.
    public static func googleType(for category: String) -> String? {
        googleRules.first { $0.category == category }?.type
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
            // A slip ("cafes") gets the word meant; the whole list only when nothing is near.
            if let meant = NearMiss.suggestion(for: name, among: POICategory.known) {
                return "unknown category \"\(name)\": did you mean \"\(meant)\"? (all \(POICategory.known.count): poiar pois categories)"
            }
            return "unknown category \"\(name)\" \(known)"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        // Fast path: printable ASCII at both ends (almost every value) needs no trimming.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return self
        }
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
