import Foundation
import POIARCore
import Testing
@testable import Fusion

@Suite("ComplementaryFilter.attitude(accel:mag:)")
struct InitialAttitudeTests {
    func expectClose(_ a: Vector3, _ b: Vector3, _ tol: Double = 1e-9,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect((a - b).norm < tol, "\(a) ≠ \(b)", sourceLocation: sourceLocation)
    }

    @Test func flatFaceUpDeviceWithTopTowardNorth() throws {
        // Face up: gravity's reaction along +z. Field north (+y) and down (−z) in the device frame.
        let q = try #require(ComplementaryFilter.attitude(accel: Vector3(0, 0, 9.81), mag: Vector3(0, 15, -50)))
        expectClose(q.rotate(Vector3(0, 1, 0)), Vector3(0, 1, 0))  // device y → north
        expectClose(q.rotate(Vector3(0, 0, 1)), Vector3(0, 0, 1))  // device z → up
        expectClose(q.rotate(Vector3(1, 0, 0)), Vector3(1, 0, 0))  // device x → east
        #expect(abs(q.norm - 1) < 1e-12)
        let pose = Pose(q)
        #expect(abs(pose.pitchDeg + 90) < 1e-6)  // the back camera looks straight down
    }

    @Test func declinationTurnsTheFrameToTrueNorth() throws {
        let mag = Vector3(0, 15, -50)
        let q = try #require(ComplementaryFilter.attitude(accel: Vector3(0, 0, 9.81), mag: mag, declinationDeg: 10))
        let m = q.rotate(mag)
        #expect(abs(atan2(m.x, m.y) * degPerRad - 10) < 1e-9)  // magnetic north lies 10° east
        expectClose(q.rotate(Vector3(0, 0, 1)), Vector3(0, 0, 1))  // still face up
        // Device y (toward magnetic north) now points 10° east of true north.
        let y = q.rotate(Vector3(0, 1, 0))
        #expect(abs(atan2(y.x, y.y) * degPerRad - 10) < 1e-9)
        let west = try #require(ComplementaryFilter.attitude(accel: Vector3(0, 0, 9.81), mag: mag, declinationDeg: -7.5))
        let mw = west.rotate(mag)
        #expect(abs(atan2(mw.x, mw.y) * degPerRad + 7.5) < 1e-9)
    }

    @Test(arguments: [(0.0, 0.0, 0.0), (123.4, 0.0, 0.0), (250.0, 15.0, -10.0), (33.0, -60.0, 170.0), (300.0, 80.0, 45.0)])
    func recoversAnyAttitudeFromIdealSensors(h: Double, p: Double, r: Double) throws {
        let truth = Pose(headingDeg: h, pitchDeg: p, rollDeg: r).orientation
        for declination in [0.0, 10.269, -20.0] {
            // A field whose magnetic north lies `declination` east of true north.
            let field = yaw(-declination).rotate(fieldENU)
            let accel = inDevice(truth, gravityENU) * 0.97  // the scale does not matter
            let q = try #require(ComplementaryFilter.attitude(accel: accel, mag: inDevice(truth, field) * 1.3,
                                                              declinationDeg: declination))
            #expect(q.angle(to: truth) * degPerRad < 1e-5, "h \(h) p \(p) r \(r) D \(declination)")
        }
    }

    @Test func fieldAlongGravityGivesNoAttitude() {
        #expect(ComplementaryFilter.attitude(accel: Vector3(0, 0, 9.81), mag: Vector3(0, 0, -50)) == nil)
        #expect(ComplementaryFilter.attitude(accel: Vector3(0, 0, 9.81), mag: .zero) == nil)
    }
}

