import Foundation
import Maps
import POIARCore
import Projection
import Rendering

/// The drawing of a frame: cards farthest first (so nearer cards sit on top), off-screen
/// arrows, the HUD parts `overlay` asks for, and the OSM credit when OSM POIs are shown.
func drawing(for record: FrameRecord, background: FrameBackground, overlay: FrameOverlay = FrameOverlay()) -> FrameDrawing {
    // Cards farthest first: single POIs' and cluster cards'.
    var cards: [(distance: Double, card: CardDrawing)] = record.annotations.compactMap { a in
        guard a.visible, let box = a.box else { return nil }
        return (a.distance, CardDrawing(box: box, anchor: a.anchor, name: a.poi.labelText, detail: a.detail,
                                        category: a.poi.category, sizeFactor: a.sizeFactor, opacity: a.opacity))
    }
    for c in record.clusters {
        cards.append((c.nearest, CardDrawing(box: c.box, anchor: c.anchor, name: c.name, detail: c.detail, category: c.category,
                                             sizeFactor: c.sizeFactor, opacity: c.opacity)))
    }
    cards.sort { $0.distance > $1.distance }
    let markers = record.annotations.compactMap { a -> MarkerDrawing? in
        guard let m = a.marker, let anchor = a.anchor else { return nil }
        return MarkerDrawing(position: anchor, category: a.poi.category, kind: m == .dim ? .dim : .dot)
    }
    let indicators = record.annotations.compactMap { a -> IndicatorDrawing? in
        guard let o = a.offscreen else { return nil }
        return IndicatorDrawing(position: o.position, angleDeg: o.angleDeg, name: o.showsName ? a.poi.labelText : "",
                                detail: formatDistance(a.distance), category: a.poi.category)
    }
    let osm = record.annotations.contains { $0.poi.id.hasPrefix("osm:") }
    return FrameDrawing(width: record.camera.width, height: record.camera.height, background: background,
                        cards: cards.map(\.card), markers: markers, attribution: osm ? "© OpenStreetMap contributors" : nil, indicators: indicators,
                        hud: overlay.hudDrawing(for: record), overlays: overlay.scenery?.overlays(for: record) ?? [])
}

/// The frame's image: the camera view (cards over `background`), the map while the phone
/// points at the ground (`record.mapFraction` 1, with `overlay.flatMap`), or a cross-fade of
/// the two. `background` is asked for only when the camera view is drawn.
func paintFrame(_ record: FrameRecord, overlay: FrameOverlay, style: CardStyle,
                background: () throws -> FrameBackground) throws -> RasterImage {
    let fraction = overlay.flatMap == nil ? 0 : record.mapFraction
    let cameraView = fraction < 1 ? try renderFrame(drawing(for: record, background: try background(), overlay: overlay), style: style) : nil
    guard fraction > 0, let flatMap = overlay.flatMap else { return cameraView! }
    let c = record.camera
    let map = try renderMap(flatMap.drawing(for: record, facing: record.facingAzimuth, halfAngleDeg: c.halfHorizontalFOVDeg,
                                            width: c.width, height: c.height, clock: overlay.clock ? overlay.clockText(record.time) : nil))
    return cameraView.map { $0.crossFade(to: map, fraction: fraction) } ?? map
}

/// Sky and ground split at the horizon implied by the pose: the image of the horizontal plane
/// through the camera, h(u, v) = 0 with h from `CameraProjection.horizonValue`.
public func syntheticBackground(camera: CameraIntrinsics, pose: Pose) -> FrameBackground {
    let projection = CameraProjection(camera: camera, pose: pose)
    // h is linear in (u, v): h = a·u + b·v + c.
    let c = projection.horizonValue(at: Point2(0, 0))
    let a = projection.horizonValue(at: Point2(1, 0)) - c, b = projection.horizonValue(at: Point2(0, 1)) - c
    let w = Double(camera.width), h = Double(camera.height)
    let scale = max(abs(a) * w, abs(b) * h)
    if scale < 1e-12 || abs(c) > 1e6 * scale {
        return .synthetic(horizon: nil, skyAbove: c > 0)
    }
    let p1: Point2, p2: Point2
    if abs(b) * h >= abs(a) * w {
        p1 = Point2(0, -c / b); p2 = Point2(w, -(c + a * w) / b)
    } else {
        p1 = Point2(-c / a, 0); p2 = Point2(-(c + b * h) / a, h)
    }
    // Step from the line along the gradient of h: that side is sky.
    let norm = (a * a + b * b).squareRoot()
    let sky = Point2(p1.x + a / norm, p1.y + b / norm)
    return .synthetic(horizon: p1, p2, skyPoint: sky)
}

extension FlatPhoneMap {
    /// The map for a replay's frame: at its time and place, its POIs on it.
    func drawing(for record: FrameRecord, facing: Double?, halfAngleDeg: Double, width: Int, height: Int, clock: String?) -> MapDrawing {
        drawing(at: record.time, position: record.location.coordinate, places: record.annotations.map { ($0.poi, $0.distance) },
                facing: facing, halfAngleDeg: halfAngleDeg, width: width, height: height, clock: clock)
    }
}
