import Foundation
import POIARCore

/// A quaternion complementary filter in the manner of Valenti, Dryanovski & Xiao ("Keeping a
/// Good Attitude", Sensors 2015) and VQF (Laidig & Seel, "VQF: Highly accurate IMU orientation
/// estimation with bias estimation and magnetic disturbance rejection", Information Fusion
/// 2023). The attitude is q = H(ψ) ⊗ T ⊗ G (see `ComplementaryFilterState`):
///
/// - **gyro**: G ← G ⊗ exp((ω − b)·Δt), the bias-corrected rate integrated alone;
/// - **accelerometer**: the specific force is rotated into G's almost-inertial frame and
///   low-passed there (τ_acc); T then turns that filtered vector straight up, by less or not at
///   all while the filtered |a| is away from g (a sustained acceleration). Linear accelerations
///   average out in that frame, while gravity stands still in it, so tilt is robust to
///   translation without a slow gain;
/// - **gyro bias**: a 3-state Kalman filter, measured directly while the device rests, and in
///   motion from the tilt correction the low-passed gravity keeps asking for (horizontal part)
///   and from the heading correction an undisturbed field keeps asking for (vertical part);
/// - **magnetometer**: the field, less its hard-iron offset, in the 6D frame gives the heading
///   ψ, corrected with τ_mag about the vertical only (a disturbed field never tilts the pose);
///   fields whose norm or dip disagree with the reference are left out, for at most
///   `magMaxRejectionTime`; a new steady field becomes the reference;
/// - **hard iron**: the offset is refitted online (`HardIronFit`).
///
/// Samples arrive one sensor at a time in time order (`updateGyro`, `updateAccel`,
/// `updateMag`); each sensor's step is its own Δt, so any rates, gaps and jitter work. The
/// attitude starts from the first accelerometer and magnetometer samples, or from the
/// accelerometer alone when no magnetometer sample comes (`magStartWait`): the tilt is then
/// absolute and the heading relative (`state.headingIsAbsolute`), until a field arrives.
public struct ComplementaryFilter: Sendable {
    public var params: ComplementaryFilterParams
    public var state = ComplementaryFilterState()
    public var coefficients = ComplementaryFilterCoefficients()

    public init(params: ComplementaryFilterParams = ComplementaryFilterParams()) {
        self.params = params
        state.hardIron = params.magHardIronSeed ?? .zero
        state.biasCovariance = SymmetricMatrix3(diagonal: params.biasSigmaInit * params.biasSigmaInit)
        state.magReference = expectedReference
    }

    public var isInitialized: Bool { state.initialized }
    /// The pose to use now: the attitude predicted `sensorDelay` ahead with the latest
    /// bias-corrected rate (just the attitude when the delay is 0). nil before the start.
    public var pose: Pose? { state.initialized ? Pose(outputAttitude) : nil }

    /// `state.orientation`, predicted `sensorDelay` ahead.
    public var outputAttitude: Quaternion {
        let q = state.composedAttitude()
        guard params.sensorDelay != 0 else { return q }
        return Self.integrate(q, state.lastRate, params.sensorDelay)
    }

    /// The reference field from WMM2025 when the pipeline gave one.
    var expectedReference: (norm: Double, dip: Double)? {
        guard let f = params.expectedFieldUT, f > 0, let d = params.expectedDipDeg else { return nil }
        return (f, d * radPerDeg)
    }

    // MARK: - Gyro

    /// Gyro sample: integrates the bias-corrected rate since the previous gyro sample. Repeated
    /// or backward times are ignored; a step longer than `maxGyroGap` is not integrated, and
    /// the tilt and heading filters start over.
    public mutating func updateGyro(_ rate: Vector3, time: Double) {
        guard let last = state.lastGyroTime else {
            state.lastGyroTime = time
            return
        }
        let dt = time - last
        guard dt > 0 else { return }
        state.lastGyroTime = time
        if dt > params.maxGyroGap {
            restartAfterGap()
            return
        }
        if params.restBiasEstimation || params.magDisturbanceRejection { detectRest(gyro: rate, dt: dt) }
        guard state.initialized else { return }
        let w = rate - state.gyroBias
        state.lastRate = w
        state.gyroAttitude = Self.integrate(state.gyroAttitude, w, dt)
    }

