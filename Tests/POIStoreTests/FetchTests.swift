import Foundation
import POIARCore
import Testing
@testable import POIStore

/// `HTTPClient` and `POIFetcher` against a real HTTP server on 127.0.0.1 serving recorded
/// responses (Tests/Fixtures/web), including slow, failing, rate-limited and malformed ones.
@Suite(.serialized) struct FetchTests {
    static let web = fixtures.appendingPathComponent("web")
    static let helsinki = GeoCoordinate(latitude: 60.1686, longitude: 24.9450)

    /// A client that retries quickly, so the tests stay fast.
    func fastClient(timeout: Double = 5, attempts: Int = 3) -> HTTPClient {
        var client = HTTPClient()
        client.timeout = timeout
        client.maxAttempts = attempts
        client.backoff = 0.05
        return client
    }

    func overpass(_ server: LoopbackHTTPServer, client: HTTPClient? = nil) -> POIFetcher {
        var fetcher = POIFetcher(source: .overpass, endpoint: server.url("/api/interpreter"))
        fetcher.client = client ?? fastClient()
        return fetcher
    }

    @Test func overpassFetchStoresPOIsAndTheArea() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/interpreter", [try .file(Self.web.appendingPathComponent("overpass-center.json"))])
        let db = try POIDatabase()
        let outcome = try overpass(server).fetch(center: Self.helsinki, radius: 1200, categories: ["cafe", "store", "museum"], into: db)
        let report = try #require(outcome.report)
        #expect(report.imported == 5)
        #expect(report.format == .overpassJSON)
        #expect(try db.poi(id: "osm:node/311747780")?.categories == ["cafe", "store"])
        #expect(try db.poi(id: "osm:way/8033120")?.coordinate == GeoCoordinate(latitude: 60.1700237, longitude: 24.9440706))
        // The query sent: POSTed as a form, built from the category table, `out center`.
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        let query = try #require(request.formFields["data"])
        #expect(query.hasPrefix("[out:json][timeout:"))
        #expect(query.contains(#"nwr["amenity"="cafe"](around:1200,60.1686000,24.9450000);"#))
        #expect(query.contains(#"nwr["shop"]["shop"!~"^(no|none|vacant)$"](around:1200,"#))
        #expect(query.contains(#"nwr["tourism"~"^(gallery|museum)$"]"#))
        #expect(query.hasSuffix("out center;"))
        #expect(request.headers["user-agent"]?.hasPrefix("poiar/") == true)
        // The area is recorded.
        let fetches = try db.fetches()
        #expect(fetches.count == 1)
        #expect(fetches[0].source == "overpass" && fetches[0].radius == 1200 && fetches[0].pois == 5)
        #expect(fetches[0].categories == ["cafe", "store", "museum"])

