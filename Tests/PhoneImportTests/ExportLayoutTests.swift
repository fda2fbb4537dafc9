import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// A copy of the Android fixture export in a fresh folder, changed by `edit` (file name →
/// new text, nil to remove the file): the layouts real exports have (0-byte files for sensors
/// the phone lacks, no Metadata.csv, a sensor that stops).
func androidExport(_ edit: [String: String?]) throws -> URL {
    let dir = try makeTempDir("export")
    let source = phoneFixtures.appendingPathComponent("sensorlogger-android")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
        try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    for (name, text) in edit {
        let url = dir.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        if let text { try Data(text.utf8).write(to: url) }
    }
    return dir
}

/// The fixture's file `name` with the rows `keep` says to keep (the header always).
func fixtureRows(_ name: String, keep: (Double) -> Bool) throws -> String {
    let text = try String(contentsOf: phoneFixtures.appendingPathComponent("sensorlogger-android/\(name)"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    let epoch = 1_749_895_331.0
    return ([lines[0]] + lines.dropFirst().filter { line in
        let ns = Double(line.prefix { $0 != "," })!
        return keep(ns / 1e9 - epoch)
    }).joined(separator: "\n") + "\n"
}

/// The samples and notices of reading `dir` to the end.
func readWithNotices(_ dir: URL) throws -> (samples: [SensorSample], notices: [String], metadata: LogMetadata) {
    let source = try PhoneRecording(path: dir.path)
    var notices: [String] = []
    source.onNotice = { notices.append($0) }
    let samples = try readAll(source)
    return (samples, notices, source.metadata)
}

@Suite struct ExportLayoutTests {
    static let header = "time,seconds_elapsed,z,y,x\n"

    /// Android writes 0-byte files for sensors the phone lacks, and some exports have files
    /// with only a header: for a sensor poiar can do without or has an alternative for, one
    /// notice each, and the recording reads.
    @Test func emptyAndHeaderOnlyFilesOfOptionalSensorsAreNotices() throws {
        let dir = try androidExport([
            "AccelerometerUncalibrated.csv": "", "MagnetometerUncalibrated.csv": "", "GyroscopeUncalibrated.csv": "",
            "Orientation.csv": "", "Battery.csv": "",
            "TotalAcceleration.csv": Self.header,  // header only: Accelerometer.csv + Gravity.csv instead
            "Location.csv": "time,seconds_elapsed,bearingAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,bearing,altitude,longitude,latitude\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, notices, metadata) = try readWithNotices(dir)
        let counts = bySensor(samples).mapValues(\.count)
        #expect(counts["gyro"] == 401 && counts["accel"] == 401 && counts["mag"] == 200, "\(counts)")
        #expect(counts["gps"] == nil && counts["orientation"] == nil)
        #expect(notices.contains("\(dir.path)/Orientation.csv: empty file (the phone has no such sensor, or it was off): not used"), "\(notices)")
        #expect(notices.contains("\(dir.path)/TotalAcceleration.csv: no samples, only a header: not used"), "\(notices)")
        #expect(notices.contains("\(dir.path)/Location.csv: no samples, only a header: not used"), "\(notices)")
        // Files of sensors poiar has no need of (the calibrated ones are there) are not even opened.
        #expect(!notices.contains { $0.contains("Uncalibrated") || $0.contains("Battery") }, "\(notices)")
        #expect(metadata["import_files"] == "gyro Gyroscope.csv; accel Accelerometer.csv + Gravity.csv; mag Magnetometer.csv")
        #expect(notices.allSatisfy { !$0.contains("\n") })
    }

    /// An empty gyroscope file with nothing else for the role: one error naming the files and
    /// what to record.
    @Test func anEmptyGyroscopeWithNoAlternativeIsAnError() throws {
        let dir = try androidExport(["Gyroscope.csv": "", "GyroscopeUncalibrated.csv": Self.header])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try PhoneRecording(path: dir.path) },
                    mentions: [dir.path, "Gyroscope.csv is empty", "GyroscopeUncalibrated.csv is empty", "record with the Gyroscope sensor on"])
        // With the uncalibrated gyroscope there, it is used instead.
        let spare = try fixtureRows("Gyroscope.csv") { _ in true }
        let other = try androidExport(["Gyroscope.csv": "", "GyroscopeUncalibrated.csv": spare])
        defer { try? FileManager.default.removeItem(at: other) }
        let (samples, notices, metadata) = try readWithNotices(other)
        #expect(bySensor(samples)["gyro"]?.count == 401)
        #expect(metadata["import_files"]?.hasPrefix("gyro GyroscopeUncalibrated.csv") == true)
        #expect(notices.contains { $0.hasPrefix("\(other.path)/Gyroscope.csv: empty file") })
    }

    /// Acceleration without gravity, with Gravity.csv empty: the error says so.
    @Test func accelerationWithoutGravityNamesTheEmptyGravityFile() throws {
        let dir = try androidExport(["TotalAcceleration.csv": nil, "Gravity.csv": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try PhoneRecording(path: dir.path) },
                    mentions: ["\(dir.path)/Accelerometer.csv", "without gravity", "Gravity.csv is empty", "record with the gravity sensor on"])
    }

    /// No Metadata.csv: a notice saying which platform was assumed and why.
    @Test func withoutMetadataThePlatformIsInferredAndSaid() throws {
        let android = try androidExport(["Metadata.csv": nil])
        defer { try? FileManager.default.removeItem(at: android) }
        let a = try readWithNotices(android)
        #expect(a.notices.contains("\(android.path): no Metadata.csv: taken as recorded on Android (TotalAcceleration.csv is written only on Android)"), "\(a.notices)")
        #expect(a.metadata.device == "unknown device (android, inferred)")
        #expect(a.metadata.orientationNorth == .magnetic)

        // iOS: no TotalAcceleration.csv, and Location.csv with altitudeAboveMeanSeaLevel.
        let location = try fixtureRows("Location.csv") { _ in true }.split(separator: "\n")
            .enumerated().map { $0.offset == 0 ? $0.element + ",altitudeAboveMeanSeaLevel" : $0.element + ",2.5" }.joined(separator: "\n")
        let ios = try androidExport(["Metadata.csv": nil, "TotalAcceleration.csv": nil, "Location.csv": location])
        defer { try? FileManager.default.removeItem(at: ios) }
        let i = try readWithNotices(ios)
        #expect(i.notices.contains { $0.contains("no Metadata.csv: taken as recorded on iOS (Location.csv's altitudeAboveMeanSeaLevel is written only on iOS)") }, "\(i.notices)")
        #expect(i.notices.contains { $0.contains("\"Standardise Units & Frames\"") && $0.contains("taking it as off") })
        #expect(i.metadata["import_ios_standardised"] == "false")
    }

    /// Both magnetometer files: the calibrated one is `mag`, the raw one `mag_uncal` (which
    /// offline fusion calibrates itself); each row's field as the file has it.
    @Test func theUncalibratedMagnetometerIsReadBesideTheCalibratedOne() throws {
        let mag = try fixtureRows("Magnetometer.csv") { _ in true }
        let dir = try androidExport(["MagnetometerUncalibrated.csv": mag])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, _, _) = try readWithNotices(dir)
        let sensors = bySensor(samples)
        #expect(sensors["mag"]?.count == 200 && sensors["mag_uncal"]?.count == 200, "\(sensors.mapValues(\.count))")
        #expect(sensors["mag"]?.map(\.time) == sensors["mag_uncal"]?.map(\.time))
    }

    /// A phone without a magnetometer is a valid recording: a notice, and the rest reads.
    @Test func noMagnetometerIsANotice() throws {
        let dir = try androidExport(["Magnetometer.csv": nil, "MagnetometerUncalibrated.csv": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, notices, _) = try readWithNotices(dir)
        #expect(bySensor(samples)["mag"] == nil && bySensor(samples)["gyro"]?.count == 401)
        #expect(notices.contains { $0.hasPrefix("\(dir.path): no magnetometer samples (no Magnetometer.csv, MagnetometerUncalibrated.csv is empty)") }, "\(notices)")
    }

    /// A sensor that stops while the others go on: one notice per gap, with its time and length.
    @Test func aGyroscopeGapIsReportedWithItsTimeAndLength() throws {
        let gyro = try fixtureRows("Gyroscope.csv") { $0 < 1.0 || $0 >= 2.5 }
        let dir = try androidExport(["Gyroscope.csv": gyro])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, notices, _) = try readWithNotices(dir)
        let gaps = notices.filter { $0.contains("no samples for") }
        #expect(gaps.count == 1, "\(notices)")
        #expect(gaps.first?.hasPrefix("\(dir.path)/Gyroscope.csv: no samples for 1.5 s from t = 1.0 s") == true, "\(gaps)")
    }

    /// Shorter pauses (under max(1 s, 50 sample periods)) are not gaps.
    @Test func gapWatchThreshold() {
        var watch = GapWatch()
        var reported: [Double] = []
        var t = 0.0
        for k in 0..<300 {
            t += k == 100 ? 0.9 : k == 200 ? 1.2 : 0.01
            if let gap = watch.add(t) { reported.append(gap) }
        }
        #expect(reported.count == 1 && abs(reported[0] - 1.2) < 1e-9, "\(reported)")
        // A 1 Hz GPS: a gap is over 50 s.
        var gps = GapWatch()
        let gpsGaps = ([1, 2, 3, 4, 5, 35, 36, 37, 97] as [Double]).compactMap { gps.add($0) }
        #expect(gpsGaps == [60], "\(gpsGaps)")
    }

    /// The 600 s rule of poiar-log/1 holds for phone recordings: a recording that goes more
    /// than 600 s without any row is refused at the row after the gap.
    @Test func aGapOverTenMinutesIsAnError() throws {
        let far = try fixtureRows("Gyroscope.csv") { $0 < 2 } + "1749896331000000000,0,0.01,0.02,0.03\n"
        let dir = try androidExport(["Gyroscope.csv": far, "Orientation.csv": nil])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = far.split(separator: "\n").count
        expectError({ _ = try readAll(PhoneRecording(path: dir.path)) },
                    mentions: ["\(dir.path)/Gyroscope.csv:\(lines) (time)", "time jumps 996.0 s from 4.0 (", ".csv line ", "over the 600.0 s"])
    }
}
