import Foundation
import Frames
import POIARCore
import POIStore
import Projection
import Rendering

/// `poiar project`: the frame a replay would compute for one pose at one place, on its own —
/// no clock (the HUD's GPS part shows the accuracy only) and no calm layout from frames before.
public struct PoseProjection: Sendable {
    public var location: GeoCoordinate
    public var pose: Pose
    public var camera: CameraSetup
    /// The POI source (a poiar database or a file `pois import` reads).
    public var poiSource: String
    /// `--buildings`; nil: the POI source's, when it holds buildings.
    public var buildings: String?
    public var categories: [String]?
    public var language: String?
    public var radius = 1500.0
    public var layout = LayoutOptions()
    public var annotation = AnnotationOptions()
    public var overlay = OverlayOptions()
    public var fontPath: String?
    /// A still drawn under the labels, and the most pixels one may have.
    public var still: String?
    public var maxStillPixels = defaultMaxStillPixels

    public init(location: GeoCoordinate, pose: Pose, camera: CameraSetup, poiSource: String) {
        self.location = location; self.pose = pose; self.camera = camera; self.poiSource = poiSource
    }

    /// The pose's frame: its manifest record, and a way to draw it. `image`: the file name the
    /// record gives the frame.
    public func annotate(image: String, notice: @escaping @Sendable (String) -> Void) throws -> ProjectedFrame {
        let stillImage = try still.map { try loadStill(URL(fileURLWithPath: $0), maxPixels: maxStillPixels) }
        let cam = try camera.resolve(stillSize: stillImage.map { ($0.width, $0.height) })
        let db = try openPOISource(URL(fileURLWithPath: poiSource), onImport: { notice("\($0)") }, onNotice: notice)
        let buildingSource = try BuildingSource.open(option: buildings, poiSourcePath: poiSource, poiDatabase: db,
                                                     without: BuildingSource.labelsUnchecked, notice: notice)
        let radar = overlay.radarRange(maxDistance: layout.maxDistance, radius: radius)
        var frameOverlay = FrameOverlay(hud: overlay.hud, startUTC: nil, radarRange: radar.range, radarRangeFixed: radar.fixed, clock: false)
        let lineOfSight = try buildingSource?.lineOfSight(around: [location], radius: radius)
        frameOverlay.scenery = try Scenery.resolve(overlay, lineOfSight: lineOfSight, eyeHeight: annotation.eyeHeight, reach: radius,
                                                   startUTC: nil, file: poiSource)
        let pipeline = try FramePipeline(camera: cam, layout: layout, annotation: annotation, overlay: frameOverlay,
                                         pois: POIQuery(database: db, radius: radius, categories: categories, language: language),
                                         lineOfSight: lineOfSight, fontPath: fontPath)
        var single = FrameSequence.single
        let record = try pipeline.annotate(index: 1, time: 0, logLine: nil, still: still, image: image,
                                           location: GPSFix(time: 0, coordinate: location, horizontalAccuracy: nil), pose: pose,
                                           sequence: &single)
        return ProjectedFrame(record: record, pipeline: pipeline, still: stillImage)
    }
}

/// One pose's frame from `PoseProjection`.
public struct ProjectedFrame {
    public let record: FrameRecord
    let pipeline: FramePipeline
    let still: RasterImage?

    /// Draws the frame into the PNG `url`.
    public func writePNG(to url: URL) throws {
        try Rendering.writePNG(try pipeline.draw(record, still: still), to: url)
    }
}