@Suite("ComplementaryFilter: behaviour")
struct ComplementaryFilterTests {
    @Test func gainsAreFirstOrderInSeconds() {
        typealias C = ComplementaryFilterCoefficients
        #expect(C.gain(step: 0, tau: 3) == 0)
        #expect(C.gain(step: -1, tau: 3) == 0)
        #expect(C.gain(step: 0.01, tau: 0) == 1)
        #expect(abs(C.gain(step: 3, tau: 3) - (1 - exp(-1))) < 1e-15)
        // Two half steps correct as much as one whole step.
        let half = C.gain(step: 0.005, tau: 6), whole = C.gain(step: 0.01, tau: 6)
        #expect(abs((1 - (1 - half) * (1 - half)) - whole) < 1e-15)
        let p = ComplementaryFilterParams()
        let c = C(params: p, accelStep: 0.01, magStep: 0.02)
        #expect(abs(c.accelGain - (1 - exp(-0.01 / p.tauAccel))) < 1e-15)
        #expect(abs(c.magGain - (1 - exp(-0.02 / p.tauMag))) < 1e-15)
        // The series used for small steps agrees with expm1 across its range.
        for x in [1e-9, 1e-6, 1e-4, 3e-3, 9.99e-3] {
            #expect(abs(C.gain(step: x, tau: 1) + expm1(-x)) <= 2e-15 * x, "x \(x)")
        }
        // The accelerometer low-pass is a unit-gain Butterworth for any step.
        for step in [0.001, 0.0035, 0.01, 0.05] {
            let f = Biquad(lowPassTau: 3, step: step)
            #expect(abs((f.b0 + f.b1 + f.b2) / (1 + f.a1 + f.a2) - 1) < 1e-9)
        }
    }

    @Test func accelTrustFallsOffAwayFromGravity() {
        let f = ComplementaryFilter()
        #expect(f.params.accelRejectionStart == 0.05 && f.params.accelRejectionEnd == 0.15)
        #expect(f.accelTrust(Vector3(0, 0, 9.81)) == 1)
        #expect(f.accelTrust(Vector3(0, 0, 9.81 * 1.049)) == 1)
        #expect(abs(f.accelTrust(Vector3(0, 0, 9.81 * 1.1)) - 0.5) < 1e-9)
        #expect(abs(f.accelTrust(Vector3(0, 9.81 * 0.9, 0)) - 0.5) < 1e-9)
        #expect(f.accelTrust(Vector3(0, 0, 9.81 * 1.16)) == 0)
        #expect(f.accelTrust(Vector3(3, 4, 0)) == 0)
    }

    @Test func initialisesFromTheFirstAccelAndMagSamples() throws {
        var f = ComplementaryFilter()
        let truth = Pose(headingDeg: 75, pitchDeg: 5, rollDeg: -3).orientation
        #expect(f.pose == nil)
        f.updateGyro(Vector3(0.1, 0, 0), time: 0)
        f.updateAccel(inDevice(truth, gravityENU), time: 0)
        #expect(!f.isInitialized && f.pose == nil)
        f.updateMag(inDevice(truth, fieldENU), time: 0.005)
        #expect(f.isInitialized)
        let pose = try #require(f.pose)
        #expect(pose.orientation.angle(to: truth) * degPerRad < 1e-5)
        // Mag first, then accel, works the same way.
        var g = ComplementaryFilter()
        g.updateMag(inDevice(truth, fieldENU), time: 0)
        g.updateAccel(inDevice(truth, gravityENU), time: 0.01)
        #expect(try #require(g.pose).orientation.angle(to: truth) * degPerRad < 1e-5)
    }

