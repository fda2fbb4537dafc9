import Foundation
import POIARCore
import Testing
@testable import SensorLog

/// Every vector sensor goes through the same table: what is true of one is true of a sensor
/// added to `VectorSensor.table` later, without a test of its own.
@Suite("VectorSensor: one description per sensor")
struct VectorSensorTests {
    /// Writes every sensor's rows (plain ones for the fast path, padded ones for the general
    /// path), reads them back and writes them again.
    @Test func everySensorIsReadAndWrittenBackOnBothPaths() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        var rows: [String] = [], expected: [SensorSample] = []
        for (k, sensor) in VectorSensor.allCases.enumerated() {
            // Earth-like magnitudes: a tenth of each sensor's limit passes the median checks.
            let v = Vector3(0.1, -0.2, 1) * (sensor.properties.maxMagnitude / 10)
            let fast = SensorSample.vector(sensor, time: Double(k), value: v)
            rows.append(SensorLogFormat.row(fast))
            let general = SensorSample.vector(sensor, time: Double(k) + 0.5, value: v)
            rows.append(SensorLogFormat.row(general).replacingOccurrences(of: ",", with: " , "))
            expected += [fast, general]
        }
        let path = try write((SensorLogFormat.headerLines(LogMetadata()) + rows).joined(separator: "\n") + "\n",
                             to: "sensors.csv", in: folder)
        let read = try Self.samples(path)
        #expect(read.count == expected.count)
        for (a, b) in zip(read, expected) {
            #expect(a.sensorName == b.sensorName && a.time == b.time)
            #expect(SensorLogFormat.row(a) == SensorLogFormat.row(b))
        }
        for sensor in VectorSensor.allCases {
            #expect(VectorSensor(name: sensor.name) == sensor)
            #expect(read.contains { $0.value(of: sensor) != nil })
        }
    }

    /// A value past a sensor's limit is refused naming the quantity and the expected unit.
    @Test func everySensorRefusesAValueBeyondItsLimit() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        for sensor in VectorSensor.allCases {
            let row = SensorLogFormat.row(.vector(sensor, time: 0, value: Vector3(sensor.properties.maxMagnitude * 2, 0, 0)))
            let path = try write((SensorLogFormat.headerLines(LogMetadata()) + [row]).joined(separator: "\n") + "\n",
                                 to: "\(sensor.name).csv", in: folder)
            let error = #expect(throws: InputError.self) { _ = try Self.samples(path) }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains(sensor.properties.quantity) && message.contains(sensor.properties.unit), "\(message)")
        }
    }

    static func samples(_ path: String) throws -> [SensorSample] {
        let reader = try SensorLogReader(path: path)
        var out: [SensorSample] = []
        while let record = try reader.nextRecord() { out.append(record.sample) }
        return out
    }
}
