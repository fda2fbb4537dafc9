import Dispatch
import Foundation
import POIARCore
import Testing
@testable import Rendering

@Suite("Rendering frames")
struct RenderFrameTests {
    func isBluish(_ p: RGBA8) -> Bool { Int(p.b) > Int(p.r) + 30 && Int(p.b) > Int(p.g) }
    func isNearWhite(_ p: RGBA8) -> Bool { p.r > 225 && p.g > 225 && p.b > 225 }

    func twoCardFrame(style: CardStyle, width: Int = 1280, height: Int = 720) -> FrameDrawing {
        let near = style.labelSize(name: "Café Ariman", detail: "85 m")
        let far = style.labelSize(name: "Lunds universitetsbibliotek", detail: "1.2 km")
        return FrameDrawing(
            width: width, height: height,
            background: .synthetic(horizon: (Point2(0, 400), Point2(1280, 380)), skyAbove: true),
            cards: [
                CardDrawing(box: Rect(x: 700, y: 150, width: far.width, height: far.height),
                            anchor: Point2(760, 390), name: "Lunds universitetsbibliotek", detail: "1.2 km",
                            category: "university"),
                CardDrawing(box: Rect(x: 200, y: 250, width: near.width, height: near.height),
                            anchor: Point2(240, 520), name: "Café Ariman", detail: "85 m", category: "cafe"),
            ],
            attribution: "© OpenStreetMap contributors")
    }

