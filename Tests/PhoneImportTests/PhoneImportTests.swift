import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport
@_exported import PoiarTestSupport

/// Tests/Fixtures/phone: one simulated 4 s look-around (`look-around.csv`) and the same
/// samples as Sensor Logger (Android folder, iOS zip) and phyphox (comma and semicolon zips)
/// export them; made by tools/make_phone_fixtures.py.
let phoneFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/phone")

func readAll(_ source: LogSource) throws -> [SensorSample] {
    var out: [SensorSample] = []
    while let r = try source.nextRecord() { out.append(r.sample) }
    return out
}

func bySensor(_ samples: [SensorSample]) -> [String: [SensorSample]] {
    Dictionary(grouping: samples, by: \.sensorName)
}

func makeFolder(_ files: [String: String]) throws -> URL {
    let dir = try makeTempDir("phone")
    for (name, text) in files {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return dir
}

func expectError(_ body: () throws -> Void, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try body()
        Issue.record("expected an error mentioning \(mentions)", sourceLocation: sourceLocation)
    } catch {
        let text = "\(error)"
        for m in mentions { #expect(text.contains(m), "expected \"\(m)\" in: \(text)", sourceLocation: sourceLocation) }
    }
}

@Suite struct PhoneImportTests {
    static let recordings = ["sensorlogger-android", "sensorlogger-ios.zip", "phyphox.zip", "phyphox-semicolon.zip"]

    /// Every export gives back the simulated samples: same times (the exports' epoch times and
    /// experiment times turned back into the log's clock), same values, the right signs.
    @Test(arguments: recordings)
    func importGivesBackTheSimulatedSamples(_ name: String) throws {
        let reference = bySensor(try readAll(SensorLogReader(path: phoneFixtures.appendingPathComponent("look-around.csv").path)))
        let source = try openLogSource(path: phoneFixtures.appendingPathComponent(name).path)
        #expect(source is PhoneRecording)
        var notices: [String] = []
        source.onNotice = { notices.append($0) }
        let imported = bySensor(try readAll(source))
        for sensor in ["gyro", "accel", "mag", "gps"] {
            let a = try #require(imported[sensor]), b = try #require(reference[sensor])
            #expect(a.count == b.count, "\(name) \(sensor): \(a.count) vs \(b.count)")
            for (x, y) in zip(a, b) {
                #expect(abs(x.time - y.time) < 1e-6, "\(name) \(sensor) time \(x.time) vs \(y.time)")
                switch (x, y) {
                case let (.vector(s, _, u), .vector(r, _, v)) where s == r:
                    #expect((u - v).norm < 2e-5, "\(name) \(sensor) at \(x.time): \(u) vs \(v)")
                case let (.gps(f), .gps(g)):
                    #expect(abs(f.coordinate.latitude - g.coordinate.latitude) < 1e-8)
                    #expect(abs(f.coordinate.longitude - g.coordinate.longitude) < 1e-8)
                    #expect(abs((f.coordinate.altitude ?? .nan) - (g.coordinate.altitude ?? .nan)) < 1e-3)
                    #expect(abs((f.horizontalAccuracy ?? .nan) - (g.horizontalAccuracy ?? .nan)) < 1e-3)
                default: Issue.record("\(name): mismatched samples \(x) / \(y)")
                }
            }
        }
        // Records come out in time order.
        var last = -Double.infinity
        for s in imported.values.flatMap({ $0 }).sorted(by: { $0.time < $1.time }) { #expect(s.time >= last); last = s.time }
        #expect(source.metadata.startUTC == ISO8601DateFormatter().date(from: "2025-06-14T10:02:11Z"))
        #expect(source.metadata.format == "poiar-log/1")
        if name.hasPrefix("sensorlogger") {
            // The fixtures repeat one gyro row, as phones sometimes do: skipped, with a notice.
            #expect(notices.contains { $0.contains("Gyroscope.csv") && $0.contains("skipped 1 row") }, "\(notices)")
        }
    }

    @Test func metadataNamesTheDeviceAndTheFilesUsed() throws {
        let android = try PhoneRecording(path: phoneFixtures.appendingPathComponent("sensorlogger-android").path)
        #expect(android.app == .sensorLogger)
        #expect(android.metadata.device == "Pixel 7 (android, Sensor Logger 1.59)")
        #expect(android.metadata["import_files"]?.contains("accel TotalAcceleration.csv") == true)
        let ios = try PhoneRecording(path: phoneFixtures.appendingPathComponent("sensorlogger-ios.zip").path)
        #expect(ios.metadata["import_files"]?.contains("accel Accelerometer.csv + Gravity.csv") == true)
        #expect(ios.metadata["import_ios_standardised"] == "false")
        let phyphox = try PhoneRecording(path: phoneFixtures.appendingPathComponent("phyphox.zip").path)
        #expect(phyphox.app == .phyphox)
        #expect(phyphox.metadata.device == "google Pixel 7 (phyphox 1.2.0)")
    }

    @Test func aPoiarLogIsReadAsItIs() throws {
        let source = try openLogSource(path: phoneFixtures.appendingPathComponent("look-around.csv").path)
        #expect(source is SensorLogReader)
    }

    /// iOS with "Standardise Units & Frames" on: Android's signs, so no negation.
    @Test func standardisedIOSKeepsAndroidSigns() throws {
        let header = "time,seconds_elapsed,z,y,x\n"
        let meta = "version,device name,recording epoch time,platform,standardisation\n3,iPhone,1749895331000,ios,true\n"
        let dir = try makeFolder([
            "Metadata.csv": meta,
            "Gyroscope.csv": header + "1749895331000000000,0,0.01,0.02,0.03\n",
            "Accelerometer.csv": header + "1749895331000000000,0,0.5,0,0\n",
            "Gravity.csv": header + "1749895331000000000,0,0,9.8,0\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = try readAll(PhoneRecording(path: dir.path))
        let f = try #require(samples.lazy.compactMap { $0.value(of: .accel) }.first)
        #expect(f == Vector3(0, 9.8, 0.5))
        let w = try #require(samples.lazy.compactMap { $0.value(of: .gyro) }.first)
        #expect(w == Vector3(0.03, 0.02, 0.01))  // columns z,y,x
    }

    @Test func badRowIsNamedByItsFileInsideTheRecordingAndLine() throws {
        let header = "time,seconds_elapsed,z,y,x\n"
        let dir = try makeFolder([
            "Gyroscope.csv": header + "1749895331000000000,0,0.01,0.02,0.03\n1749895331010000000,0.01,0.01,abc,0.03\n",
            "TotalAcceleration.csv": header + "1749895331000000000,0,0,9.8,0\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try readAll(PhoneRecording(path: dir.path)) }, mentions: ["\(dir.path)/Gyroscope.csv:3", "(y)", "not a number"])
    }

    @Test func recordingsWithoutGyroOrGravityOrAKnownLayoutAreRefused() throws {
        let header = "time,seconds_elapsed,z,y,x\n"
        let noGyro = try makeFolder(["TotalAcceleration.csv": header + "1749895331000000000,0,0,9.8,0\n",
                                     "Metadata.csv": "version,device name,platform\n3,Pixel,android\n"])
        let noGravity = try makeFolder(["Gyroscope.csv": header + "1749895331000000000,0,0,0,0\n",
                                        "Accelerometer.csv": header + "1749895331000000000,0,0,0.1,0\n"])
        let unknown = try makeFolder(["data.csv": "a,b,c\n1,2,3\n"])
        let linearOnly = try makeFolder(["Gyroscope.csv": "\"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"\n0,0,0,0\n",
                                         "Linear Acceleration.csv": "\"Time (s)\",\"Linear Acceleration x (m/s^2)\",\"Linear Acceleration y (m/s^2)\",\"Linear Acceleration z (m/s^2)\"\n0,0,0,0\n"])
        defer { for d in [noGyro, noGravity, unknown, linearOnly] { try? FileManager.default.removeItem(at: d) } }
        expectError({ _ = try PhoneRecording(path: noGyro.path) }, mentions: [noGyro.path, "Gyroscope.csv"])
        expectError({ _ = try PhoneRecording(path: noGravity.path) }, mentions: ["Accelerometer.csv", "without gravity", "Gravity.csv"])
        expectError({ _ = try PhoneRecording(path: unknown.path) }, mentions: ["unknown recording layout", "data.csv"])
        expectError({ _ = try PhoneRecording(path: linearOnly.path) }, mentions: ["Linear Acceleration.csv", "Acceleration with g"])
        expectError({ _ = try openLogSource(path: "/nonexistent/rec.zip") }, mentions: ["/nonexistent/rec.zip", "no such file"])
    }

    @Test func unitsInTheWrongScaleAreCaught() throws {
        // A gyro in °/s under Sensor Logger's rad/s header: beyond any phone gyroscope.
        let header = "time,seconds_elapsed,z,y,x\n"
        let dir = try makeFolder(["Gyroscope.csv": header + "1749895331000000000,0,0,0,120\n",
                                  "TotalAcceleration.csv": header + "1749895331000000000,0,0,9.8,0\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try readAll(PhoneRecording(path: dir.path)) }, mentions: ["Gyroscope.csv:2", "rad/s"])
    }

    @Test func zipEntriesAreCheckedAgainstTheirCRC() throws {
        let dir = try makeFolder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](try Data(contentsOf: phoneFixtures.appendingPathComponent("phyphox-semicolon.zip")))
        // Flip a digit inside the stored Gyroscope.csv (entries are sorted: Accelerometer, Gyroscope, …).
        let archive = try ZipArchive(path: phoneFixtures.appendingPathComponent("phyphox-semicolon.zip").path)
        let gyro = try #require(archive.entries.first { $0.name == "Gyroscope.csv" })
        #expect(gyro.method == 0)
        let at = Int(gyro.localHeaderOffset) + 30 + gyro.name.utf8.count + 200
        bytes[at] = bytes[at] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        let damaged = dir.appendingPathComponent("damaged.zip")
        try Data(bytes).write(to: damaged)
        expectError({ _ = try readAll(PhoneRecording(path: damaged.path)) }, mentions: ["damaged.zip/Gyroscope.csv", "CRC"])

        let truncated = dir.appendingPathComponent("truncated.zip")
        try Data(bytes.prefix(bytes.count / 2)).write(to: truncated)
        expectError({ _ = try openLogSource(path: truncated.path) }, mentions: ["truncated.zip", "zip"])
    }

    @Test func deflatedEntriesInflate() throws {
        let archive = try ZipArchive(path: phoneFixtures.appendingPathComponent("phyphox.zip").path)
        let entry = try #require(archive.entries.first { $0.name == "Gyroscope.csv" })
        #expect(entry.method == 8)
        let source = try archive.open(entry)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1000)
        while case let n = try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 { total += n }
        #expect(UInt64(total) == entry.uncompressedSize)
    }

    @Test func csvSplittingHandlesQuotesAndSeparators() {
        func split(_ line: String, _ sep: Character) -> [String] {
            var fields = FieldBounds()
            defer { fields.deallocate() }
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer { b in
                CSVTable.split(b, sep.asciiValue!, &fields)
                return (0..<fields.count).map { CSVTable.unquoted(UnsafeBufferPointer(rebasing: b[fields.start($0)..<fields.end($0)])) }
            }
        }
        func separator(_ header: String) -> Character {
            Character(UnicodeScalar(Array(header.utf8).withUnsafeBufferPointer { CSVTable.guessSeparator($0) }))
        }
        #expect(split("\"a\",\"b, c\",3", ",") == ["a", "b, c", "3"])
        #expect(split("\"x \"\"y\"\"\";1,5", ";") == ["x \"y\"", "1,5"])
        #expect(split(" 1 , 2,,", ",") == ["1", "2", "", ""])
        #expect(separator("\"Time (s)\"\t\"X (m/s^2)\"") == "\t")
        #expect(separator("time,seconds_elapsed,z,y,x") == ",")
    }
}
