import Foundation
import POIARCore
import SensorLog

/// Sensor Logger (Kelvin Choi's app for Android and iOS), its zip/CSV export: one CSV per
/// sensor with the header `time,seconds_elapsed,z,y,x` (`time` in nanoseconds since the Unix
/// epoch, UTC), plus `Metadata.csv` (device name, platform, …). Units and frames, from the
/// app's documentation (github.com/tszheichoi/awesome-sensor-logger, UNITS.md, COORDINATES.md
/// and CROSSPLATFORM.md):
///
/// - `Gyroscope.csv`: rad/s, the same on both platforms.
/// - `TotalAcceleration.csv` (Android): m/s² with gravity, Android's sign (+9.81 up at rest).
/// - `Accelerometer.csv`: m/s² WITHOUT gravity; `Gravity.csv`: m/s². Their sum is the specific
///   force. On iOS both are negated with respect to Android (flat on a table gravity reads
///   −z), unless "Standardise Units & Frames" was on (`standardisation` in Metadata.csv).
/// - `AccelerometerUncalibrated.csv`: with gravity; on iOS without standardisation in g and
///   with iOS's sign.
/// - `Magnetometer.csv` / `MagnetometerUncalibrated.csv`: µT.
/// - `Location.csv`: latitude, longitude (°), `altitude` (m above the WGS84 ellipsoid),
///   `horizontalAccuracy` (m; negative = invalid).
enum SensorLoggerImport {
    static let standardGravity = 9.80665

    /// True when the recording's gyro file has Sensor Logger's columns.
    static func recognises(_ container: RecordingContainer) -> Bool {
        for name in ["Gyroscope.csv", "GyroscopeUncalibrated.csv", "TotalAcceleration.csv", "Accelerometer.csv", "Metadata.csv"] {
            guard let file = try? container.find(name), let table = try? CSVTable(container.openLines(file)) else { continue }
            let cols = Set(table.columns.map { $0.lowercased() })
            if cols.contains("seconds_elapsed") || cols.contains("device name") { return true }
        }
        return false
    }

