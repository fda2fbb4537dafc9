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
    }

    func apply(to layout: inout LayoutOptions, _ annotation: inout AnnotationOptions, radius: Double = 1500) throws {
        layout.distanceOffset = try parsedOffset(radius: maxDistance ?? radius)
        layout.maxStackLevel = maxStack
        layout.maxDistance = maxDistance
        annotation.offscreenIndicators = offscreen
        annotation.refractionCoefficient = refraction
    }
}
