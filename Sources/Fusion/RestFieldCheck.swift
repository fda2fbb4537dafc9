import Foundation
import POIARCore

/// Whether a rest the detector found is a device set down, or a hand holding it still while it
/// turns slowly about the vertical (issue 26.1, the still-held iOS phone).
///
/// The rest detector checks that the gyro is steady and that gravity and the field did not
/// turn in the device frame. A turn about the vertical does not move gravity, and moves the
/// field only by its horizontal part: where the field dips 74° (Helsinki) a yaw of 0.5° turns
/// it by 0.14°, within the detector's threshold. So a hand's slow yaw drift (0.05–0.3 °/s)
/// passes for a rest, and its mean rate is taken for the gyro bias: each pass then lags by
/// that rate times τ_mag (2–4° on a simulated still-held phone, against 0.06° without).
///
/// Over the whole rest, though, the field's horizontal part measures the yaw rate well: its
/// azimuth about gravity, fitted by a straight line in time, has a slope with a standard error
/// of a few hundredths of a degree per second over a few seconds of 100 Hz samples. A device
/// set down keeps that slope within its error; a hand's drift does not.
public enum RestFieldCheck {
    /// The slope, rad/s, of the field's azimuth about gravity (device frame) over `start…end`,
    /// and its standard error; nil when there are too few samples or the field is nearly
    /// vertical (its azimuth then means nothing).
    public static func fieldYawRate(accel: SampleSeries, mag: SampleSeries, start: Double, end: Double) -> (rate: Double, error: Double)? {
        let a0 = accel.times.lowerBound(of: start), a1 = accel.times.upperBound(of: end, by: { $0 })
        let m0 = mag.times.lowerBound(of: start), m1 = mag.times.upperBound(of: end, by: { $0 })
        guard a1 - a0 >= 5, m1 - m0 >= 10 else { return nil }
        var g = Vector3.zero, field = Vector3.zero
        for i in a0..<a1 { g = g + accel.vector(i) }
        for i in m0..<m1 { field = field + mag.vector(i) }
        let up = g.normalized
        let horizontal = field - up * field.dot(up)
        // A horizontal part under a tenth of the field: the azimuth is noise.
        guard horizontal.norm > 0.1 * field.norm else { return nil }
        let e1 = horizontal.normalized, e2 = up.cross(e1)
        // Least-squares line θ = c + s·(t − t̄) through the azimuths (small angles about e1).
        let n = Double(m1 - m0)
        var tMean = 0.0, thetaMean = 0.0
        var thetas = [Double](repeating: 0, count: m1 - m0)
        for i in m0..<m1 {
            let v = mag.vector(i)
            thetas[i - m0] = atan2(v.dot(e2), v.dot(e1))
            tMean += mag.times[i]; thetaMean += thetas[i - m0]
        }
        tMean /= n; thetaMean /= n
        var stt = 0.0, sty = 0.0
        for i in m0..<m1 {
            let dt = mag.times[i] - tMean
            stt += dt * dt; sty += dt * (thetas[i - m0] - thetaMean)
        }
        guard stt > 0 else { return nil }
        let slope = sty / stt
        var residual = 0.0
        for i in m0..<m1 {
            let r = thetas[i - m0] - thetaMean - slope * (mag.times[i] - tMean)
            residual += r * r
        }
        return (slope, (residual / max(n - 2, 1) / stt).squareRoot())
    }

    /// Whether the field shows the device turning about the vertical over the rest: a slope
    /// beyond four standard errors and beyond the accuracy a rest claims for the bias
    /// (`biasSigmaRest`). Without a usable field the rest stands (as before this check).
    public static func turned(_ rest: RestBiasSurvey.Rest, accel: SampleSeries, mag: SampleSeries,
                              params p: ComplementaryFilterParams) -> Bool {
        guard let fit = fieldYawRate(accel: accel, mag: mag, start: rest.start, end: rest.end) else { return false }
        return abs(fit.rate) > 4 * fit.error + p.biasSigmaRest
    }
}