    static func open(_ container: RecordingContainer, notice: @escaping (String) -> Void) throws -> (streams: [RecordStream], metadata: LogMetadata) {
        // Metadata.csv: one header row, one value row.
        var info: [String: String] = [:]
        if let file = try container.find("Metadata.csv") {
            let table = try CSVTable(container.openLines(file))
            if let (fields, _) = try table.nextRow() {
                for (i, c) in table.columns.enumerated() where i < fields.count { info[c.lowercased()] = fields[i] }
            }
        }
        let platform = info["platform"]?.lowercased() ?? ""
        let isIOS = platform.contains("ios")
        let standardised = (info["standardisation"] ?? info["standardization"])?.lowercased() == "true"
        if isIOS && info["standardisation"] == nil && info["standardization"] == nil {
            notice("\(container.path): Metadata.csv does not say whether \"Standardise Units & Frames\" was on; taking it as off (the app's default)")
        }
        // iOS without standardisation: acceleration and gravity have the opposite sign.
        let accelSign = isIOS && !standardised ? -1.0 : 1.0

        func required(_ names: [String]) throws -> String? {
            for n in names { if let f = try container.find(n) { return f } }
            return nil
        }
        guard let gyroFile = try required(["Gyroscope.csv", "GyroscopeUncalibrated.csv"]) else {
            throw InputError(file: container.path, "a Sensor Logger recording without Gyroscope.csv: record with the gyroscope on (files: \(container.files.joined(separator: ", ")))")
        }

        // The log's time 0: the whole second at or before the earliest first sample.
        let files = [gyroFile] + (try ["TotalAcceleration.csv", "Accelerometer.csv", "Gravity.csv", "AccelerometerUncalibrated.csv",
                                      "Magnetometer.csv", "MagnetometerUncalibrated.csv", "Location.csv"].compactMap { try container.find($0) })
        var first: (ns: Int64, file: String, line: Int)?
        for f in files {
            let table = try CSVTable(container.openLines(f))
            guard let ti = table.column({ $0.lowercased() == "time" }) else { continue }
            while let (fields, line) = try table.nextRow() {
                if ti < fields.count, let ns = TimeColumn.nanoseconds(fields[ti]) {
                    if first == nil || ns < first!.ns { first = (ns, table.display, line) }
                    break
                }
            }
        }
        guard let first else { throw InputError(file: container.display(gyroFile), "no samples") }
        let (originNs, overflow) = first.ns.subtractingReportingOverflow(((first.ns % 1_000_000_000) + 1_000_000_000) % 1_000_000_000)
        guard !overflow else {
            throw InputError(file: first.file, line: first.line, field: "time", "time \(first.ns) ns is not a time since 1970 in nanoseconds")
        }

        func vectors(_ file: String, scale: Double) throws -> VectorFileStream {
            let table = try CSVTable(container.openLines(file))
            let lower = table.columns.map { $0.lowercased() }
            guard let t = lower.firstIndex(of: "time"), let x = lower.firstIndex(of: "x"),
                  let y = lower.firstIndex(of: "y"), let z = lower.firstIndex(of: "z") else {
                throw InputError(file: table.display, line: 1,
                                 "unknown column layout \"\(table.columns.joined(separator: ","))\"; expected Sensor Logger's time,seconds_elapsed,z,y,x")
            }
            return VectorFileStream(table: table, time: .epochNanoseconds(index: t, origin: originNs), xyz: (x, y, z),
                                    scale: scale, notice: notice)
        }

        var streams: [RecordStream] = []
        var used: [String] = []
        let gyro = try vectors(gyroFile, scale: 1)
        streams.append(SensorStream(.gyro, display: container.display(gyroFile), source: gyro.next))
        used.append("gyro \(gyroFile)")

        if let total = try container.find("TotalAcceleration.csv") {
            let s = try vectors(total, scale: accelSign)
            streams.append(SensorStream(.accel, display: container.display(total), source: s.next))
            used.append("accel \(total)")
        } else if let acc = try container.find("Accelerometer.csv"), let grav = try container.find("Gravity.csv") {
            let sum = SumStream(try vectors(acc, scale: accelSign), plus: try vectors(grav, scale: accelSign))
            streams.append(SensorStream(.accel, display: container.display(acc), source: sum.next))
            used.append("accel \(acc) + \(grav)")
        } else if let raw = try container.find("AccelerometerUncalibrated.csv") {
            // iOS without standardisation writes this one in g.
            let s = try vectors(raw, scale: isIOS && !standardised ? -standardGravity : 1)
            streams.append(SensorStream(.accel, display: container.display(raw), source: s.next))
            used.append("accel \(raw)")
        } else if let acc = try container.find("Accelerometer.csv") {
            throw InputError(file: container.display(acc),
                             "is acceleration without gravity, and the recording has no Gravity.csv or TotalAcceleration.csv to restore it: record with the gravity sensor on")
        } else {
            notice("\(container.path): no accelerometer file (TotalAcceleration.csv, or Accelerometer.csv with Gravity.csv): the pose cannot be fused")
        }

        if let magFile = try required(["Magnetometer.csv", "MagnetometerUncalibrated.csv"]) {
            let s = try vectors(magFile, scale: 1)
            streams.append(SensorStream(.mag, display: container.display(magFile), source: s.next))
            used.append("mag \(magFile)")
        } else {
            notice("\(container.path): no Magnetometer.csv: the heading cannot be fused")
        }

        if let loc = try container.find("Location.csv") {
            let table = try CSVTable(container.openLines(loc))
            let lower = table.columns.map { $0.lowercased() }
            guard let t = lower.firstIndex(of: "time"), let la = lower.firstIndex(of: "latitude"),
                  let lo = lower.firstIndex(of: "longitude") else {
                throw InputError(file: table.display, line: 1,
                                 "unknown column layout \"\(table.columns.joined(separator: ","))\"; expected Sensor Logger's time,…,latitude,longitude")
            }
            streams.append(LocationStream(table: table, time: .epochNanoseconds(index: t, origin: originNs), lat: la, lon: lo,
                                          alt: lower.firstIndex(of: "altitude"), accuracy: lower.firstIndex(of: "horizontalaccuracy")))
            used.append("gps \(loc)")
        }

        var meta = LogMetadata()
        meta.entries.append(("format", SensorLogReader.formatName))
        meta.entries.append(("start_utc", PhoneRecording.isoSeconds(originNs / 1_000_000_000)))
        var device = info["device name"] ?? "unknown device"
        let details = [platform.isEmpty ? nil : platform, info["appversion"].map { "Sensor Logger \($0)" }].compactMap { $0 }
        if !details.isEmpty { device += " (\(details.joined(separator: ", ")))" }
        meta.entries.append(("device", device))
        meta.entries.append(("import_source", "Sensor Logger export \(URL(fileURLWithPath: container.path).lastPathComponent)"))
        meta.entries.append(("import_files", used.joined(separator: "; ")))
        if isIOS { meta.entries.append(("import_ios_standardised", standardised ? "true" : "false")) }
        return (streams, meta)
    }
}
