import Foundation
import POIARCore

/// Input to the layout: one POI already projected.
public struct LabelCandidate: Sendable {
    public var id: String
    public var name: String
    /// Text under the name, e.g. "85 m".
    public var detail: String
    public var distance: Double
    /// Where the POI projects; nil when behind the camera.
    public var anchor: Point2?
    /// The POI's category (declutter's importance, cluster cards).
    public var category: String
    /// Behind a building, as seen from the camera (`LineOfSight`): it gets no card.
    public var occluded: Bool
    /// The card's size relative to the normal card (`LayoutOptions.cardSize`).
    public var sizeFactor: Double
    public init(id: String, name: String, detail: String, distance: Double, anchor: Point2?,
                category: String = "", occluded: Bool = false, sizeFactor: Double = 1) {
        self.id = id; self.name = name; self.detail = detail; self.distance = distance; self.anchor = anchor
        self.category = category; self.occluded = occluded; self.sizeFactor = sizeFactor
    }
}

/// Cards sized by distance: near POIs' cards larger, far ones' smaller (HDAugmentedReality's
/// users asked for it), linear in the logarithm of the distance between `near` and `far`
/// metres, in steps of 0.05 so a card does not change size at every metre.
public struct CardSizeByDistance: Sendable, Equatable {
    /// Size of cards at or nearer than `near` m (default 1.2 at 25 m).
    public var nearFactor = 1.2, near = 25.0
    /// Size of cards at or farther than `far` m (default 0.8 at 500 m: at 720 px the name is
    /// still 13.6 px and the distance 10.4 px).
    public var farFactor = 0.8, far = 500.0

    public init() {}

    /// The size factor of a card `distance` metres away.
    public func factor(distance: Double) -> Double {
        guard far > near, distance.isFinite else { return 1 }
        let t = min(1, max(0, log(max(distance, 1e-3) / near) / log(far / near)))
        let f = nearFactor + (farFactor - nearFactor) * t
        return (f * 20).rounded() / 20
    }
}

/// A label as laid out.
public struct PlacedLabel: Sendable, Equatable {
    public var id: String
    public var box: Rect?
    public var stackLevel: Int
    /// A card is drawn (at `opacity`).
    public var visible: Bool
    /// 1 opaque; less while the card fades in or out (`LayoutOptions.fadeTau`).
    public var opacity: Double = 1
    /// The card's size relative to the normal card.
    public var sizeFactor: Double = 1
    /// How a POI in view without a card is marked (nil: not at all).
    public var marker: LabelMarker?
    /// The cluster card (index in `PlannedLabels.clusters`) that shows it.
    public var cluster: Int?

    public init(id: String, box: Rect?, stackLevel: Int, visible: Bool) {
        self.id = id; self.box = box; self.stackLevel = stackLevel; self.visible = visible
    }
}

/// How far labels are raised by distance before stacking (HDAugmentedReality's
/// `distanceOffsetMode`): none; manual, `pixelsPerMetre` px for every metre beyond
/// `threshold` m; automatic, up to `fraction` of the image height at `maxDistance` m.
public enum DistanceOffset: Sendable, Equatable {
    case none
    case manual(threshold: Double, pixelsPerMetre: Double)
    case automatic(maxDistance: Double, fraction: Double)

    public func offset(distance: Double, imageHeight: Double) -> Double {
        switch self {
        case .none: return 0
        case .manual(let threshold, let k): return max(0, distance - threshold) * k
        case .automatic(let maxDistance, let fraction):
            guard maxDistance > 0 else { return 0 }
            return min(1, max(0, distance / maxDistance)) * fraction * imageHeight
        }
    }
}

