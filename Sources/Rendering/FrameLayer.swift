import POIARCore

/// Something drawn over a frame's background: the HUD, the markers, the cards, the edge
/// arrows, the attribution, or a new overlay. `renderFrame` draws the background, then every
/// layer of the frame (`FrameDrawing.layers`) by `depth`, lowest first; the label layout keeps
/// cards and edge arrows out of the layers' `keepOut` areas.
public protocol FrameLayer: Sendable {
    /// Where the layer sits in the stack of layers; layers at the same depth are drawn in the
    /// order they are given.
    var depth: LayerDepth { get }
    /// The areas of a `width` × `height` frame drawn at `scale` (pixels per pixel at 720) that
    /// cards and edge arrows keep out of. They may depend on which parts the layer has, not on
    /// what those parts show: the layout asks once, before any frame (default: none).
    func keepOut(width: Int, height: Int, scale: Double) throws -> [Rect]
    /// Draws the layer. `style` gives the scale and the fonts.
    func draw(on canvas: CairoCanvas, style: CardStyle) throws
}

extension FrameLayer {
    public func keepOut(width: Int, height: Int, scale: Double) throws -> [Rect] { [] }
}

/// The stack of layers over a frame, bottom to top. The HUD's tape is under everything, so a
/// card is never hidden by it; every leader line is under every card, so no line crosses a
/// card's text; the edge arrows, the radar and the credit are over the cards.
public enum LayerDepth: Int, Sendable, Comparable, CaseIterable {
    /// Building outlines over the picture (`--overlay buildings`): part of the scene, under
    /// every mark.
    case buildings
    /// The compass tape and the GPS status.
    case hudTape
    /// Dots of POIs without a card.
    case markers
    /// Leader lines and anchor dots.
    case leaders
    case cards
    /// Arrows at the edges toward POIs outside the view.
    case edgeArrows
    case radar
    /// The data-source credit, on top of all.
    case attribution

    public static func < (a: LayerDepth, b: LayerDepth) -> Bool { a.rawValue < b.rawValue }
}

extension FrameDrawing {
    /// The frame's layers in drawing order: by depth, and in the order given within a depth.
    public var layers: [any FrameLayer] {
        var layers: [any FrameLayer] = []
        if let hud {
            if hud.compass != nil || hud.status != nil {
                layers.append(HUDTapeLayer(compass: hud.compass, status: hud.status))
            }
            if let radar = hud.radar { layers.append(RadarLayer(radar: radar)) }
        }
        layers.append(MarkersLayer(markers: markers))
        layers.append(LeadersLayer(cards: cards))
        layers.append(CardsLayer(cards: cards))
        layers.append(EdgeArrowsLayer(indicators: indicators))
        if let attribution, !attribution.isEmpty { layers.append(AttributionLayer(text: attribution)) }
        layers += overlays
        return layers.enumerated()
            .sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
            .map(\.element)
    }

    /// The areas cards and edge arrows keep out of: those of all the frame's layers.
    public func keepOut(scale: Double) throws -> [Rect] {
        try layers.flatMap { try $0.keepOut(width: width, height: height, scale: scale) }
    }
}
