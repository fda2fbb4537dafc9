import CCairo
import Foundation
import POIARCore

/// A small pictogram per POI category, drawn with Cairo paths (no bitmaps): white on the
/// category's colour in a card's badge, on the radar and on the map.
///
/// Each glyph is designed on a 24 × 24 grid (the grid of Material and Maki icons), with
/// strokes about 2 units wide, so it stays legible from 12 px (radar) to 90 px (4K cards).
/// Shapes are filled with the non-zero rule (overlapping parts add up); `fillHoles` uses the
/// even-odd rule, so a subpath inside another cuts a hole.
public enum CategoryIcons {
    /// The categories with a glyph of their own (the others get a generic pin).
    public static var categories: [String] { Array(glyphs.keys).sorted() }

    /// Draws `category`'s glyph centred at (cx, cy), `size` pixels across, in the current
    /// source colour.
    static func draw(_ category: String, on cr: OpaquePointer, cx: Double, cy: Double, size: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, cx - size / 2, cy - size / 2)
        cairo_scale(cr, size / 24, size / 24)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        // Drawn in a group, so a cut-out (`beginCut`) erases the glyph's paint only.
        cairo_push_group(cr)
        let pen = IconPen(cr: cr)
        (glyphs[category.lowercased()] ?? pin)(pen)
        cairo_pop_group_to_source(cr)
        cairo_paint(cr)
    }

    /// Generic place: a map pin with a hole.
    static let pin: @Sendable (IconPen) -> Void = { p in
        p.move(12, 22); p.curve(12, 22, 5, 14.5, 5, 9.5); p.arc(12, 9.5, 7, 180, 360); p.curve(19, 14.5, 12, 22, 12, 22)
        p.close(); p.circle(12, 9.5, 2.8); p.fillHoles()
    }

    static let glyphs: [String: @Sendable (IconPen) -> Void] = [
        "cafe": { p in  // cup with handle, steam
            p.move(4, 10); p.line(17, 10); p.line(16, 17); p.curve(15.7, 19, 14.5, 20, 13, 20)
            p.line(8, 20); p.curve(6.5, 20, 5.3, 19, 5, 17); p.close(); p.fill()
            p.arc(17.5, 13.2, 2.6, -90, 90); p.stroke(1.8)
            p.move(8, 3.5); p.curve(7, 5, 9, 6, 8, 7.5); p.move(12, 3.5); p.curve(11, 5, 13, 6, 12, 7.5); p.stroke(1.5)
        },
        "restaurant": { p in  // fork and knife
            p.move(6, 3); p.line(6, 9); p.move(8.5, 3); p.line(8.5, 9); p.move(11, 3); p.line(11, 9); p.stroke(1.6)
            p.move(5.2, 8.5); p.line(11.8, 8.5); p.curve(11.8, 11, 10, 11.5, 9.5, 11.5); p.line(9.5, 21)
            p.line(7.5, 21); p.line(7.5, 11.5); p.curve(7, 11.5, 5.2, 11, 5.2, 8.5); p.close(); p.fill()
            p.move(18, 3); p.curve(15, 5, 14.5, 10, 15, 13); p.line(16.3, 13); p.line(16.3, 21); p.line(18.3, 21)
            p.line(18.3, 3); p.close(); p.fill()
        },
        "fast_food": { p in  // burger
            p.move(4, 10); p.curve(4, 5, 20, 5, 20, 10); p.close(); p.fill()
            p.rect(3.5, 11.5, 17, 2.4, r: 1.2); p.fill()
            p.move(4, 15.5); p.line(20, 15.5); p.line(20, 17); p.curve(20, 19, 18.5, 20, 17, 20); p.line(7, 20)
            p.curve(5.5, 20, 4, 19, 4, 17); p.close(); p.fill()
        },
        "ice_cream": { p in  // cone and scoop
            p.circle(12, 8, 5); p.fill()
            p.move(7.5, 11.5); p.line(16.5, 11.5); p.line(12, 22); p.close(); p.fill()
        },
        "bar": { p in  // cocktail glass
            p.move(4, 4); p.line(20, 4); p.line(13, 12); p.line(13, 18); p.line(16.5, 19.5); p.line(16.5, 20.5)
            p.line(7.5, 20.5); p.line(7.5, 19.5); p.line(11, 18); p.line(11, 12); p.close()
            p.move(7.5, 6); p.line(16.5, 6); p.line(12, 11); p.close(); p.fillHoles()
        },
        "pub": { p in  // beer mug
            p.rect(5, 6, 11, 15, r: 1.5); p.rect(7, 10, 2, 9, r: 1); p.rect(12, 10, 2, 9, r: 1); p.fillHoles()
            p.arc(16, 13, 3.3, -90, 90); p.stroke(2)
            p.circle(7, 5.5, 2.2); p.circle(10.5, 4.5, 2.4); p.circle(14, 5.5, 2.2); p.fill()
        },
        "nightclub": { p in  // two quavers
            p.move(9, 17); p.line(9, 5); p.line(19, 3); p.line(19, 15); p.stroke(2)
            p.move(9, 7.5); p.line(19, 5.5); p.stroke(2.5)
            p.ellipse(6.8, 17.2, 3, 2.4); p.ellipse(16.8, 15.2, 3, 2.4); p.fill()
        },
        "atm": { p in  // banknote
            p.rect(2.5, 6, 19, 12, r: 1.5); p.circle(12, 12, 3.2); p.rect(4.5, 8, 2, 2, r: 0.5)
            p.rect(17.5, 14, 2, 2, r: 0.5); p.fillHoles()
        },
        "bank": { p in  // classical front
            p.move(12, 2.5); p.line(21.5, 7.5); p.line(2.5, 7.5); p.close(); p.fill()
            for x in [4.5, 9.0, 13.5, 18.0] { p.rect(x, 9.5, 1.8 + 0.2, 8, r: 0.3) }
            p.fill(); p.rect(2.5, 18.5, 19, 2.5, r: 0.5); p.fill()
        },
        "parking": { p in  // the letter P as a shape
            p.move(7, 3); p.line(13.5, 3); p.curve(17.5, 3, 19.5, 5.5, 19.5, 9); p.curve(19.5, 12.5, 17.5, 15, 13.5, 15)
            p.line(10.5, 15); p.line(10.5, 21); p.line(7, 21); p.close()
            p.move(10.5, 6); p.line(13.3, 6); p.curve(15, 6, 16, 7.2, 16, 9); p.curve(16, 10.8, 15, 12, 13.3, 12)
            p.line(10.5, 12); p.close(); p.fillHoles()
        },
        "fuel": { p in  // pump with hose
            p.rect(4, 3, 10, 18, r: 1.5); p.rect(6, 5, 6, 5, r: 0.5); p.fillHoles()
            p.move(14, 9); p.line(17, 9); p.line(18.5, 11); p.line(18.5, 17); p.curve(18.5, 19, 16, 19, 16, 17)
            p.line(16, 13.5); p.line(14, 13.5); p.stroke(1.6)
            p.move(17, 5); p.line(19.5, 7.5); p.line(19.5, 11); p.stroke(1.6)
        },
        "charging_station": { p in  // lightning bolt
            p.move(13.5, 2); p.line(5, 13.5); p.line(11, 13.5); p.line(9.5, 22); p.line(19, 10); p.line(13, 10); p.close(); p.fill()
        },
        "bicycle_rental": { p in  // bicycle
            p.circle(6, 15.5, 3.8); p.circle(18, 15.5, 3.8); p.stroke(1.6)
            p.move(6, 15.5); p.line(10, 8); p.line(16, 8); p.line(18, 15.5); p.move(10, 8); p.line(12.5, 15.5)
            p.line(16, 8); p.move(8.5, 6); p.line(11.5, 6); p.move(16, 8); p.line(15, 5); p.line(17.5, 5); p.stroke(1.6)
        },
        "bus_station": { p in  // bus front
            p.rect(4.5, 2.5, 15, 16, r: 2.5); p.rect(6.5, 5.5, 11, 6, r: 0.8); p.circle(8, 15, 1.3)
            p.circle(16, 15, 1.3); p.fillHoles()
            p.rect(6, 18, 3, 3.5, r: 0.8); p.rect(15, 18, 3, 3.5, r: 0.8); p.fill()
        },
        "hospital": { p in  // the letter H as a shape
            p.move(5, 3); p.line(9, 3); p.line(9, 10); p.line(15, 10); p.line(15, 3); p.line(19, 3); p.line(19, 21)
            p.line(15, 21); p.line(15, 14); p.line(9, 14); p.line(9, 21); p.line(5, 21); p.close(); p.fill()
        },
        "doctors": { p in  // medical cross
            p.move(9.5, 3); p.line(14.5, 3); p.line(14.5, 9.5); p.line(21, 9.5); p.line(21, 14.5); p.line(14.5, 14.5)
            p.line(14.5, 21); p.line(9.5, 21); p.line(9.5, 14.5); p.line(3, 14.5); p.line(3, 9.5); p.line(9.5, 9.5)
            p.close(); p.fill()
        },
        "pharmacy": { p in  // capsule, half filled
            p.save(); p.rotate(12, 12, -45)
            p.rect(3, 8.5, 18, 7, r: 3.5); p.stroke(1.8)
            p.move(12, 8.5); p.line(6.5, 8.5); p.curve(4.6, 8.5, 3, 10.1, 3, 12); p.curve(3, 13.9, 4.6, 15.5, 6.5, 15.5)
            p.line(12, 15.5); p.close(); p.fill(); p.restore()
        },
        "museum": { p in  // columns under a pediment, with a frieze
            p.move(12, 2.5); p.line(21.5, 7); p.line(2.5, 7); p.close(); p.fill()
            p.rect(3.5, 8, 17, 1.5, r: 0.3); p.fill()
            for x in [5.0, 10.9, 16.8] { p.rect(x, 10.5, 2.2, 7.5, r: 0.3) }
            p.fill(); p.rect(2.5, 19, 19, 2.5, r: 0.5); p.fill()
        },
        "theatre": { p in  // a mask: face with eye holes and a smile
            p.move(4, 4); p.curve(9, 2.5, 15, 2.5, 20, 4); p.line(20, 11); p.curve(20, 17, 16, 21.5, 12, 21.5)
            p.curve(8, 21.5, 4, 17, 4, 11); p.close()
            p.ellipse(8.6, 9.5, 2, 1.4); p.ellipse(15.4, 9.5, 2, 1.4)
            p.move(7.5, 14); p.curve(9, 18, 15, 18, 16.5, 14); p.curve(15, 15.5, 9, 15.5, 7.5, 14); p.close(); p.fillHoles()
        },
        "cinema": { p in  // clapperboard
            p.rect(3, 10, 18, 11, r: 1.2); p.fill()
            p.save(); p.rotate(3, 9, -15); p.rect(3, 5, 18, 3.6, r: 0.8); p.fill(); p.restore()
        },
        "attraction": { p in  // five-pointed star
            var points: [(Double, Double)] = []
            for k in 0..<10 {
                let r = k % 2 == 0 ? 10.0 : 4.2, a = (-90 + 36 * Double(k)) * .pi / 180
                points.append((12 + r * cos(a), 12.8 + r * sin(a)))
            }
            p.polygon(points); p.fill()
        },
        "viewpoint": { p in  // eye
            p.move(2, 12); p.curve(7, 4, 17, 4, 22, 12); p.curve(17, 20, 7, 20, 2, 12); p.close()
            p.circle(12, 12, 4.3); p.fillHoles(); p.circle(12, 12, 2); p.fill()
        },
        "zoo": { p in  // paw print
            p.ellipse(12, 16, 5.5, 4.5); p.ellipse(5.5, 10.5, 2.2, 2.8); p.ellipse(9.5, 6, 2.2, 2.8)
            p.ellipse(14.5, 6, 2.2, 2.8); p.ellipse(18.5, 10.5, 2.2, 2.8); p.fill()
        },
        "sports": { p in  // ball with seams
            p.circle(12, 12, 9); p.stroke(2)
            p.move(3, 12); p.line(21, 12); p.move(12, 3); p.curve(7, 8, 7, 16, 12, 21)
            p.move(12, 3); p.curve(17, 8, 17, 16, 12, 21); p.stroke(1.6)
        },
        "library": { p in  // open book
            p.move(12, 6); p.curve(9, 4, 5, 4, 2, 5); p.line(2, 19); p.curve(5, 18, 9, 18, 12, 20); p.close()
            p.move(12, 6); p.curve(15, 4, 19, 4, 22, 5); p.line(22, 19); p.curve(19, 18, 15, 18, 12, 20); p.close(); p.fill()
            p.move(12, 6.5); p.line(12, 19.5); p.stroke(1)
        },
        "peak": { p in  // two summits, the snow line of the higher cut out
            p.polygon([(1, 20.5), (9.5, 5), (13.6, 12.5), (16, 9), (23, 20.5)]); p.fill()
            p.beginCut(); p.move(6.2, 11); p.line(8.3, 12.6); p.line(9.5, 11); p.line(10.8, 12.6); p.line(12.8, 11); p.strokeCut(1.5)
        },
        "park": { p in  // deciduous tree
            p.circle(12, 9, 6.5); p.circle(7.5, 12, 4); p.circle(16.5, 12, 4); p.fill()
            p.rect(10.8, 13, 2.4, 9, r: 0.5); p.fill()
        },
        "playground": { p in  // swing
            p.move(3, 21); p.line(7, 3); p.line(17, 3); p.line(21, 21); p.stroke(2)
            p.move(9.5, 3); p.line(9.5, 15); p.move(14.5, 3); p.line(14.5, 15); p.stroke(1.4)
            p.rect(8, 15, 8, 2.2, r: 0.6); p.fill()
        },
        "school": { p in  // schoolhouse with a bell tower
            p.move(12, 2); p.line(16, 6); p.line(16, 9); p.line(21, 12); p.line(21, 21); p.line(3, 21); p.line(3, 12)
            p.line(8, 9); p.line(8, 6); p.close()
            p.rect(10.5, 15, 3, 6, r: 0.3); p.circle(12, 7, 1.5); p.fillHoles()
        },
        "university": { p in  // mortarboard with tassel
            p.move(12, 4); p.line(23, 9); p.line(12, 14); p.line(1, 9); p.close(); p.fill()
            p.move(6, 11.5); p.line(6, 16); p.curve(8, 19, 16, 19, 18, 16); p.line(18, 11.5); p.line(12, 14.5); p.close(); p.fill()
            p.move(21, 9.5); p.line(21, 16); p.stroke(1.4); p.circle(21, 17, 1.3); p.fill()
        },
        "kindergarten": { p in  // stacked toy blocks
            p.rect(3, 13, 8, 8, r: 1); p.rect(13, 13, 8, 8, r: 1); p.fill()
            p.move(12, 3); p.line(16.5, 11); p.line(7.5, 11); p.close(); p.fill()
        },
        "store": { p in  // shopping bag
            p.move(4.5, 8); p.line(19.5, 8); p.line(20.5, 21); p.line(3.5, 21); p.close(); p.fill()
            p.move(8.5, 10); p.line(8.5, 6.5); p.curve(8.5, 2.5, 15.5, 2.5, 15.5, 6.5); p.line(15.5, 10); p.stroke(1.8)
        },
        "supermarket": { p in  // shopping trolley
            p.move(2, 4); p.line(5, 4); p.line(8, 15.5); p.line(19, 15.5); p.stroke(1.8)
            p.move(5.8, 6.5); p.line(21, 6.5); p.line(19, 13); p.line(7.4, 13); p.close(); p.fill()
            p.circle(9, 19.5, 1.8); p.circle(17.5, 19.5, 1.8); p.fill()
        },
        "hotel": { p in  // bed with a sleeper's pillow
            p.rect(2, 5, 2.5, 16, r: 0.5); p.rect(2, 14, 20, 3, r: 0.5); p.rect(19.5, 14, 2.5, 7, r: 0.5); p.fill()
            p.circle(7.5, 11, 2.3); p.rect(10.5, 8.5, 11.5, 5, r: 2); p.fill()
        },
        "police": { p in  // shield with a star cut out
            p.move(12, 2); p.line(20.5, 5); p.line(20.5, 11); p.curve(20.5, 16, 17, 20, 12, 22)
            p.curve(7, 20, 3.5, 16, 3.5, 11); p.line(3.5, 5); p.close()
            var points: [(Double, Double)] = []
            for k in 0..<10 {
                let r = k % 2 == 0 ? 5.0 : 2.1, a = (-90 + 36 * Double(k)) * .pi / 180
                points.append((12 + r * cos(a), 11.5 + r * sin(a)))
            }
            p.polygon(points); p.fillHoles()
        },
        "post_office": { p in  // envelope
            p.rect(2.5, 5, 19, 14, r: 1.5); p.fill()
            p.beginCut()
            p.move(3.5, 6.5); p.line(12, 13); p.line(20.5, 6.5); p.strokeCut(1.8)
        },
        "townhall": { p in  // building with a clock tower and flag
            p.move(9, 9); p.line(9, 5); p.line(12, 2.5); p.line(15, 5); p.line(15, 9); p.line(21, 11); p.line(21, 21)
            p.line(3, 21); p.line(3, 11); p.close()
            p.circle(12, 6.5, 1.4); p.rect(6, 13, 2.5, 4, r: 0.3); p.rect(10.75, 15, 2.5, 6, r: 0.3); p.rect(15.5, 13, 2.5, 4, r: 0.3)
            p.fillHoles()
        },
        "place_of_worship": { p in  // domed building with a spire
            p.move(12, 1.5); p.line(12, 6); p.stroke(1.5)
            p.move(5, 13); p.curve(5, 8, 9, 6, 12, 6); p.curve(15, 6, 19, 8, 19, 13); p.close(); p.fill()
            p.rect(4, 14, 16, 7.5, r: 0.5); p.fill()
            p.beginCut(); p.move(10, 21.5); p.line(10, 18); p.curve(10, 16, 14, 16, 14, 18); p.line(14, 21.5); p.close(); p.fillCut()
        },
        "toilets": { p in  // man and woman
            p.circle(7, 4.5, 2); p.circle(17, 4.5, 2); p.fill()
            p.rect(4.5, 7.5, 5, 7.5, r: 1.2); p.rect(5, 14, 1.8, 7.5, r: 0.6); p.rect(7.2, 14, 1.8, 7.5, r: 0.6); p.fill()
            p.move(17, 7.5); p.line(21, 16); p.line(13, 16); p.close(); p.fill()
            p.rect(14.9, 15, 1.6, 6.5, r: 0.6); p.rect(17.5, 15, 1.6, 6.5, r: 0.6); p.fill()
        },
    ]
}

