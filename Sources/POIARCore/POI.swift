import Foundation

/// A point of interest as poiar stores and shows it.
public struct POI: Equatable, Hashable, Sendable {
    /// Stable id `<source>:<native id>`: `osm:node/123`, `osm:way/456`, `geojson:<id>`, …
    public var id: String
    public var name: String
    /// The poiar category (lower-case word: `cafe`, `restaurant`, …): the primary one.
    public var category: String
    /// Every category of the POI, the primary one (`category`) first; a cafe that is also a
    /// bakery shop is `["cafe", "store"]`.
    public var categories: [String]
    public var coordinate: GeoCoordinate
    public var address: String?
    public var phone: String?
    public var website: String?
    public var openingHours: String?
    /// The source's raw tags (OSM tags, GeoJSON properties as strings), when it has them.
    public var tags: [String: String]

    public init(id: String, name: String, category: String, coordinate: GeoCoordinate,
                address: String? = nil, phone: String? = nil, website: String? = nil,
                openingHours: String? = nil, tags: [String: String] = [:], categories: [String]? = nil) {
        self.id = id; self.name = name; self.category = category; self.coordinate = coordinate
        var all = [category]
        for c in categories ?? [] where !all.contains(c) { all.append(c) }
        self.categories = all
        self.address = address; self.phone = phone; self.website = website
        self.openingHours = openingHours; self.tags = tags
    }
}

extension POI {
    /// What a label shows: the name, or the category for an unnamed POI.
    public var labelText: String { POI.labelText(name: name, category: category) }

    /// The name, or for an unnamed POI its category's display name ("Café", not "cafe").
    public static func labelText(name: String, category: String) -> String { name.isEmpty ? displayName(ofCategory: category) : name }

    /// A category as people read it: "Café", "ATM", "Place of worship", "Bus station"; any
    /// other category word with its underscores as spaces and a capital first letter.
    public static func displayName(ofCategory category: String) -> String {
        switch category {
        case "", "poi": return "Place"
        case "cafe": return "Café"
        case "atm": return "ATM"
        case "townhall": return "Town hall"
        case "doctors": return "Doctor"
        case "sports": return "Sports centre"
        default:
            let words = category.replacingOccurrences(of: "_", with: " ")
            return words.prefix(1).uppercased() + words.dropFirst()
        }
    }
}

/// A POI found by a query, with its geodesic distance and initial bearing from the query point.
public struct POIHit: Equatable, Sendable {
    public var poi: POI
    /// Geodesic distance on the WGS84 ellipsoid, metres.
    public var distance: Double
    /// Initial geodesic azimuth from the query point, degrees clockwise from true north, 0..<360.
    public var bearing: Double
    public init(poi: POI, distance: Double, bearing: Double) {
        self.poi = poi; self.distance = distance; self.bearing = bearing
    }
}
