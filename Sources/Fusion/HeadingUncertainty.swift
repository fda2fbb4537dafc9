import Foundation
import POIARCore

/// The numbers of the heading's uncertainty model (`HeadingUncertainty`), calibrated against
/// the optical truth of the BROAD trials (docs/fusion-performance.md, "How far to trust the
/// heading"). Angles in radians, times in seconds.
public struct HeadingSigmaParams: Sendable, Equatable {
    /// rad/√s (default 0.05°/√s): the gyro's angle random walk about the vertical.
    public var angleRandomWalk = 0.05 * radPerDeg
    /// rad (default 0.1°): heading error per √radian turned about the vertical (the gyro's
    /// scale factor and axis misalignment, which a turn multiplies and the next turn back
    /// partly undoes; a random walk in the angle turned).
    public var turnNoise = 0.1 * radPerDeg
    /// rad·√s (default 1.5°·√s): white noise of the field's heading, as its root spectral
    /// density: one second of samples averaged has this error.
    public var magNoise = 1.5 * radPerDeg
    /// rad (default 0.5°): the heading error an undisturbed field still has and no averaging
    /// removes: the calibration's residue, the field's own bend in a room or a street.
    public var magFloor = 0.5 * radPerDeg
    /// rad (default 5°, cross-validated on BROAD: `benchmarks/heading_sigma_cv.py`): added to
    /// the floor while the magnetometer is not calibrated (the
    /// device has not turned enough to tell a hard-iron offset from the earth's field): an
    /// offset of a tenth of the horizontal field turns the heading by 6°.
    public var uncalibratedFloor = 5 * radPerDeg
    /// rad (default 180°): how widely the device must have turned about the vertical (the
    /// span of its azimuths so far) before the causal filter's own hard-iron fit has seen the
    /// offset from enough sides, and the magnetometer counts as calibrated (offline, the whole
    /// recording's calibration says). Half a turn is what the whole-recording calibration
    /// asks for too (`magCalibrationMinCoverage`).
    public var calibrationTurn = Double.pi
    /// rad (default 120°): or how far the device must have turned about any axis from its
    /// attitude at the start: a board turned over about a horizontal axis shows the offset
    /// from opposite sides too, though its azimuth hardly changes (BROAD's slow rotations:
    /// their azimuth spans less than half a turn for most of the trial).
    public var calibrationRotation = 120 * radPerDeg
    /// Default 0.35: the field's bend (rad) per unit of the RMS disagreement between the field's
    /// heading and the filter's (averaged over `innovationTau`, then its square over τ_mag).
    /// Where a magnet or steel nearby bends the field from place to place, the heading the
    /// gyro carries and the heading the field gives part by about as much as the field is bent.
    public var innovationGain = 0.35
    /// s (default 1): the disagreement is averaged this long first, so the field's white noise,
    /// which the heading averages away, does not count as a bend.
    public var innovationTau = 1.0
    /// rad (default 10°): the heading's uncertainty at its start from one field sample, and
    /// after a gyro gap before the field corrects it again.
    public var startSigma = 10 * radPerDeg

    public init() {}

    /// The numbers by name, for `poiar pose --param` (prefixed `headingSigma.`).
    public static var numericFields: [String: WritableKeyPath<HeadingSigmaParams, Double>] { [
        "angleRandomWalk": \.angleRandomWalk, "turnNoise": \.turnNoise, "magNoise": \.magNoise, "magFloor": \.magFloor,
        "innovationGain": \.innovationGain, "innovationTau": \.innovationTau, "startSigma": \.startSigma, "uncalibratedFloor": \.uncalibratedFloor,
        "calibrationTurn": \.calibrationTurn, "calibrationRotation": \.calibrationRotation,
    ] }
}

