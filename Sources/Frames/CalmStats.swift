import Foundation
import POIARCore

/// How calm the labels of a replay are (`poiar replay --stats`), measured over consecutive
/// frames for every label visible in both:
/// - label movement per frame (the box's centre) against its anchor's movement: a label
///   that follows its anchor exactly scores 1; stacking jumps push it up;
/// - stack-level changes per label per minute of visibility.
public struct CalmStats: Sendable {
    public struct Summary: Sendable, Equatable {
        /// Label pairs (the same label on two consecutive frames) measured.
        public var samples: Int
        public var meanLabelMove: Double, meanAnchorMove: Double
        public var p95LabelMove: Double, p95AnchorMove: Double
        /// Mean label movement over mean anchor movement.
        public var meanRatio: Double { meanAnchorMove > 0 ? meanLabelMove / meanAnchorMove : 1 }
        /// 95th percentile of label movement over that of anchor movement.
        public var p95Ratio: Double { p95AnchorMove > 0 ? p95LabelMove / p95AnchorMove : 1 }
        public var stackChanges: Int
        public var labelMinutes: Double
        public var stackChangesPerLabelMinute: Double { labelMinutes > 0 ? Double(stackChanges) / labelMinutes : 0 }

        public var description: String {
            String(format: "calm: %d label steps; label movement mean %.2f px (anchor %.2f, ratio %.2f), p95 %.2f px (anchor %.2f, ratio %.2f); stack-level changes %d in %.1f label-minutes = %.2f per label-minute",
                   samples, meanLabelMove, meanAnchorMove, meanRatio, p95LabelMove, p95AnchorMove, p95Ratio,
                   stackChanges, labelMinutes, stackChangesPerLabelMinute)
        }
    }

    private var previous: [String: (time: Double, anchor: Point2, centre: Point2, level: Int)] = [:]
    private var labelMoves: [Double] = [], anchorMoves: [Double] = []
    private var stackChanges = 0
    private var visibleSeconds = 0.0

    public init() {}

    public mutating func add(_ record: FrameRecord) {
        var current: [String: (time: Double, anchor: Point2, centre: Point2, level: Int)] = [:]
        for a in record.annotations where a.visible {
            guard let anchor = a.anchor, let box = a.box else { continue }
            let centre = Point2(box.midX, box.y + box.height / 2)
            current[a.poi.id] = (record.time, anchor, centre, a.stackLevel)
            if let p = previous[a.poi.id] {
                labelMoves.append(hypot(centre.x - p.centre.x, centre.y - p.centre.y))
                anchorMoves.append(hypot(anchor.x - p.anchor.x, anchor.y - p.anchor.y))
                if a.stackLevel != p.level { stackChanges += 1 }
                visibleSeconds += record.time - p.time
            }
        }
        previous = current
    }

    public var summary: Summary {
        func mean(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count) }
        func p95(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[min(v.count - 1, v.count * 95 / 100)] }
        return Summary(samples: labelMoves.count, meanLabelMove: mean(labelMoves), meanAnchorMove: mean(anchorMoves),
                       p95LabelMove: p95(labelMoves), p95AnchorMove: p95(anchorMoves),
                       stackChanges: stackChanges, labelMinutes: visibleSeconds / 60)
    }
}
