import POIARCore

/// A rendered frame as the MCAP file takes it (`RecordingMCAP.addFrame`): its time, and what
/// Foxglove draws over its image, in the output image's pixels (as in frames.jsonl). The replay
/// decides what the frame shows (`FrameRecord.exported`); the messages only draw it.
public struct ExportedFrame: Sendable {
    /// A dot at the anchor of a POI in sight: in its category's colour, or hollow and grey when
    /// behind a building.
    public struct Dot: Sendable {
        public var anchor: Point2
        public var category: String
        public var hidden: Bool
        public init(anchor: Point2, category: String, hidden: Bool) {
            self.anchor = anchor; self.category = category; self.hidden = hidden
        }
    }

    /// A card's (or cluster card's) box, outlined in its category's colour, its text above it,
    /// and for a POI's card the leader from its anchor.
    public struct Card: Sendable {
        public var box: Rect
        public var category: String
        public var text: String
        public var leaderFrom: Point2?
        public init(box: Rect, category: String, text: String, leaderFrom: Point2?) {
            self.box = box; self.category = category; self.text = text; self.leaderFrom = leaderFrom
        }
    }

    public var time: Double
    /// The log line of the frame row (nil for frames made at a fixed rate or from footage).
    public var logLine: Int?
    public var dots: [Dot]
    /// POIs' cards first, then cluster cards.
    public var cards: [Card]

    public init(time: Double, logLine: Int?, dots: [Dot], cards: [Card]) {
        self.time = time; self.logLine = logLine; self.dots = dots; self.cards = cards
    }
}
