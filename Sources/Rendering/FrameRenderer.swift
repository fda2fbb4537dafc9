import CCairo
import Foundation
import POIARCore

/// Draws one output frame: the background (still or synthetic sky and ground), then the
/// frame's layers bottom to top (`FrameDrawing.layers`: the HUD's compass tape and GPS status,
/// the markers, every leader line, the cards in the order given, the edge arrows, the radar,
/// the attribution, and any further overlays by their depth). The result is opaque.
///
/// Thread safety: safe to call from many threads at once, with the same or different
/// `CardStyle`s (each call draws on its own Cairo surface).
public func renderFrame(_ frame: FrameDrawing, style: CardStyle) throws -> RasterImage {
    guard frame.width > 0, frame.height > 0, frame.width <= ImageLimits.maxSide, frame.height <= ImageLimits.maxSide else {
        throw RenderingError.invalidFrameSize(width: frame.width, height: frame.height)
    }
    let canvas = try CairoCanvas(width: frame.width, height: frame.height)
    switch frame.background {
    case let .still(image):
        try drawStill(image, on: canvas)
    case let .synthetic(horizon, skyAbove):
        drawSyntheticBackground(horizon: horizon, skyAbove: skyAbove, palette: .day, style: style, on: canvas)
    case let .scene(scene):
        drawScene(scene, style: style, on: canvas)
    }
    for layer in frame.layers {
        try layer.draw(on: canvas, style: style)
    }
    return try canvas.image()
}

// MARK: - Background

/// The still stretched over the whole frame, over black (so a still with transparency
/// still gives an opaque frame). Downscaling uses Cairo's GOOD filter (box-filtered,
/// no aliasing); the edges are padded, not faded to black.
private func drawStill(_ image: RasterImage, on canvas: CairoCanvas) throws {
    let cr = canvas.context
    cairo_set_source_rgb(cr, 0, 0, 0)
    cairo_paint(cr)
    let surface = try cairoSurface(of: image)
    defer { cairo_surface_destroy(surface) }
    cairo_save(cr)
    cairo_scale(cr, Double(canvas.width) / Double(image.width), Double(canvas.height) / Double(image.height))
    cairo_set_source_surface(cr, surface, 0, 0)
    let pattern = cairo_get_source(cr)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_paint(cr)
    cairo_restore(cr)
}

/// Colours of the synthetic background: a clear-sky blue that pales toward the
/// horizon (aerial perspective) and a grey-green ground that darkens to brown toward
/// the viewer.
enum SyntheticPalette {
    static let skyAtHorizon = (red: 0.80, green: 0.88, blue: 0.96)
    static let skyFar = (red: 0.33, green: 0.57, blue: 0.86)
    static let groundAtHorizon = (red: 0.63, green: 0.64, blue: 0.55)
    static let groundNear = (red: 0.38, green: 0.35, blue: 0.26)
    static let horizonLine = (red: 1.0, green: 1.0, blue: 1.0, alpha: 0.55)
    /// Horizon line width at 720 pixels.
    static let horizonLineWidth = 1.5
}

