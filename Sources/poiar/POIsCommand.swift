import ArgumentParser
import Foundation
import Geodesy
import GeodesyData
import POIARCore
import POIStore

struct POIsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pois",
        abstract: "Import, fetch, query and show points of interest.",
        subcommands: [Import.self, Query.self, Show.self, Categories.self, Fetch.self, Bench.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import POI sources (OSM PBF, OSM XML (.osm, .osm.bz2, .gz; Overpass XML; history files), Overpass JSON, GeoJSON (also GeoJSONSeq), Google Places JSON (also Places API (New)), CSV) into a poiar database; re-importing updates.")

        @Argument(help: "Source files.")
        var sources: [String]

        @Option(help: "The poiar SQLite database (created if missing).")
        var db: String
        @Option(help: "CSV, GeoJSON: the category of every POI the source gives no known one (open data without OSM tags), e.g. library.")
        var category: String?
        @Option(name: .customLong("category-from"), help: "CSV, GeoJSON: the column or property whose values name the categories (through --category-map).")
        var categoryFrom: String?
        @Option(name: .customLong("category-map"), help: "CSV, GeoJSON: source values to categories, VALUE=CATEGORY,… (case ignored), e.g. Bibliothek=library,Spielplatz=playground.")
        var categoryMap: String?
        @Option(help: "CSV: the file's column for each of poiar's, NAME=COLUMN,… (id, name, category, lat, lon, alt, address, phone, website, opening_hours), e.g. lat=Y,lon=X.")
        var columns: String?

        func validate() throws {
            if sources.isEmpty { throw ValidationError("give at least one SOURCE file") }
            _ = try options()
        }

        /// The import options the flags give.
        func options() throws -> ImportOptions {
            func category(_ name: String, option: String) throws -> String {
                let c = name.trimmingCharacters(in: .whitespaces).lowercased()
                guard POICategory.isKnown(c) else {
                    throw ValidationError("\(option): unknown category \"\(name)\" (known: \(POICategory.known.joined(separator: ", ")))")
                }
                return c
            }
            func pairs(_ text: String?, option: String) throws -> [(String, String)] {
                guard let text else { return [] }
                return try text.split(separator: ",").map { item in
                    let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                        throw ValidationError("\(option): expected NAME=VALUE items separated by commas, got \"\(item)\"")
                    }
                    return (parts[0], parts[1])
                }
            }
            var map: [String: String] = [:]
            for (value, name) in try pairs(categoryMap, option: "--category-map") {
                map[value] = try category(name, option: "--category-map")
            }
            var columnMap: [String: String] = [:]
            let csvColumns = CSVImporter.columns
            for (name, column) in try pairs(columns, option: "--columns") {
                guard csvColumns.contains(name.lowercased()) else {
                    throw ValidationError("--columns: \"\(name)\" is not one of poiar's CSV columns (\(csvColumns.joined(separator: ", ")))")
                }
                columnMap[name.lowercased()] = column
            }
            if let categoryFrom, categoryFrom.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--category-from: expected a column or property name")
            }
            return ImportOptions(category: try self.category.map { try category($0, option: "--category") },
                                 categoryProperty: categoryFrom?.trimmingCharacters(in: .whitespaces),
                                 categoryMap: map, columns: columnMap)
        }

        func run() throws {
            try reportingErrors {
                let options = try options()
                if let note = try POIDatabase.recoverInterruptedWrite(path: db) { printNotice(note) }
                let existed = FileManager.default.fileExists(atPath: db)
                var database: POIDatabase?
                var imported = 0
                do {
                    database = try POIDatabase(path: db)
                    for source in sources {
                        printNotice("\(try POIImport.importFile(URL(fileURLWithPath: source), into: database!, options: options))")
                        if let note = Geoid.system.takeNotice() { printNotice(note) }
                        imported += 1
                    }
                    try database!.close()
                } catch {
                    // A database this command created and filled with nothing is not left behind.
                    if !existed && imported == 0 {
                        try? database?.close()
                        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: db + suffix) }
                    }
                    throw error
                }
            }
        }
    }

    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POIs within a radius, nearest first, as a JSON array.")

        @Option(help: "The poiar database (or any POI source, imported into a cache beside it).")
        var db: String
        @Option(parsing: .unconditional, help: "Query point LAT,LON.")
        var near: String
        @Option(parsing: .unconditional, help: "Radius, metres.")
        var radius: Double = 1500
        @OptionGroup var selection: POISelectionArguments
        @Option(parsing: .unconditional, help: "At most this many results.")
        var limit: Int?

        func validate() throws {
            _ = try parseNear(near)
            if !(radius >= 0 && radius.isFinite) { throw ValidationError("--radius: expected metres ≥ 0, got \(radius)") }
            if let limit, limit < 0 { throw ValidationError("--limit: expected a count ≥ 0, got \(limit)") }
        }

        func run() throws {
            try reportingErrors {
                let center = try parseNear(near)
                let categories = try selection.categories()
                let database = try openPOISource(URL(fileURLWithPath: db), onImport: { printNotice("\(db): \($0)") },
                                               onNotice: { printNotice($0) })
                let hits = try database.query(near: center, radius: radius, categories: categories, limit: limit,
                                              language: selection.language)
                print(POIQueryJSON.encode(hits))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one POI's details: name, categories, position, address, phone, website, opening hours.")

        @Argument(help: "The POI id, e.g. osm:node/307465178.")
        var id: String
        @Option(help: "The poiar database (or any POI source, imported into a cache beside it).")
        var db: String
        @Option(help: "Language code: the name from the name:<lang> tag when the POI has one.")
        var lang: String?
        @Flag(help: "Print the POI as one JSON object (with its tags) instead of text.")
        var json = false

        func validate() throws {
            if let lang { _ = try parseLanguage(lang) }
        }

        func run() throws {
            try reportingErrors {
                let database = try openPOISource(URL(fileURLWithPath: db), onImport: { printNotice("\(db): \($0)") },
                                               onNotice: { printNotice($0) })
                guard var poi = try database.poi(id: id) else {
                    throw InputError(file: db, field: id, "no POI with this id")
                }
                if let lang { poi = poi.localized(to: try parseLanguage(lang)) }
                if json {
                    print(POIQueryJSON.object(poi, hit: nil))
                    return
                }
                var lines: [(String, String)] = [("id", poi.id), ("name", poi.name.isEmpty ? "(unnamed)" : poi.name)]
                lines.append(("categories", poi.categories.joined(separator: ", ")))
                var position = String(format: "%.7f, %.7f", poi.coordinate.latitude, poi.coordinate.longitude)
                if let alt = poi.coordinate.altitude { position += String(format: ", %.1f m", alt) }
                lines.append(("position", position))
                if let v = poi.address { lines.append(("address", v)) }
                if let v = poi.phone { lines.append(("phone", v)) }
                if let v = poi.website { lines.append(("website", v)) }
                if let v = poi.openingHours { lines.append(("opening hours", v)) }
                let width = lines.map(\.0.count).max() ?? 0
                for (key, value) in lines {
                    print(key + ":" + String(repeating: " ", count: width - key.count + 1) + value)
                }
            }
        }
    }

    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the categories of a database's POIs with their counts (or, without --db, every known category).")

        @Option(help: "The poiar database (or any POI source). Without it: the categories poiar knows.")
        var db: String?
        @Flag(help: "Print JSON: [{\"category\", \"count\", \"primary\"}].")
        var json = false

        func run() throws {
            try reportingErrors {
                guard let db else {
                    for name in POICategory.known { print(name) }
                    return
                }
                let database = try openPOISource(URL(fileURLWithPath: db), onImport: { printNotice("\(db): \($0)") },
                                               onNotice: { printNotice($0) })
                let counts = try database.categoryCounts()
                if json {
                    let items = counts.map { c -> String in
                        var w = JSONWriter()
                        w.beginObject()
                        w.string("category", c.name)
                        w.int("count", c.count)
                        w.int("primary", c.primary)
                        w.endObject()
                        return w.text
                    }
                    print("[" + items.joined(separator: ",\n ") + "]")
                    return
                }
                let width = max(8, counts.map(\.name.count).max() ?? 0)
                print("category".padding(toLength: width, withPad: " ", startingAt: 0) + "    count  primary")
                for c in counts {
                    print(c.name.padding(toLength: width, withPad: " ", startingAt: 0)
                          + String(format: " %8d %8d", c.count, c.primary))
                }
                print("\(try database.count()) POIs; a POI counts once under each of its categories, "
                      + "\"primary\" under its first")
            }
        }
    }

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch POIs around a point from Overpass or Google Places into a poiar database (cached: an area fetched before is not fetched again).")

        @Option(parsing: .unconditional, help: "Centre LAT,LON.")
        var near: String
        @Option(parsing: .unconditional, help: "Radius, metres.")
        var radius: Double = 1500
        @Option(help: "Categories, comma-separated. Default: all the source can ask for.")
        var filter: String?
        @Option(help: "overpass or google-places (key in $POIAR_GOOGLE_PLACES_KEY).")
        var source: String = "overpass"
        @Option(help: "The service URL (default: the public Overpass API / Google Places Nearby Search).")
        var endpoint: String?
        @Option(help: "The poiar database to store into (created if missing).")
        var db: String
        @Flag(help: "Fetch even when an earlier fetch covers the area.")
        var refresh = false
        @Option(parsing: .unconditional, help: "Seconds to wait for each HTTP request.")
        var timeout: Double = 60

        func validate() throws {
            _ = try parseFetchSource(source)
            if let endpoint { _ = try parseEndpoint(endpoint) }
            if !(radius > 0 && radius.isFinite) { throw ValidationError("--radius: expected metres > 0, got \(radius)") }
            _ = try parseNear(near)
            if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout: expected seconds > 0, got \(timeout)") }
        }

        func run() throws {
            try reportingErrors {
                let center = try parseNear(near)
                let categories = try filter.map { try POICategory.parseFilter($0) }
                var fetcher = POIFetcher(source: try parseFetchSource(source), endpoint: try endpoint.map(parseEndpoint))
                fetcher.client.timeout = timeout
                fetcher.client.notice = { printNotice($0) }
                if let note = try POIDatabase.recoverInterruptedWrite(path: db) { printNotice(note) }
                let database = try POIDatabase(path: db)
                try runFetch(fetcher, center: center, radius: radius, categories: categories, refresh: refresh, into: database)
                try database.close()
            }
        }
    }

    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time random radius queries in-process (median and p99), through poiar's index and R*Tree alternatives.")

        @Option(help: "The poiar database.")
        var db: String
        @Option(parsing: .unconditional, help: "Centre of the area the query points are drawn from, LAT,LON.")
        var near: String
        @Option(parsing: .unconditional, help: "Query points are uniform in a disc of this radius (m) around --near.")
        var spread: Double = 3000
        @Option(parsing: .unconditional, help: "Query radius, metres.")
        var radius: Double = 1500
        @Option(help: "Each query asks for one category drawn from these (comma-separated). Default: no filter.")
        var filter: String?
        @Option(parsing: .unconditional, help: "Number of timed queries.")
        var queries: Int = 10000
        @Option(help: "Indexes to time, comma-separated: cell (poiar's), cell-cold (its row cache emptied before each query), rtree, rtree2d.")
        var index: String = "cell"
        @Option(parsing: .unconditional, help: "Random seed.")
        var seed: UInt64 = 1

        func validate() throws {
            if queries < 1 { throw ValidationError("--queries: expected ≥ 1") }
            for name in index.split(separator: ",") where QueryBenchmark.Index(rawValue: String(name)) == nil {
                throw ValidationError("--index: expected cell, cell-cold, rtree or rtree2d, got \"\(name)\"")
            }
        }

        func run() throws {
            try reportingErrors {
                let center = try parseNear(near)
                let categories = try filter.map { try POICategory.parseFilter($0) }
                let database = try POIDatabase(path: db, readOnly: true)
                let list = QueryBenchmark.randomQueries(near: center, spread: spread, categories: categories,
                                                        count: queries, seed: seed)
                print("index      queries  median_us     p99_us  cpu_median_us  cpu_p99_us  mean_hits  setup_s")
                for name in index.split(separator: ",") {
                    let result = try QueryBenchmark.run(list, radius: radius, index: QueryBenchmark.Index(rawValue: String(name))!,
                                                        on: database)
                    print(result.index.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                          + String(format: " %7d %10.1f %10.1f %14.1f %11.1f %10.1f %8.2f", queries,
                                   result.median, result.p99, result.cpuMedian, result.cpuP99,
                                   result.meanHits, result.setupSeconds))
                }
            }
        }
    }
}

