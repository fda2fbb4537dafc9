import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Geodesy
import GeodesyData
import GRDB
import POIARCore

/// The web POI sources `poiar pois fetch` and `replay --fetch` can ask.
public enum FetchSource: String, Sendable, CaseIterable {
    case overpass
    case googlePlaces = "google-places"

    /// The service's name, as messages name it.
    public var displayName: String { self == .overpass ? "Overpass" : "Google Places" }

    /// Where requests go unless `--endpoint` says otherwise.
    public var defaultEndpoint: URL {
        switch self {
        case .overpass: return URL(string: "https://overpass-api.de/api/interpreter")!
        case .googlePlaces: return URL(string: "https://maps.googleapis.com/maps/api/place/nearbysearch/json")!
        }
    }
}

/// One row of the `fetches` table: an area fetched from a web source.
public struct FetchRecord: Equatable, Sendable {
    public var id: Int64?
    public var source: String
    public var center: GeoCoordinate
    public var radius: Double
    public var categories: [String]
    /// ISO 8601 UTC.
    public var fetchedAt: String
    public var pois: Int

    /// True when this fetch's area and categories include the other's: its circle holds the
    /// other circle (geodesic distance of the centres + the other radius ≤ this radius) and
    /// its categories include all of the other's.
    public func covers(center other: GeoCoordinate, radius otherRadius: Double, categories wanted: [String]) -> Bool {
        guard Set(categories).isSuperset(of: wanted) else { return false }
        return geodesicInverse(from: center, to: other).distance + otherRadius <= radius + 1e-6
    }
}

/// What `POIFetcher.fetch` did.
public struct FetchOutcome: Sendable {
    /// The earlier fetch whose area covers this one: nothing was fetched.
    public var coveredBy: FetchRecord?
    /// The import of what was fetched (nil when covered).
    public var report: ImportReport?
    /// Notes for the user (categories a source cannot ask for, …).
    public var notes: [String] = []
}

/// Fetches POIs around a point from Overpass or Google Places into a `POIDatabase`, and records
/// the area in its `fetches` table so that the same area is not fetched again (unless
/// `refresh`): a replay that fetched once then runs offline.
public struct POIFetcher: Sendable {
    /// The environment variable holding the Google Places API key. The key is sent to Google
    /// only; it is never printed, logged or stored (URLs in messages show `key=REDACTED`).
    public static let googleKeyVariable = "POIAR_GOOGLE_PLACES_KEY"
    /// Google's Nearby Search radius limit, m.
    public static let googleMaxRadius = 50_000.0
    /// Overpass `[timeout:…]`, s.
    public static let overpassTimeout = 90

    public var source: FetchSource
    public var endpoint: URL?
    public var client = HTTPClient()
    /// Environment to read the Google key from (the process's by default).
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Wait before asking for a Google next page (its token takes a moment to become valid).
    public var googlePageDelay: Double = 2
    /// At most this many Google pages (of 20 results) per category.
    public var googleMaxPages = 3
    /// Turns fetched heights above sea level (Overpass's `ele`) into ellipsoidal altitudes.
    public var geoid: Geoid = .system

    public init(source: FetchSource, endpoint: URL? = nil) {
        self.source = source
        self.endpoint = endpoint
    }

