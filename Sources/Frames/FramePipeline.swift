import Foundation
import POIARCore
import POIStore
import Projection
import Rendering

/// Where a frame's POIs come from: the database, and what to ask it.
public struct POIQuery: Sendable {
    public var database: POIDatabase
    /// Search radius around the device, metres.
    public var radius: Double
    /// Categories to show; nil: all.
    public var categories: [String]?
    /// Names from their `name:<language>` tag when they have one.
    public var language: String?

    public init(database: POIDatabase, radius: Double, categories: [String]?, language: String?) {
        self.database = database; self.radius = radius; self.categories = categories; self.language = language
    }

    /// The POIs within the radius of `location`, nearest first.
    func hits(around location: GeoCoordinate) throws -> [POIHit] {
        try database.query(near: location, radius: radius, categories: categories, language: language)
    }
}

/// What carries from one frame of a sequence to the next: the calm layout's memory and the
/// flat-phone map switch. A single frame (`project`) has neither.
public struct FrameSequence: Sendable {
    var memory: LayoutMemory?
    var viewSwitch: FlatViewSwitch?

    /// A replay's: calm layout unless `calm` is false, the map switch when `flatMap`.
    public init(calm: Bool, flatMap: Bool) {
        memory = calm ? LayoutMemory() : nil
        viewSwitch = flatMap ? FlatViewSwitch() : nil
    }

    /// One frame on its own.
    public static let single = FrameSequence(calm: false, flatMap: false)
}

/// The one path of a frame, from a pose and a position to a PNG's pixels, used by `replay`,
/// `project` and whatever draws frames later:
///
/// 1. `annotate`: the POIs around the device (`POIQuery`), projected through the camera and
///    laid out clear of each other and of the HUD (`FrameAnnotator`), calm over a sequence;
///    while the phone points at the ground the frame becomes a map (`FlatViewSwitch`) — the
///    `FrameRecord`, which is also the manifest line;
/// 2. `draw`: the record over its background (a still, or sky and ground), with the HUD, or
///    the map (`paintFrame`).
///
/// The camera, the card style and the overlay are settled once, when the pipeline is made.
public struct FramePipeline: Sendable {
    public let camera: CameraIntrinsics
    public let style: CardStyle
    public let overlay: FrameOverlay
    let annotator: FrameAnnotator
    let pois: POIQuery?
    /// - Parameters:
    ///   - layout: lengths at 720 px (scaled with the image here).
    ///   - pois: nil: no POI source, frames without labels.
    ///   - lineOfSight: the buildings that hide POIs; nil: none known.
    public init(camera: CameraIntrinsics, layout: LayoutOptions, annotation: AnnotationOptions, overlay: FrameOverlay,
                pois: POIQuery?, lineOfSight: LineOfSight? = nil, fontPath: String? = nil, boldFontPath: String? = nil) throws {
        self.camera = camera
        style = try CardStyle(imageWidth: camera.width, imageHeight: camera.height, fontPath: fontPath, boldFontPath: boldFontPath)
        self.overlay = overlay
        annotator = try FrameAnnotator(camera: camera, layout: layout, annotation: annotation, style: style, overlay: overlay,
                                       lineOfSight: lineOfSight)
        self.pois = pois
    }

    /// Frame `index` (from 1) at `time`, the device at `location` with `pose`.
    public func annotate(index: Int, time: Double, logLine: Int?, still: String?, footage: FootageStamp? = nil, image: String,
                         location: GPSFix, pose: Pose, sequence: inout FrameSequence) throws -> FrameRecord {
        try annotate(index: index, time: time, logLine: logLine, still: still, footage: footage, image: image,
                     position: PositionEstimate(location: location), pose: pose, sequence: &sequence)
    }

    /// Frame `index` (from 1) at `time`, the device at `position` (a smoothed track's, with its
    /// uncertainty and the raw fix) with `pose`, whose heading has the 68 % bound
    /// `headingSigma` (degrees; its cards fade when that is wide, `HeadingTrust`).
    public func annotate(index: Int, time: Double, logLine: Int?, still: String?, footage: FootageStamp? = nil, image: String,
                         position: PositionEstimate, pose: Pose, headingSigma: Double? = nil,
                         sequence: inout FrameSequence) throws -> FrameRecord {
        let location = position.location
        let hits = try pois?.hits(around: location.coordinate) ?? []
        let labels = annotator.labels(hits: hits, location: location.coordinate, pose: pose, memory: &sequence.memory, time: time,
                                      positionSigma: position.sigma)
        var record = FrameRecord(index: index, time: time, logLine: logLine, image: image, still: still, footage: footage,
                                 location: location, positionSigma: position.sigma, gps: position.gps, pose: pose,
                                 headingSigma: headingSigma, camera: camera, annotations: labels.annotations,
                                 clusters: labels.clusters,
                                 sightLines: labels.sightLines, occlusionSeconds: labels.occlusionSeconds,
                                 arrowsLeftOut: labels.arrowsLeftOut)
        HeadingTrust.fadeCards(&record)
        if var viewSwitch = sequence.viewSwitch {
            record.mapFraction = viewSwitch.update(time: time, pitchDeg: pose.angles.pitch)
            sequence.viewSwitch = viewSwitch
            if record.isMapView {
                // The map replaces the cards: none is drawn over the camera view.
                for k in record.annotations.indices {
                    record.annotations[k].visible = false; record.annotations[k].offscreen = nil
                    record.annotations[k].marker = nil; record.annotations[k].cluster = nil
                }
                record.clusters = []
            }
        }
        return record
    }

    /// The frame's image; `background` (a still, or sky and ground) is asked for only when
    /// the camera view is drawn.
    public func draw(_ record: FrameRecord, background: () throws -> FrameBackground) throws -> RasterImage {
        try paintFrame(record, overlay: overlay, style: style, background: background)
    }

    /// The frame's image over `still` (nil: `pictureless`).
    public func draw(_ record: FrameRecord, still: RasterImage?) throws -> RasterImage {
        try draw(record) { still.map { .still($0) } ?? pictureless(record) }
    }

    /// The background of a frame without a picture: the map scene when the overlay has one
    /// (`Scenery`), else sky and ground from the pose.
    public func pictureless(_ record: FrameRecord) -> FrameBackground {
        overlay.scenery?.background(for: record) ?? syntheticBackground(camera: record.camera, pose: record.pose)
    }
}
