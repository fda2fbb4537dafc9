import Foundation
import POIARCore
import Testing
@testable import SensorLog

/// The `gps_velocity` row (docs/formats.md): the receiver's ground speed and course for the
/// `gps` row of the same time right after it; written back the same way.
@Suite("SensorLogReader: gps_velocity rows")
struct GPSVelocityRowTests {
    @Test func aVelocityRowGoesWithTheFixAfterIt() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText([
            "1.000000,gps_velocity,12.340,271.50,,0.300",
            "1.000000,gps,60.1,24.9,20.0,5.0",
            "2.000000,gps,60.2,24.9,,5.0",
            "3.000000,gps_velocity,0.100,,,",
            "3.500000,gps,60.3,24.9,,",
        ]), to: "speed.csv", in: folder)
        var notices: [String] = []
        let fixes = try readAll(path, onNotice: { notices.append($0) }).compactMap { r -> GPSFix? in
            if case .gps(let f) = r.sample { return f }; return nil
        }
        #expect(fixes.count == 3)
        #expect(fixes[0].speed == 12.34 && fixes[0].course == 271.5 && fixes[0].speedAccuracy == 0.3)
        #expect(fixes[1].speed == nil && fixes[1].course == nil)
        // A velocity row whose time is not the next fix's says nothing about it.
        #expect(fixes[2].speed == nil)
        #expect(notices.isEmpty)
        // Written back: the two rows, in that order.
        #expect(SensorLogFormat.row(.gps(fixes[0])) == "1.000000,gps_velocity,12.340,271.50,,0.300\n1.000000,gps,60.10000000,24.90000000,20.000,5.000")
        #expect(SensorLogFormat.row(.gps(fixes[1])) == "2.000000,gps,60.20000000,24.90000000,,5.000")
    }

    @Test func aBadVelocityRowNamesItsField() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        for (row, field) in [("1.0,gps_velocity,-1,,,", "x (speed)"), ("1.0,gps_velocity,3,400,,", "y (course)"),
                             ("1.0,gps_velocity,3,10,5,", "z"), ("1.0,gps_velocity,3,10,,-2", "accuracy")] {
            let path = try write(logText([row, "1.0,gps,60,25,,"]), to: "bad.csv", in: folder)
            expectInputError(path, line: 3, field: field)
        }
    }
}
