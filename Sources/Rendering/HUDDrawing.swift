import CCairo
import Foundation
import POIARCore

/// The heads-up display over a frame; each part is optional.
public struct HUDDrawing: Sendable {
    public var compass: CompassTapeDrawing?
    public var status: StatusDrawing?
    public var radar: RadarDrawing?
    public init(compass: CompassTapeDrawing? = nil, status: StatusDrawing? = nil, radar: RadarDrawing? = nil) {
        self.compass = compass; self.status = status; self.radar = radar
    }
}

/// A compass tape along the top: the bearings the camera sees, laid out as they fall on
/// the image (bearing heading + atan((x − cx)/fx)), ticks every 5°, the heading in a box at
/// the centre, and a mark at the bearing of each POI shown.
public struct CompassTapeDrawing: Sendable {
    /// Azimuth of the optical axis, degrees (0 = north).
    public var heading: Double
    /// The camera's horizontal focal length and principal point, pixels.
    public var fx: Double
    public var cx: Double
    /// Bearings (degrees) and categories of POIs to mark on the tape.
    public var marks: [(bearing: Double, category: String)]
    /// A fisheye lens (`LensDistortion.Model.fisheye`): bearings fall at cx + fx·θ_d, not
    /// cx + fx·tan θ, and the tape spans its whole field of view.
    public var fisheye: LensDistortion?
    /// The 68 % bound of the heading's error, degrees, drawn as a band (nil: none known), and
    /// whether it is wide enough to say so (`HeadingBandDrawing.swift`).
    public var headingSigma: Double?
    public var uncertain: Bool
    public init(heading: Double, fx: Double, cx: Double, marks: [(bearing: Double, category: String)] = [],
                fisheye: LensDistortion? = nil, headingSigma: Double? = nil, uncertain: Bool = false) {
        self.heading = heading; self.fx = fx; self.cx = cx; self.marks = marks; self.fisheye = fisheye
        self.headingSigma = headingSigma; self.uncertain = uncertain
    }

    /// Where a bearing `d` degrees off the heading falls from `cx`, pixels (nil where the lens
    /// does not reach: 80° for a pinhole, whose tan θ runs away, 100° for a fisheye).
    func offset(degreesOff d: Double) -> Double? {
        if let fisheye {
            guard abs(d) < 100 else { return nil }
            return fx * fisheye.fisheyeAngle(d * .pi / 180)
        }
        guard abs(d) < 80 else { return nil }
        return fx * tan(d * .pi / 180)
    }

    /// Degrees either side of the heading the tape shows on an image `width` wide.
    func halfSpan(width: Double) -> Double {
        let edge = max(cx, width - cx) / max(1, fx)
        guard let fisheye else { return min(79.0, atan(edge) * 180 / .pi + 5) }
        return min(99.0, fisheye.fisheyeRayAngle(distorted: edge) * 180 / .pi + 5)
    }
}

/// GPS accuracy and time, in a pill under the compass tape (top left).
public struct StatusDrawing: Sendable {
    /// Horizontal accuracy of the position, metres; nil when the fix has none.
    public var accuracy: Double?
    /// The time as shown, e.g. "10:02:41 UTC" or "t 12.5 s".
    public var time: String
    public init(accuracy: Double?, time: String) { self.accuracy = accuracy; self.time = time }
}

/// A small radar (as HDAugmentedReality's): heading up, the device at the centre, the view
/// cone, the POIs within `range` as dots in their category colours, north on the rim.
public struct RadarDrawing: Sendable {
    public var heading: Double
    /// Half the horizontal field of view, degrees each side of the heading.
    public var halfFieldOfView: Double
    /// Radius of the radar in metres.
    public var range: Double
    public var blips: [RadarBlip]
    public init(heading: Double, halfFieldOfView: Double, range: Double, blips: [RadarBlip]) {
        self.heading = heading; self.halfFieldOfView = halfFieldOfView; self.range = range; self.blips = blips
    }
}

extension RadarDrawing {
    /// The round ranges a radar chooses from (metres).
    static let roundRanges: [Double] = [50, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 15000, 20000, 30000, 50000]

