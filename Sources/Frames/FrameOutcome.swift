import Foundation
import POIARCore
import Projection

/// What a frame showed, and for a frame without a label, why: the replay's closing summary
/// counts them, so a run that labels nothing says what to change.
public enum FrameOutcome: Int, CaseIterable, Sendable {
    /// At least one card drawn over the camera view.
    case labelled
    /// Drawn as a map: the phone pointed at the ground (`FlatViewSwitch`).
    case mapView
    /// The replay has no POI source at all.
    case noPOISource
    /// No POI of the chosen categories within the search radius.
    case noPOIInRange
    /// The whole image lies below the horizon (and the map view is off).
    case facingGround
    /// The whole image lies above the horizon.
    case facingSky
    /// POIs in range, none of them in the camera's field of view.
    case outOfView
    /// POIs in view, every one behind a building (`--occlusion`).
    case behindBuildings
    /// POIs in view, but the layout drew none (`--max-distance`, `--max-stack`,
    /// `--max-visible`, or no room clear of the HUD).
    case hiddenByLayout

    /// The outcome of a drawn frame of a replay with (or without) a POI source.
    public init(_ record: FrameRecord, hasPOISource: Bool = true) {
        if record.isMapView { self = .mapView; return }
        if record.annotations.contains(where: \.visible) || !record.clusters.isEmpty { self = .labelled; return }
        if record.annotations.isEmpty { self = hasPOISource ? .noPOIInRange : .noPOISource; return }
        let projection = CameraProjection(camera: record.camera, pose: record.pose)
        let w = Double(record.camera.width), h = Double(record.camera.height)
        let corners = [Point2(0, 0), Point2(w, 0), Point2(0, h), Point2(w, h)].map { projection.horizonValue(at: $0) }
        if corners.allSatisfy({ $0 < 0 }) { self = .facingGround; return }
        if corners.allSatisfy({ $0 > 0 }) { self = .facingSky; return }
        let inView = record.annotations.filter { $0.anchor.map(projection.isOnImage) ?? false }
        if inView.isEmpty { self = .outOfView; return }
        self = inView.allSatisfy { $0.occluded == true } ? .behindBuildings : .hiddenByLayout
    }

    /// How the summary names frames without labels for this reason.
    func reason(radius: Double) -> String {
        switch self {
        case .labelled: return "with labels"
        case .mapView: return "as a map (phone pointing down)"
        // Each follows a count of frames ("23 with every POI in view behind buildings"), so
        // none of them may read as a count of POIs.
        case .noPOISource: return "with no POI source (--pois)"
        case .noPOIInRange: return "with no POI within \(formatDistance(radius))"
        case .facingGround: return "with the camera facing the ground"
        case .facingSky: return "with the camera facing the sky"
        case .outOfView: return "with every POI in range out of view"
        case .behindBuildings: return "with every POI in view behind buildings (--occlusion dim or off shows them)"
        case .hiddenByLayout: return "with POIs in view but no label fitted (--max-distance, --max-stack, --max-visible)"
        }
    }
}

/// How many frames had each outcome.
public struct FrameOutcomes: Sendable, Equatable, CustomStringConvertible {
    public private(set) var counts = [Int](repeating: 0, count: FrameOutcome.allCases.count)
    /// The search radius, metres (for the words of `noPOIInRange`).
    public var radius: Double

    public init(radius: Double) { self.radius = radius }

    public mutating func add(_ outcome: FrameOutcome) { counts[outcome.rawValue] += 1 }

    public subscript(_ outcome: FrameOutcome) -> Int { counts[outcome.rawValue] }

    public var total: Int { counts.reduce(0, +) }

    /// "446 frames: 380 with labels, 40 as a map (phone pointing down); 26 without a label: 10
    /// with no POI within 1.5 km, 16 with every POI in range out of view".
    public var description: String { description(counted: "\(total) frame\(total == 1 ? "" : "s")") }

    /// The same, its frames counted in other words ("shard 1/4: 112 of the run's 446 frames").
    public func description(counted: String) -> String {
        var shown: [String] = []
        for o in [FrameOutcome.labelled, .mapView] where self[o] > 0 || o == .labelled {
            shown.append("\(self[o]) \(o.reason(radius: radius))")
        }
        let unlabelled = FrameOutcome.allCases.filter { $0 != .labelled && $0 != .mapView && self[$0] > 0 }
        var text = counted + ": " + shown.joined(separator: ", ")
        if !unlabelled.isEmpty {
            let n = unlabelled.map { self[$0] }.reduce(0, +)
            text += "; \(n) without a label: " + unlabelled.map { "\(self[$0]) \($0.reason(radius: radius))" }.joined(separator: ", ")
        }
        return text
    }
}
