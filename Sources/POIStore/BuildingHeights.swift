import Foundation
import POIARCore

/// How tall a building is, from its OSM tags. Every height is metres above the ground at the
/// building's foot (OSM's own convention for `height` and `min_height`), not above sea level
/// or the ellipsoid.
///
/// - **Top**: `height`, else `building:height` (a length: "12", "12.5", "12 m", "12m"; feet as
///   "40'", "40'6\"", "40 ft"); else (`building:levels` + `roof:levels`) × `storeyHeight`;
///   else `defaultHeight`.
/// - **Bottom**: `min_height`, else `building:min_height`; else `building:min_level` ×
///   `storeyHeight`; else 0. (OSM's Simple 3D Buildings counts the skipped levels in
///   `building:levels`, so a part with `building:min_level=7`, `building:levels=8` spans
///   21–24 m.)
/// - A tag that is there but not understood (text, a negative length, a top of 0, a number past
///   `maximumHeight`) is treated as missing and counted (`unreadableTags`); so is a bottom at
///   or above a tagged top (tags that contradict each other): the building then starts at the
///   ground. Above a default top, the default counts from the bottom instead (a raised part
///   whose own height is not tagged).
public enum BuildingHeights {
    /// Metres per storey for `building:levels`, `roof:levels` and `building:min_level`: the
    /// value OSM-based 3D renderers use (OSM Buildings, F4 Map; OSM wiki "Simple 3D
    /// Buildings" suggests about 3 m). Ceilings of 2.5–2.7 m plus the floor make 2.8–3.2 m.
    public static let storeyHeight = 3.0

    /// The height of a building with neither a height nor levels: two storeys. Most buildings
    /// mapped in OSM are houses, sheds and garages of one or two storeys, so a lower guess
    /// than a city centre's 5–8 storeys errs toward showing a label rather than hiding it; and
    /// a line of sight at eye height is blocked by any building over ~3 m, so for labels at
    /// street level the guess rarely decides.
    public static let defaultHeight = 2 * storeyHeight

    /// Lengths beyond this are taken as mistakes (the tallest building is 828 m).
    public static let maximumHeight = 1000.0

    /// Metres per international foot.
    static let metresPerFoot = 0.3048

    /// The heights a building's tags give.
    public struct Result: Equatable, Sendable {
        public var minHeight: Double
        public var height: Double
        public var source: Building.HeightSource
        /// Height tags present but not understood (each treated as missing).
        public var unreadableTags: Int
    }

    /// The building's bottom and top above the ground, from its tags.
    public static func of(_ tags: [String: String]) -> Result {
        var unreadable = 0
        /// A top must be above the ground; a bottom may be on it.
        func length(_ key: String, zeroAllowed: Bool = false) -> Double? {
            guard let text = tags[key] else { return nil }
            if let value = metres(text), value > 0 || (zeroAllowed && value == 0), value <= maximumHeight { return value }
            unreadable += 1
            return nil
        }
        func levels(_ key: String) -> Double? {
            guard let text = tags[key] else { return nil }
            if let value = Double(text.trimmingCharacters(in: .whitespaces)), value >= 0,
               value * storeyHeight <= maximumHeight { return value }
            unreadable += 1
            return nil
        }
        var height: Double, source: Building.HeightSource
        if let measured = length("height") ?? length("building:height") {
            height = measured; source = .height
        } else if let floors = levels("building:levels"), case let total = floors + (levels("roof:levels") ?? 0), total > 0 {
            // Zero levels (a roof on pillars, say) gives no height: the default applies.
            height = total * storeyHeight; source = .levels
        } else {
            height = defaultHeight; source = .assumed
        }
        var bottom = length("min_height", zeroAllowed: true) ?? length("building:min_height", zeroAllowed: true)
            ?? levels("building:min_level").map { $0 * storeyHeight }
        if let b = bottom, b >= height {
            if source == .assumed {
                // A part raised on another (a church's tower: `min_height=18`), its own height
                // untold: the default counts from its bottom.
                height = b + defaultHeight
            } else {
                unreadable += 1
                bottom = nil
            }
        }
        return Result(minHeight: bottom ?? 0, height: height, source: source, unreadableTags: unreadable)
    }

    /// A length tag in metres: a plain number or one with `m` ("12", "12.5", "12 m", "12m"),
    /// or feet: "40'", "40'6\"" (feet and inches), "40 ft". Nil for anything else.
    static func metres(_ text: String) -> Double? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let m = s.wholeMatch(of: #/(\d+(?:\.\d*)?|\.\d+)\s*(m|ft)?/#), let value = Double(m.output.1) {
            return m.output.2 == "ft" ? value * metresPerFoot : value
        }
        if let m = s.wholeMatch(of: #/(\d+(?:\.\d*)?)\s*'\s*(?:(\d+(?:\.\d*)?)\s*")?/#), let feet = Double(m.output.1) {
            let inches = m.output.2.flatMap { Double($0) } ?? 0
            return (feet + inches / 12) * metresPerFoot
        }
        return nil
    }
}