/// A category badge: a disc in the category colour with the white icon, as on cards.
func drawBadge(category: String, centre: Point2, diameter: Double, on canvas: CairoCanvas) {
    let cr = canvas.context
    canvas.setColour(CategoryPalette.colour(for: category))
    cairo_new_path(cr)
    cairo_arc(cr, centre.x, centre.y, diameter / 2, 0, 2 * .pi)
    cairo_fill(cr)
    canvas.setColour(RGBA8(r: 255, g: 255, b: 255))
    CategoryIcons.draw(category, on: cr, cx: centre.x, cy: centre.y, size: diameter * CardStyle.Design.iconFraction)
}

/// Path building in icon units (24 × 24) on a Cairo context, for the glyph table.
struct IconPen: @unchecked Sendable {
    let cr: OpaquePointer

    func move(_ x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    func line(_ x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double, _ y: Double) {
        cairo_curve_to(cr, x1, y1, x2, y2, x, y)
    }
    func close() { cairo_close_path(cr) }
    /// Arc from `from` to `to` degrees (clockwise on screen, 0 = right).
    func arc(_ cx: Double, _ cy: Double, _ r: Double, _ from: Double, _ to: Double) {
        cairo_arc(cr, cx, cy, r, from * .pi / 180, to * .pi / 180)
    }
    func circle(_ cx: Double, _ cy: Double, _ r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, cx, cy, r, 0, 2 * .pi)
        cairo_close_path(cr)
    }
    func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) {
        cairo_save(cr)
        cairo_translate(cr, cx, cy)
        cairo_scale(cr, rx, ry)
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_close_path(cr)
        cairo_restore(cr)
    }
    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, r: Double) {
        let r = min(r, w / 2, h / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
    func polygon(_ points: [(Double, Double)]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(cr, p.0, p.1) }
        cairo_close_path(cr)
    }
    func fill() {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
    }
    /// Fills with the even-odd rule: inner subpaths are holes.
    func fillHoles() {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_fill(cr)
    }
    func stroke(_ width: Double) {
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }
    func save() { cairo_save(cr) }
    func restore() { cairo_restore(cr) }
    /// Rotates the following shapes by `degrees` (clockwise on screen) about (cx, cy).
    func rotate(_ cx: Double, _ cy: Double, _ degrees: Double) {
        cairo_translate(cr, cx, cy)
        cairo_rotate(cr, degrees * .pi / 180)
        cairo_translate(cr, -cx, -cy)
    }
    /// Starts cutting: what is drawn until `strokeCut`/`fillCut` erases the glyph's paint
    /// (shows the badge beneath) instead of adding to it.
    func beginCut() {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OUT)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
    }
    func strokeCut(_ width: Double) {
        stroke(width)
        cairo_restore(cr)
    }
    func fillCut() {
        cairo_fill(cr)
        cairo_restore(cr)
    }
}
