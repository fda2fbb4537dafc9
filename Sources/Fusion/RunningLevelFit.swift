import Foundation
import POIARCore

/// The causal pass's version of `MagnetometerLevelFit`: from the past only, as a live app could.
/// Each raw magnetometer sample is kept with the up direction of the filter's tilt (better
/// than the accelerometer's while walking) as quarter-second means over the last `window`
/// seconds. Every `interval` seconds, when the field through the filter's offset disagrees
/// with WMM2025's (strength or dip) for most of them, the horizontal-plane fit is made over
/// them; an offset that brings clearly more of them onto the model (`gain`) and moves the
/// current one by a tenth of the field or more is handed to the filter
/// (`ComplementaryFilter.adoptHardIron`). The filter's own online fit, which needs wider
/// turns, goes on from there.
public struct RunningLevelFit: Sendable {
    static let block = 0.25
    static let window = 300.0
    static let interval = 5.0
    /// How much larger the share of samples on the model must be through the fitted offset.
    static let gain = 0.25

    let horizontal: Double, up: Double
    var points: [MagnetometerLevelFit.Point] = []
    var sum = Vector3.zero, sumUp = Vector3.zero, n = 0, blockStart: Double?
    var nextFit: Double?
    /// Offsets handed to the filter (time, offset), for the notice.
    public private(set) var adopted: [(time: Double, offset: Vector3, headingSigmaDeg: Double)] = []

    /// nil without WMM2025's field (no GPS fix): there is nothing to fit to.
    public init?(params: ComplementaryFilterParams) {
        guard let f = params.expectedFieldUT, f > 0, let dip = params.expectedDipDeg else { return nil }
        horizontal = f * cos(dip * radPerDeg)
        up = -f * sin(dip * radPerDeg)
    }

    /// A raw magnetometer sample the filter has just taken.
    public mutating func add(_ m: Vector3, time t: Double, filter: inout ComplementaryFilter) {
        guard filter.state.initialized, filter.state.headingIsAbsolute, m.isFinite else { return }
        let r = Matrix9(filter.state.tiltCorrection * filter.state.gyroAttitude)
        let u = Vector3(r.a20, r.a21, r.a22)
        if let s = blockStart, t - s >= Self.block {
            if n > 0 { points.append(.init(time: s, field: sum / Double(n), up: sumUp.normalized)) }
            sum = .zero; sumUp = .zero; n = 0; blockStart = nil
            if let first = points.first, first.time < t - Self.window {
                points.removeFirst(points.firstIndex { $0.time >= t - Self.window } ?? points.count)
            }
        }
        if blockStart == nil { blockStart = t }
        sum = sum + m; sumUp = sumUp + u; n += 1
        if nextFit == nil { nextFit = t + MagnetometerLevelFit.minSeconds }
        guard let due = nextFit, t >= due else { return }
        nextFit = t + Self.interval
        let current = filter.state.hardIron, p = filter.params
        let field = (horizontal * horizontal + up * up).squareRoot()
        let onModel = MagnetometerLevelFit.share(points, offset: current, horizontalUT: horizontal, upUT: up, params: p)
        guard onModel < 1 - Self.gain else { return }
        var why = ""
        // The least squares over the window, not the robust choice: the window spans the OS's
        // re-calibrations, whose samples together carry a circle that is neither's.
        guard let fit = MagnetometerLevelFit.fit(points, horizontalUT: horizontal, upUT: up, params: p, robust: false, why: &why),
              fit.inlierFraction >= onModel + Self.gain, (fit.offset - current).norm >= p.magNormThreshold * field else { return }
        filter.adoptHardIron(fit.offset, latest: m)
        adopted.append((t, fit.offset, fit.headingSigmaDeg))
    }

    /// The notice for the causal pass (nil when no offset was adopted).
    public func notice(origin: Double) -> String? {
        guard let last = adopted.last else { return nil }
        return String(format: "magnetometer (causal): hard iron fitted in the horizontal plane with WMM2025's field from %.1f s on (%d time(s); last offset %.1f, %.1f, %.1f µT, ±%.1f° of heading)",
                      adopted[0].time - origin, adopted.count, last.offset.x, last.offset.y, last.offset.z, last.headingSigmaDeg)
    }
}
