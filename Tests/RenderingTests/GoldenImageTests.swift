import Foundation
import POIARCore
import Testing
@testable import Rendering

/// Renders fixed scenes and compares them with the PNGs in Fixtures/golden (`GoldenImage`).
enum Golden {
    static let folder = TestPaths.fixtures.appendingPathComponent("golden")

    static func compare(_ image: RasterImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mismatch = try GoldenImage.mismatch(image, folder.appendingPathComponent(name))
        #expect(mismatch == nil, "\(mismatch ?? "")", sourceLocation: sourceLocation)
    }
}

@Suite("Golden images: cards, icons, HUD")
struct GoldenImageTests {
    static let categories = ["cafe", "restaurant", "university", "parking", "atm", "museum"]

    /// Six cards stacked three high over a synthetic background, leaders to their anchors.
    func cardScene(width: Int, height: Int) throws -> (FrameDrawing, CardStyle) {
        let style = try CardStyle(imageWidth: width, imageHeight: height)
        let s = style.scale
        let entries: [(String, String, String)] = [
            ("Café Ariman", "85 m", "cafe"),
            ("Ravintola Sea Horse", "212 m · Kapteeninkatu 11", "restaurant"),
            ("Λούνδ Πανεπιστήμιο", "1.2 km", "university"),      // Greek
            ("Парковка Эспланада", "640 m · Mo-Fr 08:00-20:00", "parking"),  // Cyrillic
            ("Otto", "42 m", "atm"),
            ("Helsinki City Museum and a very long name that is cut", "310 m", "museum"),
        ]
        var cards: [CardDrawing] = []
        for (i, (name, detail, category)) in entries.enumerated() {
            let size = style.labelSize(name: name, detail: detail)
            let column = Double(i % 2), level = Double(i / 2)
            let anchor = Point2(Double(width) * (0.25 + 0.45 * column), 300 * s)
            let box = Rect(x: (anchor.x - size.width / 2).rounded(), y: (anchor.y - 40 * s - size.height - level * (size.height + 5 * s)).rounded(),
                           width: size.width, height: size.height)
            cards.append(CardDrawing(box: box, anchor: anchor, name: name, detail: detail, category: category))
        }
        let frame = FrameDrawing(width: width, height: height,
                                 background: .synthetic(horizon: (Point2(0, 300 * s), Point2(Double(width), 300 * s)), skyAbove: true),
                                 cards: cards.reversed(), attribution: "© OpenStreetMap contributors")
        return (frame, style)
    }

    @Test("cards at 640×360")
    func cards() throws {
        let (frame, style) = try cardScene(width: 640, height: 360)
        try Golden.compare(try renderFrame(frame, style: style), "cards-640x360.png")
    }

    /// The tolerance lets a rasteriser's shades and one-pixel shifts pass, but not what a
    /// reader of the frame would miss: one leader line gone, or one card.
    @Test("a missing leader or card fails the golden comparison; a one-pixel shift passes")
    func missingLeaderOrCardFails() throws {
        let (frame, style) = try cardScene(width: 640, height: 360)
        let golden = try loadStill(Golden.folder.appendingPathComponent("cards-640x360.png"))
        let whole = try renderFrame(frame, style: style)
        #expect(GoldenImage.difference(whole, golden).far <= GoldenImage.allowedPixels)
        // In the golden scene a column's three leaders run down one line; here each card gets
        // an anchor of its own, so each leader is a line of its own below the lowest card.
        var spread = frame
        for k in spread.cards.indices { spread.cards[k].anchor!.x += Double(k) * 6 }
        let reference = try renderFrame(spread, style: style)
        for k in spread.cards.indices {
            var noLeader = spread
            noLeader.cards[k].anchor = nil
            let far = GoldenImage.difference(try renderFrame(noLeader, style: style), reference).far
            // (The old rule, 0.2 % of the pixels — 460 here — let every one of these pass.)
            #expect(far > GoldenImage.allowedPixels, "card \(k) without its leader: \(far) pixels differ")
            var noCard = spread
            noCard.cards.remove(at: k)
            #expect(GoldenImage.difference(try renderFrame(noCard, style: style), reference).far > 1000)
        }
        // The whole frame one pixel to the right (its first column repeated): every edge moved
        // by a pixel, as a different rasteriser might; only the first column may differ.
        var shifted = whole
        for y in 0..<whole.height {
            for x in stride(from: whole.width - 1, to: 0, by: -1) {
                for c in 0..<4 { shifted.pixels[(y * whole.width + x) * 4 + c] = whole.pixels[(y * whole.width + x - 1) * 4 + c] }
            }
        }
        #expect(GoldenImage.difference(shifted, golden).far <= whole.height)
    }

    @Test("cards scale with the image: at 2560×1440 they are the 1280×720 ones at twice the size")
    func cardsScale() throws {
        let (small, smallStyle) = try cardScene(width: 1280, height: 720)
        let (large, largeStyle) = try cardScene(width: 2560, height: 1440)
        for (a, b) in zip(small.cards, large.cards) {
            #expect(abs(b.box.width - 2 * a.box.width) <= 2 && abs(b.box.height - 2 * a.box.height) <= 2)
        }
        let image = try renderFrame(large, style: largeStyle)
        _ = try renderFrame(small, style: smallStyle)
        // Crisp: the card edge is a sharp step (body white to sky within 2 pixels).
        let card = large.cards.last!
        let row = Int(card.box.y + card.box.height / 2)
        let inside = image.pixel(x: Int(card.box.maxX) - 2, y: row), outside = image.pixel(x: Int(card.box.maxX) + 1, y: row)
        #expect(inside.r > 225 && outside.r < 200)
    }

