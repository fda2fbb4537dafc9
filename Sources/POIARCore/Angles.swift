import Foundation

@inlinable public func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
@inlinable public func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

/// Wraps an angle in degrees to [0, 360).
@inlinable public func wrap360(_ deg: Double) -> Double {
    let r = deg.truncatingRemainder(dividingBy: 360)
    let w = r < 0 ? r + 360 : r
    return w >= 360 ? 0 : w
}

/// Wraps an angle in degrees to (−180, 180].
@inlinable public func wrap180(_ deg: Double) -> Double {
    let w = wrap360(deg)
    return w > 180 ? w - 360 : w
}

/// The median of `values` (the mean of the two middle ones for an even count); NaN when empty.
public func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}

/// A robust centre of angles in degrees and their spread: the circular mean first, then the
/// median of the differences from it (wrapped to ±180°), added back; the spread is the median
/// absolute difference from that centre. nil when empty.
public func circularMedianDeg(_ angles: [Double]) -> (centre: Double, spread: Double)? {
    guard !angles.isEmpty else { return nil }
    var s = 0.0, c = 0.0
    for a in angles { s += sin(radians(a)); c += cos(radians(a)) }
    let mean = degrees(atan2(s, c))
    let centre = wrap180(mean + median(angles.map { wrap180($0 - mean) }))
    return (centre, median(angles.map { abs(wrap180($0 - centre)) }))
}
