import Foundation
import POIARCore
import Testing
@testable import Fusion

/// Motions with a known truth, through realistic sensors (noise, bias, different rates).
@Suite("ComplementaryFilter: scenarios with known truth")
struct FilterScenarioTests {
    /// Phone-like sensors: gyro and accel 100 Hz, mag 50 Hz, with noise and a gyro bias
    /// (about 0.15°/s per axis).
    static let phone = SensorRig(gyroRate: 100, accelRate: 100, magRate: 50, jitter: 0.1,
                                 gyroBias: Vector3(0.003, -0.002, 0.0025),
                                 gyroNoise: 0.003, accelNoise: 0.05, magNoise: 0.4, seed: 7)

    func score(_ params: ComplementaryFilterParams = ComplementaryFilterParams(), rig: SensorRig = phone,
               duration: Double, from: Double, truth: (Double) -> Quaternion,
               field: (Double) -> Vector3 = { _ in fieldENU },
               linearAcceleration: (Double) -> Vector3 = { _ in .zero }) -> (ErrorStats, ComplementaryFilter) {
        var f = ComplementaryFilter(params: params)
        var stats = ErrorStats()
        run(&f, rig: rig, duration: duration, truth: truth, field: field, linearAcceleration: linearAcceleration, observe: { t, filter in
            if t >= from { stats.add(AttitudeError(estimate: filter.state.orientation, truth: truth(t))) }
        })
        return (stats, f)
    }

    /// 10 s still (the bias is measured), then 30°/s about an axis 40° off the vertical: five
    /// and a half full turns, every attitude passing through.
    @Test func constantRateAboutATiltedAxis() {
        let q0 = Pose(headingDeg: 20, pitchDeg: 10, rollDeg: 0).orientation
        let axis = Vector3(sin(40 * radPerDeg), 0, cos(40 * radPerDeg))
        let truth = { (t: Double) in Quaternion(axis: axis, angle: max(0, t - 10) * 30 * radPerDeg) * q0 }
        let (s, f) = score(duration: 76, from: 10, truth: truth)
        #expect(s.heading < 1.0 && s.inclination < 0.5, "heading \(s.heading)° inclination \(s.inclination)°")
        #expect(s.worstTotal < 3, "worst \(s.worstTotal)°")
        #expect((f.state.gyroBias - Self.phone.gyroBias).norm < 0.001, "bias \(f.state.gyroBias)")
    }

    /// Back and forth: ±60° at 0.5 Hz about the device's x axis (pitching the phone up and
    /// down), with a walking bounce, never at rest.
    @Test func backAndForth() {
        let q0 = Pose(headingDeg: 250, pitchDeg: 0, rollDeg: 0).orientation
        let truth = { (t: Double) in q0 * Quaternion(axis: Vector3(1, 0, 0), angle: 60 * radPerDeg * sin(.pi * t)) }
        let (s, f) = score(duration: 90, from: 30, truth: truth,
                           linearAcceleration: { t in Vector3(0.3 * sin(11 * t), 0.2 * sin(5.6 * t), 1.0 * sin(11.3 * t)) })
        #expect(s.heading < 1.5 && s.inclination < 1.0, "heading \(s.heading)° inclination \(s.inclination)°")
        #expect(!f.state.atRest)
    }

    /// One full turn about the vertical in 4 s, then still: the heading must come round to
    /// where it started, not be dragged by the field lagging behind.
    @Test func aFullTurn() {
        let q0 = Pose(headingDeg: 90, pitchDeg: -5, rollDeg: 3).orientation
        func angle(_ t: Double) -> Double {
            let u = min(max((t - 20) / 4, 0), 1)
            return 2 * .pi * (u - sin(2 * .pi * u) / (2 * .pi))  // smooth start and stop
        }
        let truth = { (t: Double) in yaw(angle(t) * degPerRad) * q0 }
        var duringTurn = ErrorStats()
        var f = ComplementaryFilter()
        run(&f, rig: Self.phone, duration: 40, truth: truth, observe: { t, filter in
            if t >= 20 && t <= 24 { duringTurn.add(AttitudeError(estimate: filter.state.orientation, truth: truth(t))) }
        })
        #expect(duringTurn.worstHeading < 1.0, "worst heading during the turn \(duringTurn.worstHeading)°")
        let end = AttitudeError(estimate: f.state.orientation, truth: q0)
        #expect(end.total < 0.5, "after the turn \(end.total)°")
    }

