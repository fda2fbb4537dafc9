import Foundation
import POIARCore

/// Where a card may go besides the stack above its anchor, and what its leader line may not do.
extension LabelLayout {
    /// Whether the leader line from `box` to `anchor` would cross an area kept clear (the line
    /// leaves the box's edge facing the anchor, `Rect.leaderStart`).
    func leaderCrossesKeepOut(_ box: Rect, _ anchor: Point2?) -> Bool {
        guard let anchor, !box.contains(anchor) else { return false }
        let start = box.leaderStart(toward: anchor, inset: 0)
        let line = Rect(x: min(start.x, anchor.x) - 1, y: min(start.y, anchor.y) - 1,
                        width: abs(anchor.x - start.x) + 2, height: abs(anchor.y - start.y) + 2)
        return options.keepOut.contains { line.intersects($0) }
    }

    /// Whether the leader line from `box` to `anchor` would run within `leaderSpacing` of a
    /// placed card's line over the same rows (more than `leaderSpacing` of them) (lines that run mostly sideways, from cards beside
    /// their anchors, have no column).
    func sharesColumn(_ box: Rect, _ anchor: Point2, with others: [(box: Rect, anchor: Point2)]) -> Bool {
        func span(_ b: Rect, _ a: Point2) -> (Double, Double)? {
            let s = b.leaderStart(toward: a, inset: 0)
            guard abs(s.y - a.y) > abs(s.x - a.x) else { return nil }
            return (min(s.y, a.y), max(s.y, a.y))
        }
        guard let mine = span(box, anchor) else { return false }
        return others.contains { o in
            guard abs(o.anchor.x - anchor.x) < options.leaderSpacing, let theirs = span(o.box, o.anchor) else { return false }
            // Lines meeting end to end (one card above two close anchors, one below) are apart.
            return min(mine.1, theirs.1) - max(mine.0, theirs.0) > options.leaderSpacing
        }
    }

    /// Whether `box` covers one of `anchors` (the other POIs in the picture that may get a card),
    /// with `stackGap` of air: a card hung below or beside its own anchor must leave the others'
    /// dots to be seen (a card above its anchor stands over the sky, where it may).
    func coversAnchor(_ box: Rect, _ anchors: [Point2]) -> Bool {
        let air = options.stackGap
        let grown = Rect(x: box.x - air, y: box.y - air, width: box.width + 2 * air, height: box.height + 2 * air)
        return anchors.contains { grown.contains($0) }
    }

    /// The hanging place of a card that hung at `y` on the last frame, if it is still clear there
    /// (centred under its anchor or with either end at it, as `hangingPlace` puts it).
    func keptHangingPlace(_ above: Rect, anchor: Point2, y: Double, placed: [Rect], leaders: [(box: Rect, anchor: Point2)],
                          others: [Point2]) -> Rect? {
        let obstacles = placed + options.keepOut
        return hangingLefts(above, anchor: anchor).lazy.map { Rect(x: $0, y: y, width: above.width, height: above.height) }.first { b in
            b.minY >= 0 && b.maxY <= imageHeight && !obstacles.contains { b.intersects($0) }
                && !leaderCrossesKeepOut(b, anchor) && !sharesColumn(b, anchor, with: leaders) && !coversAnchor(b, others)
        }
    }

    /// Where a hanging card's left edge may go: centred under the anchor as the card above was
    /// (shifted in from the image's edges), else with its left or right end at the anchor (the
    /// leader a third of its length in from the end, clear of the rounded corner).
    func hangingLefts(_ above: Rect, anchor: Point2) -> [Double] {
        let margin = options.edgeMargin, end = options.leaderLength / 3
        return [above.x, anchor.x - end, anchor.x + end - above.width].map { max(margin, min(imageWidth - margin - above.width, $0)) }
    }

    /// A place for a card that found no room above its anchor (its stack would leave the image,
    /// enter the HUD, or pass `maxStackLevel`): hanging the leader's length below the anchor,
    /// pushed down past the cards in its way (`stackGap` under each; the pushes are its stack
    /// level), centred under the anchor or with either end at it; or else beside the anchor,
    /// right then left, level with it or half a card higher or lower; or else farther, at the end
    /// of an angled leader (`fartherPlace`). Needs the place clear of
    /// `placed`, the HUD, the image's edges and the `others`' anchors (`coversAnchor`), and the
    /// leader clear of the HUD. A phone in a car
    /// holder tilted back, or a camera pitched down, sees the horizon near the top of the picture:
    /// there the room is below.
    func hangingPlace(_ above: Rect, anchor: Point2, placed: [Rect], leaders: [(box: Rect, anchor: Point2)],
                      others: [Point2]) -> (Rect, Int)? {
        let obstacles = placed + options.keepOut
        func clear(_ b: Rect) -> Bool {
            b.minY >= 0 && b.maxY <= imageHeight && b.minX >= 0 && b.maxX <= imageWidth
                && !obstacles.contains { b.intersects($0) } && !leaderCrossesKeepOut(b, anchor) && !sharesColumn(b, anchor, with: leaders)
                && !coversAnchor(b, others)
        }
        // Hanging: centred under the anchor, else with either end at it (`hangingLefts`).
        for x in hangingLefts(above, anchor: anchor) {
            var box = Rect(x: x, y: anchor.y + options.leaderLength, width: above.width, height: above.height)
            var level = 0, pushedPast: [Int] = []
            // Each push moves the box below an obstacle it was not below yet, so it ends.
            while let blocker = obstacles.indices.filter({ !pushedPast.contains($0) && box.intersects(obstacles[$0]) })
                .min(by: { obstacles[$0].maxY > obstacles[$1].maxY }) {
                box.y = obstacles[blocker].maxY + options.stackGap
                if blocker < placed.count { level += 1 }
                pushedPast.append(blocker)
            }
            if clear(box), options.maxStackLevel.map({ level <= $0 }) ?? true { return (box, level) }
        }
        // Beside: right, then left, level with the anchor, else a half card higher or lower.
        let gap = options.leaderLength / 2
        for dy in [0, -above.height / 2, above.height / 2] {
            for x in [anchor.x + gap, anchor.x - gap - above.width] {
                let beside = Rect(x: x, y: anchor.y - above.height / 2 + dy, width: above.width, height: above.height)
                if clear(beside) { return (beside, 0) }
            }
        }
        // Farther, at the end of an angled leader.
        return fartherPlace(above, anchor: anchor, placed: placed, leaders: leaders, clear: clear).map { ($0, 0) }
    }
}
