import POIARCore

/// One gyroscope reading: seconds on the log's timeline, angular rate in rad/s about the
/// device's own axes (whatever they are: the offset estimate fits the map to the image).
public typealias GyroSample = (time: Double, rate: Vector3)

/// The gyro's rotation over any interval, per axis: the integral of the rate taken as linear
/// between samples (the trapezoid rule, evaluated exactly at any instant between samples),
/// so an interval that starts or ends between two samples costs no rounding to a sample.
/// Small-angle: the three axes' integrals are added as a vector, which over one frame
/// interval (a few degrees at most) differs from the composed rotation by far less than the
/// image measurement's noise.
struct GyroIntegral {
    private let times: [Double]
    private let rates: [Vector3]
    /// Integral from the first sample to sample k.
    private let angles: [Vector3]
    /// Number of gaps (intervals longer than `maxGap`) among the segments before segment k.
    private let gapsBefore: [Int]

    /// `gyro` in time order. An interval longer than `maxGap` between two samples is a gap:
    /// the rate across it is unknown, and no integral is taken over it.
    init(_ gyro: [GyroSample], maxGap: Double) {
        times = gyro.map(\.time)
        rates = gyro.map(\.rate)
        var angle = Vector3.zero
        var angles = [angle]
        var gaps = 0
        var gapsBefore = [0]
        for k in 1..<max(1, gyro.count) {
            let h = times[k] - times[k - 1]
            angle = angle + (rates[k - 1] + rates[k]) * (0.5 * h)
            angles.append(angle)
            if h > maxGap { gaps += 1 }
            gapsBefore.append(gaps)
        }
        self.angles = angles
        self.gapsBefore = gapsBefore
    }

    var span: ClosedRange<Double>? {
        guard let first = times.first, let last = times.last, last > first else { return nil }
        return first...last
    }

    /// The rotation from `a` to `b` (radians per axis); nil when the interval reaches past the
    /// samples or crosses a gap.
    func rotation(from a: Double, to b: Double) -> Vector3? {
        guard let span, a >= span.lowerBound, b <= span.upperBound, a <= b else { return nil }
        let ka = segment(containing: a), kb = segment(containing: b)
        guard gapsBefore[kb + 1] - gapsBefore[ka] == 0 else { return nil }
        return angle(at: b, segment: kb) - angle(at: a, segment: ka)
    }

    /// The segment k (from sample k to k + 1) that holds `t`.
    private func segment(containing t: Double) -> Int {
        times.interpolationInterval(for: t)
    }

    /// The integral up to `t`: the rate is linear over the segment, so the angle is quadratic.
    private func angle(at t: Double, segment k: Int) -> Vector3 {
        let h = times[k + 1] - times[k]
        guard h > 0 else { return angles[k] }
        let u = t - times[k]
        return angles[k] + rates[k] * u + (rates[k + 1] - rates[k]) * (u * u / (2 * h))
    }
}
