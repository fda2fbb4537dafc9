import Foundation
import POIARCore

/// How a POI in view that gets no card of its own is marked.
public enum LabelMarker: String, Sendable, Equatable, Decodable {
    /// A small dot at its anchor: in sight, but the frame's cards went to others.
    case dot
    /// A small translucent marker: behind a building (`--occlusion dim`).
    case dim
    /// Shown by a cluster card ("5 cafes, 300–450 m"), with a dot at its anchor.
    case cluster
}

/// A group of far POIs of one category shown as one card.
public struct LabelCluster: Sendable, Equatable {
    /// Stable while the group's nearest member is: `cluster:<category>:<nearest member's id>`.
    public var id: String
    public var category: String
    /// Members' indices in the frame's candidates, nearest first.
    public var members: [Int]
    public var nearest: Double, farthest: Double
    /// The mean of the members' anchors: where the card's leader points.
    public var anchor: Point2

    /// "5 cafes".
    public var name: String { "\(members.count) \(Self.plural(category))" }
    /// "300–450 m" (rounded to 10 m), or "1.2–1.6 km".
    public var detail: String {
        if farthest < 999.5 {
            let a = Int((nearest / 10).rounded()) * 10, b = Int((farthest / 10).rounded()) * 10
            return a == b ? "\(a) m" : "\(a)–\(b) m"
        }
        return String(format: "%.1f–%.1f km", nearest / 1000, farthest / 1000)
    }

    /// The category in the plural, as a cluster card names it: "cafes", "bus stations".
    static func plural(_ category: String) -> String {
        let words = category.replacingOccurrences(of: "_", with: " ")
        switch words {
        case "", "poi": return "places"
        case "fast food", "sports", "doctors", "toilets": return words
        case "pharmacy": return "pharmacies"
        case "library": return "libraries"
        case "bus station": return "bus stations"
        default:
            if words.hasSuffix("s") || words.hasSuffix("sh") || words.hasSuffix("ch") { return words + "es" }
            return words + "s"
        }
    }
}

/// Which POIs in view get a card, which are gathered into cluster cards, and which are only
/// marked, so a frame is readable however many places lie ahead.
///
/// Priority (lowest "effective distance" first): the POI's distance, divided by its category's
/// importance (`DeclutterOptions.importance`), times `keepFactor` when it had a card on the last
/// frame — so a card stays until a newcomer is clearly nearer, instead of cards trading places
/// as distances change by a metre. The first `maxCards` get cards; a POI behind a building
/// (`occluded`) gets none. Of the rest, groups of at least `clusterMinSize` POIs of one category
/// farther than `clusterMinDistance` whose anchors lie within `clusterSpan` px of each other
/// become cluster cards (at most `maxClusters`, the biggest first; each takes a card's place,
/// from the lowest-priority single card). Every other POI in view and in sight gets a dot.
public struct DeclutterOptions: Sendable {
    /// Cards a frame shows at most, clusters included (default 10, `--max-cards`). A portrait
    /// 720 × 1280 frame's sky band holds about ten 48-px cards stacked with their leaders
    /// before the stack reaches the compass tape, and ten is about what a glance can read.
    public var maxCards = 10
    /// Cluster cards at most (default 2).
    public var maxClusters = 2
    /// Fewest POIs a cluster card gathers (default 3).
    public var clusterMinSize = 3
    /// POIs nearer than this, metres, always keep their own card or dot (default 150).
    public var clusterMinDistance = 150.0
    /// Widest spread of a cluster's anchors, px (default 90 at 720 px, about half a card's
    /// width; `LayoutOptions.scaled` scales it with the image).
    public var clusterSpan = 90.0
    /// Effective distance of a POI that had a card on the last frame, as a fraction (default
    /// 0.75: a newcomer must be a third nearer to take its place).
    public var keepFactor = 0.75
    /// Category weights: a POI's distance is divided by its category's weight (default 1).
    /// Landmarks people turn to look at outweigh everyday shops. (Pairs in a fixed order, not
    /// a dictionary: the options are part of a replay's settings key, which must print the
    /// same in every process.)
    public var importance: [(category: String, weight: Double)] = [
        ("attraction", 2), ("museum", 2), ("viewpoint", 2), ("place_of_worship", 1.5), ("townhall", 1.5),
        ("theatre", 1.5), ("zoo", 1.5), ("park", 1.25), ("hospital", 1.25), ("station", 1.25), ("bus_station", 1.25),
        ("library", 1.25), ("university", 1.25),
    ]
    public init() {}

    /// The weight of `category` (1 when not listed).
    public func weight(of category: String) -> Double {
        importance.first { $0.category == category }?.weight ?? 1
    }
}

