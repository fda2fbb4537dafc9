import Foundation
import POIARCore

/// How late the magnetometer's samples are against the gyro's, found from the recording itself.
///
/// A field fixed in the world turns in the device frame as dm/dt = −ω × m. If the magnetometer
/// lags by L, the change of m over an interval [a, c] follows the rotation over [a − L, c − L]:
/// Δm ≈ −θ(a − L, c − L) × m, with θ the gyro's rotation vector over that interval. The delay is
/// the L (a grid over [0, `magDelayMax`] by 10 ms, refined by 2 ms and a
/// parabola) that makes the squared residual smallest over the `maxProbes` short,
/// non-overlapping intervals of ≥ `probeSpan` seconds in which the device turned fastest. It is used only when it explains the changes markedly better than no
/// delay: by a log-likelihood gain of at least `minEvidence` (Gaussian residuals, one degree of
/// freedom per interval), and not at the edge of the range. Otherwise (a device that hardly
/// turns, a field too disturbed) nil: no delay. The field must be calibrated: a soft iron
/// left in it bends the relation, which is why negative delays (a magnetometer ahead of the
/// gyro, which its slower sampling and filtering never are) are not looked for.
///
/// On BROAD the magnetometer lags the gyro by 12 ms in every trial (the optical truth agrees:
/// the field matches it 14 ms late, the gyro 2 ms late); uncorrected, a board turning at
/// 100 °/s reads its heading 1.2° behind.
public enum MagnetometerDelay {
    /// Fewest seconds per interval: long enough for the field to change beyond its noise.
    static let probeSpan = 0.04
    static let maxProbes = 1024
    /// Log-likelihood gain for "very strong" evidence (Kass & Raftery 1995: 2·ln B > 10).
    static let minEvidence = 5.0
    static let coarseStep = 0.01, fineStep = 0.002

    /// The magnetometer's delay behind the gyro, s; nil when the recording does not show one.
    /// `mag` must be calibrated (the field, not offset by a hard iron).
    public static func estimate(gyro: SampleSeries, mag: SampleSeries, maxDelay: Double) -> Double? {
        guard gyro.count > 10, mag.count > 10, maxDelay > 0 else { return nil }
        let probes = makeProbes(mag, gyro: gyro)
        guard probes.count >= 50 else { return nil }
        func cost(_ lag: Double) -> Double { Self.cost(lag: lag, probes: probes, gyro: gyro) }

        // A magnetometer never reports before the gyro: it samples slower and filters more.
        let low = 0.0
        var best = (lag: 0.0, cost: cost(0))
        let zeroCost = best.cost
        var lag = low
        while lag <= maxDelay + 1e-12 {
            let c = cost(lag)
            if c < best.cost { best = (lag, c) }
            lag += coarseStep
        }
        var fine = best
        var l = best.lag - coarseStep
        while l <= best.lag + coarseStep + 1e-12 {
            let c = cost(l)
            if c < fine.cost { fine = (l, c) }
            l += fineStep
        }
        // Parabolic refinement between the fine neighbours.
        let cm = cost(fine.lag - fineStep), cp = cost(fine.lag + fineStep)
        let curvature = cm + cp - 2 * fine.cost
        var estimate = fine.lag
        if curvature > 0 { estimate += 0.5 * fineStep * (cm - cp) / curvature }

        guard fine.cost > 0, zeroCost > fine.cost else { return nil }
        let evidence = 0.5 * Double(probes.count) * log(zeroCost / fine.cost)
        guard evidence >= minEvidence, estimate > low + coarseStep / 2, estimate < maxDelay - coarseStep / 2 else { return nil }
        return estimate
    }

    struct Probe {
        var start: Double, end: Double
        /// m(end) − m(start), and m in the middle.
        var change: Vector3, middle: Vector3
    }

    /// Non-overlapping intervals of the magnetometer stream, each spanning ≥ `probeSpan`
    /// without a gap: the `maxProbes` during which the gyro turned fastest (where the delay
    /// shows most), in time order.
    static func makeProbes(_ mag: SampleSeries, gyro: SampleSeries) -> [Probe] {
        let n = mag.count
        let step = mag.duration / Double(max(1, n - 1))
        guard step > 0 else { return [] }
        let half = max(1, Int((probeSpan / 2 / step).rounded(.up)))
        var candidates: [(probe: Probe, rate: Double)] = []
        candidates.reserveCapacity(n / (2 * half + 1) + 1)
        var k = half, g = 0
        while k + half < n {
            let a = mag.times[k - half], c = mag.times[k + half]
            if c > a && c - a <= 4 * Double(2 * half) * step {
                let mid = mag.times[k]
                while g + 1 < gyro.count && gyro.times[g] < mid { g += 1 }
                candidates.append((Probe(start: a, end: c, change: mag.vector(k + half) - mag.vector(k - half), middle: mag.vector(k)),
                                   gyro.vector(g).normSquared))
            }
            k += 2 * half + 1
        }
        if candidates.count > maxProbes {
            candidates.sort { $0.rate > $1.rate }
            candidates.removeLast(candidates.count - maxProbes)
            candidates.sort { $0.probe.start < $1.probe.start }
        }
        return candidates.map(\.probe)
    }

    /// Σ |Δm + θ × m|² over the probes, θ the gyro's rotation over each probe's interval moved
    /// back by `lag`. Gyro sample i stands for the rate over (tᵢ₋₁, tᵢ] (as the filter integrates).
    static func cost(lag: Double, probes: [Probe], gyro: SampleSeries) -> Double {
        var total = 0.0
        var i = 1  // first gyro sample whose interval may overlap the probe (probes are in time order)
        let times = gyro.times
        for p in probes {
            let a = p.start - lag, c = p.end - lag
            while i < times.count && times[i] <= a { i += 1 }
            guard i < times.count, times[0] < a else { continue }
            var theta = Vector3.zero
            var j = i
            var covered = a
            while j < times.count && covered < c {
                let upper = min(times[j], c)
                theta = theta + gyro.vector(j) * (upper - covered)
                covered = upper
                j += 1
            }
            guard covered >= c - 1e-9 else { continue }
            let r = p.change + theta.cross(p.middle)
            total += r.normSquared
        }
        return total
    }
}