    /// A range from what is around: the smallest round range (`roundRanges`) that holds every
    /// labelled POI and the `nearest` nearest POIs, with a tenth to spare so none sits on the
    /// rim — at most `reach` (the search radius). A radar whose range is the search radius packs
    /// a city's cafes into its inner ring; this one spreads the places near enough to matter.
    public static func rangeAround(_ blips: [RadarBlip], reach: Double, nearest: Int = 12) -> Double {
        let distances = blips.map(\.distance).sorted()
        let labelled = blips.filter(\.labelled).map(\.distance).max() ?? 0
        let kth = distances.isEmpty ? 0 : distances[min(nearest, distances.count) - 1]
        let need = max(labelled, kth) * 1.1
        return min(reach, roundRanges.first { $0 >= need } ?? reach)
    }
}

public struct RadarBlip: Sendable {
    public var bearing: Double
    public var distance: Double
    public var category: String
    /// Labelled on this frame: drawn larger, with a white ring.
    public var labelled: Bool
    public init(bearing: Double, distance: Double, category: String, labelled: Bool) {
        self.bearing = bearing; self.distance = distance; self.category = category; self.labelled = labelled
    }
}

/// Sizes of the HUD at 720 px (scaled with the image like the cards).
public enum HUDDesign {
    public static let tapeHeight = 40.0
    static let tapeFontSize = 12.0
    static let headingFontSize = 15.0
    static let statusFontSize = 12.0
    static let radarDiameter = 150.0
    static let margin = 12.0
    /// Space kept between the HUD and the cards or arrows kept out of it, px at 720.
    public static let clearance = 4.0
    static let backdrop = (red: 0.07, green: 0.08, blue: 0.10, alpha: 0.55)

    // The parts' insides, px at 720, grouped by part.
    /// Compass tape ticks, up from the tape's bottom edge: every 15° (`major`, labelled, the
    /// label's baseline `labelGap` above the tick) and every 5°.
    static let tick = (majorLength: 9.0, minorLength: 5.0, majorWidth: 1.5, minorWidth: 1.0, labelGap: 4.0)
    /// A POI's mark on the tape: a dot in its category colour in a white ring, `centreY` below
    /// the tape's top.
    static let tapeMark = (centreY: 6.0, radius: 2.6, ringRadius: 3.6)
    /// The heading box at the optical axis: its top below the tape's top, the text's padding,
    /// the corner radius, and the pointer under it (its half width and its height).
    static let headingBox = (top: 3.0, paddingX: 8.0, paddingY: 3.0, cornerRadius: 5.0, pointer: 6.0)
    /// The GPS pill (`statusPillSize`): `gap` under the tape, a coloured dot, the text `dotGap`
    /// after it, all inside `paddingX` and `paddingY`.
    static let statusPill = (gap: 8.0, dot: 8.0, dotGap: 6.0, paddingX: 8.0, paddingY: 4.0)
    /// The radar's rim and range rings.
    static let radarLineWidth = (rim: 1.5, rings: 1.0)
    /// Distances inside the radar's rim: where the view cone stops, blips at the full range,
    /// the range text's baseline, and the red "N" (raised by `northRaise` to centre it).
    static let radarInset = (cone: 1.0, blip: 4.0, rangeText: 6.0, north: 11.0, northRaise: 1.0)
    /// Dot radii on the radar: a blip labelled on this frame (with a white ring around it), any
    /// other blip, and the device at the centre.
    static let radarDot = (labelledBlip: 3.4, labelledRing: 1.2, blip: 2.4, device: 3.5)
}

/// Where the HUD's parts sit on a `width` × `height` frame drawn with `style`: cards and
/// edge arrows keep out of these areas (`reservedAreas`), and the drawing uses the same
/// places. The GPS pill is reserved at the width of its longest text.
public struct HUDLayout: Sendable {
    /// The compass tape: the whole width along the top.
    public var tape: Rect?
    /// The GPS pill, under the tape at the left.
    public var status: Rect?
    /// The radar's square, bottom left.
    public var radar: Rect?