    @Test("every category's icon on its badge")
    func iconSheet() throws {
        let names = CategoryIcons.categories + ["unknown"]
        let columns = 8, cell = 44
        let rows = (names.count + columns - 1) / columns
        let width = columns * cell, height = rows * cell
        let canvas = try CairoCanvas(width: width, height: height)
        canvas.setColour(RGBA8(r: 255, g: 255, b: 255))
        canvas.paint()
        for (i, name) in names.enumerated() {
            let cx = Double(i % columns * cell + cell / 2), cy = Double(i / columns * cell + cell / 2)
            drawBadge(category: name, centre: Point2(cx, cy), diameter: 36, on: canvas)
        }
        try Golden.compare(try canvas.image(), "icons.png")
    }

    @Test("HUD: compass tape, GPS status and radar")
    func hud() throws {
        let style = try CardStyle(imageWidth: 640, imageHeight: 360)
        let blips = [(350.0, 120.0, "cafe", true), (10.0, 400.0, "restaurant", true), (95.0, 250.0, "atm", false),
                     (200.0, 700.0, "park", false), (300.0, 1600.0, "museum", false)]
            .map { RadarBlip(bearing: $0.0, distance: $0.1, category: $0.2, labelled: $0.3) }
        let hud = HUDDrawing(
            compass: CompassTapeDrawing(heading: 357.4, fx: 554, cx: 320, marks: [(350, "cafe"), (10, "restaurant")]),
            status: StatusDrawing(accuracy: 4.2, time: "10:02:41 UTC"),
            radar: RadarDrawing(heading: 357.4, halfFieldOfView: 30, range: 800, blips: blips))
        let frame = FrameDrawing(width: 640, height: 360,
                                 background: .synthetic(horizon: (Point2(0, 200), Point2(640, 190)), skyAbove: true),
                                 cards: [], hud: hud)
        let image = try renderFrame(frame, style: style)
        try Golden.compare(image, "hud-640x360.png")
        // The tape is dark across the top; the radar disc is dark at its centre's left.
        #expect(image.pixel(x: 20, y: 10).b < 120)
        #expect(image.pixel(x: 40, y: 300).r < 120)
    }
}


@Suite("Golden images: map")
struct MapGoldenTests {
    /// A made-up block: two streets, a footpath, buildings, a park, a pond, a track with cones and POIs.
    func scene(baseMap: Bool) -> MapDrawing {
        var map = MapDrawing(width: 480, height: 320, metresPerPixel: 0.5, hasBaseMap: baseMap)
        if baseMap {
            map.areas = [
                .init(kind: .green, points: [Point2(260, 180), Point2(460, 180), Point2(460, 300), Point2(260, 300)]),
                .init(kind: .water, points: [Point2(330, 220), Point2(380, 215), Point2(390, 260), Point2(340, 270)]),
                .init(kind: .building, points: [Point2(30, 30), Point2(200, 30), Point2(200, 120), Point2(30, 120)]),
                .init(kind: .building, points: [Point2(260, 30), Point2(450, 30), Point2(450, 120), Point2(260, 120)]),
            ]
            map.lines = [
                .init(rank: 0, points: [Point2(0, 150), Point2(480, 150)]),
                .init(rank: 2, points: [Point2(230, 0), Point2(230, 320)]),
                .init(rank: 3, points: [Point2(260, 240), Point2(460, 240)]),
                .init(rank: 4, points: [Point2(0, 310), Point2(480, 290)]),
            ]
        }
        map.track = [Point2(40, 140), Point2(120, 138), Point2(200, 141), Point2(300, 139), Point2(420, 140)]
        map.cones = [.init(apex: Point2(40, 140), heading: 80, halfAngle: 27, length: 60),
                     .init(apex: Point2(300, 139), heading: 20, halfAngle: 27, length: 60)]
        map.places = [.init(point: Point2(100, 100), category: "cafe"), .init(point: Point2(320, 100), category: "restaurant"),
                      .init(point: Point2(400, 200), category: "park"), .init(point: Point2(180, 200), category: "atm")]
        map.attribution = baseMap ? "© OpenStreetMap contributors" : nil
        return map
    }

    @Test("a map over OSM features")
    func baseMap() throws {
        let image = try renderMap(scene(baseMap: true))
        try Golden.compare(image, "map-480x320.png")
        // The park is green, the track red.
        let park = image.pixel(x: 290, y: 280)
        #expect(park.g > park.r && park.g > park.b)
        let track = image.pixel(x: 160, y: 139)
        #expect(track.r > 180 && track.g < 90)
    }

    @Test("a map over a grid")
    func grid() throws {
        try Golden.compare(try renderMap(scene(baseMap: false)), "map-grid-480x320.png")
    }

    @Test("scale bar lengths are round numbers")
    func niceLengths() {
        #expect(niceLength(atMost: 87) == 50)
        #expect(niceLength(atMost: 230) == 200)
        #expect(niceLength(atMost: 1000) == 1000)
        #expect(niceLength(atLeast: 23) == 50)
        #expect(niceLength(atLeast: 0.3) == 0.5)
    }
}