    /// Fetches the POIs of `categories` (nil: every category the source can ask for) within
    /// `radius` m of `center` into `db`, in one transaction with its `fetches` row — unless an
    /// earlier fetch from this source covers the area and categories and `refresh` is false.
    public func fetch(center: GeoCoordinate, radius: Double, categories: [String]?, refresh: Bool = false,
                      into db: POIDatabase) throws -> FetchOutcome {
        precondition(center.isValid && radius.isFinite && radius > 0, "fetch: a valid centre and a radius > 0 (checked by the caller)")
        var notes: [String] = []
        var wanted = categories ?? POICategory.known
        if source == .googlePlaces {
            let missing = wanted.filter { POICategory.googleType(for: $0) == nil }
            if !missing.isEmpty {
                if categories != nil { notes.append("Google Places has no type for \(missing.joined(separator: ", ")); not fetched") }
                wanted.removeAll { missing.contains($0) }
            }
            guard !wanted.isEmpty else { throw InputError(file: source.displayName, field: "categories", "none of the categories asked for is one Google Places can search for") }
            guard radius <= Self.googleMaxRadius else {
                throw InputError(file: source.displayName, field: "radius", "Google Places searches at most \(Int(Self.googleMaxRadius)) m around a point, got \(radius)")
            }
        }
        if !refresh, let previous = try db.fetches(source: source.rawValue)
            .first(where: { $0.covers(center: center, radius: radius, categories: wanted) }) {
            return FetchOutcome(coveredBy: previous, report: nil, notes: notes)
        }

        let url = endpoint ?? source.defaultEndpoint
        var parsed = ParsedPOIs()
        let format: POISourceFormat
        switch source {
        case .overpass:
            format = .overpassJSON
            let query = Self.overpassQuery(center: center, radius: radius, categories: wanted)
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(("data=" + Self.formEncode(query)).utf8)
            let response = try client.send(request)
            // (A `remark` reporting a runtime error, with HTTP 200, fails here: the answer is partial.)
            parsed = try OverpassJSONImporter.parse(response.body, file: client.redacting(url.absoluteString))
        case .googlePlaces:
            format = .googlePlaces
            guard let key = environment[Self.googleKeyVariable], !key.isEmpty else {
                throw InputError(file: "environment", field: Self.googleKeyVariable,
                                 "set \(Self.googleKeyVariable) to a Google Places API key to fetch from Google Places")
            }
            var client = self.client
            client.secretValues.append(key)
            for category in wanted {
                let type = POICategory.googleType(for: category)!
                var pageToken: String?
                for page in 1...max(1, googleMaxPages) {
                    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                    var items = components.queryItems ?? []
                    if let pageToken {
                        items.append(URLQueryItem(name: "pagetoken", value: pageToken))
                    } else {
                        items += [URLQueryItem(name: "location", value: "\(center.latitude),\(center.longitude)"),
                                  URLQueryItem(name: "radius", value: String(format: "%.0f", radius.rounded(.up))),
                                  URLQueryItem(name: "type", value: type)]
                    }
                    items.append(URLQueryItem(name: "key", value: key))
                    components.queryItems = items
                    let pageURL = components.url!
                    let shown = client.redacting(pageURL.absoluteString)
                    let response = try client.send(URLRequest(url: pageURL))
                    let root: JSONValue
                    let pagePOIs: ParsedPOIs
                    do {
                        root = try JSONValue.parse(response.body, file: shown)
                        pagePOIs = try GooglePlacesImporter.parse(root, file: shown)
                    } catch let error as InputError {
                        throw InputError(file: client.scrub(error.location.file), line: error.location.line,
                                         field: error.location.field, client.scrub(error.message))
                    }
                    parsed.pois += pagePOIs.pois
                    for (reason, n) in pagePOIs.skipped { parsed.skipped[reason, default: 0] += n }
                    pageToken = root["next_page_token"]?.string
                    if pageToken == nil || page == googleMaxPages { break }
                    if googlePageDelay > 0 { Thread.sleep(forTimeInterval: googlePageDelay) }
                }
            }
        }
        parsed.dropDuplicateIDs()
        parsed.placeSeaLevelHeights(geoid: geoid)
        if let note = geoid.takeNotice() { notes.append(note) }
        var record = FetchRecord(id: nil, source: source.rawValue, center: center, radius: radius,
                                 categories: wanted, fetchedAt: Self.timestamp(Date()), pois: parsed.pois.count)
        let (inserted, updated) = try db.upsert(parsed.pois, source: source.rawValue, recording: &record)
        var report = ImportReport(file: client.redacting(url.absoluteString), format: format, compression: nil,
                                  imported: inserted, updated: updated, skipped: parsed.skipped)
        report.unconvertedHeights = parsed.unconvertedHeights
        return FetchOutcome(coveredBy: nil, report: report, notes: notes)
    }

    /// The Overpass QL query for `categories` around a point: one `nwr` statement per tag key
    /// and category set (the reverse of `POICategory.rules`), `out center;` so that ways and
    /// relations come with a position.
    public static func overpassQuery(center: GeoCoordinate, radius: Double, categories: [String]) -> String {
        let around = String(format: "(around:%.0f,%.7f,%.7f)", radius.rounded(.up), center.latitude, center.longitude)
        var valuesByKey: [(key: String, values: [String], wildcard: Bool)] = []
        for rule in POICategory.rules where categories.contains(rule.category) {
            if let i = valuesByKey.firstIndex(where: { $0.key == rule.key }) {
                if let value = rule.value { valuesByKey[i].values.append(value) } else { valuesByKey[i].wildcard = true }
            } else {
                valuesByKey.append((rule.key, rule.value.map { [$0] } ?? [], rule.value == nil))
            }
        }
        var lines = ["[out:json][timeout:\(overpassTimeout)];", "("]
        for entry in valuesByKey {
            if entry.wildcard {
                let excluded = POICategory.nonValues.sorted().joined(separator: "|")
                lines.append("  nwr[\"\(entry.key)\"][\"\(entry.key)\"!~\"^(\(excluded))$\"]\(around);")
            } else if entry.values.count == 1 {
                lines.append("  nwr[\"\(entry.key)\"=\"\(entry.values[0])\"]\(around);")
            } else {
                lines.append("  nwr[\"\(entry.key)\"~\"^(\(entry.values.sorted().joined(separator: "|")))$\"]\(around);")
            }
        }
        lines += [");", "out center;"]
        return lines.joined(separator: "\n")
    }

    static func formEncode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

extension POIDatabase {
    /// The recorded fetches (of one source, when given), newest first.
    public func fetches(source: String? = nil) throws -> [FetchRecord] {
        try read { db in
            var sql = "SELECT id, source, lat, lon, radius_m, categories, fetched_at, pois FROM fetches"
            var arguments: StatementArguments = []
            if let source { sql += " WHERE source = ?"; arguments = [source] }
            sql += " ORDER BY id DESC"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                FetchRecord(id: row[0], source: row[1], center: GeoCoordinate(latitude: row[2], longitude: row[3]),
                            radius: row[4], categories: (row[5] as String).split(separator: ",").map(String.init),
                            fetchedAt: row[6], pois: row[7])
            }
        }
    }

    /// `upsert`, and the fetch recorded in the same transaction (its `id` is set).
    @discardableResult
    public func upsert(_ pois: [POI], source: String, recording fetch: inout FetchRecord) throws -> (inserted: Int, updated: Int) {
        let record = fetch
        let (result, id): ((inserted: Int, updated: Int), Int64) = try write { db in
            let result = try Self.upsert(pois, source: source, db, path: self.path, idsAreUnique: true)
            try db.execute(sql: """
                INSERT INTO fetches (source, lat, lon, radius_m, categories, fetched_at, pois)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.source, record.center.latitude, record.center.longitude, record.radius,
                                 record.categories.joined(separator: ","), record.fetchedAt, record.pois])
            return (result, db.lastInsertedRowID)
        }
        fetch.id = id
        return result
    }
}
