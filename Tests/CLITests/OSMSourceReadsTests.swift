import Foundation
import Maps
import POIStore
import Replay
import Testing

/// An OSM extract takes seconds to parse: a replay or a map opens its POI source at most twice
/// (the SQLite-header look, then one parse for the base map, shared by the flat-phone map and
/// `--map`), once its cache is built.
@Suite struct OSMSourceReadsTests {
    /// A log of the walk's first seconds beside its own copy of the OSM extract, the cache built.
    private func walk() throws -> (dir: URL, log: URL, osm: String) {
        let dir = try makeTempDir()
        let log = try writeLog(try walkPrefix(seconds: 12), in: dir)
        let osm = dir.appendingPathComponent("helsinki-esplanadi.osm")
        _ = try openPOISource(osm)
        return (dir, log, osm.path)
    }

    /// How often `path` was opened while `body` ran.
    private func reads(of path: String, _ body: () throws -> Void) rethrows -> Int {
        let before = SourceFileReads.count(path)
        try body()
        return SourceFileReads.count(path) - before
    }

    @Test func aReplayReadsItsOSMSourceAtMostTwice() throws {
        let (dir, log, osm) = try walk()
        defer { cleanUp(dir) }
        func replay(map: Bool, flatMap: Bool, out: String, report: Bool = false) throws {
            var options = ReplayOptions(logPath: log.path)
            options.outputDir = dir.appendingPathComponent(out).path
            options.categories = ["cafe"]
            options.fps = 0.5
            options.overlay.map = map
            options.flatMap = flatMap
            let summary = try ReplayEngine(options: options, notice: { _ in }).run()
            // `replay --report` draws the same base map under the page's track.
            if report { #expect(try summary.baseMap.features()?.isEmpty == false) }
        }
        // The header look, and the base map parsed once for the flat-phone map, map.png and the report.
        #expect(try reads(of: osm) { try replay(map: true, flatMap: true, out: "both", report: true) } == 2)
        #expect(try reads(of: osm) { try replay(map: false, flatMap: false, out: "report", report: true) } == 2)
        #expect(try reads(of: osm) { try replay(map: true, flatMap: false, out: "map") } == 2)
        #expect(try reads(of: osm) { try replay(map: false, flatMap: true, out: "flat") } == 2)
        // No map drawn: only the header look.
        #expect(try reads(of: osm) { try replay(map: false, flatMap: false, out: "none") } == 1)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("both/map.png").path))
    }

    @Test func aMapReadsItsOSMSourceTwice() throws {
        let (dir, log, osm) = try walk()
        defer { cleanUp(dir) }
        let png = dir.appendingPathComponent("map.png")
        var summary: TrackMap.MapSummary?
        #expect(try reads(of: osm) {
            summary = try TrackMap.run(MapOptions(logPath: log.path, outputPath: png.path), notice: { _ in })
        } == 2)
        #expect(summary?.baseMapFeatures ?? 0 > 0)
    }
}
