import Foundation
import POIARCore
import Testing
@testable import Rendering

/// The heading's 68 % bound on the compass tape: a band, and when it is wide a badge
/// (`HeadingBandDrawing.swift`).
@Suite("Golden images: the heading's band and badge on the compass tape")
struct HeadingBandTests {
    func tape(sigma: Double?, uncertain: Bool, width: Int = 640) throws -> RasterImage {
        let style = try CardStyle(imageWidth: width, imageHeight: 360)
        let hud = HUDDrawing(compass: CompassTapeDrawing(heading: 357.4, fx: 554, cx: Double(width) / 2,
                                                         marks: [(350, "cafe"), (10, "restaurant")],
                                                         headingSigma: sigma, uncertain: uncertain))
        let frame = FrameDrawing(width: width, height: 360,
                                 background: .synthetic(horizon: (Point2(0, 200), Point2(Double(width), 190)), skyAbove: true),
                                 cards: [], hud: hud)
        return try renderFrame(frame, style: style)
    }

    /// ±8°: a light band about the heading, as wide as the bearings 8° either side fall apart.
    /// (At 640×360 the HUD is drawn at 0.75 of its 720p size: the tape is 30 px tall.)
    @Test func bandWhileTrusted() throws {
        let image = try tape(sigma: 8, uncertain: false)
        try Golden.compare(image, "hud-heading-band.png")
        let plain = try tape(sigma: nil, uncertain: false)
        let edge = Int(554 * tan(8 * Double.pi / 180))  // 77 px from the centre
        // Inside the band (clear of the heading box and the ticks) the tape is lighter than
        // without it; outside it, the same.
        let inside = image.pixel(x: 320 + edge - 6, y: 12), bare = plain.pixel(x: 320 + edge - 6, y: 12)
        #expect(Int(inside.r) > Int(bare.r) + 20, "\(inside) vs \(bare)")
        #expect(image.pixel(x: 320 + edge + 12, y: 12) == plain.pixel(x: 320 + edge + 12, y: 12))
        // No badge.
        #expect(image.pixel(x: 629, y: 15) == plain.pixel(x: 629, y: 15))
    }

    /// ±18°, uncertain: the band in amber, and the badge at the tape's right end.
    @Test func badgeWhenUncertain() throws {
        let image = try tape(sigma: 18, uncertain: true)
        try Golden.compare(image, "hud-heading-uncertain.png")
        let badge = image.pixel(x: 629, y: 15)  // inside the badge's right end, past its text
        #expect(badge.r > 200 && badge.g > 140 && badge.b < 90, "\(badge)")
        // Amber across the band (red over blue), away from the badge and the box.
        let band = image.pixel(x: 200, y: 12)
        #expect(Int(band.r) > Int(band.b), "\(band)")
    }

    /// On a narrow image the badge says less, and stays right of the heading box.
    @Test func badgeShortensOnANarrowImage() throws {
        let image = try tape(sigma: 18, uncertain: true, width: 200)  // (scale 200/480: the tape 17 px tall)
        let amber = (0..<image.width).filter { x in let p = image.pixel(x: x, y: 8); return p.r > 200 && p.g > 140 && p.b < 90 }
        #expect(amber.count > 10, "\(amber.count) amber pixels")
        // The heading box ("357° N", white) spans the centre; the badge starts past it.
        let white = (0..<image.width).filter { x in let p = image.pixel(x: x, y: 8); return p.r > 240 && p.g > 240 && p.b > 240 }
        #expect((amber.min() ?? 0) > (white.filter { $0 < 150 }.max() ?? 200), "badge from \(amber.min() ?? -1)")
    }
}
