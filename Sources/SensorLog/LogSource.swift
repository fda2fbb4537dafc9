import Foundation
import POIARCore

/// Anything that yields a recording as time-ordered samples plus `poiar-log/1` metadata: a
/// `poiar-log/1` file (`SensorLogReader`) or an imported phone-app recording (the
/// `PhoneImport` module). The fusion pass, `pose`, `replay` and `convert` read through it.
public protocol LogSource: AnyObject {
    /// The recording as the user named it (a file, a folder or a zip), for messages.
    var path: String { get }
    /// `# key: value` metadata (for imports: what the recording tells, e.g. `start_utc`).
    var metadata: LogMetadata { get }
    /// Called for notices met while reading (unknown sensors, skipped files, …).
    var onNotice: ((String) -> Void)? { get set }
    /// The next sample in time order, or nil at the end. Errors are `InputError`s naming the
    /// file (inside a folder or zip: `rec.zip/Gyroscope.csv`) and line.
    func nextRecord() throws -> LogRecord?
    /// The sensors (`gyro`, `accel`, `mag`, `gps`, …) the recording holds, when that is known
    /// without reading it (a phone export: from its files); nil when only reading tells (a
    /// log's rows may be of any sensor).
    var sensors: Set<String>? { get }
}

extension LogSource {
    public var sensors: Set<String>? { nil }
}

extension SensorLogReader: LogSource {}

/// Writing `poiar-log/1`: the metadata lines, the header and one row per sample, with fixed
/// number formats (used by `poiar convert` and `poiar simulate`).
public enum SensorLogFormat {
    /// `# key: value` lines (with `# format: poiar-log/1` first when missing) and the header.
    public static func headerLines(_ metadata: LogMetadata) -> [String] {
        var lines: [String] = []
        if metadata.format == nil { lines.append("# format: \(SensorLogReader.formatName)") }
        for (key, value) in metadata.entries where key != LogMetadata.startUnknownKey {
            let v = value.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            lines.append("# \(key): \(v)")
        }
        lines.append(SensorLogReader.header)
        return lines
    }

    /// One row (a fix with the receiver's speed: two lines, its `gps_velocity` row first): time with 6 decimals (µs); rates, forces and fields with 6; latitude and
    /// longitude with 8 (≈ 1 mm); altitude and accuracy with 3; an orientation's vector part
    /// with 9 (w, recovered from it, stays within 5e-5 even near w = 0).
    public static func row(_ sample: SensorSample) -> String {
        func f(_ v: Double, _ decimals: Int) -> String {
            var s = String(format: "%.\(decimals)f", v)
            if s.hasPrefix("-"), Double(s) == 0 { s.removeFirst() }  // no "-0.000000"
            return s
        }
        func v3(_ t: Double, _ name: String, _ v: Vector3, _ d: Int) -> String {
            "\(f(t, 6)),\(name),\(f(v.x, d)),\(f(v.y, d)),\(f(v.z, d)),"
        }
        switch sample {
        case .vector(let sensor, let t, let v): return v3(t, sensor.name, v, 6)
        case .gps(let fix):
            let c = fix.coordinate
            // A fix with the receiver's speed is two rows: `gps_velocity`, then `gps`.
            let velocity = fix.speed.map {
                "\(f(fix.time, 6)),gps_velocity,\(f($0, 3)),\(fix.course.map { f($0, 2) } ?? ""),,"
                    + "\(fix.speedAccuracy.map { f($0, 3) } ?? "")\n"
            } ?? ""
            return velocity + "\(f(fix.time, 6)),gps,\(f(c.latitude, 8)),\(f(c.longitude, 8)),"
                + "\(c.altitude.map { f($0, 3) } ?? ""),\(fix.horizontalAccuracy.map { f($0, 3) } ?? "")"
        case .frame(let t, let still):
            return "\(f(t, 6)),frame,\(still?.text ?? ""),,,"
        case .orientation(let t, let q):
            return v3(t, "orientation", OrientationRow.vectorPart(q), 9)
        }
    }
}
