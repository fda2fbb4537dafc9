import ArgumentParser
import Projection
import Replay

/// Label-layout options shared by `replay` and `project`.
struct LayoutArguments: ParsableArguments {
    @Option(name: .customLong("distance-offset"),
            help: "Raise labels by distance: none, auto (up to a quarter of the image height at the search radius), or manual:THRESHOLD_M:PX_PER_M.")
    var distanceOffset: String = "none"

    @Option(name: .customLong("max-stack"), parsing: .unconditional, help: "Hide a label that would need more than this many lifts (default: no cap).")
    var maxStack: Int?

    @Option(name: .customLong("max-distance"), parsing: .unconditional, help: "Label only POIs within this many metres (default: the whole radius).")
    var maxDistance: Double?

    @Option(parsing: .unconditional, help: "Edge arrows toward the nearest POIs outside the view (0 turns them off).")
    var offscreen: Int = 3

    @Option(parsing: .unconditional, help: "Terrestrial refraction coefficient for far POIs (0 turns it off).")
    var refraction: Double = 0.13

    @Option(help: "POIs behind buildings: hide (no card), dim (a small translucent marker), or off (no line-of-sight check). Needs buildings (--buildings).")
    var occlusion: String = "hide"

    @Option(name: .customLong("eye-height"), parsing: .unconditional, help: "Height of the camera above the ground, metres, where sight lines start.")
    var eyeHeight: Double = 1.5

    @Option(name: .customLong("max-cards"), parsing: .unconditional, help: "Cards a frame shows at most, cluster cards included; other POIs in sight get dots.")
    var maxCards: Int = 10

    @Option(name: .customLong("card-size"), help: "Card size: distance (near cards larger, far ones smaller) or fixed.")
    var cardSize: String = "distance"

    /// Filled in by `apply` from `--radius` for the automatic offset.
    func parsedOffset(radius: Double) throws -> DistanceOffset {
        switch distanceOffset {
        case "none": return .none
        case "auto": return .automatic(maxDistance: radius, fraction: 0.25)
        default:
            let parts = distanceOffset.split(separator: ":")
            guard parts.count == 3, parts[0] == "manual", let t = Double(parts[1]), let k = Double(parts[2]),
                  t >= 0, k >= 0, t.isFinite, k.isFinite
            else { throw ValidationError("--distance-offset: expected none, auto or manual:THRESHOLD_M:PX_PER_M, got \"\(distanceOffset)\"") }
            return .manual(threshold: t, pixelsPerMetre: k)
        }
    }

    func validate() throws {
        _ = try parsedOffset(radius: 1)
        if let maxStack, maxStack < 0 { throw ValidationError("--max-stack: expected a count ≥ 0, got \(maxStack)") }
        if let maxDistance, !(maxDistance > 0 && maxDistance.isFinite) { throw ValidationError("--max-distance: expected metres > 0") }
        if offscreen < 0 { throw ValidationError("--offscreen: expected a count ≥ 0, got \(offscreen)") }
        if !(refraction >= 0 && refraction < 1) { throw ValidationError("--refraction: expected a coefficient in [0, 1), got \(refraction)") }
        if OcclusionMode(rawValue: occlusion) == nil { throw ValidationError("--occlusion: expected hide, dim or off, got \"\(occlusion)\"") }
        if !(eyeHeight >= 0 && eyeHeight <= 1000) { throw ValidationError("--eye-height: expected metres in [0, 1000], got \(eyeHeight)") }
        if maxCards < 0 { throw ValidationError("--max-cards: expected a count ≥ 0, got \(maxCards)") }
        if !["distance", "fixed"].contains(cardSize) { throw ValidationError("--card-size: expected distance or fixed, got \"\(cardSize)\"") }
    }

    func apply(to layout: inout LayoutOptions, _ annotation: inout AnnotationOptions, radius: Double = 1500) throws {
        layout.distanceOffset = try parsedOffset(radius: maxDistance ?? radius)
        layout.maxStackLevel = maxStack
        layout.maxDistance = maxDistance
        annotation.offscreenIndicators = offscreen
        annotation.refractionCoefficient = refraction
        annotation.occlusion = OcclusionMode(rawValue: occlusion) ?? .hide
        annotation.eyeHeight = eyeHeight
        layout.declutter.maxCards = maxCards
        layout.cardSize = cardSize == "fixed" ? nil : CardSizeByDistance()
    }
}
