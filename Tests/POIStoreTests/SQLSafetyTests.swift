import Foundation
import POIARCore
import Testing
@testable import POIStore

/// SQL is only ever built from constants; every value is a bound parameter (docs/security.md).
@Suite struct SQLSafetyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/POIStore").standardizedFileURL

    /// Text that would break string-built SQL is stored and found verbatim.
    @Test func quotesAndSQLInValuesAreData() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let db = try POIDatabase(path: folder.appendingPathComponent("q.sqlite").path)
        let nasty = "Bobby'); DROP TABLE poi; --"
        try db.upsert([makePOI("csv:1'--", lat: 60.1, lon: 24.9, name: nasty), makePOI("csv:2", lat: 60.1001, lon: 24.9, name: "\"x\" OR 1=1")],
                      source: "t")
        #expect(try db.count() == 2)
        #expect(try db.poi(id: "csv:1'--")?.name == nasty)
        #expect(try db.poi(id: "' OR '1'='1") == nil)
        let hits = try db.query(near: GeoCoordinate(latitude: 60.1, longitude: 24.9), radius: 100, categories: ["cafe"])
        #expect(hits.map(\.poi.name).sorted() == ["\"x\" OR 1=1", nasty])
        try db.setMetaValue("'; DELETE FROM poi; --", forKey: "k'ey")
        #expect(try db.metaValue(forKey: "k'ey") == "'; DELETE FROM poi; --")
        #expect(try db.count() == 2)
    }

    /// The audit, kept: in POIStore's sources, a line that builds SQL interpolates only the
    /// constant column list or a run of "?" placeholders.
    @Test func noSQLIsBuiltFromValues() throws {
        let allowed = ["\\(Self.poiColumns)", "\\(POIDatabase.poiColumns)", "\\(Array(repeating: \"?\""]
        let keywords = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "DROP ", "PRAGMA ", "ATTACH ", " WHERE ", " IN ("]
        var offending: [String] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where keywords.contains(where: { line.contains($0) }) && line.contains("\\(") {
                var rest = String(line)
                for a in allowed { rest = rest.replacingOccurrences(of: a, with: "") }
                if rest.contains("\\(") && !line.contains("InputError") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    offending.append("\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offending.isEmpty, "SQL built with interpolation:\n\(offending.joined(separator: "\n"))")
    }
}
