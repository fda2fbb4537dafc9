import Foundation
import POIARCore
import Testing
@testable import SensorLog

@Suite("SensorLogReader: unit plausibility")
struct UnitPlausibilityTests {
    /// `count` rows of one sensor at 100 Hz with the given vector; data rows start at line 3.
    func rows(_ sensor: String, _ count: Int, _ v: (Double, Double, Double)) -> [String] {
        (0..<count).map { i in
            let jitter = Double(i % 7) * 0.001
            return "\(Double(i) * 0.01),\(sensor),\(v.0 + jitter),\(v.1),\(v.2 - jitter),"
        }
    }

    @Test func accelInGIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // Judged on the 200th sample (line 202) when there are that many.
        let long = try write(logText(rows("accel", 300, (0.02, 0.99, 0.1))), to: "g.csv", in: folder)
        let e = expectInputError(long, line: 202, field: "x", containing: ["in g?", "m/s²"])
        #expect(e?.message.contains("9.81") ?? false)
        // A short log is judged at its end, naming its first accel row (line 4, after a gyro row).
        let short = try write(logText(["0.0,gyro,0,0,0,"] + rows("accel", 50, (0.02, 0.99, 0.1))), to: "gs.csv", in: folder)
        expectInputError(short, line: 4, field: "x", containing: ["in g?"])
    }

    @Test func accelInMetresPerSecondSquaredIsFine() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(rows("accel", 300, (0.2, 9.7, 1.0))), to: "ok.csv", in: folder)
        #expect(try readAll(path).count == 300)
        // Free fall or hard shaking for a few samples is not a unit error: the median decides.
        let shaky = rows("accel", 60, (0.01, 0.2, 0.0)) + rows("accel", 240, (0.2, 9.7, 1.0)).map { "1" + $0 }
        let shakyPath = try write(logText(shaky), to: "shaky.csv", in: folder)
        #expect(try readAll(shakyPath).count == 300)
        // Too few samples to judge (< 20) are let through.
        let few = try write(logText(rows("accel", 10, (0.0, 1.0, 0.0))), to: "few.csv", in: folder)
        #expect(try readAll(few).count == 10)
    }

    @Test func impossibleAccelIsRejectedAtOnce() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,accel,0.1,9.8,0.2,", "0.01,accel,0,981,0,"]), to: "cm.csv", in: folder)
        expectInputError(path, line: 4, field: "x", containing: ["m/s²"])
    }

    @Test func magInNanoteslaIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,gyro,0,0,0,"] + rows("mag", 10, (12_000, -20_000, -45_000))), to: "nt.csv", in: folder)
        expectInputError(path, line: 4, field: "x", containing: ["nT", "µT"])
    }

    @Test func magInGaussIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(rows("mag", 250, (0.12, -0.2, -0.45))), to: "gauss.csv", in: folder)
        expectInputError(path, line: 202, field: "x", containing: ["gauss", "µT"])
        let fine = try write(logText(rows("mag", 250, (12, -20, -45))), to: "ut.csv", in: folder)
        #expect(try readAll(fine).count == 250)
    }

    @Test func gyroInDegreesPerSecondIsRejected() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // A quick 90°/s turn logged in °/s; 90 rad/s would be beyond any phone gyro.
        let path = try write(logText(["0.00,gyro,0.5,1.2,-0.3,", "0.01,gyro,3.0,90.0,-5.0,"]), to: "deg.csv", in: folder)
        expectInputError(path, line: 4, field: "x", containing: ["rad/s", "°/s"])
        // A fast but real 20 rad/s spin is accepted.
        let fast = try write(logText(["0.00,gyro,0.5,20.0,-0.3,"]), to: "fast.csv", in: folder)
        #expect(try readAll(fast).count == 1)
    }
}
