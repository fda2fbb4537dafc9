import Footage
import Foundation
import Geodesy
import GeodesyData
import POIARCore
import SensorLog

/// A GoPro clip (MP4 or MOV with a GPMF telemetry track, `gpmd`) read as a recording, as if it
/// were a `poiar-log/1` log: its gyroscope, accelerometer, GPS, magnetometer (when it is the
/// Earth's field) and the camera's own orientation, in time order on the clip's own timeline,
/// so the clip's video frames and the log share one clock (`# footage:` names the clip). The
/// telemetry is small (a few kB a second): it is read whole when the recording opens.
/// docs/gopro.md says what is read and how.
public final class GoProRecording: LogSource {
    public let path: String
    public let metadata: LogMetadata
    public var onNotice: ((String) -> Void)?
    public let sensors: Set<String>?
    /// The clip, open: its video frames are decoded from the file its telemetry was read from
    /// (`FootageSource(video:)`), so a replay opens the clip once.
    public let media: MediaFile?
    private let records: [LogRecord]
    private var next = 0
    private var pending: [String]

    /// Opens the clip `path` and reads its telemetry. Notices found while reading (what is
    /// not used, and why) go to `onNotice` on the first read. `geoid` makes altitudes above
    /// sea level (`GPSA` "MSLV") ellipsoidal.
    public init(path: String, geoid: Geoid = .system) throws {
        self.path = path
        let read = try GoProImport.read(path: path, geoid: geoid)
        records = read.records
        metadata = read.metadata
        sensors = read.sensors
        media = read.media
        pending = read.notices
    }

    private init(reading other: GoProRecording) {
        path = other.path
        records = other.records
        metadata = other.metadata
        sensors = other.sensors
        media = other.media
        pending = []
    }

    /// A new reading of the clip from its start, without parsing its telemetry again (and
    /// without the notices the first reading gave).
    public func reopened() -> GoProRecording { GoProRecording(reading: self) }

    public func nextRecord() throws -> LogRecord? {
        if !pending.isEmpty {
            for n in pending { onNotice?(n) }
            pending.removeAll()
        }
        guard next < records.count else { return nil }
        defer { next += 1 }
        return records[next]
    }
}