        // The same area again (and a smaller one inside it): not fetched, no request.
        let again = try overpass(server).fetch(center: Self.helsinki, radius: 1000, categories: ["cafe"], into: db)
        #expect(again.coveredBy?.id == fetches[0].id)
        #expect(again.report == nil)
        #expect(server.requests.count == 1)
        // Another category, or a wider circle, is fetched.
        _ = try overpass(server).fetch(center: Self.helsinki, radius: 1000, categories: ["bar"], into: db)
        _ = try overpass(server).fetch(center: Self.helsinki, radius: 1500, categories: ["cafe"], into: db)
        #expect(server.requests.count == 3)
        // --refresh fetches anyway; re-importing updates instead of duplicating.
        let refreshed = try overpass(server).fetch(center: Self.helsinki, radius: 1200, categories: ["cafe"], refresh: true, into: db)
        #expect(refreshed.report?.updated == 5)
        #expect(try db.count() == 5)
        #expect(server.requests.count == 4)
    }

    @Test func a500IsRetriedThenSucceeds() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/interpreter", [.json("<html>busy</html>", status: 500), .json("", status: 503),
                                          try .file(Self.web.appendingPathComponent("overpass-center.json"))])
        var client = fastClient(attempts: 4)
        let notices = NoticeLog()
        client.notice = { notices.add($0) }
        let db = try POIDatabase()
        let outcome = try overpass(server, client: client).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db)
        #expect(outcome.report?.imported == 5)
        #expect(server.requests.count == 3)
        #expect(notices.lines.count == 2)
        #expect(notices.lines[0].contains("HTTP 500"))
        #expect(notices.lines[0].contains("retrying in 0.05 s (attempt 2 of 4)"))
    }

    @Test func a429HonoursRetryAfter() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/interpreter", [LoopbackHTTPServer.Response(status: 429, headers: ["Retry-After": "1"], body: Data("slow down".utf8)),
                                          try .file(Self.web.appendingPathComponent("overpass-center.json"))])
        let start = Date()
        let outcome = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: try POIDatabase())
        #expect(outcome.report?.imported == 5)
        #expect(Date().timeIntervalSince(start) >= 0.95)  // waited the second it was told to
        #expect(server.requests.count == 2)
    }

    @Test func failuresAfterTheLastAttemptAndOtherStatusesAreClearErrors() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/interpreter", [.json("overloaded", status: 503)])
        let db = try POIDatabase()
        let e1 = try #require(inputError { _ = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db) })
        #expect(e1.location.file == server.url("/api/interpreter").absoluteString)
        #expect(e1.message == "HTTP 503 Service Unavailable after 3 attempt(s): overloaded")
        #expect(server.requests.count == 3)
        // A 404 is not retried.
        server.route("/api/interpreter", [.json("no such endpoint", status: 404)])
        let e2 = try #require(inputError { _ = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db) })
        #expect(e2.message == "HTTP 404 Not Found: no such endpoint")
        #expect(server.requests.count == 4)
        // Nothing was stored, nothing recorded.
        #expect(try db.count() == 0 && db.fetches().isEmpty)
    }

    @Test func aSlowServerTimesOut() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var slow = try LoopbackHTTPServer.Response.file(Self.web.appendingPathComponent("overpass-center.json"))
        // Timeouts of a second, not less: with the whole suite on 2 cores (browsers included), a
        // 0.5 s attempt could end before its request reached the server's thread.
        slow.delay = 5
        server.route("/api/interpreter", [slow])
        let start = Date()
        let error = try #require(inputError {
            _ = try overpass(server, client: fastClient(timeout: 1, attempts: 2))
                .fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: try POIDatabase())
        })
        #expect(error.message.hasPrefix("timed out after 1 s (2 attempt(s)"), "\(error.message)")
        #expect(Date().timeIntervalSince(start) < 4.9)
        // The server records a request when its thread has read it, which on a busy machine
        // can be after the client gave up on it: wait for that a moment.
        let deadline = Date().addingTimeInterval(5)
        while server.requests.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.requests.count == 2)
    }

    @Test func malformedAnswersAreErrorsAndStoreNothing() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let db = try POIDatabase()
        server.route("/api/interpreter", [try .file(Self.web.appendingPathComponent("overpass-truncated.json"))])
        let e1 = try #require(inputError { _ = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db) })
        #expect(e1.message.hasPrefix("invalid JSON"))
        server.route("/api/interpreter", [.json(#"{"elements": [{"type": "node", "id": 1, "lat": 91, "lon": 0, "tags": {"amenity": "cafe"}}]}"#)])
        let e2 = try #require(inputError { _ = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db) })
        #expect(e2.location.field == "elements[0]")
        server.route("/api/interpreter", [.json(#"{"elements": [], "remark": "runtime error: Query timed out in \"query\" at line 3 after 91 seconds."}"#)])
        let e3 = try #require(inputError { _ = try overpass(server).fetch(center: Self.helsinki, radius: 500, categories: ["cafe"], into: db) })
        #expect(e3.message.contains("Overpass did not finish the query"))
        #expect(try db.count() == 0 && db.fetches().isEmpty)
    }

    // MARK: Google Places

    static let key = "AIzaTEST-secret-KEY_123"

    func google(_ server: LoopbackHTTPServer, key: String? = FetchTests.key) -> POIFetcher {
        var fetcher = POIFetcher(source: .googlePlaces, endpoint: server.url("/maps/api/place/nearbysearch/json"))
        fetcher.client = fastClient()
        fetcher.environment = key.map { [POIFetcher.googleKeyVariable: $0] } ?? [:]
        fetcher.googlePageDelay = 0
        return fetcher
    }

    @Test func googlePlacesFollowsPagesAndSendsTheKey() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/maps/api/place/nearbysearch/json", [try .file(Self.web.appendingPathComponent("google-nearby-page1.json")),
                                                          try .file(Self.web.appendingPathComponent("google-nearby-page2.json"))])
        let db = try POIDatabase()
        let outcome = try google(server).fetch(center: Self.helsinki, radius: 800, categories: ["cafe"], into: db)
        let report = try #require(outcome.report)
        #expect(report.imported == 3)  // Engel (twice, once kept), Karl Fazer, Strindberg
        #expect(report.skipped["duplicate id"] == 1)
        #expect(report.skipped["permanently closed"] == 1)
        #expect(try db.poi(id: "gplaces:ChIJtest_Strindberg_0005")?.categories == ["cafe", "restaurant"])
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0].queryItems["key"] == Self.key)
        #expect(requests[0].queryItems["type"] == "cafe")
        #expect(requests[0].queryItems["radius"] == "800")
        #expect(requests[0].queryItems["location"] == "60.1686,24.945")
        #expect(requests[1].queryItems["pagetoken"] == "AcJnMuFtestTOKENpage2")
        // The key is in no stored text.
        #expect(!report.description.contains(Self.key))
        let fetch = try #require(db.fetches().first)
        #expect(fetch.source == "google-places")
        for poi in try db.allPOIs() { #expect(!poi.tags.values.contains { $0.contains(Self.key) }) }
    }

    @Test func googleErrorsAreClearAndNeverShowTheKey() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let db = try POIDatabase()
        for (file, status) in [("google-over-query-limit.json", "OVER_QUERY_LIMIT"), ("google-request-denied.json", "REQUEST_DENIED")] {
            server.route("/maps/api/place/nearbysearch/json", [try .file(Self.web.appendingPathComponent(file))])
            let error = try #require(inputError { _ = try google(server).fetch(center: Self.helsinki, radius: 800, categories: ["cafe"], into: db) })
            #expect(error.message.contains("Google Places request failed: \(status)"))
            #expect(error.location.file.contains("key=REDACTED"))
            #expect(!error.description.contains(Self.key))
        }
        // An HTTP error whose body echoes the key.
        server.route("/maps/api/place/nearbysearch/json", [.json("bad key \(Self.key)", status: 403)])
        let e2 = try #require(inputError { _ = try google(server).fetch(center: Self.helsinki, radius: 800, categories: ["cafe"], into: db) })
        #expect(e2.message == "HTTP 403 Forbidden: bad key REDACTED")
        #expect(!e2.description.contains(Self.key))
        // No key at all.
        let e3 = try #require(inputError { _ = try google(server, key: nil).fetch(center: Self.helsinki, radius: 800, categories: ["cafe"], into: db) })
        #expect(e3.location.field == "POIAR_GOOGLE_PLACES_KEY")
        // Radius beyond Google's limit.
        #expect(inputError { _ = try google(server).fetch(center: Self.helsinki, radius: 60_000, categories: ["cafe"], into: db) }?.location.field == "radius")
        #expect(try db.count() == 0)
    }

    @Test func retryAfterAndRedaction() {
        #expect(HTTPClient.retryAfterSeconds("7") == 7)
        let date = Date().addingTimeInterval(30)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let seconds = HTTPClient.retryAfterSeconds(formatter.string(from: date))
        #expect(seconds.map { $0 > 25 && $0 <= 31 } == true)
        #expect(HTTPClient.retryAfterSeconds("soon") == nil)
        let client = HTTPClient()
        #expect(client.redacting("https://x.example/json?location=1,2&key=SECRET&type=cafe")
                == "https://x.example/json?location=1,2&key=REDACTED&type=cafe")
    }

    @Test func overpassQueryFromTheCategoryTable() {
        let q = POIFetcher.overpassQuery(center: GeoCoordinate(latitude: 1, longitude: 2), radius: 99.2,
                                         categories: ["atm", "hotel"])
        #expect(q == """
            [out:json][timeout:90];
            (
              nwr["amenity"="atm"](around:100,1.0000000,2.0000000);
              nwr["tourism"~"^(guest_house|hostel|hotel|motel)$"](around:100,1.0000000,2.0000000);
              nwr["atm"="yes"](around:100,1.0000000,2.0000000);
            );
            out center;
            """)
    }
}

/// Notices collected from another thread.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
