import Foundation
import Geodesy
import POIARCore
import POIStore
import Projection

/// The building footprints a frame's POIs are checked against for line of sight
/// (`--buildings` of `replay`, `project` and `map`): a poiar database that holds buildings.
public struct BuildingSource: Sendable {
    /// The file they came from, as given (a poiar database, or the OSM file it caches).
    public let path: String
    public let database: POIDatabase
    /// How many buildings the database holds (at least 1).
    public let count: Int

    /// The notice's end when a replay or frame has no buildings.
    public static let labelsUnchecked = "labels are not checked for line of sight"

    /// Every building whose bounding box meets the box (degrees; `POIDatabase.buildings`).
    public func buildings(south: Double, west: Double, north: Double, east: Double) throws -> [Building] {
        try database.buildings(south: south, west: west, north: north, east: east)
    }

    /// The buildings within `radius` metres of the bounding box of `places` (a track, or one
    /// position), ready for sight lines (`LineOfSight`, centred on the first place).
    public func lineOfSight(around places: [GeoCoordinate], radius: Double) throws -> LineOfSight? {
        let margin = radius + 50  // a building at the radius's edge reaches back toward the device
        guard let first = places.first, let box = GeoBox.around(places, radius: margin) else { return nil }
        return LineOfSight(buildings: try buildings(south: box.minLat, west: box.minLon, north: box.maxLat, east: box.maxLon),
                           origin: first)
    }

    /// The buildings of a replay, map or single frame:
    /// - `option` (`--buildings SOURCE`): an OSM file (PBF, XML, `.gz`/`.bz2`, Overpass JSON)
    ///   imported into its cache exactly as a POI source is (`openPOISource`; the POI source's
    ///   own database when it is the same file), or a poiar database;
    /// - else the POI source's database, when it holds buildings.
    ///
    /// Says in one notice which source gave how many buildings, or that there are none
    /// (`without`: what that means for the output); nothing without either source.
    /// - Returns: nil when there are no buildings.
    /// - Throws: `InputError` naming the file when it is missing, corrupt, or not OSM data (a
    ///   GeoJSON, Google Places or CSV file has no buildings to give).
    public static func open(option: String?, poiSourcePath: String?, poiDatabase: POIDatabase?, without: String,
                            notice: @escaping (String) -> Void) throws -> BuildingSource? {
        let path: String, database: POIDatabase
        if let option {
            path = option
            if let poiSourcePath, let poiDatabase, sameFile(option, poiSourcePath) {
                database = poiDatabase
            } else {
                database = try openPOISource(URL(fileURLWithPath: option), role: "building source",
                                             onImport: { notice("\(option): \($0)") }, onNotice: notice)
            }
            if let format = try database.cachedSourceFormat(), !format.isOSM {
                throw InputError(file: option, "is \(format.rawValue), not OSM data: --buildings reads OSM PBF, OSM XML or "
                                 + "Overpass JSON (.gz/.bz2 too), or a poiar database")
            }
        } else if let poiSourcePath, let poiDatabase {
            path = poiSourcePath
            database = poiDatabase
        } else {
            return nil
        }
        let count = try database.buildingCount()
        guard count > 0 else {
            notice("no buildings in \(path): \(without)")
            return nil
        }
        notice("buildings: \(count) from \(path)\(option == nil ? " (the POI source)" : "")")
        return BuildingSource(path: path, database: database, count: count)
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath().path
            == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
