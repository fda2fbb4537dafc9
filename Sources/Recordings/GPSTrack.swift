import Foundation
import POIARCore

/// The device's position over time from GPS fixes: linear interpolation between the fixes
/// that bracket a time, held at the first/last fix outside them. Fixes worse than
/// `maxAccuracy` metres are not used (the original app refused to place the user with worse
/// accuracy); `rejectedCount` says how many.
public struct GPSTrack: PositionTrack {
    /// Fixes with horizontal accuracy above this (metres) are rejected (default 100).
    public static let defaultMaxAccuracy = 100.0

    public private(set) var fixes: [GPSFix] = []
    public private(set) var rejectedCount = 0
    public let maxAccuracy: Double

    public init(maxAccuracy: Double = GPSTrack.defaultMaxAccuracy) { self.maxAccuracy = maxAccuracy }

    /// Adds a fix (in time order).
    public mutating func add(_ fix: GPSFix) {
        if let acc = fix.horizontalAccuracy, acc > maxAccuracy { rejectedCount += 1; return }
        if let last = fixes.last, last.time == fix.time { fixes[fixes.count - 1] = fix; return }
        fixes.append(fix)
    }

    /// A track that stays at `position` (`--at`).
    public init(fixedAt position: GeoCoordinate) {
        self.init()
        fixes = [GPSFix(time: 0, coordinate: position, horizontalAccuracy: nil)]
    }

    public var isEmpty: Bool { fixes.isEmpty }

    /// Interpolated position and accuracy at `time`; nil when there is no usable fix.
    public func location(at time: Double) -> GPSFix? {
        guard let first = fixes.first, let last = fixes.last else { return nil }
        if time <= first.time { return GPSFix(time: time, coordinate: first.coordinate, horizontalAccuracy: first.horizontalAccuracy) }
        if time >= last.time { return GPSFix(time: time, coordinate: last.coordinate, horizontalAccuracy: last.horizontalAccuracy) }
        let lo = fixes.interpolationInterval(for: time, by: \.time)
        let a = fixes[lo], b = fixes[lo + 1]
        let s = (time - a.time) / (b.time - a.time)
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * s }
        let lon = wrap180(a.coordinate.longitude + wrap180(b.coordinate.longitude - a.coordinate.longitude) * s)
        var alt: Double?
        if let x = a.coordinate.altitude, let y = b.coordinate.altitude { alt = lerp(x, y) }
        else { alt = a.coordinate.altitude ?? b.coordinate.altitude }
        var acc: Double?
        if let x = a.horizontalAccuracy, let y = b.horizontalAccuracy { acc = lerp(x, y) }
        else { acc = a.horizontalAccuracy ?? b.horizontalAccuracy }
        return GPSFix(time: time,
                      coordinate: GeoCoordinate(latitude: lerp(a.coordinate.latitude, b.coordinate.latitude),
                                                longitude: lon, altitude: alt),
                      horizontalAccuracy: acc)
    }
}
