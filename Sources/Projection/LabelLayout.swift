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
    public init(id: String, name: String, detail: String, distance: Double, anchor: Point2?) {
        self.id = id; self.name = name; self.detail = detail; self.distance = distance; self.anchor = anchor
    }
}

/// A label as laid out.
public struct PlacedLabel: Sendable, Equatable {
    public var id: String
    public var box: Rect?
    public var stackLevel: Int
    public var visible: Bool
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
    /// Gap between a lifted label and the one it clears (default 5, HDAugmentedReality's).
    public var stackGap: Double = 5
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

    // Calm over time (used when the layout is given a `LayoutMemory`).
    /// Two labels keep last frame's stacking order unless their distances differ by more than
    /// this many metres… (default 10)
    public var orderHysteresisMetres: Double = 10
    /// …and by more than this fraction of the nearer distance (default 0.1).
    public var orderHysteresisFraction: Double = 0.1
    /// A label that was lifted over another last frame stays lifted while their boxes come
    /// within this many pixels of each other (default 12), so a label does not drop and
    /// jump back as its anchor jitters at the edge of an overlap.
    public var stackHysteresis: Double = 40
    /// Time constant of the vertical easing of a label whose stack level changed (default
    /// 0.25 s; 0 disables). Per second, not per frame, so it holds at any frame rate.
    public var verticalSmoothingTau: Double = 0.25
    /// A label that could drop to a lower stack level (the label under it moved away) waits
    /// this long, in seconds, before it does (default 2): short gaps do not make it bob.
    /// Rising is never delayed: it is what keeps boxes from overlapping.
    public var dropDelay: Double = 6

    public init(maxVisible: Int = 100, stackGap: Double = 5, leaderLength: Double = 40) {
        self.maxVisible = maxVisible; self.stackGap = stackGap; self.leaderLength = leaderLength
    }

    /// The options for an image `scale` times the 720 px design size: lengths scale, the
    /// 5 px stacking gap (HDAugmentedReality's) stays.
    public func scaled(by scale: Double) -> LayoutOptions {
        var l = self
        l.leaderLength *= scale
        l.stackHysteresis *= scale
        if case .manual(let threshold, let k) = distanceOffset { l.distanceOffset = .manual(threshold: threshold, pixelsPerMetre: k * scale) }
        return l
    }
}

/// What the layout remembers from one frame to the next (calm over time).
public struct LayoutMemory: Sendable {
    /// Ids of last frame's visible labels in their stacking order.
    var order: [String] = []
    /// Last frame's distance of every candidate, metres.
    var distances: [String: Double] = [:]
    /// (lifted label, label it was lifted over) pairs of last frame.
    var stacked: Set<Pair> = []
    /// Last frame's stack level and drawn height above its unstacked position (px) of each
    /// visible label.
    var levels: [String: (level: Int, lift: Double)] = [:]
    /// Since when a label could have dropped to a lower level but was held.
    var dropSince: [String: Double] = [:]
    var time: Double?

    struct Pair: Hashable, Sendable { var upper: String, lower: String }
    public init() {}
}