/// Runs a fetch and reports it on stderr (shared by `pois fetch` and `replay --fetch`).
func runFetch(_ fetcher: POIFetcher, center: GeoCoordinate, radius: Double, categories: [String]?, refresh: Bool,
              into database: POIDatabase) throws {
    let outcome = try fetcher.fetch(center: center, radius: radius, categories: categories, refresh: refresh, into: database)
    for note in outcome.notes { printNotice(note) }
    if let previous = outcome.coveredBy {
        printNotice("\(database.path): \(fetcher.source.rawValue) POIs within \(Int(previous.radius)) m of "
                    + String(format: "%.6f,%.6f", previous.center.latitude, previous.center.longitude)
                    + " were fetched at \(previous.fetchedAt) and cover this area; not fetching again (--refresh to fetch anyway)")
    } else if let report = outcome.report {
        printNotice("fetched into \(database.path): \(report)")
    }
}

func parseNear(_ s: String) throws -> GeoCoordinate { try parseCoordinate(s, option: "--near") }

func parseLanguage(_ s: String) throws -> String {
    let t = s.trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty, t.count <= 16, t.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
        throw ValidationError("--lang: expected a language code such as en, sv or zh-Hant, got \"\(s)\"")
    }
    return t
}

func parseFetchSource(_ s: String) throws -> FetchSource {
    guard let source = FetchSource(rawValue: s.lowercased()) else {
        throw ValidationError("--source: expected overpass or google-places, got \"\(s)\"")
    }
    return source
}

func parseEndpoint(_ s: String) throws -> URL {
    guard let url = URL(string: s), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
        throw ValidationError("--endpoint: expected an http:// or https:// URL, got \"\(s)\"")
    }
    return url
}