    public init(width: Int, height: Int, compass: Bool, status: Bool, radar: Bool, scale s: Double) throws {
        let w = Double(width), h = Double(height)
        let tapeHeight = (HUDDesign.tapeHeight * s).rounded()
        if compass { tape = Rect(x: 0, y: 0, width: w, height: tapeHeight) }
        if status {
            let font = try HUDFonts.make(scale: s).status
            let size = statusPillSize(text: "GPS ±88.8 m   88:88:88 UTC", font: font, scale: s)
            self.status = Rect(x: (HUDDesign.margin * s).rounded(),
                               y: (((compass ? HUDDesign.tapeHeight : 0) + HUDDesign.statusPill.gap) * s).rounded(),
                               width: size.width, height: size.height)
        }
        if radar { self.radar = HUDLayout.radarSquare(height: h, scale: s) }
    }

    /// The radar's disc lies in this square: its diameter, `margin` from the left and bottom edges.
    static func radarSquare(height: Double, scale s: Double) -> Rect {
        let d = HUDDesign.radarDiameter * s, m = HUDDesign.margin * s
        return Rect(x: m, y: height - m - d, width: d, height: d)
    }

    /// The areas to keep clear, each with `margin` pixels around it.
    public func reservedAreas(margin: Double = 0) -> [Rect] {
        [tape, status, radar].compactMap { r in
            r.map { Rect(x: $0.x - margin, y: $0.y - margin, width: $0.width + 2 * margin, height: $0.height + 2 * margin) }
        }
    }
}

/// The size of the GPS pill holding `text`.
func statusPillSize(text: String, font: ScaledFont, scale s: Double) -> (width: Double, height: Double) {
    let dot = HUDDesign.statusPill.dot * s, padX = HUDDesign.statusPill.paddingX * s, padY = HUDDesign.statusPill.paddingY * s
    return ((padX + dot + HUDDesign.statusPill.dotGap * s + font.width(of: text) + padX).rounded(.up),
            (font.ascent + font.descent + 2 * padY).rounded(.up))
}

/// Draws the HUD parts that are set. `style` gives the scale and fonts.
func drawHUD(_ hud: HUDDrawing, style: CardStyle, on canvas: CairoCanvas) throws {
    let fonts = try HUDFonts.make(scale: style.scale)
    if let compass = hud.compass { drawCompassTape(compass, fonts: fonts, scale: style.scale, on: canvas) }
    if let status = hud.status {
        drawStatus(status, fonts: fonts, scale: style.scale, below: hud.compass == nil ? 0 : HUDDesign.tapeHeight, on: canvas)
    }
    if let radar = hud.radar { drawRadar(radar, fonts: fonts, scale: style.scale, on: canvas) }
}

/// The compass tape and the GPS status, under everything else: a card is never hidden by
/// them, and cards and edge arrows keep out of their areas.
struct HUDTapeLayer: FrameLayer {
    var compass: CompassTapeDrawing?
    var status: StatusDrawing?
    var depth: LayerDepth { .hudTape }
    func keepOut(width: Int, height: Int, scale: Double) throws -> [Rect] {
        try HUDLayout(width: width, height: height, compass: compass != nil, status: status != nil, radar: false, scale: scale)
            .reservedAreas(margin: HUDDesign.clearance * scale)
    }
    func draw(on canvas: CairoCanvas, style: CardStyle) throws {
        try drawHUD(HUDDrawing(compass: compass, status: status), style: style, on: canvas)
    }
}

/// The radar, bottom left, over the edge arrows; cards and edge arrows keep out of its square.
struct RadarLayer: FrameLayer {
    var radar: RadarDrawing
    var depth: LayerDepth { .radar }
    func keepOut(width: Int, height: Int, scale: Double) throws -> [Rect] {
        try HUDLayout(width: width, height: height, compass: false, status: false, radar: true, scale: scale)
            .reservedAreas(margin: HUDDesign.clearance * scale)
    }
    func draw(on canvas: CairoCanvas, style: CardStyle) throws {
        try drawHUD(HUDDrawing(radar: radar), style: style, on: canvas)
    }
}

/// Fonts of the HUD at one scale (DejaVu Sans; bold for the heading and cardinal points).
struct HUDFonts {
    let tape: ScaledFont
    let tapeBold: ScaledFont
    let heading: ScaledFont
    let status: ScaledFont

