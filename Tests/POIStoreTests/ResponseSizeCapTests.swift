import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import POIARCore
import Testing
@testable import POIStore

/// `HTTPClient.maxResponseBytes` against the loopback server: an answer over the cap is
/// refused — from its Content-Length, or while it streams when it has none — not retried,
/// and a fetch that meets it stores nothing.
@Suite(.serialized) struct ResponseSizeCapTests {
    func client(cap: Int) -> HTTPClient {
        var client = HTTPClient()
        client.timeout = 5
        client.maxAttempts = 3
        client.backoff = 0.05
        client.maxResponseBytes = cap
        return client
    }

    func get(_ url: URL, _ client: HTTPClient) throws -> HTTPResponse {
        try client.send(URLRequest(url: url))
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedAtOnce() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/big", [.json(String(repeating: "x", count: 5000))])
        let error = try #require(inputError { _ = try get(server.url("/big"), client(cap: 1000)) })
        #expect(error.location.file == server.url("/big").absoluteString)
        #expect(error.message.hasPrefix("the response is larger than the 1000 bytes limit (Content-Length: 5000 bytes)"))
        #expect(server.requests.count == 1)  // not retried
    }

    @Test func aStreamWithoutLengthIsCutOffAtTheCap() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var endless = LoopbackHTTPServer.Response.json(String(repeating: "y", count: 4 << 20))
        endless.sendsLength = false
        server.route("/stream", [endless])
        let error = try #require(inputError { _ = try get(server.url("/stream"), client(cap: 64 << 10)) })
        #expect(error.message.hasPrefix("the response is larger than the 65536 bytes limit (more than 65536 bytes received)"))
        #expect(server.requests.count == 1)
        // The same body without a cap problem arrives whole, also without a length.
        let whole = try get(server.url("/stream"), client(cap: 8 << 20))
        #expect(whole.status == 200 && whole.body.count == 4 << 20)
    }

    @Test func aBodyOfExactlyTheCapIsAccepted() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/edge", [.json(String(repeating: "z", count: 1000))])
        #expect(try get(server.url("/edge"), client(cap: 1000)).body.count == 1000)
        #expect(HTTPClient().maxResponseBytes == 64 << 20)
    }

    @Test func aFetchOverTheCapStoresNothing() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/interpreter", [try .file(fixtures.appendingPathComponent("web/overpass-center.json"))])
        var fetcher = POIFetcher(source: .overpass, endpoint: server.url("/api/interpreter"))
        fetcher.client = client(cap: 100)
        let db = try POIDatabase()
        let error = try #require(inputError {
            _ = try fetcher.fetch(center: GeoCoordinate(latitude: 60.1686, longitude: 24.9450), radius: 500, categories: ["cafe"], into: db)
        })
        #expect(error.message.contains("larger than the 100 bytes limit"))
        #expect(try db.count() == 0 && db.fetches().isEmpty)
    }
}