    /// q ⊗ exp(ω·Δt), with the series of sin and cos for the small angles of one sample.
    @inline(__always)
    static func integrate(_ q: Quaternion, _ w: Vector3, _ dt: Double) -> Quaternion {
        let n2 = w.normSquared
        let t2 = n2 * dt * dt  // θ²
        let c: Double, s: Double  // cos(θ/2), sin(θ/2)/|ω|
        if t2 < 4e-4 {
            c = 1 - t2 * (1.0 / 8 - t2 / 384)
            s = dt * 0.5 * (1 - t2 * (1.0 / 24 - t2 / 1920))
        } else {
            let n = n2.squareRoot(), half = 0.5 * n * dt
            c = cos(half)
            s = sin(half) / n
        }
        let dx = w.x * s, dy = w.y * s, dz = w.z * s
        let r = Quaternion(w: q.w * c - q.x * dx - q.y * dy - q.z * dz,
                           x: q.w * dx + q.x * c + q.y * dz - q.z * dy,
                           y: q.w * dy - q.x * dz + q.y * c + q.z * dx,
                           z: q.w * dz + q.x * dy - q.y * dx + q.z * c)
        return normalize(r)
    }

    /// A gyro gap: the rotation over it is unknown, so the tilt low-pass and the heading start
    /// over like at the beginning (a running mean for their first τ).
    mutating func restartAfterGap() {
        state.lastRate = .zero
        state.accelWarmup = 0
        state.headingWarmup = 0
        notAtRest()
        state.restGyroStarted = false
        state.restAccelStarted = false
        state.restMagStarted = false
        state.hardIronFit.reset()
    }

    // MARK: - Rest detection

    /// Rest, VQF's way, made stricter for hand-held use: the gyro and accelerometer stay within
    /// their thresholds of their low-passes for `restMinTime`, the low-passed rate stays below
    /// `maxBias`, and — so that a slow, smooth pan is not taken for a bias — the low-passed
    /// gravity and field directions (device frame) stay within `restMaxAngleDeg` of where they
    /// were when the stillness began.
    mutating func notAtRest() {
        state.restTime = 0
        state.atRest = false
        state.restRefAccelSet = false
        state.restRefMagSet = false
    }

    mutating func detectRest(gyro: Vector3, dt: Double) {
        coefficients.setGyroStep(dt, params)
        if !state.restGyroStarted {
            state.restGyroLP = gyro; state.restGyroLP2 = gyro; state.restGyroStarted = true
        } else {
            let k = coefficients.restGyroGain
            state.restGyroLP = state.restGyroLP + (gyro - state.restGyroLP) * k
            state.restGyroLP2 = state.restGyroLP2 + (state.restGyroLP - state.restGyroLP2) * k
        }
        let d = gyro - state.restGyroLP2
        let th = params.restGyroThreshold, lp = state.restGyroLP2, cap = params.maxBias
        if d.normSquared >= th * th || abs(lp.x) > cap || abs(lp.y) > cap || abs(lp.z) > cap {
            notAtRest()
        }
    }

    mutating func detectRest(accel: Vector3, dt: Double) {
        if !state.restAccelStarted {
            state.restAccelLP = accel; state.restAccelLP2 = accel; state.restAccelStarted = true
            return
        }
        let k = coefficients.restAccelGain
        state.restAccelLP = state.restAccelLP + (accel - state.restAccelLP) * k
        state.restAccelLP2 = state.restAccelLP2 + (state.restAccelLP - state.restAccelLP2) * k
        let d = accel - state.restAccelLP2
        if d.normSquared >= params.restAccelThreshold * params.restAccelThreshold {
            notAtRest()
            return
        }
        if !state.restRefAccelSet {
            state.restRefAccel = state.restAccelLP2; state.restRefAccelSet = true
        } else if !Self.within(state.restAccelLP2, state.restRefAccel, cos: coefficients.restMaxAngleCos) {
            notAtRest()
            return
        }
        state.restTime += dt
        if state.restTime >= params.restMinTime && state.restGyroStarted { state.atRest = true }
    }

    mutating func detectRest(mag: Vector3) {
        if !state.restMagStarted {
            state.restMagLP = mag; state.restMagLP2 = mag; state.restMagStarted = true
            return
        }
        let k = coefficients.restMagGain
        state.restMagLP = state.restMagLP + (mag - state.restMagLP) * k
        state.restMagLP2 = state.restMagLP2 + (state.restMagLP - state.restMagLP2) * k
        guard state.restTime > 0 else { return }
        if !state.restRefMagSet {
            state.restRefMag = state.restMagLP2; state.restRefMagSet = true
        } else if !Self.within(state.restMagLP2, state.restRefMag, cos: coefficients.restMaxAngleCos) {
            notAtRest()
        }
    }

    /// Whether the angle between a and b is at most acos(c) (c > 0), without trigonometry.
    @inline(__always)
    static func within(_ a: Vector3, _ b: Vector3, cos c: Double) -> Bool {
        let d = a.dot(b)
        return d > 0 && d * d >= c * c * a.normSquared * b.normSquared
    }