/// How far the heading can be trusted (issue 26, item 5): the variance of the heading error,
/// propagated beside the filter from its own state after each gyro sample. Kept out of the
/// filter's arithmetic: it reads what the filter did (the correction it applied, whether the
/// field was rejected, the bias it is unsure of, a gyro gap) and never changes it.
///
/// The heading error e follows
///   de/dt = −k·e + e_b + n_gyro + k·n_mag,
/// with k the rate of the field's correction (1/τ_mag; 1/t over the running mean after a
/// start; 0 while the field is rejected or absent), e_b the vertical gyro-bias error (the
/// filter's own bias covariance, seen about the world's vertical), n_gyro the angle random
/// walk and the scale error of turns, and n_mag the field's white heading noise. Its variance
/// (`drift`) and covariance with e_b are integrated per gyro step. On top, the field's
/// systematic error (`systematic`): the floor of an undisturbed field plus what the field's
/// departure from its reference says it is bent by, taken in at the rate k, held while the
/// field is rejected.
///
/// Offline, the forward and backward passes' drifts are independent and their systematic
/// errors the same field's: `combined` weighs them as the blend does, and widens the drift
/// when the two passes disagree by more than it allows.
public struct HeadingUncertainty: Sendable {
    /// Variance, rad², of the heading error a gyro-bias error leaves: the lag of the field's
    /// correction behind it, and its drift while the field is not used. A backward pass lags
    /// the other way, by as much for the same bias error.
    public private(set) var biasDrift = 0.0
    /// Variance, rad², of the heading error the passes do not share: the gyro's noise and
    /// scale errors since the corrections, the field's noise, the start.
    public private(set) var noiseDrift = 0.0
    /// Both: the variance of the heading error besides the field's systematic one.
    /// (`@inlinable`, as `sigma`: a call from another module copies the whole struct first.)
    @inlinable public var drift: Double { biasDrift + noiseDrift }
    /// Variance, rad², of the field's systematic heading error carried by the heading.
    public private(set) var systematic = 0.0
    /// Covariance of the heading error and the vertical bias error, rad²/s.
    var crossBias = 0.0
    var lastTime: Double?
    var started = false
    /// The field's heading less the filter's, rad: averaged over `innovationTau`, and its
    /// square over τ_mag.
    var innovation = 0.0, innovationSquare = 0.0
    /// The azimuth turned through since the start (signed, unwrapped) and its extremes, rad
    /// (for `calibrationTurn`).
    var yaw = 0.0, yawMin = 0.0, yawMax = 0.0
    /// The attitude at the start and whether the device has since turned `calibrationRotation`
    /// from it about any axis.
    var startAttitude: Quaternion?, turnedOver = false, turnedOverCos = Double.nan
    /// Whether the magnetometer is calibrated: nil to tell from the turns seen so far (causal);
    /// offline, the whole recording's calibration.
    public var calibrated: Bool?

    public init(calibrated: Bool? = nil) { self.calibrated = calibrated }

    /// The 68 % bound of the heading error, rad (at most π: any heading is within π).
    @inlinable public var sigma: Double { min((drift + systematic).squareRoot(), .pi) }

    /// After each gyro sample of `filter` (at `time`; the backward pass's negated time).
    public mutating func update(_ filter: ComplementaryFilter, time: Double) {
        var filter = filter
        update(&filter, time: time)
    }

    /// The same, the filter taken by reference (it is not changed): the offline passes call it
    /// after every gyro sample, and a 2 KB filter handed over by value is copied for each call.
    @inline(__always)
    public mutating func update(_ filter: inout ComplementaryFilter, time: Double) {
        let s = filter.state, p = filter.params, hp = p.headingSigma
        guard s.initialized else { lastTime = time; return }
        guard started, let last = lastTime else {
            started = true
            lastTime = time
            restart(s, hp, afterGap: false)
            return
        }
        let dt = time - last
        guard dt > 0 else { return }
        lastTime = time
        if dt > p.maxGyroGap {
            // The attitude was held across the gap while the device may have turned: with a
            // field the heading starts over from it, without one it is anywhere.
            restart(s, hp, afterGap: true)
            return
        }
        // The world's vertical in the device frame (third row of R(T ⊗ G)).
        let q = s.attitude6D
        let up = Vector3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
        let c = s.biasCovariance
        let biasVar = up.x * up.x * c.xx + up.y * up.y * c.yy + up.z * up.z * c.zz
            + 2 * (up.x * up.y * c.xy + up.x * up.z * c.xz + up.y * up.z * c.yz)
        let yawStep = up.dot(s.lastRate) * dt
        let turn = abs(yawStep)
        yaw += yawStep
        yawMin = min(yawMin, yaw); yawMax = max(yawMax, yaw)
        if !turnedOver, let q0 = startAttitude {
            // |cos(angle/2)| of the rotation from the start.
            if turnedOverCos.isNaN { turnedOverCos = cos(hp.calibrationRotation / 2) }
            turnedOver = abs(q0.w * q.w + q0.x * q.x + q0.y * q.y + q0.z * q.z) < turnedOverCos
        } else if startAttitude == nil {
            startAttitude = q
        }
        let k = correctionRate(filter, time: time)
        let x = k * dt
        let decay = x < 1e-2 ? 1 - x + x * x / 2 : exp(-x)
        biasDrift = decay * decay * biasDrift + 2 * crossBias * dt + biasVar * dt * dt
        noiseDrift = decay * decay * noiseDrift
            + hp.angleRandomWalk * hp.angleRandomWalk * dt + hp.turnNoise * hp.turnNoise * turn
            + k * k * hp.magNoise * hp.magNoise * dt
        crossBias = decay * crossBias + biasVar * dt
        if let d = fieldDisagreement(filter) {
            innovation += (d - innovation) * min(1, dt / hp.innovationTau)
            innovationSquare += (innovation * innovation - innovationSquare) * min(1, dt / max(p.tauMag, dt))
        }
        if k > 0 { systematic += (fieldError(hp) - systematic) * (1 - decay) }
    }