    static func make(scale s: Double) throws -> HUDFonts {
        let regular = try FontLibrary.shared.face(path: defaultRegularFontPath)
        let bold = try FontLibrary.shared.face(path: defaultBoldFontPath)
        return HUDFonts(tape: try FontLibrary.shared.scaled(regular, HUDDesign.tapeFontSize * s),
                        tapeBold: try FontLibrary.shared.scaled(bold, HUDDesign.tapeFontSize * s),
                        heading: try FontLibrary.shared.scaled(bold, HUDDesign.headingFontSize * s),
                        status: try FontLibrary.shared.scaled(regular, HUDDesign.statusFontSize * s))
    }
}

/// "N", "NE", …: the eight compass points, for bearings that are multiples of 45°.
func compassPoint(_ bearing: Double) -> String {
    ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Int((wrap360Local(bearing) / 45).rounded()) % 8]
}

func wrap360Local(_ a: Double) -> Double {
    let r = a.truncatingRemainder(dividingBy: 360)
    return r < 0 ? r + 360 : r
}

/// Signed difference a − b in (−180, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
    return d
}

private func drawCompassTape(_ tape: CompassTapeDrawing, fonts: HUDFonts, scale s: Double, on canvas: CairoCanvas) {
    let cr = canvas.context
    let width = Double(canvas.width)
    let height = (HUDDesign.tapeHeight * s).rounded()
    cairo_save(cr)
    defer { cairo_restore(cr) }
    let b = HUDDesign.backdrop
    canvas.setColour(red: b.red, green: b.green, blue: b.blue, alpha: b.alpha)
    cairo_rectangle(cr, 0, 0, width, height)
    cairo_fill(cr)
    cairo_rectangle(cr, 0, 0, width, height)
    cairo_clip(cr)
    drawHeadingBand(tape, width: width, height: height, scale: s, on: canvas)

    // Where a bearing falls on the image's horizontal axis.
    func x(_ bearing: Double) -> Double? {
        tape.offset(degreesOff: angleDifference(bearing, tape.heading)).map { tape.cx + $0 }
    }
    // The heading box at the optical axis (drawn last, over the ticks): no bearing's label goes
    // under it, nor past the image's edges, where it would be cut ("W" of "SW").
    let headingText = String(format: "%03d° %@", Int(wrap360Local(tape.heading).rounded()) % 360,
                             compassPoint(((wrap360Local(tape.heading) / 45).rounded()) * 45))
    let padX = HUDDesign.headingBox.paddingX * s, padY = HUDDesign.headingBox.paddingY * s
    let boxWidth = (fonts.heading.width(of: headingText) + 2 * padX).rounded(.up)
    let boxHeight = (fonts.heading.ascent + fonts.heading.descent + 2 * padY).rounded(.up)
    let box = Rect(x: (tape.cx - boxWidth / 2).rounded(), y: (HUDDesign.headingBox.top * s).rounded(),
                   width: boxWidth, height: boxHeight)
    let labelGap = HUDDesign.tick.labelGap * s
    let halfSpan = tape.halfSpan(width: width)
    let first = Int(((tape.heading - halfSpan) / 5).rounded(.down)) * 5
    let last = Int(((tape.heading + halfSpan) / 5).rounded(.up)) * 5
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    for step in stride(from: first, through: last, by: 5) {
        guard let px = x(Double(step)) else { continue }
        let bearing = Int(wrap360Local(Double(step)))
        let major = bearing % 15 == 0
        let tick = (major ? HUDDesign.tick.majorLength : HUDDesign.tick.minorLength) * s
        canvas.setColour(red: 1, green: 1, blue: 1, alpha: major ? 0.9 : 0.55)
        cairo_set_line_width(cr, (major ? HUDDesign.tick.majorWidth : HUDDesign.tick.minorWidth) * s)
        let xx = (px * 1).rounded() + 0.5
        cairo_move_to(cr, xx, height - tick)
        cairo_line_to(cr, xx, height)
        cairo_stroke(cr)
        if major {
            let cardinal = bearing % 45 == 0
            let text = cardinal ? compassPoint(Double(bearing)) : "\(bearing)"
            let font = cardinal ? fonts.tapeBold : fonts.tape
            let left = px - font.width(of: text) / 2, right = left + font.width(of: text)
            guard left >= labelGap / 2, right <= width - labelGap / 2,
                  right < box.minX - labelGap || left > box.maxX + labelGap else { continue }
            if bearing == 0 { canvas.setColour(red: 1, green: 0.42, blue: 0.36) } else {
                canvas.setColour(red: 1, green: 1, blue: 1, alpha: cardinal ? 1 : 0.8)
            }
            canvas.text(text, font: font, x: left, y: height - tick - labelGap)
        }
    }
    // POI marks: small dots at the top edge.
    for mark in tape.marks {
        guard let px = x(mark.bearing) else { continue }
        canvas.setColour(RGBA8(r: 255, g: 255, b: 255), alpha: 0.9)
        cairo_arc(cr, px, HUDDesign.tapeMark.centreY * s, HUDDesign.tapeMark.ringRadius * s, 0, 2 * .pi)
        cairo_fill(cr)
        canvas.setColour(CategoryPalette.colour(for: mark.category))
        cairo_arc(cr, px, HUDDesign.tapeMark.centreY * s, HUDDesign.tapeMark.radius * s, 0, 2 * .pi)
        cairo_fill(cr)
    }
    // The heading: the box at the optical axis, with a pointer below it.
    let font = fonts.heading
    cairo_reset_clip(cr)
    canvas.roundedRectangle(box, radius: HUDDesign.headingBox.cornerRadius * s)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.95)
    cairo_fill(cr)
    let pointer = HUDDesign.headingBox.pointer * s
    canvas.polygon([Point2(tape.cx - pointer, box.maxY), Point2(tape.cx + pointer, box.maxY), Point2(tape.cx, box.maxY + pointer)])
    cairo_fill(cr)
    canvas.setColour(RGBA8(r: 0x20, g: 0x21, b: 0x24))
    canvas.text(headingText, font: font, x: box.x + padX, y: box.y + padY + font.ascent)
    drawUncertainBadge(tape, box: box, font: fonts.tape, width: width, height: height, scale: s, on: canvas)
}

