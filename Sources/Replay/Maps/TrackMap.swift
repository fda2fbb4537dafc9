import Foundation
import Fusion
import Geodesy
import PhoneImport
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

/// `poiar map` and `replay --map`: a north-up map of a replay — the GPS track, a view cone every
/// few seconds, the POIs around it coloured by category — over the streets and buildings of an
/// OSM extract, or a plain grid without one.
public enum TrackMap {
    /// Reads and fuses the log, then writes the map (atomically). Returns what it drew.
    @discardableResult
    public static func run(_ options: MapOptions, notice: @escaping @Sendable (String) -> Void) throws -> MapSummary {
        let recording = try PreparedRecording(
            recording: try Recording(path: options.logPath), poiSource: options.poiSource, buildingSource: options.buildings,
            north: NorthChoice(magnetic: options.magnetic, date: options.date, at: options.fixedPosition),
            withoutPOIs: "so the map shows the track alone", withoutBuildings: "POIs are not checked for line of sight", notice: notice)
        let metadata = recording.metadata, logFolder = recording.logFolder, sourcePath = recording.sourcePath
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
        let baseMap = try (options.baseMapPath ?? sourcePath).flatMap(baseMapFeatures)
        let map = try drawing(frames: fused.frames, track: fused.track, db: recording.database, categories: options.categories,
                              language: options.language, baseMap: baseMap, camera: camera,
                              longestSide: options.longestSide, margin: options.margin, coneInterval: options.coneInterval)
        try writePNG(try renderMap(map.drawing), to: URL(fileURLWithPath: options.outputPath))
        return map.summary
    }

    /// `replay --map`: the map of an already fused replay, beside its frames.
    static func write(fused: FusionResult, db: POIDatabase?, sourcePath: String?, camera: CameraIntrinsics,
                      options: ReplayOptions, to url: URL) throws {
        let map = try drawing(frames: fused.frames, track: fused.track, db: db, categories: options.categories,
                              language: options.language, baseMap: try sourcePath.flatMap(baseMapFeatures), camera: camera,
                              longestSide: MapOptions(logPath: "", outputPath: "").longestSide,
                              margin: MapOptions(logPath: "", outputPath: "").margin,
                              coneInterval: options.overlay.mapConeInterval)
        try writePNG(try renderMap(map.drawing), to: url)
    }

    /// What a map shows, for the command's report.
    public struct MapSummary: Sendable, CustomStringConvertible {
        public var widthPixels: Int, heightPixels: Int
        public var metresPerPixel: Double
        public var pois: Int, cones: Int, baseMapFeatures: Int?
        public var description: String {
            "\(widthPixels)×\(heightPixels) px, \(String(format: "%.2f", metresPerPixel)) m/px, \(pois) POIs, \(cones) view cones, "
                + (baseMapFeatures.map { "\($0) streets/buildings/areas" } ?? "no base map (grid)")
        }
    }

    /// The features of an OSM extract; nil for other sources (a grid is drawn).
    static func baseMapFeatures(_ path: String) throws -> [MapFeature]? {
        try BaseMap.read(URL(fileURLWithPath: path))
    }

