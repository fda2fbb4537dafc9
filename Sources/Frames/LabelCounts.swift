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
    /// POIs in view behind a building (hidden, or dimmed with `--occlusion dim`), summed over
    /// the frames (a POI behind buildings in ten frames counts ten times).
    public private(set) var occluded = 0
    /// The POIs in view behind a building in at least one frame, each once.
    private var occludedPOIs = Set<String>()
    /// POIs in view behind a building on each camera-view frame.
    private var occludedPerFrame: [Int] = []
    /// Cards (single and cluster) on each camera-view frame.
    private var perFrame: [Int] = []
    /// Sight lines tested against buildings, and the time they took, over every frame.
    public private(set) var sightLines = 0
    public private(set) var occlusionSeconds = 0.0
    public private(set) var frames = 0
    /// Edge arrows left out for want of a place clear of the cards and anchors.
    public private(set) var arrowsLeftOut = 0

    public init() {}

    public mutating func add(_ record: FrameRecord) {
        frames += 1
        sightLines += record.sightLines
        occlusionSeconds += record.occlusionSeconds
        guard !record.isMapView else { return }
        arrowsLeftOut += record.arrowsLeftOut
        let figures = LabelFigures.of(record.annotations.lazy.map { ($0.visible, $0.marker, $0.occluded, $0.anchor) }, camera: record.camera)
        cards += figures.cards
        clusterCards += record.clusters.count
        clustered += record.clusters.map(\.members.count).reduce(0, +)
        dots += figures.dots
        occluded += figures.occluded
        occludedPerFrame.append(figures.occluded)
        for a in record.annotations where LabelFigures.isBehindBuildingInView(occluded: a.occluded, anchor: a.anchor, camera: record.camera) {
            occludedPOIs.insert(a.poi.id)
        }
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

    /// POIs in view behind buildings in at least one frame, each counted once.
    public var occludedPOICount: Int { occludedPOIs.count }

    /// "labels: 914 cards (median 10, at most 10 a frame, cluster cards included), 52 cluster
    /// cards for 245 POIs, 502 dots; behind buildings: 290 POIs, a median of 80 a frame". Cards
    /// and dots are summed over the frames (each frame draws its own); POIs behind buildings are
    /// counted once each, with how many a frame has.
    public var description: String {
        var text = "labels: \(cards) card\(cards == 1 ? "" : "s") (median \(medianCardsPerFrame), at most \(maxCardsPerFrame) a frame, cluster cards included)"
        if clusterCards > 0 { text += ", \(clusterCards) cluster card\(clusterCards == 1 ? "" : "s") for \(clustered) POIs" }
        text += ", \(dots) dot\(dots == 1 ? "" : "s")"
        if arrowsLeftOut > 0 {
            text += ", \(arrowsLeftOut) edge arrow\(arrowsLeftOut == 1 ? "" : "s") left out (no room clear of the cards)"
        }
        // Said only when sight lines were checked (a source without buildings checks none).
        guard sightLines > 0 else { return text }
        let n = occludedPOIs.count
        let median = occludedPerFrame.isEmpty ? 0 : occludedPerFrame.sorted()[occludedPerFrame.count / 2]
        text += "; behind buildings: \(n) POI\(n == 1 ? "" : "s"), a median of \(median) a frame"
        return text
    }
}
