import Foundation
import POIARCore
import POIStore
import Projection
import Rendering

/// `poiar project`: one frame for a pose given on the command line, computed exactly as
/// `replay` computes each of its frames.
public enum SingleFrame {
    public static func record(location: GeoCoordinate, pose: Pose, camera: CameraIntrinsics, db: POIDatabase,
                              categories: [String]?, radius: Double, layout: LayoutOptions,
                              annotation: AnnotationOptions = AnnotationOptions(), style: CardStyle,
                              overlay: FrameOverlay = FrameOverlay(), image: String?, still: String?) throws -> FrameRecord {
        let annotator = try FrameAnnotator(camera: camera, layout: layout, annotation: annotation, style: style, overlay: overlay)
        let hits = try db.query(near: location, radius: radius, categories: categories)
        return FrameRecord(index: 1, time: 0, logLine: nil, image: image ?? "", still: still,
                           location: GPSFix(time: 0, coordinate: location, horizontalAccuracy: nil),
                           pose: pose, camera: camera,
                           annotations: annotator.annotate(hits: hits, location: location, pose: pose))
    }

    public static func render(_ record: FrameRecord, still: RasterImage?, style: CardStyle,
                              overlay: FrameOverlay = FrameOverlay(), to url: URL) throws {
        let background = still.map { FrameBackground.still($0) } ?? syntheticBackground(camera: record.camera, pose: record.pose)
        try writePNG(try renderFrame(drawing(for: record, background: background, overlay: overlay), style: style), to: url)
    }
}
