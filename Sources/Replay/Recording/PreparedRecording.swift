import Foundation
import Frames
import Fusion
import PhoneImport
import POIARCore
import POIStore
import Recordings
import SensorLog

/// A recording opened for `replay` or `map`, with everything that can be checked before it is
/// fused: its metadata, the caller's own checks (the camera, the fonts), the POI source (none:
/// a notice), the buildings (`BuildingSource`), and where it was made and its north (`--at`,
/// else the first usable GPS fix; a recording with neither is refused here, before the long
/// pass).
struct PreparedRecording {
    let logPath: String
    let recording: Recording
    var metadata: LogMetadata { recording.metadata }
    let logFolder: URL
    /// The POI source's path; nil: none.
    let sourcePath: String?
    let database: POIDatabase?
    /// The POI source's streets and buildings, read on first need.
    let baseMap: SourceBaseMap
    /// The building footprints for line of sight; nil: none.
    let buildings: BuildingSource?
    let north: NorthReference
    /// `--at`: the device stays there, whatever the recording's GPS says.
    let fixedPosition: GeoCoordinate?

    /// - Parameters:
    ///   - buildingSource: `--buildings`; nil: the POI source's buildings, if it has any.
    ///   - withoutPOIs, withoutBuildings: what a missing POI source, or no buildings, means
    ///     for the output, for their notices.
    ///   - check: the caller's checks of the log (its metadata and folder) before the POIs.
    init(recording: Recording, poiSource: String?, buildingSource: String? = nil, north choice: NorthChoice,
         withoutPOIs: String, withoutBuildings: String,
         notice: @escaping @Sendable (String) -> Void,
         check: (LogMetadata, URL) throws -> Void = { _, _ in }) throws {
        self.recording = recording
        logPath = recording.path
        fixedPosition = choice.at
        logFolder = URL(fileURLWithPath: logPath).deletingLastPathComponent()
        let metadata = recording.metadata
        try check(metadata, logFolder)
        sourcePath = try LogFolderPath.poiSource(option: poiSource, metadata: metadata, logPath: logPath, logFolder: logFolder)
        database = try sourcePath.map { path in
            try openPOISource(URL(fileURLWithPath: path), onImport: { notice("\($0)") }, onNotice: notice)
        }
        baseMap = try SourceBaseMap(path: sourcePath, database: database)
        buildings = try BuildingSource.open(option: buildingSource, poiSourcePath: sourcePath, poiDatabase: database,
                                            without: withoutBuildings, notice: notice)
        north = try TrueNorth.reference(for: recording, choice)
        guard north.position != nil else { throw try TrueNorth.noPosition(recording) }
        if sourcePath == nil { notice(LogFolderPath.missingPOISource(metadata: metadata, logPath: logPath, what: withoutPOIs)) }
        notice("north: \(north.explanation)")
    }

    /// The recording fused with its north (`pass`'s other settings as given); with `--at` the
    /// track stays there. Says how many GPS fixes were not used.
    func fuse(_ pass: FusionPass, notice: @escaping @Sendable (String) -> Void) throws -> FusionResult {
        var pass = pass
        pass.north = north
        pass.onNotice = notice
        var fused = try pass.run(recording)
        if let fixedPosition {
            if let n = fused.sampleCounts["gps"], n > 0 {
                notice("\(logPath): the recording's \(n) GPS fixes are not used: the device stays at --at")
            }
            fused.track = GPSTrack(fixedAt: fixedPosition)
        } else {
            fused.track.smoothPositions(causal: pass.causal, motion: fused.motion, path: logPath, notice: notice)
        }
        if fused.track.rejectedCount > 0 {
            let n = fused.track.rejectedCount
            notice("\(logPath): \(n) GPS fix\(n == 1 ? "" : "es") with horizontal accuracy over \(Int(GPSTrack.defaultMaxAccuracy)) m not used")
        }
        return fused
    }
}
