import ArgumentParser
import Foundation
import PhoneImport
import POIARCore
import POIStore
import Replay
import SensorLog

/// `replay`'s POI options beyond `--pois`: fetching the POIs around the log from the web into
/// the POI database first (`--fetch`), and the names' language (`--lang`).
struct ReplayFetchArguments: ParsableArguments {
    @Flag(help: "Before replaying, fetch the POIs within --radius + 1000 m of the log's first GPS fix into the --pois database (created if missing); an area fetched before is not fetched again, so later runs work offline.")
    var fetch = false

    @Option(name: .customLong("fetch-source"), help: "With --fetch: overpass or google-places (key in $POIAR_GOOGLE_PLACES_KEY).")
    var fetchSource: String = "overpass"

    @Option(name: .customLong("fetch-endpoint"), help: "With --fetch: the service URL (default: the public Overpass API / Google Places Nearby Search).")
    var fetchEndpoint: String?

    @Flag(help: "With --fetch: fetch even when an earlier fetch covers the area.")
    var refresh = false

    @Option(help: "Language code: POI names from the name:<lang> tag when a POI has one (e.g. sv).")
    var lang: String?

    /// How far beyond `--radius` a replay fetches, metres (the walk moves from its first fix).
    static let margin = 1000.0

    func validate() throws {
        if let lang { _ = try parseLanguage(lang) }
        if !fetch && (refresh || fetchEndpoint != nil || fetchSource != "overpass") {
            throw ValidationError("--refresh, --fetch-source and --fetch-endpoint go with --fetch")
        }
        if fetch {
            _ = try parseFetchSource(fetchSource)
            if let fetchEndpoint { _ = try parseEndpoint(fetchEndpoint) }
        }
    }

    /// Runs the fetch when asked; returns the POI source the replay then reads.
    func run(log: String, pois: String?, radius: Double, categories: [String]?) throws -> String? {
        guard fetch else { return pois }
        guard let pois else { return nil }  // refused by ReplayCommand.validate
        if FileManager.default.fileExists(atPath: pois), !isSQLiteFile(pois) {
            throw InputError(file: pois, field: "--pois", "with --fetch, --pois names a poiar database to fetch into, not a POI source file")
        }
        guard let fix = try firstGPSFix(log) else {
            throw InputError(file: log, "--fetch: the log has no usable GPS fix to fetch POIs around")
        }
        var fetcher = POIFetcher(source: try parseFetchSource(fetchSource), endpoint: try fetchEndpoint.map(parseEndpoint))
        fetcher.client.notice = { printNotice($0) }
        if let note = try POIDatabase.recoverInterruptedWrite(path: pois) { printNotice(note) }
        let database = try POIDatabase(path: pois)
        try runFetch(fetcher, center: GeoCoordinate(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude),
                     radius: radius + Self.margin, categories: categories, refresh: refresh, into: database)
        try database.close()
        return pois
    }

    /// The log's first GPS fix with a horizontal accuracy within 100 m (or none given).
    private func firstGPSFix(_ log: String) throws -> GPSFix? {
        let source = try openLogSource(path: log)
        while let record = try source.nextRecord() {
            if case .gps(let fix) = record.sample, (fix.horizontalAccuracy ?? 0) <= GPSTrack.defaultMaxAccuracy { return fix }
        }
        return nil
    }

    private func isSQLiteFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return handle.readData(ofLength: 16) == Data("SQLite format 3\0".utf8)
    }
}
