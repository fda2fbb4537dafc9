import Foundation
import Geodesy
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// Which phone heights are ellipsoidal and which above sea level (docs/altitude.md).
@Suite struct PhoneAltitudeTests {
    static func altitudes(_ dir: URL, geoid: Geoid) throws -> (altitudes: [Double?], notices: [String], metadata: LogMetadata) {
        let source = try PhoneRecording(path: dir.path, geoid: geoid)
        var notices: [String] = []
        source.onNotice = { notices.append($0) }
        var out: [Double?] = []
        while let r = try source.nextRecord() {
            if case .gps(let fix) = r.sample { out.append(fix.coordinate.altitude) }
        }
        return (out, notices, source.metadata)
    }

    /// phyphox's "Height (m)" is above sea level (iOS: CoreLocation's altitude; Android:
    /// the ellipsoidal height minus phyphox's geoid): + N.
    @Test func phyphoxHeightIsAboveSeaLevel() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let read = try Self.altitudes(dir, geoid: try constantGeoid(17.9))
        #expect(read.altitudes.count == 2)
        for a in read.altitudes { #expect(abs(try #require(a) - (20 + 17.9)) < 1e-4) }
        #expect(read.metadata["import_altitude"] == "Height (m) above sea level + the geoid's height (constant.gtx)")
        #expect(read.notices.allSatisfy { !$0.contains("geoid") })
    }

    /// Without a grid: the height as it is, and one notice naming the file.
    @Test func phyphoxWithoutAGrid() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let read = try Self.altitudes(dir, geoid: Geoid.unavailable("no grid here"))
        #expect(read.altitudes == [20, 20])
        let notes = read.notices.filter { $0.contains("no geoid model") }
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("\(dir.path)/Location.csv: no geoid model: no grid here;") == true)
    }

    /// A height column that names WGS84 (phyphox's `zwgs84` output exported) is ellipsoidal, and
    /// is preferred to the one above sea level.
    @Test func aWGS84ColumnIsUsedAsItIs() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            "Time (s)","Latitude (°)","Longitude (°)","Height (m)","Height WGS84 (m)","Horizontal Accuracy (m)"
            0.000000000E0,6.016788630E1,2.494932170E1,2.000000000E1,3.790000000E1,5.000000000E0
            1.000000000E0,6.016788630E1,2.494932170E1,2.000000000E1,3.790000000E1,5.000000000E0

            """.utf8).write(to: dir.appendingPathComponent("Location.csv"))
        let read = try Self.altitudes(dir, geoid: try constantGeoid(100))
        #expect(read.altitudes == [37.9, 37.9])
        #expect(read.metadata["import_altitude"] == "Height WGS84 (m) above the WGS84 ellipsoid")
    }
}
