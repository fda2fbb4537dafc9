import Foundation
import Geodesy
import POIARCore
import Projection

/// Projects the POIs near the device into one frame and lays out their labels.
public struct FrameAnnotator: Sendable {
    public var camera: CameraIntrinsics
    public var layoutOptions: LayoutOptions
    public var sizing: any LabelSizing

    public init(camera: CameraIntrinsics, layoutOptions: LayoutOptions, sizing: any LabelSizing) {
        self.camera = camera; self.layoutOptions = layoutOptions; self.sizing = sizing
    }

    /// Annotations for POI hits (distance and bearing from `location`), nearest first.
    /// A POI without altitude sits at the device's altitude.
    public func annotate(hits: [POIHit], location: GeoCoordinate, pose: Pose) -> [FrameAnnotation] {
        let hits = hits.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.poi.id < $1.poi.id }
        var device = location
        if device.altitude == nil { device.altitude = 0 }
        let plane = LocalTangentPlane(origin: device)
        let projection = CameraProjection(camera: camera, pose: pose)
        let candidates = hits.map { hit in
            LabelCandidate(id: hit.poi.id, name: hit.poi.name.isEmpty ? hit.poi.category : hit.poi.name,
                           detail: formatDistance(hit.distance), distance: hit.distance,
                           anchor: projection.project(enu: plane.enu(hit.poi.coordinate)))
        }
        let placed = LabelLayout(options: layoutOptions, imageWidth: camera.width, imageHeight: camera.height)
            .layout(candidates, sizing: sizing)
        return hits.indices.map { i in
            FrameAnnotation(poi: hits[i].poi, distance: hits[i].distance, bearing: hits[i].bearing,
                            anchor: candidates[i].anchor, box: placed[i].box,
                            stackLevel: placed[i].stackLevel, visible: placed[i].visible)
        }
    }
}
