import Foundation
import POIARCore
import Testing
@testable import POIStore

@Suite struct DatabaseTests {
    @Test func storesAndReadsBackEveryField() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("pois.sqlite").path
        let poi = POI(id: "osm:node/1", name: "Café \"Ö\"", category: "cafe",
                      coordinate: GeoCoordinate(latitude: 60.1, longitude: 24.9, altitude: 12.5),
                      address: "Street 1", phone: "+1", website: "https://x.example/a/b",
                      openingHours: "24/7", tags: ["amenity": "cafe", "name": "Café \"Ö\""])
        do {
            let db = try POIDatabase(path: path)
            #expect(try db.upsert([poi], source: "a.osm") == (inserted: 1, updated: 0))
            try db.close()
        }
        let reopened = try POIDatabase(path: path, readOnly: true)
        #expect(try reopened.poi(id: "osm:node/1") == poi)
        #expect(try reopened.metaValue(forKey: "schema_version") == "3")
        #expect(inputError { try reopened.upsert([poi], source: "b") }?.message.contains("read-only") == true)
    }

    @Test func aTextFileIsNotADatabase() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let url = try write("id,name\n1,hello\n", to: "pois.csv", in: folder)
        for readOnly in [false, true] {
            let error = try #require(inputError { _ = try POIDatabase(path: url.path, readOnly: readOnly) })
            #expect(error.location.file == url.path)
            #expect(error.message.hasPrefix("not a poiar POI database"))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "id,name\n1,hello\n")  // untouched
    }

    @Test func aCorruptDatabaseIsReportedCleanly() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let url = folder.appendingPathComponent("corrupt.sqlite")
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data(repeating: 0xA5, count: 4000))
        try bytes.write(to: url)
        let error = try #require(inputError { _ = try POIDatabase(path: url.path) })
        #expect(error.location.file == url.path)
        let viaSource = try #require(inputError { _ = try openPOISource(url) })
        #expect(viaSource.location.file == url.path)
    }

    @Test func anotherAppsSQLiteDatabaseIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("other.sqlite").path
        do {
            let db = try POIDatabase(path: path)
            try db.execute(sql: "DROP TABLE meta; DROP TABLE poi; CREATE TABLE notes (body TEXT);")
            try db.close()
        }
        let error = try #require(inputError { _ = try POIDatabase(path: path) })
        #expect(error.message.hasPrefix("not a poiar POI database"))
        #expect(error.location.file == path)
    }

    @Test func aNewerSchemaIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("future.sqlite").path
        do {
            let db = try POIDatabase(path: path)
            try db.setMetaValue("4", forKey: "schema_version")
            try db.close()
        }
        for readOnly in [false, true] {
            let error = try #require(inputError { _ = try POIDatabase(path: path, readOnly: readOnly) })
            #expect(error.location.field == "schema_version")
            #expect(error.message.contains("newer than this poiar supports (3)"))
        }
    }

    @Test func missingDatabaseReadOnly() {
        let error = inputError { _ = try POIDatabase(path: "/nonexistent/pois.sqlite", readOnly: true) }
        #expect(error?.description == "/nonexistent/pois.sqlite: no such POI database")
    }
}

@Suite struct POISourceTests {
    static let osm = """
    <osm version="0.6">
      <node id="1" lat="60.0" lon="25.0"><tag k="amenity" v="cafe"/><tag k="name" v="One"/></node>
    </osm>
    """

    @Test func importsIntoACacheBesideTheSourceAndReusesIt() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let source = try write(Self.osm, to: "city.osm", in: folder)
        var reports: [ImportReport] = []
        let db = try openPOISource(source) { reports.append($0) }
        #expect(reports.count == 1)
        #expect(db.isReadOnly)
        #expect(db.path == folder.appendingPathComponent("city.osm.poiar.sqlite").path)
        #expect(try db.allPOIs().map(\.name) == ["One"])
        try db.close()

        // Unchanged source: the cache is reused.
        let again = try openPOISource(source) { reports.append($0) }
        #expect(reports.count == 1)
        try again.close()

        // Changed source: rebuilt.
        try Data(Self.osm.replacingOccurrences(of: "One", with: "Two!").utf8).write(to: source)
        let rebuilt = try openPOISource(source) { reports.append($0) }
        #expect(reports.count == 2)
        #expect(try rebuilt.allPOIs().map(\.name) == ["Two!"])
        try rebuilt.close()

        // No temporary files are left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["city.osm", "city.osm.poiar.sqlite"])

        // The cache is itself a POI source (a poiar database), opened as it is.
        let direct = try openPOISource(folder.appendingPathComponent("city.osm.poiar.sqlite")) { reports.append($0) }
        #expect(reports.count == 2)
        #expect(try direct.count() == 1)
    }

    @Test func aFailedImportLeavesNoCache() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let source = try write("<osm>\n<node id=\"1\" lat=\"x\" lon=\"1\"/>\n</osm>", to: "bad.osm", in: folder)
        let error = try #require(inputError { _ = try openPOISource(source) })
        #expect(error.location.file == source.path)
        #expect(error.location.line == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bad.osm"])
    }

    @Test func aMissingSourceIsNamed() {
        let error = inputError { _ = try openPOISource(URL(fileURLWithPath: "/nonexistent/pois.osm")) }
        #expect(error?.description == "/nonexistent/pois.osm: no such POI source")
    }

    @Test func aReadOnlyFolderCachesInTheTemporaryFolder() throws {
        // A folder without write permission (as ../shared/data is), even for root.
        let folder = try makeTemporaryFolder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            cleanUp(folder)
        }
        let source = folder.appendingPathComponent("West-Oakland.osm")
        try FileManager.default.copyItem(at: sharedOSMData.appendingPathComponent("West-Oakland.osm"), to: source)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let db = try openPOISource(source)
        defer {  // the cache in the system temp folder, and its folder when nothing else is in it
            try? FileManager.default.removeItem(atPath: db.path)
            rmdir((db.path as NSString).deletingLastPathComponent)
        }
        #expect(!db.path.hasPrefix(folder.path))
        #expect(db.path.hasSuffix(".poiar.sqlite"))
        #expect(try db.poi(id: "osm:node/1747162566")?.category == "cafe")
    }

    @Test func aTextFileSourceIsAnImportError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let source = try write("just text", to: "pois.txt", in: folder)
        let error = try #require(inputError { _ = try openPOISource(source) })
        #expect(error.location.file == source.path)
        #expect(error.message.hasPrefix("unrecognised POI source format"))
    }
}
