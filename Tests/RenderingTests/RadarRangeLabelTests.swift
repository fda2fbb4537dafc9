import Foundation
import POIARCore
import Testing
@testable import Rendering

/// The radar's range text never over a blip or the red "N": it leaves the bottom of the disc
/// for the top, a diagonal or a side when a blip or the N is there (the GoPro clip's "300 m"
/// sat over a POI's blip).
@Suite struct RadarRangeLabelTests {
    let height = 360.0
    let style: CardStyle
    let fonts: HUDFonts
    init() throws {
        style = try CardStyle(imageWidth: 640, imageHeight: 360)
        fonts = try HUDFonts.make(scale: style.scale)
    }

    /// The range text's box (with its halo) and the N's box on `radar`.
    func boxes(_ radar: RadarDrawing) -> (range: Rect, north: Rect, centre: Point2, r: Double) {
        let s = style.scale, square = HUDLayout.radarSquare(height: height, scale: s)
        let r = square.width / 2, centre = Point2(square.midX.rounded(), square.midY.rounded())
        let north = radarNorthBox(heading: radar.heading, centre: centre, r: r, scale: s, font: fonts.tapeBold)
        let text = "\(Int(radar.range)) m", w = fonts.tape.width(of: text)
        let o = radarRangeOrigin(width: w, ascent: fonts.tape.ascent, descent: fonts.tape.descent, radar: radar,
                                 centre: centre, r: r, scale: s, north: north)
        let halo = 1.5 * s
        return (Rect(x: o.x - halo, y: o.y - fonts.tape.ascent - halo, width: w + 2 * halo,
                     height: fonts.tape.ascent + fonts.tape.descent + 2 * halo), north, centre, r)
    }

    /// Whether the disc of the blip drawn for `blip` meets `box`.
    func covers(_ box: Rect, _ blip: RadarBlip, _ radar: RadarDrawing, centre: Point2, r: Double) -> Bool {
        let p = radarBlipPoint(blip, radar: radar, centre: centre, r: r, scale: style.scale)
        let radius = (blip.labelled ? 4.6 : 2.4) * style.scale
        let nx = min(max(p.x, box.minX), box.maxX), ny = min(max(p.y, box.minY), box.maxY)
        return hypot(p.x - nx, p.y - ny) < radius
    }

    @Test func aroundTheCompassTheRangeCoversNoBlipAndNotTheN() {
        // Blips at the rim straight ahead and straight behind (where the text would go), and
        // one on each side, as the heading turns full circle.
        for heading in stride(from: 0.0, to: 360, by: 5) {
            let blips = [0.0, 180, 90, 270].map { RadarBlip(bearing: heading + $0, distance: 290, category: "cafe", labelled: true) }
            let radar = RadarDrawing(heading: heading, halfFieldOfView: 30, range: 300, blips: blips)
            let b = boxes(radar)
            #expect(!b.range.intersects(b.north), "heading \(heading)°: the range over the N")
            for blip in blips {
                #expect(!covers(b.range, blip, radar, centre: b.centre, r: b.r), "heading \(heading)°: over the blip at \(blip.bearing)°")
            }
        }
    }

    @Test func withNothingInTheWayTheRangeStaysAtTheBottom() {
        let radar = RadarDrawing(heading: 30, halfFieldOfView: 30, range: 300,
                                 blips: [RadarBlip(bearing: 40, distance: 100, category: "cafe", labelled: true)])
        let b = boxes(radar)
        #expect(b.range.midY > b.centre.y + b.r / 2 && abs(b.range.midX - b.centre.x) < 1)
    }

    @Test("HUD: the range text off the blips at the bottom and top of the radar")
    func golden() throws {
        // Facing north: the N at the top; a cafe just behind at the rim (the bottom, where the
        // range goes) and a restaurant ahead at the rim under the N: the range takes a diagonal.
        let blips = [(180.0, 290.0, "cafe", true), (3.0, 280.0, "restaurant", true), (60.0, 120.0, "atm", false)]
            .map { RadarBlip(bearing: $0.0, distance: $0.1, category: $0.2, labelled: $0.3) }
        let radar = RadarDrawing(heading: 0, halfFieldOfView: 30, range: 300, blips: blips)
        let hud = HUDDrawing(compass: CompassTapeDrawing(heading: 0, fx: 554, cx: 320, marks: [(3, "restaurant")]),
                             status: StatusDrawing(accuracy: 4.2, time: "10:02:41 UTC"), radar: radar)
        let frame = FrameDrawing(width: 640, height: 360,
                                 background: .synthetic(horizon: (Point2(0, 200), Point2(640, 190)), skyAbove: true),
                                 cards: [], hud: hud)
        let b = boxes(radar)
        #expect(abs(b.range.midX - b.centre.x) > 10)
        for blip in blips { #expect(!covers(b.range, blip, radar, centre: b.centre, r: b.r)) }
        try Golden.compare(try renderFrame(frame, style: style), "radar-range-clear-640x360.png")
    }
}
