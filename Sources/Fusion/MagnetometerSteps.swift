import POIARCore

/// The steps an OS's own calibration puts in the calibrated magnetometer stream: Android and
/// iOS re-estimate the hard iron now and then and subtract the new estimate from one sample on,
/// so the calibrated field jumps by a constant vector in the device frame. One offset for the
/// whole recording then fits no segment (the field reads 13–31 µT where 48 µT is expected and
/// "only 34% of the samples fit one calibrated field"). Removed, the stream has the first
/// segment's offset throughout, which the whole-recording calibration then fits.
///
/// Seen through the gyro's attitude R (integrated from the first sample; it drifts only
/// slowly), the field f = R·m = h + R·b is constant but for R·b, which moves little from one
/// sample to the next when b is the small residual of an OS calibration. A step Δb makes f
/// jump by R·Δb between two samples and stay there. So a step is where
/// 1. f changes between two consecutive samples by more than `minStepUT` and several times the
///    typical change (noise), and
/// 2. the mean of f over the second after it differs from the mean over the second before by
///    about that change (a spike comes back; a disturbance passed on the way — a car, a
///    building — builds up over many samples).
/// Δb = Rᵀ·(mean after − mean before) is subtracted from every sample from the step on.
public enum MagnetometerSteps {
    /// One step found: its time, and the change in the offset (device frame), µT.
    public struct Step: Sendable, Equatable {
        public var time: Double
        public var offsetChange: Vector3
    }

    /// µT: the smallest step looked for (below it the online hard-iron fit follows).
    static let minStepUT = 2.0
    /// A step is at least this many times the median sample-to-sample change.
    static let noiseFactor = 6.0
    /// s: the span on each side whose mean confirms a step.
    static let window = 1.0
    /// The means' difference must be the one-sample change within this fraction of it.
    static let agreement = 0.35

    /// Finds the steps in `mag` (gyro-integrated attitude from `gyro`) and removes them in place.
    public static func remove(from mag: inout SampleSeries, gyro: SampleSeries) -> [Step] {
        let n = mag.count
        guard n > 10, gyro.count > 1 else { return [] }
        // The field in the gyro's frame at each magnetometer sample.
        var f = [Vector3](repeating: .zero, count: n)
        var rotations = [Quaternion](repeating: .identity, count: n)
        var q = Quaternion.identity
        var gi = 0
        for i in 0..<n {
            let t = mag.times[i]
            while gi + 1 < gyro.count && gyro.times[gi + 1] <= t {
                let dt = gyro.times[gi + 1] - gyro.times[gi]
                // The rate at sample gi + 1 covers the interval before it (as the filter takes it).
                let w = gyro.vector(gi + 1)
                if dt > 0, dt < 1, w.isFinite { q = (q * Quaternion(rotationVector: w * dt)).normalized }
                gi += 1
            }
            rotations[i] = q
            f[i] = q.rotate(mag.vector(i))
        }
        var changes = [Double](repeating: 0, count: n)
        for i in 1..<n { changes[i] = (f[i] - f[i - 1]).norm }
        guard let typical = upperMedian(changes.dropFirst().filter(\.isFinite)) else { return [] }
        let threshold = max(minStepUT, noiseFactor * typical)
        let candidates = (1..<n).filter { changes[$0] > threshold }
        guard !candidates.isEmpty else { return [] }

        var steps: [(index: Int, change: Vector3)] = []
        for (k, i) in candidates.enumerated() {
            // The windows stop at the neighbouring candidates (two steps close together).
            let lower = k > 0 ? candidates[k - 1] : 0
            let upper = k + 1 < candidates.count ? candidates[k + 1] : n
            var before = Vector3.zero, nb = 0, after = Vector3.zero, na = 0
            var j = i - 1
            while j >= lower && mag.times[i] - mag.times[j] <= window { before = before + f[j]; nb += 1; j -= 1 }
            j = i
            while j < upper && mag.times[j] - mag.times[i] < window { after = after + f[j]; na += 1; j += 1 }
            let expected = Int(window / max(1e-3, mag.duration / Double(n - 1)))
            guard nb >= max(3, expected / 4), na >= max(3, expected / 4) else { continue }
            let d = after / Double(na) - before / Double(nb)
            let jump = f[i] - f[i - 1]
            guard d.norm >= minStepUT, (d - jump).norm <= agreement * jump.norm else { continue }
            steps.append((i, rotations[i].conjugate.rotate(d)))
        }
        guard !steps.isEmpty else { return [] }
        var result: [Step] = []
        var offset = Vector3.zero, next = 0
        let times = mag.times
        var i = 0
        mag.transformVectors { m in
            while next < steps.count && steps[next].index <= i {
                offset = offset + steps[next].change
                result.append(Step(time: times[steps[next].index], offsetChange: steps[next].change))
                next += 1
            }
            i += 1
            return m - offset
        }
        return result
    }
}
