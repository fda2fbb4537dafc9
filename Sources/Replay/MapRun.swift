import Foundation
import Frames
import Fusion
import Maps
import POIARCore
import POIStore
import Recordings
import Rendering
import SensorLog

/// Everything `poiar map` can be told.
public struct MapOptions: Sendable {
    public var logPath: String
    /// Where map.png goes.
    public var outputPath: String
    /// POI SOURCE; nil: the log's `# pois:` line.
    public var poiSource: String?
    public var categories: [String]?
    public var language: String?
    /// OSM extract drawn under the track; nil: the POI source when it is one.
    public var baseMapPath: String?
    /// `--buildings SOURCE`: the footprints for line of sight; nil: the POI source's, when it
    /// holds buildings (`BuildingSource`).
    public var buildings: String?
    /// Pixels along the map's longer side.
    public var longestSide = 1200
    /// Metres shown around the track on each side.
    public var margin = 150.0
    /// Seconds between view cones.
    public var coneInterval = 5.0
    /// The camera, for the cones' angle.
    public var camera = CameraSetup()
    public var magnetic = false
    public var date: Date?
    /// Where the recording was made (`--at`), instead of its GPS fixes.
    public var fixedPosition: GeoCoordinate?
    /// Fuse causally (`--causal`); default: offline (`FusionPass`).
    public var causal = false
    /// Where the attitude comes from (`--pose-source`).
    public var poseSource = PoseSource.auto

    public init(logPath: String, outputPath: String) { self.logPath = logPath; self.outputPath = outputPath }
}

/// The runs that make a track map (`Maps`' `TrackMap`): `poiar map` reads and fuses a log for
/// it, `replay --map` draws it beside the frames from the replay's own fusion.
extension TrackMap {
    /// Reads and fuses the log, then writes the map (atomically). Returns what it drew.
    @discardableResult
    public static func run(_ options: MapOptions, notice: @escaping @Sendable (String) -> Void) throws -> MapSummary {
        let recording = try PreparedRecording(
            recording: try Recording(path: options.logPath), poiSource: options.poiSource, buildingSource: options.buildings,
            north: NorthChoice(magnetic: options.magnetic, date: options.date, at: options.fixedPosition),
            withoutPOIs: "so the map shows the track alone", withoutBuildings: "POIs are not checked for line of sight", notice: notice
        ) { metadata, logFolder in
            var plan = OutputPlan()
            plan.writes(options.outputPath, option: "--out")
            plan.reads(options.logPath, as: "the recording")
            plan.reads(try LogFolderPath.poiSource(option: options.poiSource, metadata: metadata, logPath: options.logPath, logFolder: logFolder),
                       as: "the POI source")
            plan.reads(options.baseMapPath, as: "the base map")
            plan.reads(options.buildings, as: "the building source")
            plan.reads(options.camera.cameraFile, as: "the camera file")
            try plan.check()
        }
        let metadata = recording.metadata, logFolder = recording.logFolder
        var camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath)
        var pass = FusionPass(fps: 1 / options.coneInterval)
        pass.causal = options.causal
        pass.poseSource = options.poseSource
        let fused = try recording.fuse(pass, notice: notice)
        guard !fused.track.isEmpty else {
            throw InputError(file: options.logPath, "no usable GPS fix: nothing to draw a map of")
        }
        if let holding = options.camera.holding(metadata: metadata, frames: fused.frames) {
            camera = try options.camera.resolve(metadata: metadata, logFolder: logFolder, logPath: options.logPath, holding: holding)
            notice(CameraSetup.assumed(camera, holding: holding))
        }
        // `--base-map` is any file (its format told from its start); the POI source's is known.
        let baseMap = try options.baseMapPath.map(baseMapFeatures) ?? recording.baseMap.features()
        let map = try drawing(fused: fused, db: recording.database, categories: options.categories, language: options.language,
                              baseMap: baseMap, camera: camera, longestSide: options.longestSide, margin: options.margin,
                              coneInterval: options.coneInterval)
        try writePNG(try renderMap(map.drawing), to: URL(fileURLWithPath: options.outputPath))
        return map.summary
    }

    /// `replay --map`: the map of an already fused replay, beside its frames.
    static func write(fused: FusionResult, db: POIDatabase?, baseMap: [MapFeature]?, camera: CameraIntrinsics,
                      options: ReplayOptions, to url: URL) throws {
        let defaults = MapOptions(logPath: "", outputPath: "")
        let map = try drawing(fused: fused, db: db, categories: options.categories, language: options.language, baseMap: baseMap,
                              camera: camera, longestSide: defaults.longestSide, margin: defaults.margin,
                              coneInterval: options.overlay.mapConeInterval)
        try writePNG(try renderMap(map.drawing), to: url)
    }

    /// The map of a fused log: a cone facing where the camera looks, the POIs of `db` within
    /// the map's reach (the nearest its middle drawn last, on top).
    static func drawing(fused: FusionResult, db: POIDatabase?, categories: [String]?, language: String?, baseMap: [MapFeature]?,
                        camera: CameraIntrinsics, longestSide: Int, margin: Double,
                        coneInterval: Double) throws -> (drawing: MapDrawing, summary: MapSummary) {
        let area = Area(fixes: fused.track.fixes, longestSide: longestSide, margin: margin)
        let hits = try db?.query(near: area.middle, radius: area.reach, categories: categories, language: language) ?? []
        let imageUp = camera.orientation.imageUpInDevice
        return drawing(area: area, track: fused.track,
                       facings: fused.frames.map { ($0.time, $0.pose.facingAzimuth(imageUp: imageUp) ?? $0.pose.angles.heading) },
                       halfAngleDeg: camera.halfHorizontalFOVDeg, pois: hits.reversed().map(\.poi), baseMap: baseMap,
                       coneInterval: coneInterval)
    }
}
