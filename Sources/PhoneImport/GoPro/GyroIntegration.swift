import Foundation
import POIARCore

/// The attitude the gyroscope alone gives over a clip: the rotation from the device frame at
/// each gyro sample to the device frame at the first (q ← q ⊗ exp(ω·Δt)). Its drift (the
/// gyro's bias, a fraction of a degree per second) does not matter to what it checks over a
/// short clip or a second's window: whether another sensor's axes turn with the camera.
struct GyroIntegration {
    var times: [Double] = []
    var attitudes: [Quaternion] = []

    /// Integrates `rates` (rad/s, device frame) at `times` (increasing). A step longer than
    /// `maxStep` is not integrated (the rotation over it is unknown).
    init(times: [Double], rates: [Vector3], maxStep: Double = 0.5) {
        self.times = times
        attitudes.reserveCapacity(times.count)
        var q = Quaternion.identity
        for k in times.indices {
            attitudes.append(q)
            guard k + 1 < times.count else { break }
            let dt = times[k + 1] - times[k]
            if dt > 0, dt <= maxStep { q = (q * Quaternion(rotationVector: rates[k] * dt)).normalized }
        }
    }

    var isEmpty: Bool { times.isEmpty }

    /// The attitude at the gyro sample nearest `time`.
    func attitude(at time: Double) -> Quaternion? {
        guard let k = GyroIntegration.nearest(times, time) else { return nil }
        return attitudes[k]
    }

    /// The index of the value in `sorted` nearest `t`; nil when empty.
    static func nearest(_ sorted: [Double], _ t: Double) -> Int? {
        guard !sorted.isEmpty else { return nil }
        // The later of two as near (`nearestIndex(to:)` takes the earlier): kept so, as it always
        // chose, for the clips' attitudes not to change.
        let lo = sorted.lowerBound(of: t)
        if lo == sorted.count { return lo - 1 }
        if lo > 0, t - sorted[lo - 1] < sorted[lo] - t { return lo - 1 }
        return lo
    }
}
