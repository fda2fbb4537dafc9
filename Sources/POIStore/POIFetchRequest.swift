import Foundation
import POIARCore

/// A fetch into a poiar database as a command asks for it (`pois fetch`, `replay --fetch`):
/// the database recovered from an interrupted write and opened (created if missing), the POIs
/// around a point fetched into it, and what happened said through `notice`.
public struct POIFetchRequest: Sendable {
    public var source: FetchSource
    /// The service URL; nil: the source's public one.
    public var endpoint: URL?
    /// The poiar database fetched into.
    public var database: String
    /// Fetch even when an earlier fetch covers the area.
    public var refresh: Bool
    /// Seconds to wait for each HTTP request.
    public var timeout = HTTPClient().timeout

    public init(source: FetchSource, endpoint: URL?, database: String, refresh: Bool) {
        self.source = source; self.endpoint = endpoint; self.database = database; self.refresh = refresh
    }

    /// Fetches the POIs within `radius` metres of `center` (of `categories`; nil: all the
    /// source can ask for).
    public func run(center: GeoCoordinate, radius: Double, categories: [String]?,
                    notice: @escaping @Sendable (String) -> Void) throws {
        var fetcher = POIFetcher(source: source, endpoint: endpoint)
        fetcher.client.timeout = timeout
        fetcher.client.notice = notice
        if let note = try POIDatabase.recoverInterruptedWrite(path: database) { notice(note) }
        let db = try POIDatabase(path: database)
        let outcome = try fetcher.fetch(center: center, radius: radius, categories: categories, refresh: refresh, into: db)
        for note in outcome.notes { notice(note) }
        if let previous = outcome.coveredBy {
            notice("\(db.path): \(source.rawValue) POIs within \(Int(previous.radius)) m of "
                   + String(format: "%.6f,%.6f", previous.center.latitude, previous.center.longitude)
                   + " were fetched at \(previous.fetchedAt) and cover this area; not fetching again (--refresh to fetch anyway)")
        } else if let report = outcome.report {
            notice("fetched into \(db.path): \(report)")
        }
        try db.close()
    }
}
