import Foundation
import POIARCore

/// The device's position over time from GPS fixes. Raw (`gpsLocation(at:)`): linear
/// interpolation between the fixes that bracket a time, held at the first/last fix outside
/// them. Once `smooth(causal:)` has run, `location(at:)` is the smoothed position
/// (`SmoothedPositions`, docs/position.md) and `estimate(at:)` gives its 68 % radius and the
/// raw fix beside it. Fixes worse than `maxAccuracy` metres are not used (the original app
/// refused to place the user with worse accuracy); `rejectedCount` says how many.
public struct GPSTrack: PositionTrack {
    /// Fixes with horizontal accuracy above this (metres) are rejected (default 100).
    public static let defaultMaxAccuracy = 100.0

    public private(set) var fixes: [GPSFix] = []
    public private(set) var rejectedCount = 0
    public let maxAccuracy: Double

    public init(maxAccuracy: Double = GPSTrack.defaultMaxAccuracy) { self.maxAccuracy = maxAccuracy }

    /// Adds a fix (in time order).
    public mutating func add(_ fix: GPSFix) {
        smoothed = nil
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

    /// The smoothed positions, once `smooth(causal:)` has run.
    public private(set) var smoothed: SmoothedPositions?

    /// Smooths the fixes over the whole recording, or (`causal`) with the forward filter only,
    /// with the walker's motion from the IMU when given (`StepDetector`).
    public mutating func smooth(causal: Bool, motion: [MotionSample] = []) {
        smoothed = SmoothedPositions(fixes: fixes, motion: motion, causal: causal)
    }

    /// The position at `time`: smoothed when the track is, else the raw fixes' (its
    /// `horizontalAccuracy` is the fixes' stated one either way).
    public func location(at time: Double) -> GPSFix? { estimate(at: time)?.location }

    public func estimate(at time: Double) -> PositionEstimate? {
        guard let gps = gpsLocation(at: time) else { return nil }
        guard let smoothed, let (position, sigma) = smoothed.position(at: time, altitude: gps.coordinate.altitude) else {
            return PositionEstimate(location: gps)
        }
        return PositionEstimate(location: GPSFix(time: time, coordinate: position, horizontalAccuracy: gps.horizontalAccuracy),
                                sigma: sigma, gps: gps)
    }

    /// The smoothed positions at the fixes' times (the raw fixes when not smoothed).
    public var path: [PositionEstimate] {
        guard let smoothed else { return fixes.map { PositionEstimate(location: $0) } }
        return smoothed.times.compactMap { estimate(at: $0) }
    }

    /// Interpolated raw position and accuracy at `time`; nil when there is no usable fix.
    public func gpsLocation(at time: Double) -> GPSFix? {
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

extension GPSTrack {
    /// `smooth(causal:)`, saying what the smoother left out or down-weighted.
    public mutating func smoothPositions(causal: Bool, motion: [MotionSample], path: String, notice: (String) -> Void) {
        smooth(causal: causal, motion: motion)
        guard let s = smoothed else { return }
        if s.staleFixes > 0 { notice("\(path): \(s.staleFixes) GPS fix(es) repeating the one before exactly (stale) not used") }
        if s.motionFixes > 0 {
            notice("\(path): \(s.motionFixes) of \(s.times.count) GPS fixes placed with the walker's motion from the IMU (steps, standing still)")
        }
        if s.speedFixes > 0 {
            notice("\(path): \(s.speedFixes) of \(s.times.count) GPS fixes placed with the receiver's ground speed")
        }
        if s.downweightedFixes > 0 {
            notice("\(path): \(s.downweightedFixes) GPS fix(es) disagreeing with the motion down-weighted (multipath jumps)")
        }
    }
}