    /// The bookkeeping shared by accelerometer and magnetometer samples: a sample stepping back
    /// in time is dropped; a zero or non-finite vector is kept out of the filter; the first
    /// accel and mag samples initialise the attitude; during a gyro gap nothing is corrected.
    /// Returns the step to correct over (capped at `maxSampleInterval`), or nil when there is
    /// nothing to correct.
    @inline(__always)
    private mutating func admit(_ v: Vector3, time: Double, accel: Bool) -> Double? {
        let last = accel ? state.lastAccelTime : state.lastMagTime
        let step = last.map { time - $0 } ?? 0
        if step < 0 { return nil }
        if accel {
            state.lastAccelTime = time
            state.latestAccel = v
        } else {
            state.lastMagTime = time
            state.latestMag = v
        }
        let n2 = v.normSquared
        guard n2 > 0, n2.isFinite else { return nil }
        if !state.initialized { tryInitialize(time: time, accel: accel); return nil }
        // While the gyro is silent (longer than `maxGyroGap`) the attitude is held: nothing
        // turns the almost-inertial frame with the device, so the tilt and heading corrections,
        // the bias they measure and the hard-iron fit would take the device's turns for errors
        // (and carry them past the gap). The filters start over when the gyro is back.
        if let g = state.lastGyroTime, time - g > params.maxGyroGap { return nil }
        guard step > 0 else { return nil }
        return min(step, params.maxSampleInterval)
    }

    // MARK: - Accelerometer

