import Foundation
import POIARCore

/// One way of an OSM extract as a map draws it: a street, a building, a green or water area.
public struct MapFeature: Equatable, Sendable {
    public enum Kind: Equatable, Sendable, Hashable {
        /// `highway=*` roads by importance: 0 motorway … trunk/primary, 1 secondary/tertiary,
        /// 2 residential and other streets, 3 footways, paths, cycleways, steps.
        case street(rank: Int)
        case railway
        /// `building=*` (closed ways).
        case building
        /// Parks, gardens, grass, forests, woods (`leisure=park|garden`, `landuse=grass|forest|…`, `natural=wood|scrub`).
        case green
        /// `natural=water`, `waterway=riverbank`, `landuse=reservoir|basin`.
        case water
        /// Squares and pedestrian areas (`place=square`, `area:highway` or `highway=pedestrian` with `area=yes`).
        case plaza

        /// The kind of a way with these tags; nil: not drawn.
        public init?(tags: [String: String]) {
            if let b = tags["building"], b != "no" { self = .building; return }
            if tags["natural"] == "water" || tags["waterway"] == "riverbank"
                || ["reservoir", "basin"].contains(tags["landuse"] ?? "") { self = .water; return }
            if ["park", "garden", "playground", "pitch"].contains(tags["leisure"] ?? "")
                || ["grass", "forest", "meadow", "recreation_ground", "village_green", "cemetery"].contains(tags["landuse"] ?? "")
                || ["wood", "scrub", "grassland"].contains(tags["natural"] ?? "") { self = .green; return }
            if tags["place"] == "square" || (tags["highway"] == "pedestrian" && tags["area"] == "yes") { self = .plaza; return }
            if let highway = tags["highway"] {
                switch highway {
                case "motorway", "trunk", "primary", "motorway_link", "trunk_link", "primary_link": self = .street(rank: 0)
                case "secondary", "tertiary", "secondary_link", "tertiary_link": self = .street(rank: 1)
                case "residential", "unclassified", "living_street", "service", "pedestrian", "road": self = .street(rank: 2)
                case "footway", "path", "cycleway", "steps", "track", "bridleway": self = .street(rank: 3)
                default: return nil
                }
                return
            }
            if let railway = tags["railway"], ["rail", "tram", "light_rail", "subway"].contains(railway) { self = .railway; return }
            return nil
        }

        /// Areas are filled; streets and railways are lines.
        public var isArea: Bool {
            switch self {
            case .building, .green, .water, .plaza: true
            case .street, .railway: false
            }
        }
    }

    public var kind: Kind
    /// The way's vertices in order (a closed area repeats its first vertex).
    public var points: [GeoCoordinate]
    public init(kind: Kind, points: [GeoCoordinate]) { self.kind = kind; self.points = points }
}

/// The streets, buildings, green and water of an OSM extract (OSM PBF, OSM XML, Overpass JSON;
/// `.gz`/`.bz2` too), for drawing a map under a track. Multipolygon relations are not drawn
/// (their member ways are, when tagged themselves).
public enum BaseMap {
    /// The map features of `url`; nil when the file is a POI source of another kind (GeoJSON,
    /// Google Places, CSV) or a poiar database, which have no streets.
    /// - Throws: `InputError` naming the file when it cannot be read.
    public static func read(_ url: URL) throws -> [MapFeature]? {
        if try hasSQLiteHeader(url) { return nil }
        let (source, reader) = try POIImport.open(url)
        return try reader.readBaseMap(source)
    }

    /// The map features of `url`, whose format is already known (`POIDatabase.format(ofSource:)`
    /// once it is opened as a POI source), so the file is opened only to be parsed, and not at
    /// all when it is no OSM data; nil `format`: a poiar database.
    public static func read(_ url: URL, format: POISourceFormat?) throws -> [MapFeature]? {
        // Only OSM data has streets (the other readers give none).
        guard let format, format.isOSM,
              let reader = POISourceReaders.all.first(where: { $0.format == format }) else { return nil }
        return try reader.readBaseMap(try SourceStream(url: url))
    }
}