/// Layout options. Every length is in output pixels, every time in seconds.
public struct LayoutOptions: Sendable {
    /// At most this many labels are drawn, nearest first (default 100; `--max-visible`).
    public var maxVisible: Int = 100
    /// Gap between a lifted label and the one it clears (default 10 at 720 px: at
    /// HDAugmentedReality's 5 px a stack read as one block).
    public var stackGap: Double = 10
    /// Least horizontal distance between two leader lines that run over the same rows (default
    /// 8 at 720 px): closer, a reader cannot tell which line goes to which card, so the second
    /// card goes where its line runs elsewhere (below or beside its anchor).
    public var leaderSpacing: Double = 8
    /// Length of the leader line from the box's bottom edge to the anchor.
    public var leaderLength: Double = 40
    /// Raise labels by distance before stacking (default none; `--distance-offset`).
    public var distanceOffset: DistanceOffset = .none
    /// A label that would need more lifts than this is hidden, not drawn higher
    /// (nil: no cap; `--max-stack`).
    public var maxStackLevel: Int?
    /// POIs farther than this (metres) get no label (nil: all in the search radius;
    /// `--max-distance`).
    public var maxDistance: Double?
    /// Areas labels keep out of (the HUD's compass tape, GPS pill and radar): a label that
    /// would overlap one is lifted over it like over a nearer label, and one that cannot be
    /// (the area spans the image's width, as the tape does) is not drawn. Output pixels.
    /// Nor is a card whose leader line would cross one.
    public var keepOut: [Rect] = []
    /// Least gap between a card and the image's side edges (default 6): a card whose anchor
    /// is near an edge is shifted inward, its leader line bent to the anchor.
    public var edgeMargin: Double = 6
    /// Cards sized by distance (nil: every card the normal size; `--card-size fixed`).
    public var cardSize: CardSizeByDistance? = CardSizeByDistance()
    /// How many cards, and which (`--max-cards`; see `Declutter`).
    public var declutter = DeclutterOptions()
    /// Time constant, seconds, of a card fading in (it appears) or out (it went behind a
    /// building) (default 0.3; 0 disables): at 2 frames/s a card is 86 % there on its first
    /// frame; at 30 frames/s it takes about a second.
    public var fadeTau: Double = 0.3

    // Calm over time (used when the layout is given a `LayoutMemory`).
    /// A label that leaves the view (or the labels drawn) and comes back within this many
    /// seconds takes its old stack level again if that place is clear (default 10).
    public var levelMemory: Double = 10
    /// A label taking a new level (coming into view, pushed or dropping) needs this many
    /// pixels clear on each side there (default 24); keeping its level needs only a clear box.
    /// The slack absorbs the small drifts between labels that would otherwise bump it again.
    public var levelMargin: Double = 24
    /// Time constant of the vertical easing of a label whose stack level changed (default
    /// 0.25 s; 0 disables). Per second, not per frame, so it holds at any frame rate.
    public var verticalSmoothingTau: Double = 0.25
    /// A label that could drop to a lower stack level (the label under it moved away) waits
    /// this long, in seconds, before it does (default 8): short gaps do not make it bob.
    /// Rising is never delayed: it is what keeps boxes from overlapping.
    public var dropDelay: Double = 8

    public init(maxVisible: Int = 100, stackGap: Double = 10, leaderLength: Double = 40) {
        self.maxVisible = maxVisible; self.stackGap = stackGap; self.leaderLength = leaderLength
    }

    /// The options for an image `scale` times the 720 px design size: lengths scale.
    public func scaled(by scale: Double) -> LayoutOptions {
        var l = self
        l.leaderLength *= scale
        l.stackGap *= scale
        l.leaderSpacing *= scale
        l.levelMargin *= scale
        l.edgeMargin *= scale
        l.declutter.clusterSpan *= scale
        if case .manual(let threshold, let k) = distanceOffset { l.distanceOffset = .manual(threshold: threshold, pixelsPerMetre: k * scale) }
        return l
    }
}

