import Foundation
import POIARCore
import Rendering

/// The drawing of a frame: cards farthest first (so nearer cards sit on top), off-screen
/// arrows, the HUD parts `overlay` asks for, and the OSM credit when OSM POIs are shown.
func drawing(for record: FrameRecord, background: FrameBackground, overlay: FrameOverlay = FrameOverlay()) -> FrameDrawing {
    let cards = record.annotations.reversed().compactMap { a -> CardDrawing? in
        guard a.visible, let box = a.box else { return nil }
        return CardDrawing(box: box, anchor: a.anchor, name: a.poi.labelText,
                           detail: cardDetail(for: a.poi, distance: a.distance, secondLine: overlay.secondLine),
                           category: a.poi.category)
    }
    let indicators = record.annotations.compactMap { a -> IndicatorDrawing? in
        guard let o = a.offscreen else { return nil }
        return IndicatorDrawing(position: o.position, angleDeg: o.angleDeg, name: a.poi.labelText,
                                detail: formatDistance(a.distance), category: a.poi.category)
    }
    let osm = record.annotations.contains { $0.poi.id.hasPrefix("osm:") }
    return FrameDrawing(width: record.camera.width, height: record.camera.height, background: background,
                        cards: cards, attribution: osm ? "© OpenStreetMap contributors" : nil, indicators: indicators,
                        hud: overlay.hudDrawing(for: record))
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
    let halfFOV = atan(max(c.cx, Double(c.width) - c.cx) / c.fx) * 180 / .pi
    let map = try renderMap(flatMap.drawing(for: record, facing: record.facingAzimuth, halfAngleDeg: halfFOV,
                                            width: c.width, height: c.height))
    return cameraView.map { $0.crossFade(to: map, fraction: fraction) } ?? map
}

extension FrameOverlay {
    /// The overlay a replay with `options` draws: its HUD parts and second line, the radar
    /// reaching as far as labels do (`--max-distance`, else `--radius`).
    public init(options: ReplayOptions, startUTC: Date?) {
        self.init(hud: options.overlay.hud, startUTC: startUTC,
                  radarRange: options.overlay.radarRange ?? options.layout.maxDistance ?? options.radius,
                  secondLine: options.annotation.secondLine)
    }
}