    /// Accelerometer sample: initialises, or low-passes gravity in the almost-inertial frame and
    /// turns the tilt to it; then updates the gyro-bias estimate.
    public mutating func updateAccel(_ force: Vector3, time: Double) {
        guard let dt = admit(force, time: time, accel: true) else { return }
        coefficients.setAccelStep(dt, params)
        if params.restBiasEstimation || params.magDisturbanceRejection { detectRest(accel: force, dt: dt) }

        let g = state.gyroAttitude
        let inertial = g.rotate(force)
        // One low-pass for gravity in the I frame and, for the motion bias estimate, for R
        // (device → 6D) and the first two rows of R·b̂: 14 channels in one SIMD vector.
        let r = Matrix9(state.tiltCorrection * g)
        let b = state.gyroBias
        let x = SIMD16<Double>(inertial.x, inertial.y, inertial.z,
                               r.a00, r.a01, r.a02, r.a10, r.a11, r.a12, r.a20, r.a21, r.a22,
                               r.a00 * b.x + r.a01 * b.y + r.a02 * b.z, r.a10 * b.x + r.a11 * b.y + r.a12 * b.z, 0, 0)
        if state.accelWarmup == 0 { state.accelShort = inertial }
        let warming = state.accelWarmup < params.tauAccel
        let y: SIMD16<Double>
        if warming {
            // For the first τ_acc seconds: the running mean of what the low-pass has seen; then
            // the filter starts in the steady state of that mean.
            state.accelWarmup += dt
            state.accelMean += (x - state.accelMean) * (dt / state.accelWarmup)
            y = state.accelMean
            if state.accelWarmup >= params.tauAccel {
                let c = coefficients.accelFilter
                state.accelS0 = y * (1 - c.b0)
                state.accelS1 = y * (c.b2 - c.a2)
            }
        } else {
            let c = coefficients.accelFilter
            y = x * c.b0 + state.accelS0
            state.accelS0 = x * c.b1 - y * c.a1 + state.accelS1
            state.accelS1 = x * c.b2 - y * c.a2
        }
        state.accelFiltered = y
        state.accelShort = state.accelShort + (inertial - state.accelShort) * coefficients.accelShortGain

        // Tilt: turn T so that the filtered gravity points straight up (shortest rotation
        // u → +z, about the horizontal axis u × z), by the fraction `trust`: less, or not at all,
        // while the device keeps accelerating (the specific force averaged in the inertial frame
        // over the last `accelNormTau` seconds, or over τ_acc, away from g in norm: a push, a
        // vehicle). Every sample still enters the low-pass, so its average stays unbiased; a
        // skipped correction is made up when the norms are back near g. (Weighting samples by
        // their own |a| instead would bias the average: for a swinging hand, |a| ≈ g exactly
        // where the velocity, and so what the low-pass still holds of it, is largest.)
        let u0 = state.tiltCorrection.rotate(Vector3(y[0], y[1], y[2]))
        let un = u0.norm
        guard un > 0 else { return }
        let trust = accelTrust(norm: un) * accelTrust(norm: state.accelShort.norm)
        state.lastTiltTrust = trust
        let u = u0 / un
        var corr: Quaternion
        if u.z > -1 + 1e-12 {
            let cw = ((1 + u.z) * 0.5).squareRoot()
            corr = Quaternion(w: cw, x: 0.5 * u.y / cw, y: -0.5 * u.x / cw, z: 0)
        } else {
            corr = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        if trust < 1 {
            // Part of the way: normalised linear interpolation from the identity.
            corr = Self.normalize(Quaternion(w: 1 - trust + trust * corr.w, x: trust * corr.x, y: trust * corr.y, z: 0))
        }
        if trust > 0 { state.tiltCorrection = Self.normalize(corr * state.tiltCorrection) }

        if params.motionBiasEstimation || params.restBiasEstimation {
            // Rotation vector of the correction (earth frame, horizontal): 2·vector part, small.
            updateBias(correction: (2 * corr.x, 2 * corr.y), warming: warming, trust: trust, dt: dt)
        }
    }

    /// The Kalman update of the gyro bias (3 states, covariance P).
    ///
    /// In motion: if the bias estimate is off by e, G turns at e (device frame) against the true
    /// attitude, and gravity, fixed in the world, drifts in G's frame; T must keep turning to
    /// follow it, at the rate −(R·e) (horizontal part, R device → 6D). Both sides go through the
    /// same low-pass as gravity, so the measurement is y = LP(R·b̂) − c/Δt ≈ LP(R)·b for the
    /// correction c applied this step, with H = the first two rows of LP(R).
    /// At rest: the low-passed gyro itself measures b (H = I).
    mutating func updateBias(correction c: (Double, Double), warming: Bool, trust: Double, dt: Double) {
        let b = state.gyroBias
        let y = state.accelFiltered

        // Prediction: the bias may have drifted (variance capped at the initial one).
        let v = coefficients.biasProcessNoise, p0 = params.biasSigmaInit * params.biasSigmaInit
        var p = state.biasCovariance
        if p.xx < p0 { p.xx += v }
        if p.yy < p0 { p.yy += v }
        if p.zz < p0 { p.zz += v }
        let clip = params.maxBias
        @inline(__always) func clamp(_ x: Double) -> Double { min(clip, max(-clip, x)) }

        if state.atRest && params.restBiasEstimation {
            // H = I: S = P + W·I, K = P·S⁻¹.
            let e = state.restGyroLP2 - b
            let w = coefficients.biasRestNoise
            var s = p
            s.xx += w; s.yy += w; s.zz += w
            guard let si = Self.inverse(s) else { state.biasCovariance = p; return }
            let k = Self.product(p, si)  // P·S⁻¹ (symmetric: P and S commute as S = P + wI)
            let ec = Vector3(clamp(e.x), clamp(e.y), clamp(e.z))
            state.gyroBias = b + k.times(ec)
            // P ← P − K·P
            p = Self.subtractProduct(p, k, p)
        } else if params.motionBiasEstimation && !warming && trust > 0 {
            let h0 = Vector3(y[3], y[4], y[5]), h1 = Vector3(y[6], y[7], y[8])
            let e0 = clamp(y[12] - c.0 / dt - h0.dot(b))
            let e1 = clamp(y[13] - c.1 / dt - h1.dot(b))
            let w = coefficients.biasMotionNoise / trust
            let ph0 = p.times(h0), ph1 = p.times(h1)
            let s00 = h0.dot(ph0) + w, s01 = h0.dot(ph1), s11 = h1.dot(ph1) + w
            let det = s00 * s11 - s01 * s01
            if det > 0 {
                let inv = 1 / det
                let k0 = (ph0 * s11 - ph1 * s01) * inv
                let k1 = (ph1 * s00 - ph0 * s01) * inv
                state.gyroBias = b + k0 * e0 + k1 * e1
                // P ← P − K·H·P = P − k0·ph0ᵀ − k1·ph1ᵀ
                p.xx -= k0.x * ph0.x + k1.x * ph1.x
                p.yy -= k0.y * ph0.y + k1.y * ph1.y
                p.zz -= k0.z * ph0.z + k1.z * ph1.z
                p.xy -= k0.x * ph0.y + k1.x * ph1.y
                p.xz -= k0.x * ph0.z + k1.x * ph1.z
                p.yz -= k0.y * ph0.z + k1.y * ph1.z
            }
        }
        state.biasCovariance = p
        state.gyroBias = capBias(state.gyroBias)
    }

    /// The bias estimate, its magnitude capped at `maxBias`.
    @inline(__always)
    func capBias(_ b: Vector3) -> Vector3 {
        let n2 = b.normSquared, cap = params.maxBias
        return n2 <= cap * cap ? b : b * (cap / n2.squareRoot())
    }

    /// 1 when |a| ≈ g, falling linearly to 0 as |a| departs from g (taps, bumps, hard pushes).
    func accelTrust(_ a: Vector3) -> Double { accelTrust(norm: a.norm) }

    @inline(__always)
    func accelTrust(norm: Double) -> Double {
        let deviation = abs(norm - params.gravity) / params.gravity
        if deviation <= params.accelRejectionStart { return 1 }
        if deviation >= params.accelRejectionEnd { return 0 }
        return (params.accelRejectionEnd - deviation) / (params.accelRejectionEnd - params.accelRejectionStart)
    }

    // MARK: - Magnetometer

    /// Magnetometer sample: initialises, or refits the hard iron, checks the field for
    /// disturbance and turns the heading toward (true) north.
    public mutating func updateMag(_ field: Vector3, time: Double) {
        guard let dt = admit(field, time: time, accel: false) else { return }
        if !state.headingIsAbsolute {
            startAbsoluteHeading(field)
            return
        }
        coefficients.setMagStep(dt, params)

        if params.restBiasEstimation { detectRest(mag: field) }
        let r = Matrix9(state.tiltCorrection * state.gyroAttitude)
        if params.hardIronEstimation { learnHardIron(r, field, dt) }
        let e = r.times(field - state.hardIron)  // the field in the 6D frame
        if params.magDisturbanceRejection { detectDisturbance(e, dt) }

        // Heading error: azimuth of the horizontal field in the ENU frame minus the declination.
        let hw = state.heading.w, hz = state.heading.z
        let c = hw * hw - hz * hz, s = 2 * hw * hz  // cos ψ, sin ψ
        let ex = c * e.x - s * e.y, ey = s * e.x + c * e.y
        let h2 = ex * ex + ey * ey
        guard h2 > 1e-18 * e.normSquared else { return }  // vertical field: no heading information
        let err = wrapPi(atan2(ex, ey) - params.declinationDeg * radPerDeg)

        var k = coefficients.magGain
        if params.magDisturbanceRejection {
            if state.magDisturbed {
                if state.magRejectTime <= params.magMaxRejectionTime {
                    state.magRejectTime += dt
                    k = 0
                } else {
                    k /= params.magRejectionFactor
                }
            } else {
                state.magRejectTime = max(state.magRejectTime - params.magRejectionFactor * dt, 0)
            }
        }
        let warming = state.headingWarmup < params.tauMag
        if warming {
            // Running mean for the first τ_mag seconds: a quick, steady start.
            state.headingWarmup += dt
            k = max(k, dt / state.headingWarmup)
        }
        guard k > 0 else { return }
        if params.magBiasEstimation && !warming && !state.magDisturbed && !state.atRest {
            updateVerticalBias(r, correction: k * err, dt: dt)
        }
        state.heading = Self.turnAboutUp(state.heading, k * err)
    }

    /// The heading correction the field keeps asking for measures the vertical part of the bias
    /// error the way the tilt correction measures the horizontal part (see `updateBias`): if the
    /// bias is off by e, the 6D frame turns about the vertical at (R·e)_z against the world,
    /// and in steady state the heading follows at that rate. Both sides go through the heading
    /// loop's own first-order lag (τ_mag): y = LP(R·b̂)_z − c/Δt ≈ LP(R)_z·b (H = LP of R's
    /// third row). Used only while the field looks undisturbed.
    mutating func updateVerticalBias(_ r: Matrix9, correction c: Double, dt: Double) {
        let b = state.gyroBias
        let row = Vector3(r.a20, r.a21, r.a22)
        let k = coefficients.magGain
        if !state.magBiasLPStarted {
            state.magBiasRow = row; state.magBiasRotated = row.dot(b); state.magBiasLPStarted = true
        } else {
            state.magBiasRow = state.magBiasRow + (row - state.magBiasRow) * k
            state.magBiasRotated += k * (row.dot(b) - state.magBiasRotated)
        }
        let clip = params.maxBias
        let h = state.magBiasRow
        let e = min(clip, max(-clip, state.magBiasRotated - c / dt - h.dot(b)))
        var p = state.biasCovariance
        let ph = p.times(h)
        let sInv = 1 / (h.dot(ph) + coefficients.biasMagNoise)
        let gain = ph * sInv
        let nb = b + gain * e
        state.gyroBias = capBias(nb)
        // P ← P − K·hᵀ·P = P − (P h)(P h)ᵀ / s
        p.xx -= gain.x * ph.x; p.yy -= gain.y * ph.y; p.zz -= gain.z * ph.z
        p.xy -= gain.x * ph.y; p.xz -= gain.x * ph.z; p.yz -= gain.y * ph.z
        state.biasCovariance = p
    }

    /// H(ψ + a) from H(ψ).
    @inline(__always)
    static func turnAboutUp(_ h: Quaternion, _ a: Double) -> Quaternion {
        let c: Double, s: Double
        if abs(a) < 2e-2 {
            let a2 = a * a
            c = 1 - a2 * (1.0 / 8 - a2 / 384)
            s = a * 0.5 * (1 - a2 * (1.0 / 24 - a2 / 1920))
        } else {
            c = cos(a / 2); s = sin(a / 2)
        }
        let w = c * h.w - s * h.z, z = c * h.z + s * h.w
        let n = 1 / (w * w + z * z).squareRoot()
        return Quaternion(w: w * n, x: 0, y: 0, z: z * n)
    }

    /// Norm and dip of the field (6D frame) against the reference, VQF's way: a field that
    /// disagrees is disturbed at once, and used again after `magMinUndisturbedTime` of
    /// agreement; a steady candidate becomes the new reference after `magNewTime` of turning
    /// (`magNewFirstTime`, turning or not, when there is no reference yet).
    mutating func detectDisturbance(_ e: Vector3, _ dt: Double) {
        let norm = e.norm
        let dip = asin(max(-1, min(1, -e.z / norm)))
        if !state.magLPStarted {
            state.magNormLP = norm; state.magDipLP = dip; state.magLPStarted = true
        } else {
            let kc = coefficients.magCurrentGain
            state.magNormLP += kc * (norm - state.magNormLP)
            state.magDipLP += kc * (dip - state.magDipLP)
        }
        let n = state.magNormLP, d = state.magDipLP
        let dipTh = params.magDipThresholdDeg * radPerDeg, kRef = coefficients.magRefGain

        if state.magRefNorm > 0 {
            if abs(n - state.magRefNorm) < params.magNormThreshold * state.magRefNorm && abs(d - state.magRefDip) < dipTh {
                state.magUndisturbedTime += dt
                if state.magUndisturbedTime >= params.magMinUndisturbedTime {
                    state.magDisturbed = false
                    state.magRefNorm += kRef * (n - state.magRefNorm)
                    state.magRefDip += kRef * (d - state.magRefDip)
                }
            } else {
                state.magUndisturbedTime = 0
                state.magDisturbed = true
            }
        } else {
            state.magDisturbed = false
        }

        if state.magCandidateNorm > 0 && abs(n - state.magCandidateNorm) < params.magNormThreshold * state.magCandidateNorm
            && abs(d - state.magCandidateDip) < dipTh {
            if state.magRefNorm == 0 || state.restGyroLP2.normSquared >= params.magNewMinRate * params.magNewMinRate {
                state.magCandidateTime += dt
            }
            state.magCandidateNorm += kRef * (n - state.magCandidateNorm)
            state.magCandidateDip += kRef * (d - state.magCandidateDip)
            let first = state.magRefNorm == 0 && state.magCandidateTime >= params.magNewFirstTime
            if first || (state.magDisturbed && state.magCandidateTime >= params.magNewTime) {
                state.magRefNorm = state.magCandidateNorm
                state.magRefDip = state.magCandidateDip
                state.magDisturbed = false
                state.magUndisturbedTime = params.magMinUndisturbedTime
            }
        } else {
            state.magCandidateTime = 0
            state.magCandidateNorm = n
            state.magCandidateDip = d
        }
    }

    /// Adds a sample to the hard-iron fit; at each block's end, uses the fit when the turns
    /// pinned the offset down and the fit explains the field. If the current offset explains the
    /// window badly, and twice as badly as the fit (a magnet came or went), the fitted one
    /// replaces it at once, and the reference becomes the fitted field; otherwise the offset
    /// moves toward the fit: to the mean of the fits since the last jump, or with `hardIronTau`.
    mutating func learnHardIron(_ r: Matrix9, _ m: Vector3, _ dt: Double) {
        state.hardIronFit.add(rotation: r, field: m, rotated: r.times(m), weight: dt)
        let window = params.hardIronWindow
        guard let fit = state.hardIronFit.closeBlockIfDue(window: window, regularization: params.hardIronRegularization,
                                                          prior: state.hardIron) else { return }
        let h = fit.field.norm, limit = params.hardIronMaxResidual * h
        guard fit.excitation >= params.hardIronMinExcitation, h > 0, fit.residual <= limit, fit.offset.isFinite else { return }
        if fit.priorResidual > max(limit, 2 * fit.residual) {
            let change = (fit.offset - state.hardIron).norm
            state.hardIron = fit.offset
            state.hardIronFitsSinceJump = 1
            if change > params.magNormThreshold * h {
                // The reference was measured through the wrong offset: take the fitted field's
                // (it includes whatever part of the offset the turns could not tell apart from
                // the earth's field, e.g. the vertical one when turning about the vertical only).
                let f = fit.field
                state.magReference = (h, asin(max(-1, min(1, -f.z / h))))
                state.magCandidateNorm = -1
                state.magCandidateTime = 0
                state.magUndisturbedTime = 0
                state.magDisturbed = false
                // If the field through the new offset points more than
                // `hardIronHeadingResetDeg` away from the heading, the heading came through
                // the wrong offset too (it started from an uncalibrated field): start it over,
                // a running mean for τ_mag as at the beginning. (A heading the gyro held while
                // the field was rejected agrees, and is kept.)
                let hw = state.heading.w, hz = state.heading.z
                let c = hw * hw - hz * hz, sn = 2 * hw * hz
                let az = atan2(c * f.x - sn * f.y, sn * f.x + c * f.y)
                if abs(wrapPi(az - params.declinationDeg * radPerDeg)) > params.hardIronHeadingResetDeg * radPerDeg {
                    state.headingWarmup = 0
                }
            }
        } else if fit.fullExcitation >= params.hardIronMinExcitation || state.hardIronFitsSinceJump != nil {
            // Refined by fits that pin every direction down; after a jump also by those that
            // pin two (each fit leaves the rest at the current offset): the mean of the fits
            // since the jump, then slowly (`hardIronTau`).
            var k = ComplementaryFilterCoefficients.gain(step: window / Double(HardIronFit.blocks), tau: params.hardIronTau)
            if let n = state.hardIronFitsSinceJump {
                state.hardIronFitsSinceJump = n + 1
                k = max(k, 1 / Double(n + 1))
            }
            state.hardIron = state.hardIron + (fit.offset - state.hardIron) * k
        }
    }

    // MARK: - Start

    /// The start: from the first accel and mag samples (heading from the field, absolute); or,
    /// when no mag sample has come `magStartWait` seconds after the first accel sample, from
    /// the accelerometer alone, with a relative heading (`headingIsAbsolute` false): the
    /// device's facing direction (`facingAxis`) then points to azimuth 0.
    private mutating func tryInitialize(time: Double, accel: Bool) {
        guard let a = state.latestAccel else { return }
        if accel && state.firstAccelTime == nil { state.firstAccelTime = time }
        guard let mRaw = state.latestMag else {
            if accel, let first = state.firstAccelTime, time - first >= params.magStartWait {
                startTilt(a)
                state.heading = Self.headingQuaternion(Self.relativeHeadingStart(state.tiltCorrection))
                state.headingIsAbsolute = false
                state.initialized = true
            }
            return
        }
        let m = mRaw - state.hardIron
        let up = a.normalized
        guard m.cross(up).norm > 1e-9 * m.norm else { return }
        startTilt(a)
        // H: the heading that puts the field's azimuth at the declination.
        let e = state.tiltCorrection.rotate(m)
        let psi = atan2(e.x, e.y) - params.declinationDeg * radPerDeg
        state.heading = Quaternion(w: cos(psi / 2), x: 0, y: 0, z: sin(psi / 2))
        state.headingWarmup = 0
        state.headingIsAbsolute = true
        state.initialized = true
    }

    /// G = identity, T = the shortest rotation taking `a` up; the accel low-pass starts over.
    private mutating func startTilt(_ a: Vector3) {
        let up = a.normalized
        state.gyroAttitude = .identity
        let cw = ((1 + up.z) * 0.5).squareRoot()
        state.tiltCorrection = cw > 1e-9
            ? Quaternion(w: cw, x: 0.5 * up.y / cw, y: -0.5 * up.x / cw, z: 0) : Quaternion(w: 0, x: 1, y: 0, z: 0)
        state.accelShort = a
        state.accelWarmup = 0
    }

    /// The device's facing direction (device frame): the back camera's axis (−z) plus the top
    /// edge (+y). Its azimuth is the camera's when the device is upright and the top edge's
    /// when it lies flat, and blends smoothly between (the HUD uses the same definition).
    public static let facingAxis = Vector3(0, 1, -1)

    /// ψ of H(ψ) that puts the facing axis of an attitude whose 6D part is `tilt` (heading from
    /// the gyro only) at azimuth 0. If that axis is vertical (the device tilted exactly 45°
    /// with its x axis level), the top edge's azimuth is used.
    static func relativeHeadingStart(_ tilt: Quaternion) -> Double {
        var e = tilt.rotate(facingAxis)
        if e.x * e.x + e.y * e.y < 1e-12 { e = tilt.rotate(Vector3(0, 1, 0)) }
        guard e.x * e.x + e.y * e.y >= 1e-12 else { return 0 }
        return atan2(e.x, e.y)
    }

    @inline(__always)
    static func headingQuaternion(_ psi: Double) -> Quaternion {
        Quaternion(w: cos(psi / 2), x: 0, y: 0, z: sin(psi / 2))
    }

    /// A relative heading becomes absolute at the first magnetometer sample after a start
    /// without one: ψ is set from the field (as at an ordinary start) and the heading filter
    /// starts over.
    private mutating func startAbsoluteHeading(_ field: Vector3) {
        let e = attitude6DMatrix.times(field - state.hardIron)
        guard e.x * e.x + e.y * e.y > 1e-18 * e.normSquared else { return }
        state.heading = Self.headingQuaternion(atan2(e.x, e.y) - params.declinationDeg * radPerDeg)
        state.headingWarmup = 0
        state.headingIsAbsolute = true
    }

    private var attitude6DMatrix: Matrix9 { Matrix9(state.tiltCorrection * state.gyroAttitude) }

    /// The attitude in which `accel` points up and `mag` points (declination-corrected) north:
    /// the device's east, north and up axes are the rows of R(q).
    public static func attitude(accel: Vector3, mag: Vector3, declinationDeg: Double = 0) -> Quaternion? {
        let up = accel.normalized
        let eastRaw = mag.cross(up)  // north × up = east, for any field dip
        guard eastRaw.norm > 1e-9 * mag.norm * accel.norm else { return nil }
        let east = eastRaw.normalized
        let north = up.cross(east)
        let magnetic = Quaternion(matrix: Matrix3(rows: east, north, up))
        // Magnetic north lies `declination` east of true north: turn the frame by −D about up
        // so that the field's azimuth reads +D.
        return (Quaternion(axis: Vector3(0, 0, 1), angle: -radians(declinationDeg)) * magnetic).normalized
    }

    // MARK: - Small maths

    @inline(__always)
    static func normalize(_ q: Quaternion) -> Quaternion {
        let n = 1 / (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        return Quaternion(w: q.w * n, x: q.x * n, y: q.y * n, z: q.z * n)
    }

    static func inverse(_ a: SymmetricMatrix3) -> SymmetricMatrix3? {
        let c00 = a.yy * a.zz - a.yz * a.yz
        let c01 = a.xz * a.yz - a.xy * a.zz
        let c02 = a.xy * a.yz - a.xz * a.yy
        let det = a.xx * c00 + a.xy * c01 + a.xz * c02
        guard det != 0, det.isFinite else { return nil }
        let i = 1 / det
        return SymmetricMatrix3(xx: c00 * i, yy: (a.xx * a.zz - a.xz * a.xz) * i, zz: (a.xx * a.yy - a.xy * a.xy) * i,
                                xy: c01 * i, xz: c02 * i, yz: (a.xy * a.xz - a.xx * a.yz) * i)
    }

    /// A·B for symmetric A, B that commute (so the product is symmetric).
    static func product(_ a: SymmetricMatrix3, _ b: SymmetricMatrix3) -> SymmetricMatrix3 {
        SymmetricMatrix3(xx: a.xx * b.xx + a.xy * b.xy + a.xz * b.xz,
                         yy: a.xy * b.xy + a.yy * b.yy + a.yz * b.yz,
                         zz: a.xz * b.xz + a.yz * b.yz + a.zz * b.zz,
                         xy: a.xx * b.xy + a.xy * b.yy + a.xz * b.yz,
                         xz: a.xx * b.xz + a.xy * b.yz + a.xz * b.zz,
                         yz: a.xy * b.xz + a.yy * b.yz + a.yz * b.zz)
    }

    /// P − K·P (symmetric result).
    static func subtractProduct(_ p: SymmetricMatrix3, _ k: SymmetricMatrix3, _ q: SymmetricMatrix3) -> SymmetricMatrix3 {
        let kp = product(k, q)
        return SymmetricMatrix3(xx: p.xx - kp.xx, yy: p.yy - kp.yy, zz: p.zz - kp.zz,
                                xy: p.xy - kp.xy, xz: p.xz - kp.xz, yz: p.yz - kp.yz)
    }
}

/// Wraps radians to (−π, π].
@inlinable func wrapPi(_ a: Double) -> Double {
    if a > -.pi && a <= .pi { return a }
    var x = a.truncatingRemainder(dividingBy: 2 * .pi)
    if x > .pi { x -= 2 * .pi } else if x <= -.pi { x += 2 * .pi }
    return x
}

/// One sensor sample for `ComplementaryFilter.process` (a compact, in-memory form of a log).
public struct FilterSample: Sendable, Equatable {
    public enum Sensor: UInt8, Sendable { case gyro, accel, mag }
    public var sensor: Sensor
    public var time: Double
    public var value: Vector3
    public init(_ sensor: Sensor, time: Double, value: Vector3) {
        self.sensor = sensor; self.time = time; self.value = value
    }
}

extension ComplementaryFilter {
    /// Feeds samples in order; after each gyro sample, `onPose` gets the time and the output
    /// attitude (`outputAttitude`) once the filter has one.
    public mutating func process(_ samples: [FilterSample], onPose: (Double, Quaternion) -> Void = { _, _ in }) {
        for s in samples {
            switch s.sensor {
            case .gyro:
                updateGyro(s.value, time: s.time)
                if state.initialized { onPose(s.time, outputAttitude) }
            case .accel: updateAccel(s.value, time: s.time)
            case .mag: updateMag(s.value, time: s.time)
            }
        }
    }
}