/// What the layout remembers from one frame to the next (calm over time).
public struct LayoutMemory: Sendable {
    /// Last frame's stack level and drawn height above its unstacked position (px) of each
    /// visible label.
    var levels: [String: (level: Int, lift: Double)] = [:]
    /// The last stack level of labels seen within `levelMemory` seconds, and when.
    var recentLevels: [String: (level: Int, time: Double)] = [:]
    /// Since when a label could have dropped to a lower level but was held.
    var dropSince: [String: Double] = [:]
    var time: Double?
    /// The opacity of each card drawn on the last frame (fading in or out, or 1).
    var cardOpacity: [String: Double] = [:]
    /// The labels that hung below (or stood beside) their anchor on the last frame: they stay
    /// there while they can, instead of trading places with the stack above every frame.
    var hung: Set<String> = []

    public init() {}
}

/// Vertical stacking in the manner of HDAugmentedReality: labels are placed nearest first,
/// each centred above its anchor (the leader line's length above it, raised by the distance
/// offset); a label that overlaps one already placed is lifted to sit `stackGap` px above
/// that one, again and again until it overlaps none. `stackLevel` counts the lifts. A label
/// lifted past the top edge, or past `maxStackLevel`, is not drawn. Only labels whose anchor
/// is on the image are candidates, at most `maxVisible`. Visible boxes never overlap.
///
/// Given a `LayoutMemory` (a replay), the layout is calm over time: a label keeps its stack
/// level while its place is free, and a label that changes level eases to its new height with
/// a time constant in seconds (never into another box); see `placeOnLevels`.
public struct LabelLayout: Sendable {
    public var options: LayoutOptions
    public var imageWidth: Double
    public var imageHeight: Double

    public init(options: LayoutOptions, imageWidth: Int, imageHeight: Int) {
        self.options = options
        self.imageWidth = Double(imageWidth)
        self.imageHeight = Double(imageHeight)
    }

    /// Lays out the candidates of one frame. Results are in the candidates' order.
    public func layout(_ candidates: [LabelCandidate], sizing: any LabelSizing) -> [PlacedLabel] {
        var none: LayoutMemory? = nil
        return layout(candidates, sizing: sizing, memory: &none, time: 0)
    }

    /// Lays out one frame of a sequence; `memory` carries the state between frames.
    public func layout(_ candidates: [LabelCandidate], sizing: any LabelSizing,
                       memory: inout LayoutMemory?, time: Double) -> [PlacedLabel] {
        var result = candidates.map { PlacedLabel(id: $0.id, box: nil, stackLevel: 0, visible: false) }
        // The candidates that may be drawn, nearest first, with their unstacked boxes.
        let byDistance = candidates.indices.sorted {
            candidates[$0].distance != candidates[$1].distance
                ? candidates[$0].distance < candidates[$1].distance : candidates[$0].id < candidates[$1].id
        }
        var eligible: [(index: Int, box: Rect)] = []
        for i in byDistance {
            let c = candidates[i]
            guard isEligible(c), let anchor = c.anchor else { continue }
            let size = sizing.labelSize(name: c.name, detail: c.detail, sizeFactor: c.sizeFactor)
            let raise = options.distanceOffset.offset(distance: c.distance, imageHeight: imageHeight)
            // Centred over the anchor, shifted inward to stay on the image.
            let x = max(options.edgeMargin, min(imageWidth - options.edgeMargin - size.width, anchor.x - size.width / 2))
            eligible.append((i, Rect(x: x, y: anchor.y - options.leaderLength - raise - size.height,
                                     width: size.width, height: size.height)))
        }
        var placed: [Rect] = []
        var leaders: [(box: Rect, anchor: Point2)] = []  // of the placed cards
        let keepOut = options.keepOut
        if var m = memory {
            placeOnLevels(eligible, candidates: candidates, result: &result, placed: &placed, memory: &m, time: time)
            memory = m
        } else {
            for (i, base) in eligible where placed.count < options.maxVisible {
                var box = base
                var level = 0
                // Lift above the lowest overlapping box until clear. Each lift moves the box
                // above a placed box (or kept-out area) it was not above yet (the box only
                // rises, so it never meets that one again), so it ends after at most
                // `placed.count + keepOut.count` lifts. Lifts over kept-out areas are not
                // stack levels.
                let obstacles = placed + keepOut
                var liftedOver: [Int] = []
                while let blocker = obstacles.indices.filter({ !liftedOver.contains($0) && box.intersects(obstacles[$0]) })
                    .max(by: { obstacles[$0].minY < obstacles[$1].minY }) {
                    box.y = obstacles[blocker].minY - options.stackGap - box.height
                    if blocker < placed.count { level += 1 }
                    liftedOver.append(blocker)
                }
                result[i].box = box
                result[i].stackLevel = level
                let anchor = candidates[i].anchor!  // eligible
                if box.minY >= 0, !keepOut.contains(where: { box.intersects($0) }), !leaderCrossesKeepOut(box, anchor),
                   !sharesColumn(box, anchor, with: leaders), options.maxStackLevel.map({ level <= $0 }) ?? true {
                    result[i].visible = true
                } else if let (hung, hungLevel) = hangingPlace(base, anchor: anchor, placed: placed, leaders: leaders,
                                                               others: eligible.compactMap { $0.index == i ? nil : candidates[$0.index].anchor }) {
                    result[i].box = hung
                    result[i].stackLevel = hungLevel
                    result[i].visible = true
                }
                if result[i].visible {
                    placed.append(result[i].box!)
                    leaders.append((result[i].box!, anchor))
                }
            }
        }
        return result
    }

