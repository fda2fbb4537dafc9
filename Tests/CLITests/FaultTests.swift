import Foundation
import Testing

/// Killed processes: an import killed half-way leaves the POI database as it was, and the
/// next command that opens it says so.
@Suite struct ImportKillTests {
    @Test func anImportKilledHalfWayIsRolledBackAndReported() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("pois.sqlite").path
        let small = dir.appendingPathComponent("small.csv")
        try "id,name,category,lat,lon\n1,First,cafe,60.17,24.95\n2,Second,cafe,60.171,24.951\n"
            .write(to: small, atomically: true, encoding: .utf8)
        #expect(try runPoiar(["pois", "import", small.path, "--db", db]).status == 0)

        // A big file: its one transaction takes long enough to be killed in.
        var big = "id,name,category,lat,lon\n"
        big.reserveCapacity(12_000_000)
        for i in 0..<300_000 { big += "b\(i),Cafe \(i),cafe,\(60 + Double(i % 1000) / 10_000),\(24 + Double(i / 1000) / 10_000)\n" }
        let bigURL = dir.appendingPathComponent("big.csv")
        try big.write(to: bigURL, atomically: true, encoding: .utf8)

        let p = Process()
        p.executableURL = poiarExecutable
        p.arguments = ["pois", "import", bigURL.path, "--db", db]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Kill it once the write has begun (its rollback journal exists).
        let journal = db + "-journal"
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: journal) && p.isRunning && Date() < deadline { usleep(2000) }
        usleep(50_000)
        let killedMidWrite = p.isRunning && FileManager.default.fileExists(atPath: journal)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        try #require(killedMidWrite, "the import finished before it could be killed")
        #expect(p.terminationReason == .uncaughtSignal)

        let query = try runPoiar(["pois", "query", "--db", db, "--near", "60.17,24.95", "--radius", "50000"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stderr.contains("\(db): an earlier write to this database did not finish"), "\(query.stderr)")
        let results = try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]]
        #expect(results?.count == 2)
        #expect(!FileManager.default.fileExists(atPath: journal))
        // Said once: the next command finds nothing to report.
        let again = try runPoiar(["pois", "query", "--db", db, "--near", "60.17,24.95", "--radius", "50000"])
        #expect(!again.stderr.contains("did not finish"))
    }
}
