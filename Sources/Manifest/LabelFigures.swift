import POIARCore
import Projection

/// What one camera-view frame shows of its POIs — single cards drawn, dots, POIs in view behind
/// buildings (occluded with the anchor on the image) — from its annotations' `visible`,
/// `marker`, `occluded` and `anchor`: the one rule for the run's summary (Replay's
/// `LabelCounts`, from the frames as annotated) and the report (from frames.jsonl).
public enum LabelFigures {
    public static func of(_ annotations: some Sequence<(visible: Bool, marker: LabelMarker?, occluded: Bool?, anchor: Point2?)>,
                          camera: CameraIntrinsics) -> (cards: Int, dots: Int, occluded: Int) {
        var cards = 0, dots = 0, occluded = 0
        for a in annotations {
            if a.visible { cards += 1 }
            if a.marker == .dot { dots += 1 }
            if isBehindBuildingInView(occluded: a.occluded, anchor: a.anchor, camera: camera) { occluded += 1 }
        }
        return (cards, dots, occluded)
    }

    /// Whether a POI counts as in view behind buildings: occluded, its anchor on the image.
    public static func isBehindBuildingInView(occluded: Bool?, anchor: Point2?, camera: CameraIntrinsics) -> Bool {
        guard occluded == true, let anchor else { return false }
        return camera.isOnImage(anchor)
    }
}
