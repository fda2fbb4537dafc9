import Foundation
import POIARCore

/// The last place a card may go before its POI becomes a dot: farther from its anchor, at the
/// end of an angled leader.
extension LabelLayout {
    /// Longest angled leader, in leader lengths: farther, a card no longer reads as its anchor's.
    static let fartherReach = 4.0

    /// The place nearest `anchor` (by its leader's length, at least half a leader length as beside
    /// the anchor, so the line is seen, and at most `fartherReach` leader lengths)
    /// on a grid `stackGap` apart over the image, for a card with no place above, below or beside
    /// its anchor: one that `clear` accepts, whose leader crosses no placed card, no kept-out area
    /// and no other card's leader, and that covers no other card's leader. On the GoPro clip's
    /// frame 315 the ATM's card, kept from above its anchor by the GPS pill and from below and
    /// beside it by the cards there, stands up and to the right, beside the pill.
    func fartherPlace(_ above: Rect, anchor: Point2, placed: [Rect], leaders: [(box: Rect, anchor: Point2)],
                      clear: (Rect) -> Bool) -> Rect? {
        let step = max(1, options.stackGap), shortest = options.leaderLength / 2, reach = Self.fartherReach * options.leaderLength
        let lines = leaders.map { (start: $0.box.leaderStart(toward: $0.anchor, inset: 0), end: $0.anchor) }
        let blocks = placed + options.keepOut
        var candidates: [(length: Double, box: Rect)] = []
        for y in stride(from: 0, through: imageHeight - above.height, by: step) {
            for x in stride(from: options.edgeMargin, through: imageWidth - options.edgeMargin - above.width, by: step) {
                let box = Rect(x: x, y: y, width: above.width, height: above.height)
                guard !box.contains(anchor) else { continue }
                let start = box.leaderStart(toward: anchor, inset: 0)
                let length = hypot(anchor.x - start.x, anchor.y - start.y)
                if length >= shortest && length <= reach { candidates.append((length, box)) }
            }
        }
        candidates.sort { ($0.length, $0.box.y, $0.box.x) < ($1.length, $1.box.y, $1.box.x) }
        return candidates.first { c in
            let start = c.box.leaderStart(toward: anchor, inset: 0)
            return clear(c.box)
                && !blocks.contains { segment(start, anchor, meets: $0) }
                && !lines.contains { segments(start, anchor, $0.start, $0.end) || segment($0.start, $0.end, meets: c.box) }
        }?.box
    }

    /// Whether the segments `a`–`b` and `c`–`d` cross (touching ends, as two leaders to one
    /// anchor, do not count).
    private func segments(_ a: Point2, _ b: Point2, _ c: Point2, _ d: Point2) -> Bool {
        func side(_ p: Point2, _ q: Point2, _ r: Point2) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0
    }
}
