import CCairo
import Foundation
import POIARCore

/// The smallest of 1, 2, 5 × 10ⁿ that is at least `length`.
func niceLength(atLeast length: Double) -> Double {
    guard length > 0, length.isFinite else { return 1 }
    let decade = pow(10, (log10(length)).rounded(.down))
    for m in [1.0, 2.0, 5.0, 10.0] where m * decade >= length { return m * decade }
    return 10 * decade
}

/// The largest of 1, 2, 5 × 10ⁿ that is at most `length`.
func niceLength(atMost length: Double) -> Double {
    guard length > 0, length.isFinite else { return 1 }
    let decade = pow(10, (log10(length)).rounded(.down))
    for m in [5.0, 2.0, 1.0] where m * decade <= length { return m * decade }
    return decade
}

/// Where the map's furniture goes: scale bar (bottom left), north arrow (top right), caption
/// (top centre), attribution (bottom right). Drawing and the place labels (which keep out of
/// it) both use it.
struct MapFurniture {
    let font: ScaledFont
    let boldFont: ScaledFont
    let margin: Double
    /// The scale bar's length in metres and pixels, its label, and its white box.
    let metres: Double, length: Double, label: String, scaleBox: Rect
    let northBox: Rect
    let caption: (text: String, box: Rect)?
    let attribution: (text: String, box: Rect)?

    init(_ map: MapDrawing, scale s: Double) throws {
        let regular = try FontLibrary.shared.face(path: defaultRegularFontPath)
        let bold = try FontLibrary.shared.face(path: defaultBoldFontPath)
        font = try FontLibrary.shared.scaled(regular, 14 * s)
        boldFont = try FontLibrary.shared.scaled(bold, 16 * s)
        margin = MapDesign.margin * s
        // A round length near a fifth of the width.
        metres = niceLength(atMost: Double(map.width) * 0.2 * map.metresPerPixel)
        length = metres / map.metresPerPixel
        label = metres >= 1000 ? "\(metres / 1000 == (metres / 1000).rounded() ? String(Int(metres / 1000)) : String(metres / 1000)) km" : "\(Int(metres)) m"
        let barHeight = 6 * s
        let y0 = Double(map.height) - margin - 8 * s - barHeight
        scaleBox = Rect(x: margin, y: y0 - font.ascent - 10 * s, width: length + 16 * s, height: font.ascent + font.descent + barHeight + 18 * s)
        northBox = Rect(x: Double(map.width) - margin - 40 * s, y: margin, width: 40 * s, height: 64 * s)
        // Without streets or buildings from any source the map says so, so a grid is not taken
        // for an empty neighbourhood.
        let notice = map.hasBaseMap ? nil : "No map data"
        if let text = [map.caption, notice].compactMap({ $0 }).filter({ !$0.isEmpty }).joined(separator: " · ") as String?, !text.isEmpty {
            let (shown, width) = ellipsised(text, font: font, maxWidth: Double(map.width) - 2 * margin - 100 * s)
            let w = (width + 20 * s).rounded(.up), h = (font.ascent + font.descent + 10 * s).rounded(.up)
            caption = (shown, Rect(x: ((Double(map.width) - w) / 2).rounded(), y: margin, width: w, height: h))
        } else {
            caption = nil
        }
        if let text = map.attribution, !text.isEmpty {
            let (shown, width) = ellipsised(text, font: font, maxWidth: Double(map.width) - 2 * margin)
            let w = (width + 12 * s).rounded(.up), h = (font.ascent + font.descent + 6 * s).rounded(.up)
            attribution = (shown, Rect(x: Double(map.width) - w, y: Double(map.height) - h, width: w, height: h))
        } else {
            attribution = nil
        }
    }

    /// Every box the furniture covers.
    var areas: [Rect] { [scaleBox, northBox] + [caption?.box, attribution?.box].compactMap { $0 } }
}

/// Draws the furniture (`MapFurniture`).
func drawMapFurniture(_ map: MapDrawing, _ f: MapFurniture, scale s: Double, on canvas: CairoCanvas) {
    let cr = canvas.context
    let font = f.font, boldFont = f.boldFont

    // Scale bar in alternating black and white halves.
    let barHeight = 6 * s
    let x0 = f.margin + 8 * s, y0 = Double(map.height) - f.margin - 8 * s - barHeight
    canvas.roundedRectangle(f.scaleBox, radius: 4 * s)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.85)
    cairo_fill(cr)
    canvas.setColour(red: 0.1, green: 0.1, blue: 0.1)
    cairo_rectangle(cr, x0, y0, f.length, barHeight)
    cairo_fill(cr)
    canvas.setColour(red: 1, green: 1, blue: 1)
    cairo_rectangle(cr, x0 + f.length / 2, y0 + 1 * s, f.length / 2 - 1 * s, barHeight - 2 * s)
    cairo_fill(cr)
    canvas.setColour(red: 0.1, green: 0.1, blue: 0.1)
    canvas.text(f.label, font: font, x: x0, y: y0 - 5 * s)

    // North arrow: a split arrowhead with N above it.
    let cx = f.northBox.midX, top = f.margin + 4 * s
    canvas.roundedRectangle(f.northBox, radius: 4 * s)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.85)
    cairo_fill(cr)
    canvas.setColour(red: 0.1, green: 0.1, blue: 0.1)
    canvas.text("N", font: boldFont, x: cx - boldFont.width(of: "N") / 2, y: top + boldFont.ascent)
    let tip = Point2(cx, top + boldFont.ascent + 6 * s), base = top + boldFont.ascent + 36 * s
    canvas.polygon([tip, Point2(cx + 10 * s, base), Point2(cx, base - 8 * s)])
    cairo_fill(cr)
    canvas.polygon([tip, Point2(cx - 10 * s, base), Point2(cx, base - 8 * s)])
    cairo_set_line_width(cr, 1.2 * s)
    cairo_stroke(cr)

    // Caption: a dark pill at the top centre.
    if let (text, box) = f.caption {
        canvas.roundedRectangle(box, radius: box.height / 2)
        canvas.setColour(red: 0.07, green: 0.08, blue: 0.10, alpha: 0.75)
        cairo_fill(cr)
        canvas.setColour(red: 1, green: 1, blue: 1)
        canvas.text(text, font: font, x: box.x + 10 * s, y: box.y + 5 * s + font.ascent)
    }

    // Attribution, its box running past the right and bottom edges.
    if let (text, box) = f.attribution {
        canvas.roundedRectangle(Rect(x: box.x, y: box.y, width: box.width + 4 * s, height: box.height + 4 * s), radius: 4 * s)
        canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.8)
        cairo_fill(cr)
        canvas.setColour(red: 0.2, green: 0.2, blue: 0.2)
        canvas.text(text, font: font, x: box.x + 6 * s, y: box.y + 3 * s + font.ascent)
    }
}
