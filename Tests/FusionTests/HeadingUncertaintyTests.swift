import Foundation
import POIARCore
import Testing
@testable import Fusion

/// The heading's 68 % bound (`HeadingUncertainty`) against motions with a known truth.
@Suite("HeadingUncertainty: the heading's 68 % bound")
struct HeadingUncertaintyTests {
    static let rig = SensorRig(gyroRate: 100, accelRate: 100, magRate: 50, jitter: 0.1,
                               gyroBias: Vector3(0.003, -0.002, 0.0025),
                               gyroNoise: 0.003, accelNoise: 0.05, magNoise: 0.4, seed: 11)

    /// 10 s still (the gyro bias is measured), then a slow turn about the vertical, the phone
    /// held upright.
    static func turning(_ t: Double) -> Quaternion {
        yaw(40 + 10 * max(0, t - 10)) * Pose(headingDeg: 0, pitchDeg: 5, rollDeg: 0).orientation
    }

    /// The bound (degrees) and the heading error (degrees) after each gyro sample.
    func trace(field: (Double) -> Vector3 = { _ in fieldENU }, duration: Double,
               truth: (Double) -> Quaternion = turning) -> [(t: Double, sigma: Double, error: Double)] {
        var f = ComplementaryFilter(params: noPrediction())
        var u = HeadingUncertainty()
        var out: [(Double, Double, Double)] = []
        run(&f, rig: Self.rig, duration: duration, truth: truth, field: field, observe: { t, filter in
            u.update(filter, time: t)
            let e = AttitudeError(estimate: filter.state.orientation, truth: truth(t))
            out.append((t, u.sigma * degPerRad, abs(e.heading)))
        })
        return out
    }

    /// Undisturbed and turning: the bound settles to a degree or two, and holds the error.
    @Test func settlesAndHoldsTheError() {
        let rows = trace(duration: 120).filter { $0.t > 40 }
        let sigmas = rows.map(\.sigma).sorted()
        #expect(sigmas[sigmas.count / 2] > 0.3 && sigmas[sigmas.count / 2] < 3, "median σ \(sigmas[sigmas.count / 2])°")
        let within2 = Double(rows.filter { $0.error <= 2 * $0.sigma }.count) / Double(rows.count)
        #expect(within2 >= 0.9, "\(within2) within 2σ")
    }

    /// At the start the bound is wide (one field sample), and narrows as the field is averaged.
    @Test func startsWideAndNarrows() {
        let rows = trace(duration: 30)
        #expect(rows[0].sigma > 8)
        #expect(rows.last!.sigma < rows[0].sigma / 2, "\(rows[0].sigma)° → \(rows.last!.sigma)°")
    }

    /// A magnet held near for 40 s: the field is rejected, the heading rides on the gyro, and
    /// the bound grows with the bias the filter is unsure of; when the field is back it narrows.
    @Test func growsWhileTheFieldIsRejected() {
        let magnet = { (t: Double) in t >= 60 && t < 100 ? fieldENU + Vector3(40, 0, 0) : fieldENU }
        let rows = trace(field: magnet, duration: 160)
        func sigma(at t: Double) -> Double { rows.min { abs($0.t - t) < abs($1.t - t) }!.sigma }
        #expect(sigma(at: 98) > 1.5 * sigma(at: 58), "\(sigma(at: 58))° before, \(sigma(at: 98))° at the end of the magnet")
        #expect(sigma(at: 158) < sigma(at: 98))
    }

    /// An uncalibrated magnetometer (no whole-recording calibration: the causal case) counts
    /// as calibrated once the device has turned over about a horizontal axis, though its
    /// azimuth hardly changed: the bound loses the uncalibrated floor.
    @Test func turningOverCalibrates() {
        let flip = { (t: Double) in
            Quaternion(axis: Vector3(1, 0, 0), angle: min(1, max(0, t - 10) / 20) * .pi) * Pose(headingDeg: 30, pitchDeg: 5, rollDeg: 0).orientation
        }
        let still = { (_: Double) in Pose(headingDeg: 30, pitchDeg: 5, rollDeg: 0).orientation }
        let flipped = trace(duration: 60, truth: flip).last!.sigma
        let held = trace(duration: 60, truth: still).last!.sigma
        #expect(held > 3.5, "held still, uncalibrated: σ \(held)°")
        #expect(flipped < held - 2, "turned over: σ \(flipped)° against \(held)°")
    }

    /// Offline: the backward pass lags a bias error the other way, so that part cancels in an
    /// even blend; the field's systematic error is the same field's in both and does not.
    @Test func combinedCancelsTheLagButNotTheField() {
        let lagOnly = HeadingUncertainty.Variances(bias: 0.0004, noise: 0, systematic: 0)
        #expect(HeadingUncertainty.combined(forward: lagOnly, backward: lagOnly, alpha: 0.5, difference: 0) < 1e-6)
        #expect(abs(HeadingUncertainty.combined(forward: lagOnly, backward: lagOnly, alpha: 0, difference: 0) - 0.02) < 1e-6)
        let field = HeadingUncertainty.Variances(bias: 0, noise: 0, systematic: 0.0004)
        #expect(abs(HeadingUncertainty.combined(forward: field, backward: field, alpha: 0.5, difference: 0) - 0.02) < 1e-6)
        // Noise is independent: an even blend halves its variance.
        let noise = HeadingUncertainty.Variances(bias: 0, noise: 0.0004, systematic: 0)
        #expect(abs(HeadingUncertainty.combined(forward: noise, backward: noise, alpha: 0.5, difference: 0) - 0.02 / 2.squareRoot()) < 1e-6)
        // Two passes 0.2 rad apart where their noise allows 0.028: the bound widens to the gap.
        #expect(HeadingUncertainty.combined(forward: noise, backward: noise, alpha: 0.5, difference: 0.2) > 0.09)
    }

    /// The offline series carries a bound per sample, and a relative heading's is 180°.
    @Test func offlineSeriesHasABoundPerSample() {
        var recording = SensorRecording()
        var noise = TestNoise(seed: 3)
        for k in 0...6000 {
            let t = Double(k) / 100, q = Self.turning(t)
            let next = Self.turning(t + 0.01)
            recording.append(.gyro, time: t, rotationVector(q.conjugate * next) / 0.01 + noise.vector(0.003))
            recording.append(.accel, time: t, inDevice(q, gravityENU) + noise.vector(0.05))
            if k % 2 == 0 { recording.append(.mag, time: t, inDevice(q, fieldENU) + noise.vector(0.4)) }
        }
        var series = OfflineFusion(params: ComplementaryFilterParams()).estimate(&recording).series
        #expect(series.headingSigmas.count == series.count)
        let sigma = series.headingSigma(at: 30)!
        #expect(sigma > 0.1 && sigma < 5, "σ \(sigma)°")
        series.headingIsAbsolute = false
        #expect(series.headingSigma(at: 30) == 180)
    }
}
