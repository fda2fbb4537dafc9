import Foundation
import Testing

/// A log's `# pois:`, `# camera:` and `# stills:` lines may name only files inside its folder.
@Suite struct LogReferenceTests {
    /// The first 6 s of the sample walk with one metadata line replaced (or added).
    func log(_ key: String, _ value: String) throws -> String {
        var lines = try walkPrefix(seconds: 6).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let i = lines.firstIndex(where: { $0.hasPrefix("# \(key):") }) {
            lines[i] = "# \(key): \(value)"
        } else {
            lines.insert("# \(key): \(value)", at: 1)
        }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: [
        ("pois", "/etc/hosts"), ("pois", "../helsinki-esplanadi.osm"), ("pois", "sub/../../x.osm"),
        ("camera", "/tmp/camera.json"), ("camera", "../walk.camera.json"),
        ("stills", "/"), ("stills", ".."),
    ])
    func aLineLeavingTheLogsFolderIsRefused(key: String, value: String) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = try writeLog(try log(key, value), named: "walk.csv", in: folder)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", url.path, "--filter", "cafe", "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(url.path) (\(key)): the log's path \"\(value)\" leaves the log's folder"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frames.jsonl").path))
        // No POI cache was written anywhere but inside the log's folder.
        #expect(!FileManager.default.fileExists(atPath: "/etc/hosts.poiar.sqlite"))
    }

    /// A symbolic link inside the folder that leads out of it is refused too.
    @Test func aSymbolicLinkOutOfTheFolderIsRefused() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("log"), outside = dir.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent("helsinki-esplanadi.osm"),
                                         to: outside.appendingPathComponent("pois.osm"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("pois.osm"),
                                                   withDestinationURL: outside.appendingPathComponent("pois.osm"))
        let url = try writeLog(try log("pois", "pois.osm"), named: "walk.csv", in: folder)
        let r = try runPoiar(["replay", url.path, "--filter", "cafe", "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("(pois): the log's path \"pois.osm\" leaves the log's folder"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("pois.osm.poiar.sqlite").path))
        // Given on the command line, the same file is used.
        let ok = try runPoiar(["replay", url.path, "--filter", "cafe", "--pois", outside.appendingPathComponent("pois.osm").path,
                               "--out", dir.appendingPathComponent("out2").path])
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
