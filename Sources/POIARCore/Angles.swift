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