    /// No rest at all: the device keeps turning (so the rest detector never fires) and the
    /// bias is learnt in motion, the horizontal part from the accelerometer and the part about
    /// the vertical from the magnetometer.
    @Test func biasConvergesInMotion() {
        let bias = Vector3(0.012, -0.008, 0.01)
        var rig = Self.phone
        rig.gyroBias = bias
        let q0 = Pose(headingDeg: 0, pitchDeg: 10, rollDeg: 0).orientation
        let truth = { (t: Double) in
            yaw(50 * sin(0.21 * t)) * q0 * Quaternion(axis: Vector3(1, 0, 0), angle: 0.5 * sin(0.37 * t))
                * Quaternion(axis: Vector3(0, 1, 0), angle: 0.4 * sin(0.29 * t + 1))
        }
        var f = ComplementaryFilter()
        var wasAtRest = false
        var errorAt60 = Vector3.zero
        run(&f, rig: rig, duration: 180, truth: truth, observe: { t, filter in
            wasAtRest = wasAtRest || filter.state.atRest
            if abs(t - 60) < 0.005 { errorAt60 = filter.state.gyroBias - bias }
        })
        #expect(!wasAtRest)
        let error = f.state.gyroBias - bias
        #expect(error.norm < 0.1 * bias.norm, "bias \(f.state.gyroBias), true \(bias)")
        #expect(error.norm < errorAt60.norm || error.norm < 0.05 * bias.norm)
        // Without the estimate in motion the bias stays unknown.
        var params = ComplementaryFilterParams()
        params.motionBiasEstimation = false
        params.magBiasEstimation = false
        var g = ComplementaryFilter(params: params)
        run(&g, rig: rig, duration: 60, truth: truth)
        #expect(g.state.gyroBias == .zero)
    }

    /// A magnet passes by (a car, a steel door) from 30 to 36 s: the field's norm and dip
    /// change, the field is rejected, the heading holds on the gyro and is right after. Compared
    /// with the same run (same noise) without the magnet.
    @Test func aMagnetPassingBy() {
        let q0 = Pose(headingDeg: 300, pitchDeg: 5, rollDeg: 0).orientation
        let truth = { (t: Double) in yaw(20 * sin(0.3 * t)) * q0 }
        let magnet = Vector3(35, -25, 30)
        let disturbed = { (t: Double) -> Vector3 in
            let u = (t - 30) / 6
            guard u > 0 && u < 1 else { return fieldENU }
            return fieldENU + magnet * sin(.pi * u)  // rises and falls again
        }
        func headings(_ params: ComplementaryFilterParams, _ field: @escaping (Double) -> Vector3) -> (h: [Double], flagged: Bool) {
            var f = ComplementaryFilter(params: params)
            var h: [Double] = [], flagged = false
            run(&f, rig: Self.phone, duration: 60, truth: truth, field: field, observe: { t, filter in
                h.append(AttitudeError(estimate: filter.state.orientation, truth: truth(t)).signedHeading)
                if t >= 30 && t < 36 { flagged = flagged || filter.state.magDisturbed }
            })
            return (h, flagged)
        }
        /// Worst heading difference the magnet makes, during it (30–36 s) and after (from 40 s).
        func effect(_ params: ComplementaryFilterParams) -> (during: Double, after: Double, flagged: Bool) {
            let clean = headings(params, { _ in fieldENU }), with = headings(params, disturbed)
            var during = 0.0, after = 0.0
            for (k, (a, b)) in zip(clean.h, with.h).enumerated() {
                let t = Double(k) / Self.phone.gyroRate
                if t >= 30 && t < 36 { during = max(during, abs(a - b)) }
                if t >= 40 { after = max(after, abs(a - b)) }
            }
            return (during, after, with.flagged)
        }
        let rejected = effect(ComplementaryFilterParams())
        #expect(rejected.flagged)
        #expect(rejected.during < 0.6, "the magnet moves the heading by \(rejected.during)° while it passes")
        #expect(rejected.after < 0.3, "and by \(rejected.after)° after")
        // Without the rejection the same magnet drags the heading away.
        var params = ComplementaryFilterParams()
        params.magDisturbanceRejection = false
        let followed = effect(params)
        #expect(followed.during > 10 * rejected.during, "\(followed.during)°")
    }

    /// A field that differs from the expected one (WMM2025) from the start — a building's steel —
    /// is flagged, and becomes the reference once it has stayed steady for `magNewTime` while
    /// the device turned.
    @Test func aSteadyNewFieldBecomesTheReference() {
        var params = ComplementaryFilterParams()
        params.expectedFieldUT = fieldENU.norm
        params.expectedDipDeg = atan2(-fieldENU.z, fieldENU.y) * degPerRad
        let local = fieldENU * 1.3
        let q0 = Pose(headingDeg: 45, pitchDeg: 0, rollDeg: 0).orientation
        let truth = { (t: Double) in yaw(90 * sin(0.8 * t)) * q0 }  // up to 72°/s
        var f = ComplementaryFilter(params: params)
        var flaggedEarly = false, worstLate = 0.0
        run(&f, rig: Self.phone, duration: 60, truth: truth, field: { _ in local }, observe: { t, filter in
            if t > 1 && t < 5 { flaggedEarly = flaggedEarly || filter.state.magDisturbed }
            if t > 50 { worstLate = max(worstLate, AttitudeError(estimate: filter.state.orientation, truth: truth(t)).heading) }
        })
        #expect(flaggedEarly)
        #expect(!f.state.magDisturbed)
        let ref = f.state.magReference
        #expect(abs((ref?.norm ?? 0) - local.norm) < 0.05 * local.norm, "reference \(String(describing: ref))")
        #expect(worstLate < 1.5, "\(worstLate)°")
    }

