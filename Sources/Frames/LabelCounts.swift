import Foundation
import Manifest
import POIARCore
import Projection

/// What a replay's frames showed of the POIs in view, summed over the frames (the run
/// summary; `--stats` adds the per-frame card figures): cards drawn, POIs behind buildings,
/// POIs gathered into cluster cards, dots, and cards per frame.
public struct LabelCounts: Sendable, Equatable, CustomStringConvertible {
    /// Single cards drawn (a card fading out counts while drawn).
    public private(set) var cards = 0
    public private(set) var clusterCards = 0
    /// POIs shown by a cluster card.
    public private(set) var clustered = 0
    public private(set) var dots = 0
    /// POIs in view behind a building (hidden, or dimmed with `--occlusion dim`).
    public private(set) var occluded = 0
    /// Cards (single and cluster) on each camera-view frame.
    private var perFrame: [Int] = []
    /// Sight lines tested against buildings, and the time they took, over every frame.
    public private(set) var sightLines = 0
    public private(set) var occlusionSeconds = 0.0
    public private(set) var frames = 0

    public init() {}

    public mutating func add(_ record: FrameRecord) {
        frames += 1
        sightLines += record.sightLines
        occlusionSeconds += record.occlusionSeconds
        guard !record.isMapView else { return }
        let figures = LabelFigures.of(record.annotations.lazy.map { ($0.visible, $0.marker, $0.occluded, $0.anchor) }, camera: record.camera)
        cards += figures.cards
        clusterCards += record.clusters.count
        clustered += record.clusters.map(\.members.count).reduce(0, +)
        dots += figures.dots
        occluded += figures.occluded
        perFrame.append(figures.cards + record.clusters.count)
    }

    /// "occlusion: 12,345 sight lines in 21 ms, 0.05 ms a frame; drawing 24.1 ms a frame" (`--stats`).
    public func timing(drawingSeconds: Double, framesDrawn: Int) -> String {
        let perFrame = frames > 0 ? occlusionSeconds * 1000 / Double(frames) : 0
        let drawing = framesDrawn > 0 ? drawingSeconds * 1000 / Double(framesDrawn) : 0
        return String(format: "occlusion: %d sight lines in %.1f ms, %.3f ms a frame; drawing %.2f ms a frame", sightLines,
                      occlusionSeconds * 1000, perFrame, drawing)
    }

    /// Frames drawn as the camera view (not as a map).
    public var cameraViewFrames: Int { perFrame.count }

    public var medianCardsPerFrame: Int { perFrame.isEmpty ? 0 : perFrame.sorted()[perFrame.count / 2] }
    public var maxCardsPerFrame: Int { perFrame.max() ?? 0 }

    /// "labels: 1,285 cards (2 to 10 a frame, median 3), 2 cluster cards for 7 POIs, 40 dots; 10,591 POIs in view behind buildings".
    public var description: String {
        var text = "labels: \(cards) card\(cards == 1 ? "" : "s") (median \(medianCardsPerFrame), at most \(maxCardsPerFrame) a frame, cluster cards included)"
        if clusterCards > 0 { text += ", \(clusterCards) cluster card\(clusterCards == 1 ? "" : "s") for \(clustered) POIs" }
        text += ", \(dots) dot\(dots == 1 ? "" : "s")"
        text += "; \(occluded) POI\(occluded == 1 ? "" : "s") in view behind buildings"
        return text
    }
}