    /// The calm layout of a sequence. Levels are fixed steps (the tallest label plus the gap)
    /// above each label's own unstacked place. A label keeps its level from frame to frame (or
    /// from before it left the view, for `levelMemory` seconds) as long as its box there is
    /// clear; labels keeping their level are placed first (lowest levels first, nearer first),
    /// so a label that moves can never push one that stays. Then the rest: one whose place was taken moves to
    /// the nearest level clear by `levelMargin`, up first; a new one takes the lowest such
    /// level, as in the stateless layout. Last, a label that could drop to a lower clear level
    /// does so once that has been possible for `dropDelay` seconds. Changes ease (`ease`).
    /// The `maxVisible` nearest labels in view are the candidates.
    private func placeOnLevels(_ eligible: [(index: Int, box: Rect)], candidates: [LabelCandidate],
                               result: inout [PlacedLabel], placed: inout [Rect], memory: inout LayoutMemory, time: Double) {
        let chosen = Array(eligible.prefix(options.maxVisible))  // nearest first
        let step = (chosen.map(\.box.height).max() ?? 0) + options.stackGap
        let cap = options.maxStackLevel ?? Int.max
        var owners: [Int] = []  // position in `chosen` of each placed box
        var level = [Int?](repeating: nil, count: chosen.count)

        /// Where label `k` goes at level `l`: `l` steps above its unstacked place, lifted over
        /// any box of a lower level in the way; nil when that leaves the image or touches a
        /// box of the same or a higher level (with `margin` px to spare on each side).
        func position(_ k: Int, _ l: Int, margin: Double, keeping: Bool = false) -> Rect? {
            let base = chosen[k].box
            var b = Rect(x: base.x, y: base.y - Double(l) * step, width: base.width, height: base.height)
            guard l >= 0, l <= cap, b.minY >= 0 else { return nil }
            // Boxes of lower levels, and the kept-out areas, are lifted over.
            let lower = owners.indices.filter { s in owners[s] != k && level[owners[s]]! < l }.map { placed[$0] } + options.keepOut
            var liftedOver: [Int] = []
            while let blocker = lower.indices.filter({ !liftedOver.contains($0) && lower[$0].intersects(b) })
                .max(by: { lower[$0].minY < lower[$1].minY }) {
                b.y = lower[blocker].minY - options.stackGap - b.height
                liftedOver.append(blocker)
            }
            guard b.minY >= 0, !options.keepOut.contains(where: { b.intersects($0) }),
                  !leaderCrossesKeepOut(b, candidates[chosen[k].index].anchor) else { return nil }
            // Keeping a level needs only a clear box (two anchors drifting within a few pixels for a
            // frame do not move a card); taking one needs the leader's own column.
            if !keeping, let anchor = candidates[chosen[k].index].anchor,
               sharesColumn(b, anchor, with: owners.indices.filter { owners[$0] != k }.compactMap { s in
                   candidates[chosen[owners[s]].index].anchor.map { (placed[s], $0) } }) { return nil }
            let wide = Rect(x: b.x - margin, y: b.y, width: b.width + 2 * margin, height: b.height)
            for s in owners.indices where owners[s] != k && level[owners[s]]! >= l {
                if placed[s].intersects(wide) { return nil }
            }
            return b
        }
        func place(_ k: Int, _ l: Int, _ b: Rect) {
            level[k] = l
            owners.append(k)
            placed.append(b)
        }
        func highest(_ k: Int) -> Int { min(cap, Int((chosen[k].box.minY / step).rounded(.down))) }
        let previous: [Int?] = chosen.map { c in
            memory.recentLevels[candidates[c.index].id].flatMap { time - $0.time <= options.levelMemory ? $0.level : nil }
        }
        // Who wins where two labels want the same place: the nearer (as in the stateless
        // layout); `chosen` is nearest first.
        let byDistance = chosen.indices
        let wasHung = chosen.map { memory.hung.contains(candidates[$0.index].id) }
        var hung = [Bool](repeating: false, count: chosen.count)
        func hang(_ k: Int) {
            let leaders = owners.indices.compactMap { s in candidates[chosen[owners[s]].index].anchor.map { (box: placed[s], anchor: $0) } }
            guard let anchor = candidates[chosen[k].index].anchor else { return }
            // A label that hung keeps its depth below the anchor while that place is clear (as a
            // stacked label keeps its level), so it does not bob when the one above it leaves.
            let id = candidates[chosen[k].index].id
            let others = chosen.indices.compactMap { $0 == k ? nil : candidates[chosen[$0].index].anchor }
            if wasHung[k], let lift = memory.levels[id]?.lift, let level = previous[k],
               let b = keptHangingPlace(chosen[k].box, anchor: anchor, y: chosen[k].box.y - lift, placed: placed, leaders: leaders,
                                        others: others) {
                place(k, level, b)
                hung[k] = true
                return
            }
            guard let (b, l) = hangingPlace(chosen[k].box, anchor: anchor, placed: placed, leaders: leaders, others: others) else { return }
            place(k, l, b)
            hung[k] = true
        }
        // 1. Labels whose level is still free keep it (lowest levels first, then nearest first);
        // labels that hung below (or beside) their anchor hang there again while they can.
        let keepers = byDistance.filter { previous[$0] != nil && !wasHung[$0] }.sorted { previous[$0]! < previous[$1]! }
        for k in keepers {
            if let b = position(k, previous[k]!, margin: 0, keeping: true) { place(k, previous[k]!, b) }
        }
        // (In their last order, so two hanging labels whose distances cross do not swap.)
        for k in byDistance.filter({ wasHung[$0] }).sorted(by: { (previous[$0] ?? 0) < (previous[$1] ?? 0) }) { hang(k) }
        // 2. Labels whose level was taken, and new labels.
        let margin = options.levelMargin
        for k in byDistance where level[k] == nil && chosen[k].box.minY >= 0 {
            let t = highest(k)
            var tries: [Int] = []
            if let was = previous[k] {
                tries = Array(stride(from: was + 1, through: t, by: 1)) + Array(stride(from: min(was, t + 1) - 1, through: 0, by: -1))
            } else {
                tries = Array(0...max(t, 0))
            }
            for (l, m) in tries.map({ ($0, margin) }) + (0...max(t, 0)).map({ ($0, 0.0) }) {
                if let b = position(k, l, margin: m) { place(k, l, b); break }
            }
        }
        // 3. Labels that could drop, after `dropDelay` seconds of being able to.
        var dropSince: [String: Double] = [:]
        for k in byDistance {
            // A card fading out (its POI went behind a building) stays where it is until gone.
            guard let l = level[k], l > 0, l == previous[k], !hung[k], !candidates[chosen[k].index].occluded else { continue }
            var lower: (Int, Rect)?
            for t in 0..<l { if let b = position(k, t, margin: margin) { lower = (t, b); break } }
            guard let (t, b) = lower else { continue }
            let id = candidates[chosen[k].index].id
            let since = memory.dropSince[id] ?? time
            if time - since >= options.dropDelay {
                let slot = owners.firstIndex(of: k)!
                level[k] = t
                placed[slot] = b
            } else {
                dropSince[id] = since
            }
        }
        // 4. Labels with no room above their anchor hang below it, or stand beside it.
        for k in byDistance where level[k] == nil { hang(k) }
        var placedIDs: [String] = []
        for (slot, k) in owners.enumerated() {
            let i = chosen[k].index
            result[i].box = placed[slot]
            result[i].stackLevel = level[k]!
            result[i].visible = true
            placedIDs.append(candidates[i].id)
        }
        for (k, c) in chosen.enumerated() where level[k] == nil { result[c.index].box = c.box }

        let baseY = Dictionary(chosen.map { (candidates[$0.index].id, $0.box.y) }, uniquingKeysWith: { a, _ in a })
        ease(&result, placed: Array(zip(placedIDs, placed)), baseY: baseY, memory: memory, time: time)
        let visible = result.filter(\.visible)
        memory.levels = Dictionary(visible.compactMap { r in
            guard let box = r.box, let base = baseY[r.id] else { return nil }
            return (r.id, (r.stackLevel, base - box.y))
        }, uniquingKeysWith: { a, _ in a })
        memory.recentLevels = memory.recentLevels.filter { time - $0.value.time <= options.levelMemory }
        for r in visible { memory.recentLevels[r.id] = (r.stackLevel, time) }
        memory.dropSince = dropSince
        memory.hung = Set(chosen.indices.filter { hung[$0] }.map { candidates[chosen[$0].index].id })
        memory.time = time
    }