private func drawStatus(_ status: StatusDrawing, fonts: HUDFonts, scale s: Double, below top: Double, on canvas: CairoCanvas) {
    let cr = canvas.context
    let font = fonts.status
    let accuracyText = status.accuracy.map { $0 < 9.95 ? String(format: "GPS ±%.1f m", $0) : String(format: "GPS ±%.0f m", $0) } ?? "GPS accuracy —"
    let text = status.time.isEmpty ? accuracyText : "\(accuracyText)   \(status.time)"
    let dot = HUDDesign.statusPill.dot * s
    let padX = HUDDesign.statusPill.paddingX * s, padY = HUDDesign.statusPill.paddingY * s
    let (width, height) = statusPillSize(text: text, font: font, scale: s)
    let box = Rect(x: (HUDDesign.margin * s).rounded(), y: ((top + HUDDesign.statusPill.gap) * s).rounded(), width: width, height: height)
    cairo_save(cr)
    defer { cairo_restore(cr) }
    let b = HUDDesign.backdrop
    canvas.roundedRectangle(box, radius: height / 2)
    canvas.setColour(red: b.red, green: b.green, blue: b.blue, alpha: b.alpha + 0.1)
    cairo_fill(cr)
    // The dot: green within 10 m, amber within 30 m, red beyond (or unknown).
    switch status.accuracy {
    case let a? where a <= 10: canvas.setColour(red: 0.30, green: 0.80, blue: 0.35)
    case let a? where a <= 30: canvas.setColour(red: 1.0, green: 0.72, blue: 0.15)
    default: canvas.setColour(red: 0.95, green: 0.30, blue: 0.25)
    }
    cairo_arc(cr, box.x + padX + dot / 2, box.y + height / 2, dot / 2, 0, 2 * .pi)
    cairo_fill(cr)
    canvas.setColour(red: 1, green: 1, blue: 1)
    canvas.text(text, font: font, x: box.x + padX + dot + HUDDesign.statusPill.dotGap * s, y: box.y + padY + font.ascent)
}

