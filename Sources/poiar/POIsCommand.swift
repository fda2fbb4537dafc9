import ArgumentParser
import Foundation
import POIARCore
import POIStore

struct POIsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pois",
        abstract: "Import and query points of interest.",
        subcommands: [Import.self, Query.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import POI sources (GeoJSON, OSM XML, Overpass JSON) into a poiar database; re-importing updates.")

        @Argument(help: "Source files.")
        var sources: [String]

        @Option(help: "The poiar SQLite database (created if missing).")
        var db: String

        func validate() throws {
            if sources.isEmpty { throw ValidationError("give at least one SOURCE file") }
        }

        func run() throws {
            try reportingErrors {
                let database = try POIDatabase(path: db)
                for source in sources {
                    printNotice("\(try POIImport.importFile(URL(fileURLWithPath: source), into: database))")
                }
                try database.close()
            }
        }
    }

    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POIs within a radius, nearest first, as a JSON array.")

        @Option(help: "The poiar database (or any POI source, imported into a cache beside it).")
        var db: String
        @Option(help: "Query point LAT,LON.")
        var near: String
        @Option(help: "Radius, metres.")
        var radius: Double = 1500
        @Option(help: "Categories, comma-separated. Default: all.")
        var filter: String?
        @Option(help: "At most this many results.")
        var limit: Int?

        func run() throws {
            try reportingErrors {
                let v = try parseNumbers(near, count: 2...2, option: "--near", what: "LAT,LON")
                let center = GeoCoordinate(latitude: v[0], longitude: v[1])
                guard center.isValid else { throw ValidationError("--near: latitude must be in −90…90 and longitude in −180…180") }
                let categories = try filter.map { try POICategory.parseFilter($0) }
                let database = try openPOISource(URL(fileURLWithPath: db)) { printNotice("\(db): \($0)") }
                let hits = try database.query(near: center, radius: radius, categories: categories, limit: limit)
                print(POIQueryJSON.encode(hits))
            }
        }
    }
}

/// The `pois query` output: `[{"id","name","category","lat","lon","alt","distance_m","bearing_deg","tags"}]`.
enum POIQueryJSON {
    static func encode(_ hits: [POIHit]) -> String {
        let items = hits.map { h -> String in
            let p = h.poi
            var w = JSONWriter()
            w.beginObject()
            w.string("id", p.id)
            w.string("name", p.name)
            w.string("category", p.category)
            w.number("lat", p.coordinate.latitude)
            w.number("lon", p.coordinate.longitude)
            w.number("alt", p.coordinate.altitude)
            w.number("distance_m", h.distance, decimals: 3)
            w.number("bearing_deg", h.bearing, decimals: 4)
            w.beginObject("tags")
            for key in p.tags.keys.sorted() { w.string(key, p.tags[key]) }
            w.endObject()
            w.endObject()
            return w.text
        }
        return "[" + items.joined(separator: ",\n ") + "]"
    }
}
