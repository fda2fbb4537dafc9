import Foundation
import POIARCore
import Testing
@testable import Fusion

@Suite("ComplementaryFilter: hard-iron calibration")
struct HardIronTests {
    /// Turning about all three axes (what pins a hard-iron offset down), never still.
    static let q0 = Pose(headingDeg: 30, pitchDeg: 0, rollDeg: 0).orientation
    static func tumbling(_ t: Double) -> Quaternion {
        yaw(120 * sin(0.35 * t)) * q0 * Quaternion(axis: Vector3(1, 0, 0), angle: 0.9 * sin(0.53 * t))
            * Quaternion(axis: Vector3(0, 1, 0), angle: 0.8 * sin(0.41 * t + 1))
    }
    static let offset = Vector3(30, -12, 18)  // |b| ≈ 37 µT, as large as the earth's field
    static var rig: SensorRig {
        var r = FilterScenarioTests.phone
        r.hardIron = offset
        return r
    }

    @Test func fitRecoversAnOffsetFromNoiseFreeTurns() throws {
        var fit = HardIronFit()
        let b = Vector3(-7, 2, 55), h = Vector3(0, 16, -41)
        var result: HardIronFit.Result?
        for k in 0..<2000 {
            let r = Matrix9(Self.tumbling(Double(k) * 0.01))
            let m = r.transposeTimes(h) + b
            fit.add(rotation: r, field: m, rotated: r.times(m), weight: 0.01)
            if let res = fit.closeBlockIfDue(window: 10, regularization: 1e-9, prior: .zero) { result = res }
        }
        let res = try #require(result)
        #expect((res.offset - b).norm < 1e-5, "\(res.offset)")
        #expect((res.field - h).norm < 1e-5)
        #expect(res.residual < 1e-4)
        #expect(res.priorResidual > 30)
        #expect(res.excitation > 0.1 && res.fullExcitation > 0.1)
        // Turning about one axis only leaves that axis unpinned: the smallest eigenvalue is 0,
        // the middle one is not.
        var yawOnly = HardIronFit.Sums()
        for k in 0..<100 {
            let r = Matrix9(yaw(Double(k) * 3.6))
            yawOnly.add(HardIronFit.Sums(n: 1, q: 0, s: r, y1: .zero, y2: .zero))
        }
        let one = try #require(HardIronFit.solve(yawOnly, mu: 0.02, prior: .zero))
        #expect(abs(one.fullExcitation) < 1e-9)
        #expect(one.excitation > 0.5)
        #expect(abs(SymmetricMatrix3(xx: 2, yy: 3, zz: 5, xy: 0, xz: 0, yz: 0).eigenvalues().0 - 2) < 1e-12)
    }

    /// A phone logging its uncalibrated field: a 37 µT offset, nothing told. The offset is found
    /// within seconds of turning, and the heading with it.
    @Test func anUnknownOffsetIsEstimated() {
        var f = ComplementaryFilter()
        var late = ErrorStats()
        run(&f, rig: Self.rig, duration: 90, truth: Self.tumbling, observe: { t, filter in
            if t >= 60 { late.add(AttitudeError(estimate: filter.state.orientation, truth: Self.tumbling(t))) }
        })
        #expect((f.state.hardIron - Self.offset).norm < 1.0, "estimated \(f.state.hardIron), true \(Self.offset)")
        #expect(late.heading < 1.0 && late.inclination < 0.5, "heading \(late.heading)° inclination \(late.inclination)°")
        // Without the estimate the same log gives a wrong heading.
        var params = ComplementaryFilterParams()
        params.hardIronEstimation = false
        var g = ComplementaryFilter(params: params)
        var uncalibrated = ErrorStats()
        run(&g, rig: Self.rig, duration: 90, truth: Self.tumbling, observe: { t, filter in
            if t >= 60 { uncalibrated.add(AttitudeError(estimate: filter.state.orientation, truth: Self.tumbling(t))) }
        })
        #expect(uncalibrated.heading > 5 * late.heading, "\(uncalibrated.heading)°")
    }