/// Sky and ground in `palette`'s colours, split at the horizon (`FrameBackground.synthetic`).
func drawSyntheticBackground(horizon: (Point2, Point2)?, skyAbove: Bool, palette: SkyPalette,
                             style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let width = Double(canvas.width), height = Double(canvas.height)
    let corners = HorizonGeometry.corners(width: width, height: height)

    // With no horizon in view, a virtual one just off the image keeps one code path:
    // all sky (line along the bottom edge) or all ground (line along the top edge).
    let (a, b) = horizon ?? (skyAbove ? (Point2(0, height), Point2(width, height)) : (Point2(0, 0), Point2(width, 0)))
    var skyNormal = HorizonGeometry.upNormal(a, b)
    if !skyAbove && horizon != nil { skyNormal = Point2(-skyNormal.x, -skyNormal.y) }
    func distance(_ p: Point2) -> Double { (p.x - a.x) * skyNormal.x + (p.y - a.y) * skyNormal.y }
    let farthestSky = max(1, corners.map(distance).max() ?? 1)
    let farthestGround = max(1, -(corners.map(distance).min() ?? -1))

    // Ground everywhere, then the sky polygon over it.
    fillGradient(canvas, from: a, along: Point2(-skyNormal.x, -skyNormal.y), length: farthestGround,
                 start: palette.groundAtHorizon, end: palette.groundNear)
    cairo_paint(cr)
    let sky = HorizonGeometry.clip(corners, origin: a, normal: skyNormal)
    if sky.count >= 3 {
        fillGradient(canvas, from: a, along: skyNormal, length: farthestSky,
                     start: palette.skyAtHorizon, end: palette.skyFar)
        canvas.polygon(sky)
        cairo_fill(cr)
    }
    if horizon != nil {
        // The line through a and b, extended well past the image (Cairo clips it).
        let dx = -skyNormal.y, dy = skyNormal.x
        let reach = 2 * (width + height) + abs(a.x) + abs(a.y)
        let c = SyntheticPalette.horizonLine
        canvas.setColour(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        cairo_set_line_width(cr, SyntheticPalette.horizonLineWidth * style.scale)
        cairo_move_to(cr, a.x - dx * reach, a.y - dy * reach)
        cairo_line_to(cr, a.x + dx * reach, a.y + dy * reach)
        cairo_stroke(cr)
    }
}

/// Sets a linear gradient source from `origin` along `direction` for `length` pixels.
private func fillGradient(_ canvas: CairoCanvas, from origin: Point2, along direction: Point2, length: Double,
                          start: (red: Double, green: Double, blue: Double),
                          end: (red: Double, green: Double, blue: Double)) {
    guard let gradient = cairo_pattern_create_linear(
        origin.x, origin.y, origin.x + direction.x * length, origin.y + direction.y * length) else { return }
    defer { cairo_pattern_destroy(gradient) }
    cairo_pattern_add_color_stop_rgb(gradient, 0, start.red, start.green, start.blue)
    cairo_pattern_add_color_stop_rgb(gradient, 1, end.red, end.green, end.blue)
    cairo_pattern_set_extend(gradient, CAIRO_EXTEND_PAD)
    cairo_set_source(canvas.context, gradient)
}

// MARK: - Cards

/// Colours of a card.
enum CardPalette {
    static let body = RGBA8(r: 255, g: 255, b: 255)
    static let bodyOpacity = 0.92
    static let border = RGBA8(r: 0, g: 0, b: 0)
    static let borderOpacity = 0.10
    static let shadowOpacityPerLayer = 0.045
    static let name = RGBA8(r: 0x20, g: 0x21, b: 0x24)
    static let detail = RGBA8(r: 0x5F, g: 0x63, b: 0x68)
    static let leader = RGBA8(r: 255, g: 255, b: 255)
    static let leaderHalo = RGBA8(r: 0, g: 0, b: 0)
    static let leaderHaloOpacity = 0.35
}

/// Whole-pixel corners keep the edges and the text sharp.
private func pixelBox(_ card: CardDrawing) -> Rect {
    Rect(x: card.box.x.rounded(), y: card.box.y.rounded(),
         width: max(1, card.box.width.rounded()), height: max(1, card.box.height.rounded()))
}

/// Draws `body` at `opacity` (1: directly).
private func withOpacity(_ opacity: Double, on canvas: CairoCanvas, _ body: () -> Void) {
    guard opacity < 1 else { return body() }
    guard opacity > 0 else { return }
    cairo_push_group(canvas.context)
    body()
    cairo_pop_group_to_source(canvas.context)
    cairo_paint_with_alpha(canvas.context, opacity)
}

/// Colours of markers without a card.
enum MarkerPalette {
    /// A dot: the category colour in a white ring, radius (px at 720) of the dot and the ring.
    static let dotRadius = 3.5, dotRing = 1.5
    /// Behind a building: a translucent white disc in a grey ring, a "something there".
    static let dimRing = RGBA8(r: 70, g: 76, b: 84, a: 255)
    static let dimOpacity = 0.6, dimRadius = 4.5
}

/// POIs in view without a card, each a dot in the category colour ringed in white, or a dim grey one.
struct MarkersLayer: FrameLayer {
    var markers: [MarkerDrawing]
    var depth: LayerDepth { .markers }
    func draw(on canvas: CairoCanvas, style: CardStyle) {
        for marker in markers { drawMarker(marker, style: style, on: canvas) }
    }
}

/// The cards' leader lines and anchor dots, all under all the cards (`CardsLayer`), so no line
/// ever crosses a card's text, however high the stack; and clipped off every card's body, so a
/// card drawn translucent (fading in or out) is not struck through by another card's line. A
/// fading card's leader is drawn into a group and painted with its opacity, so its strokes do
/// not show through each other.
struct LeadersLayer: FrameLayer {
    var cards: [CardDrawing]
    var depth: LayerDepth { .leaders }
    func draw(on canvas: CairoCanvas, style: CardStyle) {
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // The frame less the cards' boxes (they never overlap, so even-odd leaves them all out).
        cairo_rectangle(cr, 0, 0, Double(canvas.width), Double(canvas.height))
        for card in cards {
            let box = pixelBox(card)
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_clip(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        for card in cards {
            withOpacity(card.opacity, on: canvas) { drawLeader(card, style: style, on: canvas) }
        }
    }
}

/// The cards, in the order given (farthest first, so nearer ones cover them). A fading card is
/// drawn into a group and painted with its opacity, so its layers do not show through each other.
struct CardsLayer: FrameLayer {
    var cards: [CardDrawing]
    var depth: LayerDepth { .cards }
    func draw(on canvas: CairoCanvas, style: CardStyle) {
        for card in cards {
            withOpacity(card.opacity, on: canvas) { drawCard(card, style: style.sized(card.sizeFactor), on: canvas) }
        }
    }
}

private func drawMarker(_ marker: MarkerDrawing, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let s = style.scale
    let p = marker.position
    switch marker.kind {
    case .dot:
        canvas.setColour(CardPalette.leader, alpha: 0.9)
        cairo_arc(cr, p.x, p.y, (MarkerPalette.dotRadius + MarkerPalette.dotRing) * s, 0, 2 * Double.pi)
        cairo_fill(cr)
        canvas.setColour(CategoryPalette.colour(for: marker.category))
        cairo_arc(cr, p.x, p.y, MarkerPalette.dotRadius * s, 0, 2 * Double.pi)
        cairo_fill(cr)
    case .dim:
        cairo_arc(cr, p.x, p.y, MarkerPalette.dimRadius * s, 0, 2 * Double.pi)
        canvas.setColour(CardPalette.leader, alpha: MarkerPalette.dimOpacity * 0.6)
        cairo_fill_preserve(cr)
        canvas.setColour(MarkerPalette.dimRing, alpha: MarkerPalette.dimOpacity)
        cairo_set_line_width(cr, 1.5 * s)
        cairo_stroke(cr)
    }
}

/// The leader line from the card's edge facing the anchor to the anchor, and the anchor dot.
private func drawLeader(_ card: CardDrawing, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let s = style.scale
    let box = pixelBox(card)
    let colour = CategoryPalette.colour(for: card.category)
    cairo_save(cr)
    defer { cairo_restore(cr) }

    // Leader line from the card to the anchor, and the anchor dot.
    if let anchor = card.anchor {
        let start = box.leaderStart(toward: anchor, inset: style.sized(card.sizeFactor).cornerRadius + 2 * s)
        if hypot(anchor.x - start.x, anchor.y - start.y) > 0.5 {
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            for (paint, opacity, extra) in [(CardPalette.leaderHalo, CardPalette.leaderHaloOpacity, 1.5),
                                            (CardPalette.leader, 0.95, 0.0)] {
                canvas.setColour(paint, alpha: opacity)
                cairo_set_line_width(cr, (CardStyle.Design.leaderWidth + extra) * s)
                cairo_move_to(cr, start.x, start.y)
                cairo_line_to(cr, anchor.x, anchor.y)
                cairo_stroke(cr)
            }
        }
        let radius = CardStyle.Design.anchorDotRadius * s
        canvas.setColour(CardPalette.leaderHalo, alpha: CardPalette.leaderHaloOpacity)
        cairo_arc(cr, anchor.x, anchor.y, radius + 2.5 * s, 0, 2 * Double.pi)
        cairo_fill(cr)
        canvas.setColour(CardPalette.leader)
        cairo_arc(cr, anchor.x, anchor.y, radius + 1.5 * s, 0, 2 * Double.pi)
        cairo_fill(cr)
        canvas.setColour(colour)
        cairo_arc(cr, anchor.x, anchor.y, radius, 0, 2 * Double.pi)
        cairo_fill(cr)
    }
}

/// The card: shadow, body, category badge with its icon, name and detail line.
private func drawCard(_ card: CardDrawing, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let s = style.scale
    let box = pixelBox(card)
    cairo_save(cr)
    defer { cairo_restore(cr) }

    // Soft shadow: a few widening translucent layers, offset down.
    for layer in 1...4 {
        let grow = Double(layer) * s
        let shadow = Rect(x: box.x - grow, y: box.y - grow + 2 * s,
                          width: box.width + 2 * grow, height: box.height + 2 * grow)
        canvas.setColour(CardPalette.border, alpha: CardPalette.shadowOpacityPerLayer)
        canvas.roundedRectangle(shadow, radius: style.cornerRadius + grow)
        cairo_fill(cr)
    }

    // Body.
    canvas.roundedRectangle(box, radius: style.cornerRadius)
    canvas.setColour(CardPalette.body, alpha: CardPalette.bodyOpacity)
    cairo_fill(cr)
    canvas.roundedRectangle(Rect(x: box.x + 0.5, y: box.y + 0.5, width: box.width - 1, height: box.height - 1),
                            radius: style.cornerRadius - 0.5)
    canvas.setColour(CardPalette.border, alpha: CardPalette.borderOpacity)
    cairo_set_line_width(cr, 1)
    cairo_stroke(cr)

    // Category badge: a disc in the category colour, the icon in white.
    let layout = style.cardLayout(name: card.name, detail: card.detail)
    let badge = Point2(box.x + layout.badgeCentre.x, box.y + layout.badgeCentre.y)
    drawBadge(category: card.category, centre: badge, diameter: layout.badgeDiameter, on: canvas)

    // Text.
    canvas.setColour(CardPalette.name)
    canvas.text(layout.name, font: style.nameFont, x: box.x + layout.textX, y: box.y + layout.nameBaseline)
    if let baseline = layout.detailBaseline {
        canvas.setColour(CardPalette.detail)
        canvas.text(layout.detail, font: style.detailFont, x: box.x + layout.textX, y: box.y + baseline)
    }
}

// MARK: - Attribution

/// Data-source credit, small, in the bottom-right corner on a translucent white tab.
struct AttributionLayer: FrameLayer {
    var text: String
    var depth: LayerDepth { .attribution }
    func draw(on canvas: CairoCanvas, style: CardStyle) { drawAttribution(text, style: style, on: canvas) }
}

private func drawAttribution(_ text: String, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let s = style.scale
    let paddingX = 6 * s, paddingY = 3 * s
    let font = style.attributionFont
    let (shown, textWidth) = ellipsised(text, font: font, maxWidth: Double(canvas.width) - 2 * paddingX)
    let tabWidth = (textWidth + 2 * paddingX).rounded(.up)
    let tabHeight = (font.ascent + font.descent + 2 * paddingY).rounded(.up)
    let x = Double(canvas.width) - tabWidth, y = Double(canvas.height) - tabHeight
    let radius = 4 * s
    // Extends past the right and bottom edges so only the top-left corner shows rounded.
    canvas.roundedRectangle(Rect(x: x, y: y, width: tabWidth + radius, height: tabHeight + radius), radius: radius)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.7)
    cairo_fill(cr)
    canvas.setColour(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.95)
    canvas.text(shown, font: font, x: x + paddingX, y: y + paddingY + font.ascent)
}