    /// Whether a candidate may get a label at all: its anchor on the image, within `maxDistance`.
    public func isEligible(_ c: LabelCandidate) -> Bool {
        guard let a = c.anchor else { return false }
        return a.x >= 0 && a.x <= imageWidth && a.y >= 0 && a.y <= imageHeight
            && (options.maxDistance.map { c.distance <= $0 } ?? true)
    }

    /// Eases a label's lift above its anchor toward its new stacked lift, with
    /// `verticalSmoothingTau`, so a change of stack level glides instead of jumping; the label
    /// still follows its anchor at once. A glide that would touch another box is skipped.
    private func ease(_ result: inout [PlacedLabel], placed: [(id: String, box: Rect)], baseY: [String: Double],
                      memory: LayoutMemory, time: Double) {
        guard options.verticalSmoothingTau > 0, let last = memory.time, time > last else { return }
        let keep = exp(-(time - last) / options.verticalSmoothingTau)
        var boxes = Dictionary(placed.map { ($0.id, $0.box) }, uniquingKeysWith: { a, _ in a })
        for i in result.indices where result[i].visible {
            let id = result[i].id
            guard let previousLift = memory.levels[id]?.lift, let base = baseY[id], var box = result[i].box else { continue }
            let target = base - box.y
            // A card that moves from above its anchor to below it (or back) jumps: a glide would
            // pass over the anchor.
            guard abs(previousLift - target) > 0.5, (previousLift >= 0) == (target >= 0) else { continue }
            box.y = base - (target + (previousLift - target) * keep)
            let clear = box.minY >= 0 && !boxes.contains { $0.key != id && $0.value.intersects(box) }
                && !options.keepOut.contains { $0.intersects(box) }
            if clear { result[i].box = box; boxes[id] = box }
        }
    }
}
