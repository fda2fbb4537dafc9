import ArgumentParser
import Foundation
import PhoneImport
import POIARCore
import POIStore
import Recordings
import Replay
import SensorLog

/// `replay`'s POI options beyond `--pois`: fetching the POIs around the log from the web into
/// the POI database first (`--fetch`).
struct ReplayFetchArguments: ParsableArguments {
    @Flag(help: "Before replaying, fetch the POIs within --radius + 1000 m of the log's first GPS fix into the --pois database (created if missing); an area fetched before is not fetched again, so later runs work offline.")
    var fetch = false

    @Option(name: .customLong("fetch-source"), help: "With --fetch: overpass or google-places (key in $POIAR_GOOGLE_PLACES_KEY).")
    var fetchSource: String = "overpass"

    @Option(name: .customLong("fetch-endpoint"), help: "With --fetch: the service URL (default: the public Overpass API / Google Places Nearby Search).")
    var fetchEndpoint: String?

    @Flag(help: "With --fetch: fetch even when an earlier fetch covers the area.")
    var refresh = false

    /// How far beyond `--radius` a replay fetches, metres (the walk moves from its first fix).
    static let margin = 1000.0

    func validate() throws {
        if !fetch && (refresh || fetchEndpoint != nil || fetchSource != "overpass") {
            throw ValidationError("--refresh, --fetch-source and --fetch-endpoint go with --fetch")
        }
        if fetch {
            _ = try parseFetchSource(fetchSource)
            if let fetchEndpoint { _ = try parseEndpoint(fetchEndpoint) }
        }
    }

    /// Runs the fetch when asked, around `at` (`--at`) or the log's first usable GPS fix;
    /// returns the POI source the replay then reads.
    func run(recording: Recording, pois: String?, at: GeoCoordinate?, radius: Double, categories: [String]?) throws -> String? {
        guard fetch else { return pois }
        guard let pois else { return nil }  // refused by ReplayCommand.validate
        if FileManager.default.fileExists(atPath: pois), !((try? hasSQLiteHeader(URL(fileURLWithPath: pois))) ?? false) {
            throw InputError(file: pois, field: "--pois", "with --fetch, --pois names a poiar database to fetch into, not a POI source file")
        }
        guard let center = try at ?? recording.firstUsableFix()?.coordinate else {
            throw InputError(file: recording.path, "--fetch: the log has no usable GPS fix to fetch POIs around (--at gives a position)")
        }
        var fetcher = POIFetcher(source: try parseFetchSource(fetchSource), endpoint: try fetchEndpoint.map(parseEndpoint))
        fetcher.client.notice = { printNotice($0) }
        if let note = try POIDatabase.recoverInterruptedWrite(path: pois) { printNotice(note) }
        let database = try POIDatabase(path: pois)
        try runFetch(fetcher, center: GeoCoordinate(latitude: center.latitude, longitude: center.longitude),
                     radius: radius + Self.margin, categories: categories, refresh: refresh, into: database)
        try database.close()
        return pois
    }
}
