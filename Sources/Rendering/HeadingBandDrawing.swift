import CCairo
import Foundation
import POIARCore

/// The heading's uncertainty on the compass tape (`CompassTapeDrawing.headingSigma`): a band
/// over the bearings within its 68 % bound of the heading, and, when the frame's heading is
/// uncertain (`uncertain`), the band in amber and a "heading uncertain ±N°" badge at the
/// tape's right end (inside the tape, which cards already keep out of).
enum HeadingBandDesign {
    /// The band's colour: white while the heading is trusted, amber when uncertain.
    static let trusted = (red: 1.0, green: 1.0, blue: 1.0, alpha: 0.16)
    static let uncertain = (red: 1.0, green: 0.72, blue: 0.15, alpha: 0.30)
    /// The band's edges, px at 720.
    static let edgeWidth = 1.0
    /// The badge: its padding, px at 720, and its gap to the heading box.
    static let badge = (paddingX: 7.0, paddingY: 3.0, gap: 6.0)
}

/// The band, over the tape's backdrop and under its ticks: from heading − σ to heading + σ
/// where the bearings fall on the image (the whole tape when σ reaches past its ends).
func drawHeadingBand(_ tape: CompassTapeDrawing, width: Double, height: Double, scale s: Double, on canvas: CairoCanvas) {
    guard let sigma = tape.headingSigma, sigma > 0 else { return }
    let cr = canvas.context
    let left = sigma < tape.halfSpan(width: width) ? tape.offset(degreesOff: -sigma).map { tape.cx + $0 } ?? 0 : 0
    let right = sigma < tape.halfSpan(width: width) ? tape.offset(degreesOff: sigma).map { tape.cx + $0 } ?? width : width
    let c = tape.uncertain ? HeadingBandDesign.uncertain : HeadingBandDesign.trusted
    canvas.setColour(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    cairo_rectangle(cr, left, 0, right - left, height)
    cairo_fill(cr)
    canvas.setColour(red: c.red, green: c.green, blue: c.blue, alpha: min(1, 2.5 * c.alpha))
    cairo_set_line_width(cr, HeadingBandDesign.edgeWidth * s)
    for x in [left, right] where x > 0 && x < width {
        cairo_move_to(cr, x.rounded() + 0.5, 0)
        cairo_line_to(cr, x.rounded() + 0.5, height)
    }
    cairo_stroke(cr)
}

/// The badge, right-aligned in the tape and centred on it; shortened to "uncertain ±N°" when
/// the whole text would reach the heading box (`box`), left out when even that would.
func drawUncertainBadge(_ tape: CompassTapeDrawing, box: Rect, font: ScaledFont, width: Double, height: Double,
                        scale s: Double, on canvas: CairoCanvas) {
    guard tape.uncertain, let sigma = tape.headingSigma else { return }
    let bound = String(format: "±%.0f°", sigma)
    let padX = HeadingBandDesign.badge.paddingX * s, padY = HeadingBandDesign.badge.paddingY * s
    let badgeHeight = (font.ascent + font.descent + 2 * padY).rounded(.up)
    let right = width - (HUDDesign.margin * s).rounded()
    for text in ["heading uncertain \(bound)", "uncertain \(bound)"] {
        let badgeWidth = (font.width(of: text) + 2 * padX).rounded(.up)
        let rect = Rect(x: right - badgeWidth, y: ((height - badgeHeight) / 2).rounded(), width: badgeWidth, height: badgeHeight)
        guard rect.minX >= box.maxX + HeadingBandDesign.badge.gap * s else { continue }
        let cr = canvas.context
        canvas.roundedRectangle(rect, radius: badgeHeight / 2)
        let c = HeadingBandDesign.uncertain
        canvas.setColour(red: c.red, green: c.green, blue: c.blue, alpha: 0.95)
        cairo_fill(cr)
        canvas.setColour(RGBA8(r: 0x20, g: 0x21, b: 0x24))
        canvas.text(text, font: font, x: rect.x + padX, y: rect.y + padY + font.ascent)
        return
    }
}
