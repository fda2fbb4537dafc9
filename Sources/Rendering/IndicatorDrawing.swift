import CCairo
import Foundation
import POIARCore

/// An off-screen indicator: an arrow at the image edge pointing toward a POI that is in
/// range but outside the view, with its name and distance beside it (the distance alone when
/// `name` is empty).
public struct IndicatorDrawing: Sendable {
    /// The arrow's tip, on the image (inset from the edge).
    public var position: Point2
    /// Direction the arrow points, degrees in image coordinates (0 = right, 90 = down).
    public var angleDeg: Double
    public var name: String
    public var detail: String
    public var category: String
    public init(position: Point2, angleDeg: Double, name: String, detail: String, category: String) {
        self.position = position; self.angleDeg = angleDeg; self.name = name; self.detail = detail; self.category = category
    }
}

/// Arrow size and text pill of an indicator, at 720 px (scaled like the cards).
enum IndicatorDesign {
    static let arrowLength = 18.0
    static let arrowHalfWidth = 10.0
    static let gap = 6.0
    static let paddingX = 7.0
    static let paddingY = 4.0
    /// The least distance between the pill and the image's edge.
    static let edgeMargin = 2.0
    /// The white outline of the arrow.
    static let outlineWidth = 1.5
}

/// Where an indicator's parts go on a `width` × `height` frame: the arrow's triangle and
/// the text pill (with the text as shown, ellipsised). Drawing and `CardStyle`'s footprint
/// (which the layout keeps out of the HUD) both use it.
struct IndicatorGeometry {
    var arrow: [Point2]
    var pill: Rect
    var text: String

    init(_ indicator: IndicatorDrawing, style: CardStyle, width: Int, height: Int) {
        let s = style.scale
        let angle = indicator.angleDeg * .pi / 180
        let (dx, dy) = (cos(angle), sin(angle))
        let tip = indicator.position
        let length = IndicatorDesign.arrowLength * s, half = IndicatorDesign.arrowHalfWidth * s
        let base = Point2(tip.x - dx * length, tip.y - dy * length)
        arrow = [tip, Point2(base.x - dy * half, base.y + dx * half), Point2(base.x + dy * half, base.y - dx * half)]

        // The text pill sits behind the arrow (toward the image's inside), kept on the image.
        let font = style.detailFont
        let full = indicator.detail.isEmpty ? indicator.name
            : indicator.name.isEmpty ? indicator.detail : "\(indicator.name) · \(indicator.detail)"
        let (shown, textWidth) = ellipsised(full, font: font, maxWidth: style.maxTextWidth)
        text = shown
        let w = textWidth + 2 * IndicatorDesign.paddingX * s
        let h = font.ascent + font.descent + 2 * IndicatorDesign.paddingY * s
        // Beside a side arrow the labels' cards usually stand (they sit above their anchors, near
        // the horizon): there the pill goes under the arrow instead, over the ground.
        var centre: Point2
        if abs(dx) >= abs(dy) {
            centre = Point2(tip.x - dx * (length / 2 + w / 2), tip.y + half + IndicatorDesign.gap * s + h / 2)
        } else {
            let reach = length + IndicatorDesign.gap * s + h / 2
            centre = Point2(tip.x, tip.y - dy * reach)
        }
        let edge = IndicatorDesign.edgeMargin * s
        centre.x = min(max(centre.x, w / 2 + edge), Double(width) - w / 2 - edge)
        centre.y = min(max(centre.y, h / 2 + edge), Double(height) - h / 2 - edge)
        pill = Rect(x: (centre.x - w / 2).rounded(), y: (centre.y - h / 2).rounded(), width: w.rounded(.up), height: h.rounded(.up))
    }

    /// The box around the arrow and the pill.
    var footprint: Rect {
        let xs = arrow.map(\.x) + [pill.minX, pill.maxX], ys = arrow.map(\.y) + [pill.minY, pill.maxY]
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}

/// Arrows at the edges toward POIs outside the view, over the cards.
struct EdgeArrowsLayer: FrameLayer {
    var indicators: [IndicatorDrawing]
    var depth: LayerDepth { .edgeArrows }
    func draw(on canvas: CairoCanvas, style: CardStyle) {
        for indicator in indicators { drawIndicator(indicator, style: style, on: canvas) }
    }
}

func drawIndicator(_ indicator: IndicatorDrawing, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let s = style.scale
    let geometry = IndicatorGeometry(indicator, style: style, width: canvas.width, height: canvas.height)
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    canvas.polygon(geometry.arrow)
    canvas.setColour(CategoryPalette.colour(for: indicator.category))
    cairo_fill_preserve(cr)
    canvas.setColour(RGBA8(r: 255, g: 255, b: 255), alpha: 0.95)
    cairo_set_line_width(cr, IndicatorDesign.outlineWidth * s)
    cairo_stroke(cr)

    let font = style.detailFont
    let pill = geometry.pill
    canvas.roundedRectangle(pill, radius: pill.height / 2)
    canvas.setColour(RGBA8(r: 0x20, g: 0x21, b: 0x24), alpha: 0.72)
    cairo_fill(cr)
    canvas.setColour(RGBA8(r: 255, g: 255, b: 255))
    canvas.text(geometry.text, font: font, x: pill.x + IndicatorDesign.paddingX * s, y: pill.y + IndicatorDesign.paddingY * s + font.ascent)
}
