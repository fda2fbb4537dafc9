/// A point in image pixels (origin top-left corner of the top-left pixel, x right, y down).
public struct Point2: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in image pixels; (x, y) is the top-left corner.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// True when the interiors overlap (touching edges do not count).
    public func intersects(_ o: Rect) -> Bool {
        x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    /// True when `p` lies inside or on the edge.
    public func contains(_ p: Point2) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }

    /// Where a card's leader line leaves this box toward `anchor`: on the edge that faces it —
    /// the bottom edge above the anchor for a card over it, the top edge for a card hanging
    /// below it, the near side for a card beside it — kept `inset` px off the rounded corners.
    public func leaderStart(toward anchor: Point2, inset: Double) -> Point2 {
        func along(_ v: Double, _ lo: Double, _ hi: Double) -> Double { lo <= hi ? min(max(v, lo), hi) : (lo + hi) / 2 }
        if anchor.y >= maxY { return Point2(along(anchor.x, minX + inset, maxX - inset), maxY) }
        if anchor.y <= minY { return Point2(along(anchor.x, minX + inset, maxX - inset), minY) }
        return Point2(anchor.x < midX ? minX : maxX, along(anchor.y, minY + inset, maxY - inset))
    }
}

/// Label text measured by the renderer, so layout (which does no drawing) knows box sizes.
public protocol LabelSizing: Sendable {
    /// Size in pixels of the card showing `name` and `detail` (e.g. "85 m").
    func labelSize(name: String, detail: String) -> (width: Double, height: Double)
    /// Size of the same card drawn `sizeFactor` times its normal size (cards sized by distance).
    func labelSize(name: String, detail: String, sizeFactor: Double) -> (width: Double, height: Double)
    /// The area an off-screen arrow with its tip at `tip`, pointing `angleDeg` (image
    /// degrees, 0 = right, 90 = down), covers with its name-and-distance text on a
    /// `imageWidth` × `imageHeight` frame.
    func indicatorFootprint(tip: Point2, angleDeg: Double, name: String, detail: String,
                            imageWidth: Int, imageHeight: Int) -> Rect
}

extension LabelSizing {
    /// Without a renderer's measure: the normal size, scaled.
    public func labelSize(name: String, detail: String, sizeFactor: Double) -> (width: Double, height: Double) {
        let size = labelSize(name: name, detail: detail)
        return (size.width * sizeFactor, size.height * sizeFactor)
    }

    /// Without a renderer's measure: the arrow's surroundings, 40 px square.
    public func indicatorFootprint(tip: Point2, angleDeg: Double, name: String, detail: String,
                                   imageWidth: Int, imageHeight: Int) -> Rect {
        Rect(x: tip.x - 20, y: tip.y - 20, width: 40, height: 40)
    }
}

/// Whether the segment from `a` to `b` meets `box` (Liang–Barsky clipping): a map's track
/// against its labels, a card's leader against the other cards.
public func segment(_ a: Point2, _ b: Point2, meets box: Rect) -> Bool {
    var t0 = 0.0, t1 = 1.0
    let dx = b.x - a.x, dy = b.y - a.y
    for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
        if p == 0 {
            if q < 0 { return false }
        } else {
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return false }
        }
    }
    return true
}