    /// The field's heading (its latest sample, in the filter's attitude) less the filter's, rad;
    /// nil without a usable field.
    @inline(__always)
    func fieldDisagreement(_ f: ComplementaryFilter) -> Double? {
        let s = f.state
        guard s.headingIsAbsolute, let m = s.latestMag else { return nil }
        let e = s.composedAttitude().rotate(m - s.hardIron)
        guard e.x * e.x + e.y * e.y > 1e-18 * e.normSquared else { return nil }
        return wrapPi(atan2(e.x, e.y) - f.params.declinationDeg * radPerDeg)
    }

    /// At a start or after a gap: the first field sample's error (or, without a field, none:
    /// a relative heading starts at its own zero; after a gap, anywhere).
    mutating func restart(_ s: ComplementaryFilterState, _ hp: HeadingSigmaParams, afterGap: Bool) {
        crossBias = 0
        biasDrift = 0
        if s.headingIsAbsolute {
            noiseDrift = hp.startSigma * hp.startSigma
            systematic = fieldError(hp)
        } else {
            noiseDrift = afterGap ? Double.pi * Double.pi / 3 : 0  // (a uniform error's variance)
            systematic = 0
        }
    }

    /// The rate, 1/s, at which the field is turning the heading now, as `updateMag` does it.
    @inline(__always)
    func correctionRate(_ f: ComplementaryFilter, time: Double) -> Double {
        let s = f.state, p = f.params
        guard s.headingIsAbsolute, p.tauMag > 0, let m = s.lastMagTime, abs(time - m) <= p.maxSampleInterval * 10 else { return 0 }
        if p.magDisturbanceRejection && s.magDisturbed {
            if s.magRejectTime <= p.magMaxRejectionTime { return 0 }
            return 1 / (p.tauMag * p.magRejectionFactor)
        }
        if s.headingWarmup < p.tauMag { return 1 / max(s.headingWarmup, p.maxSampleInterval) }
        return 1 / p.tauMag
    }

    /// Variance, rad², of the field's error the heading takes in: the floor (more while the
    /// magnetometer is not calibrated), and the bend the field's disagreement with the
    /// filter's heading says it has.
    @inline(__always)
    func fieldError(_ hp: HeadingSigmaParams) -> Double {
        var e2 = hp.magFloor * hp.magFloor + hp.innovationGain * hp.innovationGain * innovationSquare
        if !(calibrated ?? (turnedOver || yawMax - yawMin >= hp.calibrationTurn)) { e2 += hp.uncalibratedFloor * hp.uncalibratedFloor }
        return e2
    }

    /// One pass's variances at one sample, as the offline pass keeps them (rad²).
    public struct Variances: Sendable {
        public var bias: Float, noise: Float, systematic: Float
        public init(_ u: HeadingUncertainty) {
            bias = Float(u.biasDrift); noise = Float(u.noiseDrift); systematic = Float(u.systematic)
        }
        public init(bias: Float, noise: Float, systematic: Float) { self.bias = bias; self.noise = noise; self.systematic = systematic }
    }

    /// The heading's 68 % bound, rad, of the offline blend: the backward pass's share `alpha`
    /// of the heading, the two passes' variances, and `difference`, their headings apart
    /// (rad). Their noise is independent; a bias error turns them opposite ways (each lags
    /// behind it in its own direction of time), so that part cancels in the blend as far as
    /// the two are alike; their systematic errors come from the same field and add as one. A
    /// difference beyond what all that allows shows the drifts are underrated, and widens
    /// them to it.
    @inline(__always)
    public static func combined(forward f: Variances, backward b: Variances, alpha: Double, difference: Double) -> Double {
        let nf = Double(f.noise), nb = Double(b.noise)
        let bf = Double(f.bias).squareRoot(), bb = Double(b.bias).squareRoot()
        let af = 1 - alpha
        let seen = difference * difference, allowed = nf + nb + (bf + bb) * (bf + bb)
        let widen = allowed > 0 && seen > allowed ? seen / allowed : 1
        let lag = af * bf - alpha * bb
        let shared = af * Double(f.systematic).squareRoot() + alpha * Double(b.systematic).squareRoot()
        let v = widen * (af * af * nf + alpha * alpha * nb + lag * lag) + shared * shared
        return min(v.squareRoot(), .pi)
    }
}