/// Vertical stacking in the manner of HDAugmentedReality: labels are placed nearest first,
/// each centred above its anchor (the leader line's length above it, raised by the distance
/// offset); a label that overlaps one already placed is lifted to sit `stackGap` px above
/// that one, again and again until it overlaps none. `stackLevel` counts the lifts. A label
/// lifted past the top edge, or past `maxStackLevel`, is not drawn. Only labels whose anchor
/// is on the image are candidates, at most `maxVisible`. Visible boxes never overlap.
///
/// Given a `LayoutMemory` (a replay), the layout is calm over time: the stacking order only
/// changes when distances differ clearly, an overlap is judged with a margin while it lasts,
/// and a label that changes level eases to its new height with a time constant in seconds
/// (never into another box).
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
        let order = stackingOrder(candidates, memory: memory)
        let previousPairs = memory?.stacked ?? []
        var placed: [(id: String, box: Rect)] = []
        var baseY: [String: Double] = [:]  // each label's unstacked top edge
        var stacked: Set<LayoutMemory.Pair> = []
        var dropSince: [String: Double] = [:]
        var shown = 0
        for i in order {
            let c = candidates[i]
            guard shown < options.maxVisible, let anchor = c.anchor,
                  anchor.x >= 0, anchor.x <= imageWidth, anchor.y >= 0, anchor.y <= imageHeight,
                  options.maxDistance.map({ c.distance <= $0 }) ?? true
            else { continue }
            let size = sizing.labelSize(name: c.name, detail: c.detail)
            let raise = options.distanceOffset.offset(distance: c.distance, imageHeight: imageHeight)
            var box = Rect(x: anchor.x - size.width / 2, y: anchor.y - options.leaderLength - raise - size.height,
                           width: size.width, height: size.height)
            baseY[c.id] = box.y
            var level = 0
            var liftedOver: [String] = []
            // Lift above the lowest overlapping box until clear. Each lift moves the box above
            // a placed box it was not above yet (the box only rises, so it never meets that one
            // again), so it ends after at most `placed.count` lifts. A pair stacked last frame
            // counts as overlapping within the hysteresis margin.
            while let blocker = placed.filter({ p in
                !liftedOver.contains(p.id)
                    && overlaps(box, p.box, margin: previousPairs.contains(.init(upper: c.id, lower: p.id)) ? options.stackHysteresis : 0)
            }).max(by: { $0.box.minY < $1.box.minY }) {
                box.y = blocker.box.minY - options.stackGap - box.height
                level += 1
                liftedOver.append(blocker.id)
            }
            // Calm: a label keeps last frame's height while that place is still clear: it does
            // not rise for a different stack below it that it does not touch, and it drops to
            // a lower level only once that has been possible for `dropDelay` seconds.
            if let previous = memory?.levels[c.id], level != previous.level {
                let sticky = Rect(x: box.x, y: baseY[c.id]! - previous.lift, width: box.width, height: box.height)
                let clear = sticky.minY >= 0 && !placed.contains(where: { $0.box.intersects(sticky) })
                let droppable = level < previous.level
                let since = droppable ? (memory?.dropSince[c.id] ?? time) : time
                if clear && (!droppable || time - since < options.dropDelay) {
                    box = sticky
                    level = previous.level
                    if droppable { dropSince[c.id] = since }
                }
            }
            result[i].box = box
            result[i].stackLevel = level
            if box.minY >= 0, options.maxStackLevel.map({ level <= $0 }) ?? true {
                result[i].visible = true
                placed.append((c.id, box))
                for lower in liftedOver { stacked.insert(.init(upper: c.id, lower: lower)) }
                shown += 1
            }
        }
        if memory != nil {
            ease(&result, placed: placed, baseY: baseY, memory: memory!, time: time)
            // Only the labels drawn keep their place in the order.
            memory!.order = order.filter { result[$0].visible }.map { candidates[$0].id }
            memory!.distances = Dictionary(candidates.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
            memory!.stacked = stacked
            memory!.levels = Dictionary(result.compactMap { r in
                guard r.visible, let box = r.box, let base = baseY[r.id] else { return nil }
                return (r.id, (r.stackLevel, base - box.y))
            }, uniquingKeysWith: { a, _ in a })
            memory!.dropSince = dropSince
            memory!.time = time
        }
        return result
    }

    /// The order labels are stacked in. Without memory: nearest first. With memory: the
    /// labels visible last frame keep last frame's order, and labels coming into view are
    /// stacked after them, by distance, so a label entering at the edge settles on top instead
    /// of lifting every label above it. Two labels then swap only when their distances cross
    /// by more than the hysteresis (walking past one), not because of a standing difference.
    func stackingOrder(_ candidates: [LabelCandidate], memory: LayoutMemory?) -> [Int] {
        let byDistance = candidates.indices.sorted {
            candidates[$0].distance != candidates[$1].distance
                ? candidates[$0].distance < candidates[$1].distance : candidates[$0].id < candidates[$1].id
        }
        guard let memory, !memory.order.isEmpty else { return byDistance }
        let rank = Dictionary(memory.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var order = byDistance.filter { rank[candidates[$0].id] != nil }.sorted { rank[candidates[$0].id]! < rank[candidates[$1].id]! }
        order += byDistance.filter { rank[candidates[$0].id] == nil }
        func clearlyNearer(_ da: Double, _ db: Double) -> Bool {
            db - da > max(options.orderHysteresisMetres, options.orderHysteresisFraction * da)
        }
        func crossed(_ a: Int, _ b: Int) -> Bool {  // a is now clearly nearer than b, and was not
            guard clearlyNearer(candidates[a].distance, candidates[b].distance) else { return false }
            guard let pa = memory.distances[candidates[a].id], let pb = memory.distances[candidates[b].id] else { return false }
            return !clearlyNearer(pa, pb)
        }
        for k in 1..<max(1, order.count) {
            var j = k
            while j > 0 && crossed(order[j], order[j - 1]) { order.swapAt(j, j - 1); j -= 1 }
        }
        return order
    }

    private func overlaps(_ a: Rect, _ b: Rect, margin: Double) -> Bool {
        Rect(x: a.x - margin, y: a.y - margin, width: a.width + 2 * margin, height: a.height + 2 * margin).intersects(b)
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
            guard abs(previousLift - target) > 0.5 else { continue }
            box.y = base - (target + (previousLift - target) * keep)
            let clear = box.minY >= 0 && !boxes.contains { $0.key != id && $0.value.intersects(box) }
            if clear { result[i].box = box; boxes[id] = box }
        }
    }
}
