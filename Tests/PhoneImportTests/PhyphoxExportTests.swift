import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// A phyphox "CSV (zip)" export, unpacked, of a phone lying still for 2 s (gyroscope,
/// accelerometer, magnetometer at 50 Hz, one GPS fix a second), in phyphox's layout: quoted
/// headers, Java's 0.000000000E0 numbers. `meta/time.csv` only when `dated`; `gyroHeader`
/// replaces the gyroscope's header.
func phyphoxExport(dated: Bool = true, gyroHeader: String? = nil) throws -> URL {
    func table(_ header: [String], _ rows: [[Double]]) -> String {
        ([header.map { "\"\($0)\"" }.joined(separator: ",")]
         + rows.map { $0.map { String(format: "%.9E", $0) }.joined(separator: ",") }).joined(separator: "\n") + "\n"
    }
    let times = (0..<100).map { Double($0) * 0.02 }
    var files: [String: String] = [
        "Gyroscope.csv": table(["Time (s)", "Gyroscope x (rad/s)", "Gyroscope y (rad/s)", "Gyroscope z (rad/s)"],
                               times.map { [$0, 0.001, -0.002, 0.0005] }),
        "Accelerometer.csv": table(["Time (s)", "Acceleration x (m/s^2)", "Acceleration y (m/s^2)", "Acceleration z (m/s^2)"],
                                   times.map { [$0, 0.01, 0.02, 9.81] }),
        "Magnetometer.csv": table(["Time (s)", "Magnetic field x (µT)", "Magnetic field y (µT)", "Magnetic field z (µT)"],
                                  times.map { [$0, 0, 14.8, -50.4] }),
        "Location.csv": table(["Time (s)", "Latitude (°)", "Longitude (°)", "Height (m)", "Horizontal Accuracy (m)"],
                              [0.0, 1.0].map { [$0, 60.1678863, 24.9493217, 20, 5] }),
        "meta/device.csv": "\"property\",\"value\"\n\"deviceModel\",\"iPhone\"\n\"version\",\"1.1.16\"\n",
    ]
    if dated {
        files["meta/time.csv"] = "\"event\",\"experiment time\",\"system time\",\"system time text\"\n\"START\",0.000000000E0,1749895331.250,\"2025-06-14 13:02:11.250 UTC+03:00\"\n"
    }
    if let gyroHeader {
        let lines = files["Gyroscope.csv"]!.split(separator: "\n")
        files["Gyroscope.csv"] = ([Substring(gyroHeader)] + lines.dropFirst()).joined(separator: "\n") + "\n"
    }
    return try makeFolder(files)
}

@Suite struct PhyphoxExportTests {
    @Test func theSyntheticExportReads() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, _, metadata) = try readWithNotices(dir)
        #expect(bySensor(samples).mapValues(\.count) == ["gyro": 100, "accel": 100, "mag": 100, "gps": 2])
        #expect(metadata["start_utc"] == "2025-06-14T10:02:11Z")
    }

    /// "Time (s)" is there but the sensor columns were renamed: the error names the file, its
    /// columns and what was expected, rather than saying there is no gyroscope.
    @Test func renamedColumnsAreNamedAsWrong() throws {
        let dir = try phyphoxExport(gyroHeader: "\"Time (s)\",\"wx\",\"wy\",\"wz\"")
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try PhoneRecording(path: dir.path) },
                    mentions: ["\(dir.path)/Gyroscope.csv: columns \"Time (s)\", \"wx\", \"wy\", \"wz\" are not phyphox's",
                               "expected \"Time (s)\",\"Gyroscope x (rad/s)\""])
        do { _ = try PhoneRecording(path: dir.path) } catch { #expect(!"\(error)".contains("without gyroscope data")) }
    }

    /// Renamed columns in another file: a notice naming it, its columns and the expected ones.
    @Test func renamedColumnsOfAnotherSensorAreANotice() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("\"Time (s)\",\"B1\",\"B2\",\"B3\"\n0,1,2,3\n".utf8).write(to: dir.appendingPathComponent("Magnetometer.csv"))
        let (_, notices, _) = try readWithNotices(dir)
        #expect(notices.contains { $0.hasPrefix("\(dir.path)/Magnetometer.csv: columns \"Time (s)\", \"B1\", \"B2\", \"B3\" are not a sensor's poiar knows (expected") }, "\(notices)")
    }

    /// No meta/time.csv: no date. Said once, with what it means for the magnetic model, and
    /// marked so that the north's explanation does not say it again.
    @Test func anUndatedExportIsSaidOnce() throws {
        let dir = try phyphoxExport(dated: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, notices, metadata) = try readWithNotices(dir)
        #expect(metadata["start_utc"] == nil)
        #expect(metadata[LogMetadata.startUnknownKey] != nil)
        let said = notices.filter { $0.contains("date") }
        #expect(said == ["\(dir.path): no meta/time.csv, so the recording's date is unknown (the log has no start_utc); where the magnetic model needs a date (true north from GPS), today's is used"], "\(notices)")
        // A log written from it does not carry the mark (it has told no one).
        #expect(!SensorLogFormat.headerLines(metadata).contains { $0.contains(LogMetadata.startUnknownKey) })
    }

    /// A custom experiment's export set may hold several sensors in one file: each is read.
    @Test func severalSensorsInOneFileAreEachRead() throws {
        let header = ["Time (s)", "Accelerometer X (m/s^2)", "Accelerometer Y (m/s^2)", "Accelerometer Z (m/s^2)",
                      "Gyroscope X (rad/s)", "Gyroscope Y (rad/s)", "Gyroscope Z (rad/s)",
                      "Magnetometer X (µT)", "Magnetometer Y (µT)", "Magnetometer Z (µT)", "Barometer X (hPa)"]
        let rows = (0..<50).map { k in
            ([Double(k) * 0.02, 0.1, 0.2, 9.8, 0.01, 0.02, 0.03, 0, 14.8, -50.4, 1013] as [Double]).map { "\($0)" }.joined(separator: ",")
        }
        let dir = try makeFolder(["Raw Data.csv": ([header.map { "\"\($0)\"" }.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, _, metadata) = try readWithNotices(dir)
        #expect(bySensor(samples).mapValues(\.count) == ["gyro": 50, "accel": 50, "mag": 50])
        #expect(metadata["import_files"] == "gyro Raw Data.csv; accel Raw Data.csv; mag Raw Data.csv")
        guard case .vector(.gyro, _, let w)? = samples.first(where: { $0.sensorName == "gyro" }) else { Issue.record("no gyro"); return }
        #expect(w == Vector3(0.01, 0.02, 0.03))
    }

    @Test func anEmptyFileIsANotice() throws {
        let dir = try phyphoxExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("Pressure.csv"))
        let (samples, notices, _) = try readWithNotices(dir)
        #expect(bySensor(samples)["gyro"]?.count == 100)
        #expect(notices.contains("\(dir.path)/Pressure.csv: empty file: not used"), "\(notices)")
    }
}