/// The decisions of one frame.
public struct DeclutterPlan: Sendable, Equatable {
    /// Candidates (indices) that get their own card, best first.
    public var cards: [Int] = []
    public var clusters: [LabelCluster] = []
    /// The marker of each candidate in view that has no card (by index).
    public var markers: [Int: LabelMarker] = [:]
}

public struct Declutter: Sendable {
    public var options: DeclutterOptions
    public init(options: DeclutterOptions) { self.options = options }

    /// - Parameters:
    ///   - candidates: the frame's POIs; only those with `eligible` true are considered.
    ///   - eligible: in view (anchor on the image) and within the distance limit.
    ///   - hadCard: whether a POI had a card on the last frame (by id).
    ///   - reserved: card places already taken (cards fading out).
    ///   - dimOccluded: occluded POIs get a `dim` marker (else nothing).
    public func plan(_ candidates: [LabelCandidate], eligible: [Bool], hadCard: (String) -> Bool,
                     reserved: Int, dimOccluded: Bool) -> DeclutterPlan {
        var plan = DeclutterPlan()
        var inSight: [Int] = []
        for i in candidates.indices where eligible[i] {
            if candidates[i].occluded {
                if dimOccluded { plan.markers[i] = .dim }
            } else {
                inSight.append(i)
            }
        }
        func effective(_ i: Int) -> Double {
            let c = candidates[i]
            return c.distance / options.weight(of: c.category) * (hadCard(c.id) ? options.keepFactor : 1)
        }
        let ranked = inSight.sorted {
            let a = effective($0), b = effective($1)
            return a != b ? a < b : candidates[$0].id < candidates[$1].id
        }
        let slots = max(0, options.maxCards - reserved)
        var cards = Array(ranked.prefix(slots))
        let rest = Array(ranked.dropFirst(slots))
        let clusters = clusterGroups(rest, candidates: candidates)
        let taken = min(clusters.count, options.maxClusters, cards.count)
        if taken > 0 { cards.removeLast(taken) }  // their places go to the clusters
        // A single card given up for a cluster may itself belong in one: regroup the rest.
        let regrouped = taken > 0 ? clusterGroups(Array(ranked.dropFirst(cards.count)), candidates: candidates) : clusters
        plan.clusters = Array(regrouped.prefix(taken))
        plan.cards = cards
        let clustered = Set(plan.clusters.flatMap(\.members))
        for i in ranked.dropFirst(cards.count) { plan.markers[i] = clustered.contains(i) ? .cluster : .dot }
        return plan
    }

    /// Groups of far POIs of one category close together on the image, biggest first (then
    /// nearest): a sweep over the anchors from left to right, each group starting at its
    /// leftmost member and taking every POI of its category within `clusterSpan`.
    func clusterGroups(_ pool: [Int], candidates: [LabelCandidate]) -> [LabelCluster] {
        let far = pool.filter { candidates[$0].distance >= options.clusterMinDistance && candidates[$0].anchor != nil }
        let byCategory = Dictionary(grouping: far) { candidates[$0].category }
        var groups: [LabelCluster] = []
        let span = options.clusterSpan
        for (category, members) in byCategory.sorted(by: { $0.key < $1.key }) {
            let sorted = members.sorted { candidates[$0].anchor!.x < candidates[$1].anchor!.x }
            var start = 0
            while start < sorted.count {
                var end = start
                let x0 = candidates[sorted[start]].anchor!.x
                while end + 1 < sorted.count, candidates[sorted[end + 1]].anchor!.x - x0 <= span { end += 1 }
                let group = Array(sorted[start...end])
                if group.count >= options.clusterMinSize {
                    let byDistance = group.sorted { candidates[$0].distance != candidates[$1].distance
                        ? candidates[$0].distance < candidates[$1].distance : candidates[$0].id < candidates[$1].id }
                    let anchors = group.map { candidates[$0].anchor! }
                    let anchor = Point2(anchors.map(\.x).reduce(0, +) / Double(anchors.count),
                                        anchors.map(\.y).reduce(0, +) / Double(anchors.count))
                    groups.append(LabelCluster(id: "cluster:\(category):\(candidates[byDistance[0]].id)", category: category,
                                               members: byDistance, nearest: candidates[byDistance[0]].distance,
                                               farthest: candidates[byDistance.last!].distance, anchor: anchor))
                    start = end + 1
                } else {
                    start += 1
                }
            }
        }
        return groups.sorted { $0.members.count != $1.members.count ? $0.members.count > $1.members.count : $0.nearest < $1.nearest }
    }
}
