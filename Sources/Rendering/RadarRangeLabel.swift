import Foundation
import POIARCore

/// Where a blip lies on the radar's disc (centre `centre`, rim radius `r`, at scale `s`): its
/// bearing from the heading (up) and its distance from the centre, a full range just inside the
/// rim.
func radarBlipPoint(_ blip: RadarBlip, radar: RadarDrawing, centre: Point2, r: Double, scale s: Double) -> Point2 {
    let a = angleDifference(blip.bearing, radar.heading) * .pi / 180
    let d = blip.distance / radar.range * (r - HUDDesign.radarInset.blip * s)
    return Point2(centre.x + d * sin(a), centre.y - d * cos(a))
}

/// The box of the radar's red "N" (in `font`), on the rim where north lies for `heading`, centred
/// there (raised by `northRaise`).
func radarNorthBox(heading: Double, centre: Point2, r: Double, scale s: Double, font: ScaledFont) -> Rect {
    let north = -heading * .pi / 180
    let radius = r - HUDDesign.radarInset.north * s
    let p = Point2(centre.x + radius * sin(north), centre.y - radius * cos(north))
    let width = font.width(of: "N")
    let baseline = p.y + font.ascent / 2 - HUDDesign.radarInset.northRaise * s
    return Rect(x: p.x - width / 2, y: baseline - font.ascent, width: width, height: font.ascent + font.descent)
}

/// Where the radar's range text stands: the first of its places inside the rim — the bottom of
/// the disc, the top, then the four diagonals, then left and right — where its box (with the
/// halo it is drawn in) covers no blip and not the red "N" (`north`, its box); with none clear,
/// the one over the fewest blips. Before, the text sat at the bottom (at the top while north was
/// down), over whatever blip was there ("300 m" over a POI on the GoPro clip).
/// Returns the text's left end and baseline.
func radarRangeOrigin(width w: Double, ascent: Double, descent: Double, radar: RadarDrawing, centre: Point2, r: Double,
                      scale s: Double, north: Rect) -> Point2 {
    let inset = HUDDesign.radarInset.rangeText * s, halo = 1.5 * s
    // The bottom and top places as before; the others with the box's corner `inset` inside the rim.
    var places = [Point2(centre.x - w / 2, centre.y + r - inset), Point2(centre.x - w / 2, centre.y - r + inset + ascent)]
    let height = ascent + descent, reach = r - inset - hypot(w / 2, height / 2)
    for degrees in [225.0, 135, 315, 45, 270, 90] where reach > 0 {
        // Clockwise from up, as the blips' bearings are.
        let a = degrees * .pi / 180
        let middle = Point2(centre.x + reach * sin(a), centre.y - reach * cos(a))
        places.append(Point2(middle.x - w / 2, middle.y - height / 2 + ascent))
    }
    let blips = radar.blips.filter { $0.distance <= radar.range }.map { blip in
        (point: radarBlipPoint(blip, radar: radar, centre: centre, r: r, scale: s),
         radius: (blip.labelled ? HUDDesign.radarDot.labelledBlip + HUDDesign.radarDot.labelledRing : HUDDesign.radarDot.blip) * s)
    }
    func covered(_ origin: Point2) -> (north: Bool, blips: Int) {
        let box = Rect(x: origin.x - halo, y: origin.y - ascent - halo, width: w + 2 * halo, height: height + 2 * halo)
        let over = blips.filter { b in
            let nx = min(max(b.point.x, box.minX), box.maxX), ny = min(max(b.point.y, box.minY), box.maxY)
            return hypot(b.point.x - nx, b.point.y - ny) < b.radius
        }
        return (box.intersects(north), over.count)
    }
    let scored = places.map { (origin: $0, covers: covered($0)) }
    if let clear = scored.first(where: { !$0.covers.north && $0.covers.blips == 0 }) { return clear.origin }
    return scored.filter { !$0.covers.north }.min { $0.covers.blips < $1.covers.blips }?.origin ?? places[0]
}
