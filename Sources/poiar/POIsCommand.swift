import ArgumentParser
import Foundation
import POIARCore
import POIStore

struct POIsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pois",
        abstract: "Import, fetch, query and show points of interest.",
        subcommands: [Import.self, Query.self, Show.self, Categories.self, Fetch.self, Bench.self])

    // Each subcommand names itself: without a name ArgumentParser derives one from the type's
    // name, by reflection, for every subcommand at every start of poiar (7 M instructions).
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import POI sources (OSM PBF, OSM XML (.osm, .osm.bz2, .gz; Overpass XML; history files), Overpass JSON, GeoJSON (also GeoJSONSeq), Google Places JSON (also Places API (New)), CSV) into a poiar database; re-importing updates.")

        @Argument(help: "Source files.")
        var sources: [String]

        @Option(help: ArgumentHelp("The poiar SQLite database (created if missing).", valueName: "file"))
        var db: String
        @Option(help: "CSV, GeoJSON: the category of every POI the source gives no known one (open data without OSM tags), e.g. library. (default: none)")
        var category: KnownCategory?
        @Option(name: .customLong("category-from"), help: ArgumentHelp("CSV, GeoJSON: the column or property whose values name the categories (through --category-map). (default: none)", valueName: "name"))
        var categoryFrom: String?
        @Option(name: .customLong("category-map"), help: ArgumentHelp("CSV, GeoJSON: source values to categories (case ignored), e.g. Bibliothek=library,Spielplatz=playground. (default: none)", valueName: "value=category,…"))
        var categoryMap: CategoryMap?
        @Option(help: ArgumentHelp("CSV: the file's column for each of poiar's (id, name, category, lat, lon, alt, address, phone, website, opening_hours), e.g. lat=Y,lon=X. (default: the file's columns of those names)", valueName: "name=column,…"))
        var columns: CSVColumnMap?

        func validate() throws {
            if sources.isEmpty { throw ValidationError("give at least one SOURCE file") }
            if let categoryFrom, categoryFrom.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--category-from: expected a column or property name")
            }
        }

        func run() throws {
            try reportingErrors {
                try checkOutputs(writes: [(db, "--db")], reads: sources.map { ($0, "a POI source") })
                let options = ImportOptions(category: category?.name, categoryProperty: categoryFrom?.trimmingCharacters(in: .whitespaces),
                                            categoryMap: categoryMap?.map ?? [:], columns: columns?.map ?? [:])
                try POIImport.importFiles(sources.map { URL(fileURLWithPath: $0) }, into: db, options: options, notice: printNotice)
            }
        }
    }

    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "query",
            abstract: "POIs within a radius, nearest first, as a JSON array.")

        @OptionGroup var database: POIDatabaseArgument
        @Option(parsing: .unconditional, help: ArgumentHelp("Query point.", valueName: "lat,lon"))
        var near: LatLon
        @Option(parsing: .unconditional, help: ArgumentHelp("Radius, metres.", valueName: "m"))
        var radius: Checked<MetresOrNone> = 1500
        @OptionGroup var selection: POISelectionArguments
        @Option(parsing: .unconditional, help: ArgumentHelp("At most this many results. (default: all)", valueName: "n"))
        var limit: Checked<Count>?

        func run() throws {
            try reportingErrors {
                let categories = try selection.categories()
                let hits = try database.open().query(near: near.coordinate, radius: radius.value, categories: categories, limit: limit?.value,
                                                     language: selection.language)
                print(POIQueryJSON.encode(hits))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print one POI's details: name, categories, position, address, phone, website, opening hours.")

        @Argument(help: "The POI id, e.g. osm:node/307465178.")
        var id: String
        @OptionGroup var database: POIDatabaseArgument
        @Option(help: ArgumentHelp("Language code: the name from the name:<lang> tag when the POI has one. (default: the name tag)", valueName: "code"))
        var lang: LanguageCode?
        @Flag(help: "Print the POI as one JSON object (with its tags) instead of text.")
        var json = false

        func run() throws {
            try reportingErrors {
                guard var poi = try database.open().poi(id: id) else { throw InputError(file: database.db, field: id, "no POI with this id") }
                if let lang { poi = poi.localized(to: lang.code) }
                print(json ? POIQueryJSON.object(poi, hit: nil) : poi.detailsText)
            }
        }
    }

    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "categories",
            abstract: "List the categories of a database's POIs with their counts (or, without --db, every known category).")

        @Option(help: ArgumentHelp("The poiar database (or any POI source). (default: none; the categories poiar knows)", valueName: "file"))
        var db: String?
        @Flag(help: "Print JSON: [{\"category\", \"count\", \"primary\"}].")
        var json = false

        func run() throws {
            try reportingErrors {
                guard let db else { return POICategory.known.forEach { print($0) } }
                let database = try openPOIDatabase(db)
                let counts = try database.categoryCounts()
                print(json ? CategoryCountsText.json(counts) : CategoryCountsText.table(counts, pois: try database.count()))
            }
        }
    }

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Fetch POIs around a point from Overpass or Google Places into a poiar database (cached: an area fetched before is not fetched again).")

        @Option(parsing: .unconditional, help: ArgumentHelp("Centre.", valueName: "lat,lon"))
        var near: LatLon
        @Option(parsing: .unconditional, help: ArgumentHelp("Radius, metres.", valueName: "m"))
        var radius: Checked<Metres> = 1500
        @Option(help: "Categories, comma-separated. (default: all the source can ask for)")
        var filter: String?
        @Option(help: "Where from (google-places: key in $POIAR_GOOGLE_PLACES_KEY).")
        var source: FetchSource = .overpass
        @Option(help: ArgumentHelp("The service URL. (default: the public Overpass API / Google Places Nearby Search)", valueName: "url"))
        var endpoint: EndpointURL?
        @Option(help: ArgumentHelp("The poiar database to store into (created if missing).", valueName: "file"))
        var db: String
        @Flag(help: "Fetch even when an earlier fetch covers the area.")
        var refresh = false
        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for each HTTP request.", valueName: "s"))
        var timeout: Checked<Seconds> = 60

        func run() throws {
            try reportingErrors {
                try checkOutputs(writes: [(db, "--db")], reads: [])
                var request = POIFetchRequest(source: source, endpoint: endpoint?.url, database: db, refresh: refresh)
                request.timeout = timeout.value
                try request.run(center: near.coordinate, radius: radius.value, categories: try filter.map { try POICategory.parseFilter($0) },
                                notice: printNotice)
            }
        }
    }

    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Time random radius queries in-process (median and p99), through poiar's index and R*Tree alternatives.")

        @Option(help: ArgumentHelp("The poiar database.", valueName: "file"))
        var db: String
        @Option(parsing: .unconditional, help: ArgumentHelp("Centre of the area the query points are drawn from.", valueName: "lat,lon"))
        var near: LatLon
        @Option(parsing: .unconditional, help: ArgumentHelp("Query points are uniform in a disc of this radius (m) around --near.", valueName: "m"))
        var spread: Double = 3000
        @Option(parsing: .unconditional, help: ArgumentHelp("Query radius, metres.", valueName: "m"))
        var radius: Double = 1500
        @Option(help: "Each query asks for one category drawn from these (comma-separated). (default: no filter)")
        var filter: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Number of timed queries.", valueName: "n"))
        var queries: Checked<PositiveCount> = 10000
        @Option(help: ArgumentHelp("Indexes to time, comma-separated: cell (poiar's), cell-cold (its row cache emptied before each query), rtree, rtree2d.", valueName: "names"))
        var index = try! BenchIndexes(checking: "cell")
        @Option(parsing: .unconditional, help: ArgumentHelp("Random seed.", valueName: "n"))
        var seed: UInt64 = 1

        func run() throws {
            try reportingErrors {
                let database = try POIDatabase(path: db, readOnly: true)
                let list = QueryBenchmark.randomQueries(near: near.coordinate, spread: spread, categories: try filter.map { try POICategory.parseFilter($0) },
                                                        count: queries.value, seed: seed)
                print("index      queries  median_us     p99_us  cpu_median_us  cpu_p99_us  mean_hits  setup_s")
                for index in index.indexes {
                    let result = try QueryBenchmark.run(list, radius: radius, index: index, on: database)
                    print(result.index.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                          + String(format: " %7d %10.1f %10.1f %14.1f %11.1f %10.1f %8.2f", queries.value,
                                   result.median, result.p99, result.cpuMedian, result.cpuP99,
                                   result.meanHits, result.setupSeconds))
                }
            }
        }
    }
}

/// `--db`: a poiar database, or any POI source (imported into a cache beside it first).
struct POIDatabaseArgument: ParsableArguments {
    @Option(help: ArgumentHelp("The poiar database (or any POI source, imported into a cache beside it).", valueName: "file"))
    var db: String

    func open() throws -> POIDatabase { try openPOIDatabase(db) }
}

/// The database or POI source at `path`, its import's report said on stderr.
func openPOIDatabase(_ path: String) throws -> POIDatabase {
    try openPOISource(URL(fileURLWithPath: path), onImport: { printNotice("\($0)") }, onNotice: { printNotice($0) })
}
