import Foundation
import POIARCore

/// The labels of one frame as planned: per candidate, and the cluster cards.
public struct PlannedLabels: Sendable {
    /// In the candidates' order.
    public var labels: [PlacedLabel]
    public var clusters: [PlacedCluster]
}

/// A cluster card as laid out.
public struct PlacedCluster: Sendable, Equatable {
    public var cluster: LabelCluster
    public var label: PlacedLabel
}

extension LabelLayout {
    /// One frame's labels, from the POIs to what is drawn:
    /// 1. each POI in view (anchor on the image, within `maxDistance`) and in sight gets a card,
    ///    a place in a cluster card, or a dot (`Declutter`); one behind a building nothing, or
    ///    a dim marker (`dimOccluded`);
    /// 2. cards are sized by distance (`cardSize`) and stacked (`layout`); a card that finds no
    ///    place becomes a dot;
    /// 3. over a sequence (`memory`), a card that goes behind a building fades out and one that
    ///    appears fades in (`fadeTau`), instead of popping. A fading-out card keeps its place in
    ///    the stack and counts toward `maxCards`.
    public func plan(_ candidates: [LabelCandidate], sizing: any LabelSizing, dimOccluded: Bool,
                     memory: inout LayoutMemory?, time: Double) -> PlannedLabels {
        var candidates = candidates
        for i in candidates.indices { candidates[i].sizeFactor = options.cardSize?.factor(distance: candidates[i].distance) ?? 1 }
        let eligible = candidates.map(isEligible)
        // How much of last frame's opacity is left after this frame's interval.
        var decay = 0.0
        if let last = memory?.time, time > last, options.fadeTau > 0 { decay = exp(-(time - last) / options.fadeTau) }
        let previous = memory?.cardOpacity ?? [:]
        var fading: [Int: Double] = [:]  // cards fading out, by candidate
        for i in candidates.indices where eligible[i] && candidates[i].occluded {
            if let o = previous[candidates[i].id], o * decay >= Self.fadeFloor { fading[i] = o * decay }
        }
        let declutter = Declutter(options: options.declutter)
        let plan = declutter.plan(candidates, eligible: eligible, hadCard: { previous[$0] != nil }, reserved: fading.count,
                                  dimOccluded: dimOccluded)

        // The cards to stack: single cards, fading ones, clusters (as candidates of their own).
        let singles = plan.cards + fading.keys.sorted()
        var stacked = singles.map { candidates[$0] }
        for c in plan.clusters {
            stacked.append(LabelCandidate(id: c.id, name: c.name, detail: c.detail, distance: c.nearest, anchor: c.anchor,
                                          category: c.category, sizeFactor: options.cardSize?.factor(distance: c.nearest) ?? 1))
        }
        let firstFrame = memory?.time == nil
        var placed = layout(stacked, sizing: sizing, memory: &memory, time: time)

        // Opacity: fading out as computed; fading in toward 1 (the first frame of a sequence,
        // or a single frame, starts opaque).
        var opacity: [String: Double] = [:]
        for k in placed.indices where placed[k].visible {
            let id = placed[k].id
            let o: Double
            if k < singles.count, let f = fading[singles[k]] {
                o = f
            } else if firstFrame {
                o = 1
            } else {
                o = 1 - (1 - (previous[id] ?? 0)) * decay
            }
            placed[k].opacity = o >= 0.995 ? 1 : o
            placed[k].sizeFactor = stacked[k].sizeFactor
            opacity[id] = placed[k].opacity
        }
        if memory != nil { memory!.cardOpacity = opacity }

        var labels = candidates.map { c in
            var l = PlacedLabel(id: c.id, box: nil, stackLevel: 0, visible: false)
            l.sizeFactor = c.sizeFactor
            return l
        }
        for (i, m) in plan.markers { labels[i].marker = m }
        for (k, i) in singles.enumerated() {
            labels[i].box = placed[k].box
            labels[i].stackLevel = placed[k].stackLevel
            labels[i].visible = placed[k].visible
            labels[i].opacity = placed[k].opacity
            if !placed[k].visible && !candidates[i].occluded { labels[i].marker = .dot }  // no room: a dot
            if !placed[k].visible && candidates[i].occluded && dimOccluded { labels[i].marker = .dim }
        }
        var clusters: [PlacedCluster] = []
        for (n, c) in plan.clusters.enumerated() {
            let label = placed[singles.count + n]
            if label.visible {
                for i in c.members { labels[i].cluster = clusters.count }
            } else {
                for i in c.members { labels[i].marker = .dot }
                continue
            }
            clusters.append(PlacedCluster(cluster: c, label: label))
        }
        return PlannedLabels(labels: labels, clusters: clusters)
    }

    /// A card fading out is dropped below this opacity.
    static let fadeFloor = 0.1
}