private func drawRadar(_ radar: RadarDrawing, fonts: HUDFonts, scale s: Double, on canvas: CairoCanvas) {
    let cr = canvas.context
    let square = HUDLayout.radarSquare(height: Double(canvas.height), scale: s)
    let r = square.width / 2
    let centre = Point2(square.midX.rounded(), square.midY.rounded())
    cairo_save(cr)
    defer { cairo_restore(cr) }
    let b = HUDDesign.backdrop
    // Disc and rim.
    cairo_arc(cr, centre.x, centre.y, r, 0, 2 * .pi)
    canvas.setColour(red: b.red, green: b.green, blue: b.blue, alpha: b.alpha)
    cairo_fill_preserve(cr)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.7)
    cairo_set_line_width(cr, HUDDesign.radarLineWidth.rim * s)
    cairo_stroke(cr)
    // View cone: heading up, half the field of view each side.
    let half = min(179, radar.halfFieldOfView) * .pi / 180
    let up = -Double.pi / 2
    cairo_move_to(cr, centre.x, centre.y)
    cairo_arc(cr, centre.x, centre.y, r - HUDDesign.radarInset.cone * s, up - half, up + half)
    cairo_close_path(cr)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.18)
    cairo_fill(cr)
    // Rings at a third and two thirds of the range; range text.
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.25)
    cairo_set_line_width(cr, HUDDesign.radarLineWidth.rings * s)
    for k in [1.0, 2.0] {
        cairo_new_sub_path(cr)
        cairo_arc(cr, centre.x, centre.y, r * k / 3, 0, 2 * .pi)
    }
    cairo_stroke(cr)
    // Blips, farthest first; unlabelled ones small.
    for blip in radar.blips.sorted(by: { $0.distance > $1.distance }) where blip.distance <= radar.range {
        let p = radarBlipPoint(blip, radar: radar, centre: centre, r: r, scale: s)
        let size = (blip.labelled ? HUDDesign.radarDot.labelledBlip : HUDDesign.radarDot.blip) * s
        if blip.labelled {
            canvas.setColour(red: 1, green: 1, blue: 1)
            cairo_arc(cr, p.x, p.y, size + HUDDesign.radarDot.labelledRing * s, 0, 2 * .pi)
            cairo_fill(cr)
        }
        canvas.setColour(CategoryPalette.colour(for: blip.category), alpha: blip.labelled ? 1 : 0.9)
        cairo_arc(cr, p.x, p.y, size, 0, 2 * .pi)
        cairo_fill(cr)
    }
    // North on the rim: a red "N" where north lies (drawn last, over all).
    let northBox = radarNorthBox(heading: radar.heading, centre: centre, r: r, scale: s, font: fonts.tapeBold)
    // The range where it covers neither a blip nor the N (`radarRangeOrigin`), in a halo of the
    // disc's colour.
    let rangeText = radar.range < 999.5 ? "\(Int(radar.range.rounded())) m" : String(format: "%.1f km", radar.range / 1000)
    let origin = radarRangeOrigin(width: fonts.tape.width(of: rangeText), ascent: fonts.tape.ascent, descent: fonts.tape.descent,
                                  radar: radar, centre: centre, r: r, scale: s, north: northBox)
    cairo_move_to(cr, origin.x, origin.y)
    canvas.textPath(rangeText, font: fonts.tape)
    canvas.setColour(red: b.red, green: b.green, blue: b.blue, alpha: b.alpha)
    cairo_set_line_width(cr, 3 * s)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_stroke(cr)
    canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.85)
    canvas.text(rangeText, font: fonts.tape, x: origin.x, y: origin.y)
    // The device.
    canvas.setColour(red: 1, green: 1, blue: 1)
    cairo_arc(cr, centre.x, centre.y, HUDDesign.radarDot.device * s, 0, 2 * .pi)
    cairo_fill(cr)
    canvas.setColour(red: 1, green: 0.42, blue: 0.36)
    canvas.text("N", font: fonts.tapeBold, x: northBox.minX, y: northBox.minY + fonts.tapeBold.ascent)
}
