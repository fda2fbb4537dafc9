import Foundation
import POIARCore

/// One row of a poiar-log/1 file, parsed and checked.
public enum SensorSample: Equatable, Sendable {
    /// Angular rate about device x, y, z, rad/s.
    case gyro(time: Double, rate: Vector3)
    /// Specific force (gravity included), m/s².
    case accel(time: Double, force: Vector3)
    /// Magnetic field, µT.
    case mag(time: Double, field: Vector3)
    case gps(GPSFix)
    /// A camera frame; `still` is the image path as written in the log (relative to the log's
    /// folder), nil for a frame drawn over a synthetic background.
    case frame(time: Double, still: String?)

    public var time: Double {
        switch self {
        case .gyro(let t, _), .accel(let t, _), .mag(let t, _), .frame(let t, _): return t
        case .gps(let fix): return fix.time
        }
    }

    public var sensorName: String {
        switch self {
        case .gyro: return "gyro"
        case .accel: return "accel"
        case .mag: return "mag"
        case .gps: return "gps"
        case .frame: return "frame"
        }
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
}