    /// A phone held upright and turned about the vertical only (panning, walking): the offset
    /// across the vertical is found, the one along it cannot be and does not matter; the
    /// heading, which started from the uncalibrated field, starts over and is right.
    @Test func turningAboutTheVerticalOnly() {
        let upright = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0).orientation
        let truth = { (t: Double) in yaw(150 * sin(0.3 * t)) * upright }
        var f = ComplementaryFilter()
        var late = ErrorStats()
        run(&f, rig: Self.rig, duration: 60, truth: truth, observe: { t, filter in
            if t >= 30 { late.add(AttitudeError(estimate: filter.state.orientation, truth: truth(t))) }
        })
        // Device y is the vertical here: x and z are found, y stays where it was (0).
        let e = f.state.hardIron - Self.offset
        #expect(abs(e.x) < 1 && abs(e.z) < 1, "estimated \(f.state.hardIron), true \(Self.offset)")
        #expect(abs(f.state.hardIron.y) < 1)
        #expect(late.heading < 1.5 && late.inclination < 0.5, "heading \(late.heading)° inclination \(late.inclination)°")
        #expect(!f.state.magDisturbed)
    }

    /// The log's `# mag_hard_iron_ut:` seeds the offset: right from the first sample.
    @Test func aSeedIsUsedFromTheStart() {
        var params = ComplementaryFilterParams()
        params.magHardIronSeed = Self.offset + Vector3(0.5, -0.3, 0.2)  // a slightly stale calibration
        var f = ComplementaryFilter(params: params)
        #expect(f.state.hardIron == params.magHardIronSeed)
        var early = ErrorStats()
        run(&f, rig: Self.rig, duration: 60, truth: Self.tumbling, observe: { t, filter in
            if t < 20 { early.add(AttitudeError(estimate: filter.state.orientation, truth: Self.tumbling(t))) }
        })
        #expect(early.worstHeading < 2.5, "\(early.worstHeading)°")
        // The fits move it toward the true offset, slowly (`hardIronTau`): no jump for 0.6 µT.
        let before = (params.magHardIronSeed! - Self.offset).norm, after = (f.state.hardIron - Self.offset).norm
        #expect(after < 0.9 * before && after > 0.5 * before, "\(f.state.hardIron)")
    }

    /// A magnet fixed to the device for a while (BROAD trial 32): the offset jumps from 0 to
    /// 58 µT and back. The field is rejected while the fit catches up, then used again.
    @Test func aMagnetAttachedForAWhile() {
        let magnet = Vector3(-7, -1, 58)
        let attached = 30.0...80.0
        var f = ComplementaryFilter()
        var stats = ErrorStats()
        var during: Vector3 = .zero
        var noise = TestNoise(seed: 11)
        var previous: (t: Double, q: Quaternion)?
        let bias = FilterScenarioTests.phone.gyroBias
        for k in 0...12000 {
            let t = Double(k) / 100
            let q = Self.tumbling(t)
            var omega = Vector3.zero
            if let p = previous { omega = rotationVector(p.q.conjugate * q) / (t - p.t) }
            previous = (t, q)
            f.updateGyro(omega + bias + noise.vector(0.003), time: t)
            f.updateAccel(inDevice(q, gravityENU) + noise.vector(0.05), time: t)
            f.updateMag(inDevice(q, fieldENU) + (attached.contains(t) ? magnet : .zero) + noise.vector(0.4), time: t)
            if t > 5 { stats.add(AttitudeError(estimate: f.state.orientation, truth: q)) }
            if abs(t - 75) < 0.005 { during = f.state.hardIron }
        }
        #expect((during - magnet).norm < 1.5, "offset with the magnet \(during)")
        #expect(f.state.hardIron.norm < 1.5, "offset after \(f.state.hardIron)")
        #expect(stats.worstHeading < 3, "worst heading \(stats.worstHeading)°")
        #expect(stats.heading < 1.0, "heading RMSE \(stats.heading)°")
    }
}