    @Test("synthetic background: sky above the horizon, ground below, white cards on top")
    func syntheticWithCards() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let frame = twoCardFrame(style: style)
        let image = try renderFrame(frame, style: style)
        #expect(image.width == 1280 && image.height == 720)
        #expect(image.isOpaque)
        #expect(isBluish(image.pixel(x: 100, y: 50)))       // sky
        #expect(isBluish(image.pixel(x: 1200, y: 300)))     // sky near the horizon
        let ground = image.pixel(x: 640, y: 650)
        #expect(!isBluish(ground) && ground.b < ground.r)   // ground: not blue
        for card in frame.cards {
            // The card's right part is near-white; its badge (left) carries the category colour
            // at its edge (the white icon is in the middle).
            let layout = style.cardLayout(name: card.name, detail: card.detail)
            let body = image.pixel(x: Int(card.box.maxX) - 6, y: Int(card.box.y + card.box.height / 2))
            #expect(isNearWhite(body) || (body.r > 200 && body.g > 200))
            let badgeEdge = image.pixel(x: Int(card.box.x + layout.badgeCentre.x),
                                        y: Int(card.box.y + layout.badgeCentre.y + layout.badgeDiameter / 2 - 3))
            let colour = CategoryPalette.colour(for: card.category)
            #expect(abs(Int(badgeEdge.r) - Int(colour.r)) < 12 && abs(Int(badgeEdge.b) - Int(colour.b)) < 12)
        }
        // The anchor dot of the near card carries its colour at its centre.
        let dot = image.pixel(x: 240, y: 520)
        let cafe = CategoryPalette.colour(for: "cafe")
        #expect(abs(Int(dot.r) - Int(cafe.r)) < 20 && abs(Int(dot.g) - Int(cafe.g)) < 20)
        // The leader line is drawn (near-white) between the card and the anchor.
        let nearBox = frame.cards[1].box
        let leader = image.pixel(x: Int(nearBox.midX.rounded()), y: Int(nearBox.maxY) + 40)
        #expect(leader.r > 150)
        // The attribution tab lightens the bottom-right corner.
        let corner = image.pixel(x: 1275, y: 717)
        #expect(corner.r > 150 && corner.g > 150)
    }

    @Test("sky on the other side when the camera is upside down; all sky or all ground without a horizon")
    func skySide() throws {
        let style = try CardStyle(imageWidth: 320, imageHeight: 240)
        func render(_ background: FrameBackground) throws -> RasterImage {
            try renderFrame(FrameDrawing(width: 320, height: 240, background: background, cards: []), style: style)
        }
        let upsideDown = try render(.synthetic(horizon: (Point2(0, 120), Point2(320, 120)), skyAbove: false))
        #expect(isBluish(upsideDown.pixel(x: 160, y: 200)) && !isBluish(upsideDown.pixel(x: 160, y: 40)))
        let allSky = try render(.synthetic(horizon: nil, skyAbove: true))
        #expect(isBluish(allSky.pixel(x: 5, y: 5)) && isBluish(allSky.pixel(x: 315, y: 235)))
        let allGround = try render(.synthetic(horizon: nil, skyAbove: false))
        #expect(!isBluish(allGround.pixel(x: 5, y: 5)) && !isBluish(allGround.pixel(x: 315, y: 235)))
        // A vertical horizon (device rolled 90°): sky toward smaller x when skyAbove.
        let rolled = try render(.synthetic(horizon: (Point2(100, 0), Point2(100, 240)), skyAbove: true))
        #expect(isBluish(rolled.pixel(x: 50, y: 120)) && !isBluish(rolled.pixel(x: 200, y: 120)))
        // The helper picks the side holding the sky point.
        let helper = try render(.synthetic(horizon: Point2(0, 120), Point2(320, 120), skyPoint: Point2(10, 230)))
        #expect(helper == upsideDown)
    }

    @Test("a still is stretched to the frame size")
    func stillBackground() throws {
        let still = try loadStill(TestPaths.lundStill)
        let style = try CardStyle(imageWidth: 512, imageHeight: 384)
        let image = try renderFrame(FrameDrawing(width: 512, height: 384, background: .still(still), cards: []),
                                    style: style)
        #expect(image.width == 512 && image.height == 384)
        // Each output pixel is about the mean of the 2×2 still pixels it covers.
        for (x, y) in [(100, 100), (256, 192), (400, 300)] {
            let out = image.pixel(x: x, y: y)
            var mean = 0
            for dy in 0..<2 { for dx in 0..<2 { mean += Int(still.pixel(x: 2 * x + dx, y: 2 * y + dy).g) } }
            #expect(abs(Int(out.g) - mean / 4) < 40)
        }
        // Same size: the still comes through untouched.
        let same = try renderFrame(FrameDrawing(width: 1024, height: 768, background: .still(still), cards: []),
                                   style: style)
        #expect(same == still)
    }

    @Test("frames render identically from many threads at once")
    func parallel() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let frame = twoCardFrame(style: style)
        let reference = try renderFrame(frame, style: style)
        let results = ResultBox(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            // A style per thread for half of them, the shared one for the rest.
            let threadStyle = i % 2 == 0 ? style : (try? CardStyle(imageWidth: 1280, imageHeight: 720))
            results.set(i, threadStyle.flatMap { try? renderFrame(frame, style: $0) })
        }
        for i in 0..<8 { #expect(results.get(i) == reference) }
    }

    @Test("an empty or huge frame size is refused")
    func badSizes() throws {
        let style = try CardStyle(imageHeight: 720)
        for (w, h) in [(0, 10), (10, -1), (100_000, 10)] {
            #expect(throws: RenderingError.invalidFrameSize(width: w, height: h)) {
                try renderFrame(FrameDrawing(width: w, height: h, background: .synthetic(horizon: nil, skyAbove: true),
                                             cards: []), style: style)
            }
        }
    }

    @Test("Sutherland–Hodgman keeps the half-plane's part of the rectangle")
    func clipping() {
        let square = HorizonGeometry.corners(width: 10, height: 10)
        let top = HorizonGeometry.clip(square, origin: Point2(0, 4), normal: Point2(0, -1))
        #expect(Set(top) == [Point2(0, 0), Point2(10, 0), Point2(10, 4), Point2(0, 4)])
        #expect(HorizonGeometry.clip(square, origin: Point2(0, -5), normal: Point2(0, -1)).isEmpty)
        #expect(HorizonGeometry.clip(square, origin: Point2(0, 20), normal: Point2(0, -1)).count == 4)
        let corner = HorizonGeometry.clip(square, origin: Point2(5, 0), normal: Point2(-1, -1))  // x + y ≤ 5
        #expect(Set(corner) == [Point2(0, 0), Point2(5, 0), Point2(0, 5)])
        #expect(HorizonGeometry.upNormal(Point2(0, 0), Point2(10, 0)) == Point2(0, -1))
        #expect(HorizonGeometry.upNormal(Point2(10, 0), Point2(0, 0)) == Point2(0, -1))
        #expect(HorizonGeometry.upNormal(Point2(5, 10), Point2(5, 0)) == Point2(-1, 0))
    }

    /// Six cards over a Lund still: each card covers the photograph in its box, and the photograph
    /// is untouched away from the cards. With POIAR_RENDERING_SAMPLE naming a file, the frame is
    /// also written there to look at (and the synthetic one beside it):
    /// POIAR_RENDERING_SAMPLE=/tmp/rendering-sample.png
    @Test("sample frame")
    func sample() throws {
        let output = ProcessInfo.processInfo.environment["POIAR_RENDERING_SAMPLE"].map { URL(fileURLWithPath: $0) }
        let still = try loadStill(TestPaths.lundStill)
        let (width, height) = (still.width, still.height)
        let style = try CardStyle(imageWidth: width, imageHeight: height)
        let pois: [(String, String, String, Double, Double, Double)] = [
            ("Lunds universitetsbibliotek och Humanistiska institutionen", "1.4 km", "university", 120, 90, 330),
            ("Stortorget parkering", "640 m", "parking", 560, 120, 360),
            ("Lundagård", "310 m", "park", 330, 190, 420),
            ("Ica Nära Tornet", "120 m", "store", 720, 240, 470),
            ("Espresso House", "85 m", "cafe", 180, 300, 560),
            ("Bankomat", "42 m", "atm", 640, 380, 600),
        ]
        let cards = pois.map { name, detail, category, x, y, anchorY in
            let size = style.labelSize(name: name, detail: detail)
            return CardDrawing(box: Rect(x: x, y: y, width: size.width, height: size.height),
                               anchor: Point2(x + size.width / 2 + 10, anchorY), name: name, detail: detail,
                               category: category)
        }
        let frame = FrameDrawing(width: width, height: height, background: .still(still), cards: cards,
                                 attribution: "© OpenStreetMap contributors")
        let image = try renderFrame(frame, style: style)
        for card in cards {
            var total = 0, n = 0
            for y in Int(card.box.minY) + 2..<Int(card.box.maxY) - 2 {
                for x in Int(card.box.minX) + 2..<Int(card.box.maxX) - 2 {
                    let a = image.pixel(x: x, y: y), b = still.pixel(x: x, y: y)
                    total += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
                    n += 3
                }
            }
            #expect(Double(total) / Double(n) > 20, "\(card.name): the card does not cover the still")
        }
        let corner = image.pixel(x: width - 2, y: 1), photo = still.pixel(x: width - 2, y: 1)
        #expect(abs(Int(corner.r) - Int(photo.r)) <= 2 && abs(Int(corner.g) - Int(photo.g)) <= 2, "the still changed away from the cards: \(corner), \(photo)")
        guard let output else { return }  // nothing to write: the checks above are the test
        try writePNG(image, to: output)
        let synthetic = FrameDrawing(width: 1280, height: 720,
                                     background: .synthetic(horizon: (Point2(0, 420), Point2(1280, 330)),
                                                            skyAbove: true),
                                     cards: twoCardFrame(style: try CardStyle(imageWidth: 1280, imageHeight: 720)).cards,
                                     attribution: "© OpenStreetMap contributors")
        try writePNG(try renderFrame(synthetic, style: try CardStyle(imageWidth: 1280, imageHeight: 720)),
                     to: output.deletingPathExtension().appendingPathExtension("synthetic.png"))
    }
}

/// Results written from concurrent threads (each index once).
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [RasterImage?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: RasterImage?) { lock.lock(); values[i] = value; lock.unlock() }
    func get(_ i: Int) -> RasterImage? { lock.lock(); defer { lock.unlock() }; return values[i] }
}
