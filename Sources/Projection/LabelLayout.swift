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

/// Layout options (the command line's `--max-visible`; the rest are style constants).
public struct LayoutOptions: Sendable {
    /// At most this many labels are drawn, nearest first (default 100).
    public var maxVisible: Int = 100
    /// Gap between a lifted label and the one it clears, px (default 5, HDAugmentedReality's).
    public var stackGap: Double = 5
    /// Length of the leader line from the box's bottom edge to the anchor, px.
    public var leaderLength: Double = 40
    public init(maxVisible: Int = 100, stackGap: Double = 5, leaderLength: Double = 40) {
        self.maxVisible = maxVisible; self.stackGap = stackGap; self.leaderLength = leaderLength
    }
}

/// Vertical stacking in the manner of HDAugmentedReality: labels are placed nearest first,
/// each centred above its anchor (the leader line's length above it); a label that overlaps
/// one already placed is lifted to sit `stackGap` px above that one, again and again until it
/// overlaps none. `stackLevel` counts the lifts. A label lifted past the top edge is not
/// drawn. Only labels whose anchor is on the image are candidates, at most `maxVisible`.
/// Visible boxes never overlap.
public struct LabelLayout: Sendable {
    public var options: LayoutOptions
    public var imageWidth: Double
    public var imageHeight: Double

    public init(options: LayoutOptions, imageWidth: Int, imageHeight: Int) {
        self.options = options
        self.imageWidth = Double(imageWidth)
        self.imageHeight = Double(imageHeight)
    }

    /// Lays out the candidates. Results are in the candidates' order (which callers keep
    /// nearest first); candidates are processed nearest first whatever their order.
    public func layout(_ candidates: [LabelCandidate], sizing: any LabelSizing) -> [PlacedLabel] {
        var result = candidates.map { PlacedLabel(id: $0.id, box: nil, stackLevel: 0, visible: false) }
        let order = candidates.indices.sorted {
            candidates[$0].distance != candidates[$1].distance
                ? candidates[$0].distance < candidates[$1].distance : candidates[$0].id < candidates[$1].id
        }
        var placed: [Rect] = []
        var shown = 0
        for i in order {
            guard shown < options.maxVisible, let anchor = candidates[i].anchor,
                  anchor.x >= 0, anchor.x <= imageWidth, anchor.y >= 0, anchor.y <= imageHeight
            else { continue }
            let size = sizing.labelSize(name: candidates[i].name, detail: candidates[i].detail)
            var box = Rect(x: anchor.x - size.width / 2, y: anchor.y - options.leaderLength - size.height,
                           width: size.width, height: size.height)
            var level = 0
            // Lift above the lowest overlapping box until clear. Each lift moves the box above
            // a placed box, so it ends after at most `placed.count` lifts.
            while let blocker = placed.filter({ $0.intersects(box) }).max(by: { $0.minY < $1.minY }) {
                box.y = blocker.minY - options.stackGap - box.height
                level += 1
            }
            result[i].box = box
            result[i].stackLevel = level
            if box.minY >= 0 {
                result[i].visible = true
                placed.append(box)
                shown += 1
            }
        }
        return result
    }
}
