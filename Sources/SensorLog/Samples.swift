import Foundation
import POIARCore

/// One row of a poiar-log/1 file, parsed and checked.
public enum SensorSample: Equatable, Sendable {
    /// A vector sensor's sample (`VectorSensor`): angular rate about device x, y, z in rad/s,
    /// specific force (gravity included) in m/s², magnetic field in µT…
    case vector(VectorSensor, time: Double, value: Vector3)
    case gps(GPSFix)
    /// A camera frame; `still` is the image path as written in the log (relative to the log's
    /// folder; `StillName.text`), nil for a frame drawn over a synthetic background.
    case frame(time: Double, still: StillName?)
    /// The phone's own estimate of its attitude (Sensor Logger's `Orientation.csv`): the unit
    /// quaternion that rotates device-frame vectors into the local ENU frame, as in the pose
    /// CSV. Its north (magnetic or true) is the log's `orientation_north` metadata. The fusion
    /// does not use it; it is a reference (`evaluate --truth`) and a pose source.
    case orientation(time: Double, attitude: Quaternion)

    public static func gyro(time: Double, rate: Vector3) -> SensorSample { .vector(.gyro, time: time, value: rate) }
    public static func accel(time: Double, force: Vector3) -> SensorSample { .vector(.accel, time: time, value: force) }
    public static func mag(time: Double, field: Vector3) -> SensorSample { .vector(.mag, time: time, value: field) }

    public var time: Double {
        switch self {
        case .vector(_, let t, _), .frame(let t, _), .orientation(let t, _): return t
        case .gps(let fix): return fix.time
        }
    }

    public var sensorName: String {
        switch self {
        case .vector(let sensor, _, _): return sensor.name
        case .gps: return "gps"
        case .frame: return "frame"
        case .orientation: return "orientation"
        }
    }

    /// The value of a `sensor` sample; nil for any other sample.
    public func value(of sensor: VectorSensor) -> Vector3? {
        if case .vector(sensor, _, let v) = self { return v }
        return nil
    }
}

/// A sample with the line it came from, for error messages further down the pipeline.
public struct LogRecord: Equatable, Sendable {
    public var sample: SensorSample
    public var line: Int
    public init(sample: SensorSample, line: Int) { self.sample = sample; self.line = line }
}

/// The `# key: value` lines before the header.
public struct LogMetadata: Equatable, Sendable {
    /// Every key in file order (unknown keys are kept).
    public var entries: [(key: String, value: String)] = []

    public init() {}

    public subscript(key: String) -> String? { entries.last(where: { $0.key == key })?.value }

    public static func == (a: LogMetadata, b: LogMetadata) -> Bool {
        a.entries.map { "\($0.key)=\($0.value)" } == b.entries.map { "\($0.key)=\($0.value)" }
    }

    public var format: String? { self["format"] }
    /// `start_utc`: the UTC time of `time` = 0.
    public var startUTC: Date? {
        guard let s = self["start_utc"] else { return nil }
        return ISO8601DateFormatter().date(from: s)
    }
    public var cameraHFOVDeg: Double? { self["camera_hfov_deg"].flatMap(Double.init) }
    public var camera: String? { self["camera"] }
    public var pois: String? { self["pois"] }
    public var stills: String? { self["stills"] }
    public var device: String? { self["device"] }
    /// `footage`: the video whose time 0 is the log's time 0 (relative to the log's folder).
    public static let footageKey = "footage"
    public var footage: String? { self[LogMetadata.footageKey] }
    /// Set by an importer that has told the user the recording has no date (no `start_utc`),
    /// so that the north's explanation does not say it again. It describes a reading, not the
    /// data: `SensorLogFormat` does not write it (a log converted from the recording has not
    /// told anyone).
    public static let startUnknownKey = "start_utc_unknown"

    /// `orientation_north`: the north of the `orientation` rows' quaternions.
    public var orientationNorth: OrientationNorth? { self[OrientationNorth.key].flatMap(OrientationNorth.init(rawValue:)) }
}

/// The north the phone's own orientation refers to (`# orientation_north:`).
public enum OrientationNorth: String, Sendable {
    case magnetic, `true`
    /// The phone's heading matched neither north when it was checked against the magnetometer
    /// (an arbitrary heading reference, or a disturbed field): its tilt is good, its heading not.
    case unknown
    public static let key = "orientation_north"
}

/// Whose estimate the `orientation` rows are (`# orientation_source:`): the phone's own fusion
/// (the default, when the key is absent) or an action camera's (a GoPro's `CORI`). It names
/// the source in notices; poiar treats both alike.
public enum OrientationSource: String, Sendable {
    case phone, camera
    public static let key = "orientation_source"

    /// "the phone's own orientation", "the camera's own orientation".
    public var ownOrientation: String { "the \(rawValue)'s own orientation" }
}

extension LogMetadata {
    /// `orientation_source`; `phone` when absent or unknown.
    public var orientationSource: OrientationSource { self[OrientationSource.key].flatMap(OrientationSource.init(rawValue:)) ?? .phone }
}

/// The `orientation` row of poiar-log/1 holds a unit quaternion's vector part with w ≥ 0
/// (Android's rotation-vector form): x, y, z = q.x, q.y, q.z, and w = √(1 − x² − y² − z²).
public enum OrientationRow {
    /// How far past 1 the vector part's length may be (rounding of the written decimals).
    public static let lengthTolerance = 1e-6

    /// The vector part of `q` written with w ≥ 0.
    public static func vectorPart(_ q: Quaternion) -> Vector3 { q.normalized.canonical.vector }

    /// The attitude whose vector part is `v`; nil when |v| > 1 + `lengthTolerance` (no unit
    /// quaternion has it).
    public static func attitude(vectorPart v: Vector3) -> Quaternion? {
        let n2 = v.normSquared
        guard n2.isFinite, n2 <= (1 + lengthTolerance) * (1 + lengthTolerance) else { return nil }
        return Quaternion(w: max(0, 1 - n2).squareRoot(), x: v.x, y: v.y, z: v.z).normalized
    }
}