    /// The map of a fused log.
    static func drawing(frames: [FrameEvent], track: GPSTrack, db: POIDatabase?, categories: [String]?, language: String?,
                        baseMap: [MapFeature]?, camera: CameraIntrinsics, longestSide: Int, margin: Double,
                        coneInterval: Double) throws -> (drawing: MapDrawing, summary: MapSummary) {
        // A local east/north frame at the track's middle; the extent is the track's box plus the margin.
        let fixes = track.fixes
        let lats = fixes.map(\.coordinate.latitude), lons = fixes.map(\.coordinate.longitude)
        var origin = GeoCoordinate(latitude: (lats.min()! + lats.max()!) / 2, longitude: lons.min()! + wrap180(lons.max()! - lons.min()!) / 2)
        origin.altitude = 0
        let plane = LocalTangentPlane(origin: origin)
        func en(_ c: GeoCoordinate) -> (Double, Double) {
            var c = c
            c.altitude = 0
            let v = plane.enu(c)
            return (v.x, v.y)
        }
        let trackEN = fixes.map { en($0.coordinate) }
        let minE = trackEN.map(\.0).min()! - margin, maxE = trackEN.map(\.0).max()! + margin
        let minN = trackEN.map(\.1).min()! - margin, maxN = trackEN.map(\.1).max()! + margin
        let spanE = max(1, maxE - minE), spanN = max(1, maxN - minN)
        let metresPerPixel = max(spanE, spanN) / Double(longestSide)
        let width = max(64, Int((spanE / metresPerPixel).rounded())), height = max(64, Int((spanN / metresPerPixel).rounded()))
        func pixel(_ p: (Double, Double)) -> Point2 {
            Point2((p.0 - minE) / metresPerPixel, (maxN - p.1) / metresPerPixel)
        }
        func inside(_ p: Point2, pad: Double = 0) -> Bool {
            p.x >= -pad && p.y >= -pad && p.x <= Double(width) + pad && p.y <= Double(height) + pad
        }

        var drawing = MapDrawing(width: width, height: height, metresPerPixel: metresPerPixel, hasBaseMap: baseMap != nil)
        var featureCount = 0
        for feature in baseMap ?? [] {
            let points = feature.points.map { pixel(en($0)) }
            let xs = points.map(\.x), ys = points.map(\.y)
            guard xs.max()! >= 0, ys.max()! >= 0, xs.min()! <= Double(width), ys.min()! <= Double(height) else { continue }
            featureCount += 1
            drawing.add(feature.kind, points: points)
        }
        drawing.track = trackEN.map(pixel)

        // A cone every `coneInterval` seconds of frames, the camera's horizontal field of view,
        // a sixth of the map's shorter side long.
        let halfFOV = camera.halfHorizontalFOVDeg
        var nextTime = -Double.infinity
        for frame in frames where frame.time >= nextTime {
            nextTime = frame.time + coneInterval * 0.999
            guard let location = track.location(at: frame.time) else { continue }
            let facing = frame.pose.facingAzimuth(imageUp: camera.orientation.imageUpInDevice) ?? frame.pose.angles.heading
            drawing.cones.append(.init(apex: pixel(en(location.coordinate)), heading: facing,
                                       halfAngle: halfFOV, length: Double(min(width, height)) / 6))
        }

        // POIs within the map, nearest the middle drawn last (on top).
        let halfDiagonal = (spanE * spanE + spanN * spanN).squareRoot() / 2 + 1
        let hits = try db?.query(near: origin, radius: halfDiagonal, categories: categories, language: language) ?? []
        var osm = baseMap != nil
        for hit in hits.reversed() {
            let p = pixel(en(hit.poi.coordinate))
            guard inside(p) else { continue }
            drawing.places.append(.init(point: p, category: hit.poi.category))
            if hit.poi.id.hasPrefix("osm:") { osm = true }
        }
        drawing.attribution = osm ? "© OpenStreetMap contributors" : nil
        return (drawing, MapSummary(widthPixels: width, heightPixels: height, metresPerPixel: metresPerPixel,
                                    pois: drawing.places.count, cones: drawing.cones.count,
                                    baseMapFeatures: baseMap == nil ? nil : featureCount))
    }
}

extension MapDrawing {
    /// Adds a base-map feature, its points already in map pixels.
    mutating func add(_ kind: MapFeature.Kind, points: [Point2]) {
        switch kind {
        case .building: areas.append(.init(kind: .building, points: points))
        case .green: areas.append(.init(kind: .green, points: points))
        case .water: areas.append(.init(kind: .water, points: points))
        case .plaza: areas.append(.init(kind: .plaza, points: points))
        case let .street(rank): lines.append(.init(rank: rank, points: points))
        case .railway: lines.append(.init(rank: 4, points: points))
        }
    }
}
