import POIARCore

/// What lies behind the cards.
public enum FrameBackground: Sendable {
    /// A camera still, stretched to the frame size when it differs (each axis scaled on
    /// its own, so the still's pixel grid maps onto the frame's as the camera model expects).
    case still(RasterImage)
    /// A drawn sky and ground, for frames without a still.
    ///
    /// `horizon`: two distinct points (image pixels) on the horizon line, which extends
    /// through them past the image edges; nil when the horizon is out of view, and then
    /// the whole image is sky when `skyAbove` is true, ground otherwise.
    /// `skyAbove`: the sky is on the side of the line toward the top of the image
    /// (smaller y; for an exactly vertical line, toward smaller x); false puts it on the
    /// other side (the camera is upside down). `synthetic(horizon:skyPoint:)` works this
    /// out from any point known to be in the sky.
    case synthetic(horizon: (Point2, Point2)?, skyAbove: Bool)
    /// The buildings around the camera over a sky and ground lit by the sun (`--scene map`).
    case scene(SceneDrawing)

    /// A synthetic background whose sky is the side of the horizon line (through `a`
    /// and `b`) that contains `skyPoint` (e.g. where a direction above the horizon projects).
    public static func synthetic(horizon a: Point2, _ b: Point2, skyPoint: Point2) -> FrameBackground {
        let normal = HorizonGeometry.upNormal(a, b)
        let side = (skyPoint.x - a.x) * normal.x + (skyPoint.y - a.y) * normal.y
        return .synthetic(horizon: (a, b), skyAbove: side >= 0)
    }
}

/// One card (POI label) to draw.
public struct CardDrawing: Sendable {
    /// Where the card goes, in image pixels; its size should come from `CardStyle.labelSize`.
    /// The corner is rounded to whole pixels when drawn, so edges and text stay crisp.
    public var box: Rect
    /// Where the POI projects: a leader line runs from the card's edge facing it to here, ending
    /// in a dot (`Rect.leaderStart`): from the bottom edge straight above the anchor, or, when
    /// the card was shifted inward from the image edge past its anchor, from its nearest bottom
    /// corner; from the top edge of a card hanging below its anchor; from the near side of a
    /// card beside it. Nil: no leader.
    public var anchor: Point2?
    public var name: String
    /// The second line, e.g. "85 m"; empty for a one-line card.
    public var detail: String
    /// Category name, for the colour (see `CategoryPalette`).
    public var category: String
    /// The card's size relative to the normal card (`CardStyle.sized`): cards are sized by distance.
    public var sizeFactor: Double
    /// 1 opaque; less while the card fades in or out.
    public var opacity: Double

    public init(box: Rect, anchor: Point2?, name: String, detail: String, category: String,
                sizeFactor: Double = 1, opacity: Double = 1) {
        self.box = box; self.anchor = anchor; self.name = name; self.detail = detail; self.category = category
        self.sizeFactor = sizeFactor; self.opacity = opacity
    }
}

/// A POI in view marked without a card.
public struct MarkerDrawing: Sendable {
    public enum Kind: Sendable { case dot, dim }
    public var position: Point2
    public var category: String
    /// `dot`: a small solid dot in the category colour (no room for a card, or gathered in a
    /// cluster card); `dim`: a smaller translucent grey one (behind a building).
    public var kind: Kind
    public init(position: Point2, category: String, kind: Kind) {
        self.position = position; self.category = category; self.kind = kind
    }
}

/// Everything in one output frame.
public struct FrameDrawing: Sendable {
    public var width: Int
    public var height: Int
    public var background: FrameBackground
    /// Drawn in this order, so later cards cover earlier ones: give the farthest first.
    public var cards: [CardDrawing]
    /// Drawn under the leader lines and cards.
    public var markers: [MarkerDrawing]
    /// Small text in the bottom-right corner, e.g. "© OpenStreetMap contributors".
    public var attribution: String?
    /// Arrows at the edges toward POIs outside the view, drawn over the cards.
    public var indicators: [IndicatorDrawing]
    /// Compass tape and GPS status, drawn under everything; the radar, over the edge arrows.
    public var hud: HUDDrawing?
    /// Further layers (a new overlay), drawn by their depth among the ones above (`layers`).
    public var overlays: [any FrameLayer]

    public init(width: Int, height: Int, background: FrameBackground,
                cards: [CardDrawing], markers: [MarkerDrawing] = [], attribution: String? = nil,
                indicators: [IndicatorDrawing] = [], hud: HUDDrawing? = nil, overlays: [any FrameLayer] = []) {
        self.width = width; self.height = height; self.background = background
        self.cards = cards; self.markers = markers; self.attribution = attribution; self.indicators = indicators; self.hud = hud
        self.overlays = overlays
    }
}