    @Test func gyroIntegratesBodyRateAndSkipsLongGaps() throws {
        let params = noPrediction {
            $0.restBiasEstimation = false; $0.motionBiasEstimation = false; $0.magBiasEstimation = false
        }
        var f = ComplementaryFilter(params: params)
        let start = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0).orientation
        f.state.orientation = start
        f.state.initialized = true
        // 1 s of 0.5 rad/s about device y (the vertical in this pose): the heading turns 28.6°.
        for k in 0...100 { f.updateGyro(Vector3(0, 0.5, 0), time: Double(k) / 100) }
        let turned = start * Quaternion(rotationVector: Vector3(0, 0.5, 0))
        #expect(f.state.orientation.angle(to: turned) < 1e-7)
        #expect(abs(angleDifference(try #require(f.pose).headingDeg, -0.5 * degPerRad)) < 1e-6)
        // A 2 s gap (beyond maxGyroGap) is not integrated; the next step is.
        f.updateGyro(Vector3(0, 0.5, 0), time: 3)
        #expect(f.state.orientation.angle(to: turned) < 1e-7)
        f.updateGyro(Vector3(0, 0.5, 0), time: 3.01)
        #expect(abs(f.state.orientation.angle(to: turned) - 0.005) < 1e-7)
        // A repeated or backwards time is ignored.
        let before = f.state.orientation
        f.updateGyro(Vector3(1, 1, 1), time: 3.01)
        f.updateGyro(Vector3(1, 1, 1), time: 2.5)
        #expect(f.state.orientation == before)
    }

    @Test(arguments: [(123.4, 0.0, 0.0), (0.0, 0.0, 0.0), (271.0, 4.0, -3.0)])
    func staticUprightDeviceHoldsItsPose(h: Double, p: Double, r: Double) {
        let truth = Pose(headingDeg: h, pitchDeg: p, rollDeg: r)
        var f = ComplementaryFilter()
        var worst = 0.0, samples = 0
        simulate(&f, rate: 100, duration: 10, truth: { _ in truth.orientation }, observe: { _, q in
            worst = max(worst, q.angle(to: truth.orientation) * degPerRad)
            samples += 1
        })
        #expect(samples == 1001)
        #expect(worst < 0.01)
        guard let pose = f.pose else { Issue.record("no pose"); return }
        #expect(abs(angleDifference(pose.headingDeg, h)) < 0.01)
        #expect(abs(pose.pitchDeg - p) < 0.01)
        #expect(abs(angleDifference(pose.rollDeg, r)) < 0.01)
        #expect(f.state.gyroBias.norm < 1e-6)
    }

    @Test func constantYawRateIsTracked() {
        let q0 = Pose(headingDeg: 40, pitchDeg: 5, rollDeg: 2).orientation
        let rate = 0.5  // rad/s about world up
        let truth = { (t: Double) in Quaternion(axis: upENU, angle: rate * t) * q0 }
        var f = ComplementaryFilter()
        var worstHeading = 0.0, worstTotal = 0.0
        simulate(&f, rate: 100, duration: 5, truth: truth, observe: { t, q in
            let expected = Pose(truth(t)).headingDeg
            worstHeading = max(worstHeading, abs(angleDifference(Pose(q).headingDeg, expected)))
            worstTotal = max(worstTotal, q.angle(to: truth(t)) * degPerRad)
        })
        #expect(worstHeading < 0.5)
        #expect(worstTotal < 0.5)
        // The device did turn: 2.5 rad counter-clockwise seen from above, heading 40° → ~216.8°.
        #expect(abs(angleDifference(f.pose?.headingDeg ?? .nan, 40 - 2.5 * degPerRad)) < 0.5)
    }

    /// The field turns 30° about the vertical `settle` s after the start (after the heading's
    /// running-mean start of τ_mag) and stays so for 25 s. A pure turn keeps the field's norm
    /// and dip, so no disturbance check can see it: the heading must follow it.
    func disturbedRun(magBias: Bool) -> (worstInclination: Double, fractionAt: (Double) -> Double) {
        let params = noPrediction { $0.magBiasEstimation = magBias }
        let settle = params.tauMag + 2
        var f = ComplementaryFilter(params: params)
        let truth = Pose(headingDeg: 200, pitchDeg: 10, rollDeg: -5).orientation
        let turned = yaw(30).rotate(fieldENU)  // azimuth −30°: the filter turns its frame by −30°
        var worst = 0.0
        var offsets: [(t: Double, heading: Double)] = []
        simulate(&f, rate: 100, duration: settle + 25, truth: { _ in truth },
                 field: { t in t < settle - 1e-9 ? fieldENU : turned }, observe: { t, q in
            let e = AttitudeError(estimate: q, truth: truth)
            worst = max(worst, e.inclination)
            // Tilt by the device's own up direction, too.
            let deviceUpEst = inDevice(q, upENU), deviceUpTrue = inDevice(truth, upENU)
            worst = max(worst, acos(min(1, deviceUpEst.dot(deviceUpTrue))) * degPerRad)
            offsets.append((t, e.signedHeading))
        })
        return (worst, { after in
            let t = settle + after
            let nearest = offsets.min { abs($0.t - t) < abs($1.t - t) }!
            return nearest.heading / -30
        })
    }

    @Test func horizontalMagneticDisturbanceNeverTilts() {
        for magBias in [false, true] {
            let run = disturbedRun(magBias: magBias)
            #expect(run.worstInclination < 0.01, "magBias \(magBias)")
            #expect(run.fractionAt(25) > 0.9, "magBias \(magBias)")
        }
    }

    @Test func headingFollowsTheFieldWithTimeConstantTauMag() {
        // Without the magnetometer's bias measurement the heading response is exactly first order.
        let tau = ComplementaryFilterParams().tauMag
        let run = disturbedRun(magBias: false)
        let expected = 1 - exp(-1.0)
        #expect(abs(run.fractionAt(tau) - expected) < 0.1 * expected, "\(run.fractionAt(tau))")
        #expect(abs(run.fractionAt(tau / 2) - (1 - exp(-0.5))) < 0.05)
        #expect(run.fractionAt(0.05) < 0.02)
        #expect(abs(run.fractionAt(20) - (1 - exp(-20 / tau))) < 0.02)
        // With it (a PI loop: the turn looks like a bias about the vertical for a while) the
        // step is a little faster, still ≈ τ_mag.
        let withBias = disturbedRun(magBias: true)
        #expect(abs(withBias.fractionAt(tau) - expected) < 0.1 * expected, "\(withBias.fractionAt(tau))")
    }

    @Test func resultDoesNotDependOnTheSampleRate() throws {
        let base = Pose(headingDeg: 60, pitchDeg: 0, rollDeg: 0).orientation
        func truth(_ t: Double) -> Quaternion {
            yaw(40 * sin(0.5 * t)) * base
                * Quaternion(axis: Vector3(1, 0, 0), angle: 0.2 * sin(0.9 * t))
                * Quaternion(axis: Vector3(0, 0, 1), angle: 0.15 * sin(1.3 * t))
        }
        let disturbed = yaw(-25).rotate(fieldENU)
        func run(_ rate: Double) -> (q: Quaternion, bias: Vector3) {
            var f = ComplementaryFilter(params: noPrediction())
            simulate(&f, rate: rate, duration: 20, truth: truth,
                     field: { t in (6...12).contains(t) ? disturbed : fieldENU },
                     linearAcceleration: { t in Vector3(1.2 * sin(2 * t), 0.5, 1.0 * sin(3 * t)) },
                     gyroBias: Vector3(0.01, -0.008, 0.005))
            return (f.state.orientation, f.state.gyroBias)
        }
        let slow = run(50), fast = run(200)
        let difference = slow.q.angle(to: fast.q) * degPerRad
        #expect(difference < 0.2, "50 Hz and 200 Hz differ by \(difference)°")
        // The test is not trivial: the corrections moved the estimate well away from the truth.
        let error = fast.q.angle(to: truth(20)) * degPerRad
        #expect(error > 4 * difference, "error \(error)°, difference \(difference)°")
        #expect((slow.bias - fast.bias).norm < 0.1 * fast.bias.norm)
    }

    @Test func gyroBiasIsEstimatedOnAStaticDevice() {
        let truth = Pose(headingDeg: 300, pitchDeg: 8, rollDeg: 4).orientation
        let bias = Vector3(0.004, -0.003, 0.002)
        var f = ComplementaryFilter()
        simulate(&f, rate: 100, duration: 200, truth: { _ in truth }, gyroBias: bias)
        let estimate = f.state.gyroBias
        #expect((estimate - bias).norm < 0.2 * bias.norm, "estimated \(estimate), true \(bias)")
        #expect(f.state.orientation.angle(to: truth) * degPerRad < 0.3)
    }

    @Test func biasEstimateIsCappedAndCanBeDisabled() {
        let truth = Pose(headingDeg: 10, pitchDeg: 0, rollDeg: 0).orientation
        var params = ComplementaryFilterParams()
        params.maxBias = 0.002
        var capped = ComplementaryFilter(params: params)
        simulate(&capped, rate: 50, duration: 60, truth: { _ in truth }, gyroBias: Vector3(0.02, 0, 0))
        #expect(capped.state.gyroBias.norm <= 0.002 + 1e-12)
        #expect(capped.state.gyroBias.norm > 0.0019)
        // A rate above the cap is never taken for a resting device's bias.
        #expect(!capped.state.atRest)

        params = ComplementaryFilterParams()
        params.restBiasEstimation = false
        params.motionBiasEstimation = false
        params.magBiasEstimation = false
        var off = ComplementaryFilter(params: params)
        simulate(&off, rate: 50, duration: 30, truth: { _ in truth }, gyroBias: Vector3(0.004, -0.003, 0.002))
        #expect(off.state.gyroBias == .zero)
    }

    /// A static device pushed sideways at 8 m/s² for 10 s (a vehicle pulling away), after the
    /// filter's start: the accelerometer leans 39° off vertical for good. Such an acceleration cannot be told from
    /// a tilt by its direction; the filter stops the tilt correction once the specific force,
    /// averaged in the inertial frame over `accelNormTau`, is `accelRejectionEnd` away from g
    /// in norm (here 1.29 g), so only the push's first second leaks in (≈ 4.7°, where the
    /// filter would otherwise lean the full 39°). Weighting each sample by its own |a| would
    /// hold this push perfectly but biases the low-pass under hand-held motion (BROAD trial 15).
    @Test func sustainedAccelerationStopsTheTiltCorrection() {
        func worstTilt(_ params: ComplementaryFilterParams) -> Double {
            let truth = Pose(headingDeg: 90, pitchDeg: 0, rollDeg: 0).orientation
            var f = ComplementaryFilter(params: params)
            var worst = 0.0
            simulate(&f, rate: 100, duration: 15, truth: { _ in truth },
                     linearAcceleration: { t in t < 5 ? .zero : Vector3(8, 0, 0) }, observe: { _, q in
                worst = max(worst, AttitudeError(estimate: q, truth: truth).inclination)
            })
            return worst
        }
        let held = worstTilt(ComplementaryFilterParams())
        let followed = worstTilt(noPrediction { $0.accelRejectionStart = 10; $0.accelRejectionEnd = 20 })
        #expect(held < 5, "\(held)°")
        #expect(followed > 20, "\(followed)°")
    }

    /// Taps and bumps: every 0.5 s a 5 g jolt for 10 ms and the rebound (the board does not
    /// fly off: its velocity returns to zero). They average out in the low-pass.
    @Test func tapsDoNotTilt() {
        let truth = Pose(headingDeg: 30, pitchDeg: 20, rollDeg: 10).orientation
        var f = ComplementaryFilter(params: noPrediction())
        var worst = 0.0
        let jolt = Vector3(30, -20, 25)
        simulate(&f, rate: 200, duration: 20, truth: { _ in truth }, linearAcceleration: { t in
            let k = Int((t * 200).rounded()), phase = k % 100  // samples of 5 ms
            guard t > 5 && phase < 4 else { return .zero }
            return phase < 2 ? jolt : jolt * -1
        }, observe: { t, q in
            if t > 2 { worst = max(worst, AttitudeError(estimate: q, truth: truth).inclination) }
        })
        #expect(worst < 0.9, "\(worst)°")
    }

    @Test func outputIsPredictedBySensorDelay() throws {
        var f = ComplementaryFilter()
        let q0 = Pose(headingDeg: 40, pitchDeg: 0, rollDeg: 0).orientation
        simulate(&f, rate: 100, duration: 3, truth: { t in q0 * Quaternion(rotationVector: Vector3(0.3, 0.2, 1) * t) })
        let pose = try #require(f.pose)
        let rate = f.state.lastRate
        #expect((rate - Vector3(0.3, 0.2, 1)).norm < 1e-6)
        let predicted = f.state.orientation * Quaternion(rotationVector: rate * f.params.sensorDelay)
        #expect(pose.orientation.angle(to: predicted) < 1e-9)
        #expect(pose.orientation.angle(to: f.state.orientation) > 0.5 * rate.norm * f.params.sensorDelay)
        var g = ComplementaryFilter(params: noPrediction())
        g.state = f.state
        #expect(try #require(g.pose).orientation.angle(to: f.state.orientation) < 1e-12)
    }
}