    /// Gaps, repeated times and rates: a gyro dropout of 2 s while the device turns is not
    /// integrated; the attitude is found again from the sensors. Repeated samples change nothing.
    @Test func gapsAndRepeatedTimes() {
        let q0 = Pose(headingDeg: 120, pitchDeg: 15, rollDeg: 0).orientation
        let truth = { (t: Double) in yaw(25 * t) * q0 }  // 25°/s: 50° turned during the gap
        var f = ComplementaryFilter()
        var g = ComplementaryFilter()
        var afterGap = ErrorStats()
        var noise = TestNoise(seed: 3)
        var previous: (t: Double, q: Quaternion)?
        for k in 0...3000 {
            let t = Double(k) / 100
            let q = truth(t)
            let inGap = t > 12 && t < 14
            var omega = Vector3.zero
            if let p = previous { omega = rotationVector(p.q.conjugate * q) / (t - p.t) }
            let gyro = omega + noise.vector(0.002), accel = inDevice(q, gravityENU) + noise.vector(0.03)
            let mag = inDevice(q, fieldENU) + noise.vector(0.3)
            for filter in [0, 1] {
                // g gets every sample twice (same time, same values).
                for _ in 0..<(filter == 0 ? 1 : 2) {
                    if filter == 0 {
                        if !inGap { f.updateGyro(gyro, time: t) }
                        f.updateAccel(accel, time: t); f.updateMag(mag, time: t)
                    } else {
                        if !inGap { g.updateGyro(gyro, time: t) }
                        g.updateAccel(accel, time: t); g.updateMag(mag, time: t)
                    }
                }
            }
            if !inGap { previous = (t, q) }
            if t >= 20 { afterGap.add(AttitudeError(estimate: f.state.orientation, truth: q)) }
        }
        #expect(afterGap.worstInclination < 1.0, "\(afterGap.worstInclination)°")
        #expect(afterGap.worstHeading < 2.0, "\(afterGap.worstHeading)°")
        #expect(f.state.orientation == g.state.orientation)
        #expect(f.state.gyroBias == g.state.gyroBias)
    }

    /// The same motion sampled at different rates, jittered, with the magnetometer slower:
    /// the estimates agree (the gains are time constants, not per-sample factors).
    @Test func rateAndJitterIndependence() {
        let q0 = Pose(headingDeg: 60, pitchDeg: 0, rollDeg: 0).orientation
        let truth = { (t: Double) in
            yaw(40 * sin(0.5 * t)) * q0 * Quaternion(axis: Vector3(1, 0, 0), angle: 0.3 * sin(0.9 * t))
        }
        func final(_ rig: SensorRig) -> Quaternion {
            var f = ComplementaryFilter(params: noPrediction())
            run(&f, rig: rig, duration: 40, truth: truth,
                field: { t in (10...16).contains(t) ? yaw(-20).rotate(fieldENU) : fieldENU },
                linearAcceleration: { t in Vector3(1.2 * sin(2 * t), 0.5, 1.0 * sin(3 * t)) })
            return f.state.orientation
        }
        var a = SensorRig(gyroRate: 400, accelRate: 400, magRate: 400)
        a.gyroBias = Vector3(0.01, -0.006, 0.004)
        var b = a
        b.gyroRate = 100; b.accelRate = 50; b.magRate = 25; b.jitter = 0.2
        let qa = final(a), qb = final(b)
        let difference = qa.angle(to: qb) * degPerRad
        #expect(difference < 0.25, "400 Hz and 100/50/25 Hz jittered differ by \(difference)°")
        #expect(qa.angle(to: truth(40)) * degPerRad > 2 * difference)
    }

    @Test func parametersCanBeSetByName() throws {
        var p = ComplementaryFilterParams()
        try p.set("tauMag=12.5")
        try p.set("hardIronEstimation=false")
        #expect(p.tauMag == 12.5 && !p.hardIronEstimation)
        #expect(throws: ParamError.self) { try p.set("tauMagg=1") }
        #expect(throws: ParamError.self) { try p.set("tauMag=abc") }
        #expect(throws: ParamError.self) { try p.set("tauMag") }
        // Every documented tunable is reachable by name.
        #expect(ComplementaryFilterParams.numericFields.count + ComplementaryFilterParams.switchFields.count >= 40)
        #expect(ComplementaryFilterParams.parseHardIron(" 12.5, -30,4e1 ") == Vector3(12.5, -30, 40))
        #expect(ComplementaryFilterParams.parseHardIron("1, 2") == nil)
        #expect(ComplementaryFilterParams.parseHardIron("1, 2, x") == nil)
    }
}
