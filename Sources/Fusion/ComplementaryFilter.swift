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

    /// `state.orientation`, predicted `sensorDelay` ahead. (Inlined: the offline passes store
    /// it after every gyro sample, and a call would copy the whole filter first.)
    public var outputAttitude: Quaternion {
        @inline(__always) get {
        let q = state.composedAttitude()
        guard params.sensorDelay != 0 else { return q }
        return Self.integrate(q, state.lastRate, params.sensorDelay)
        }
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
        state.restGyro.started = false
        state.restAccel.started = false
        state.restMag.started = false
        state.hardIronFit.reset()
    }

    /// The bookkeeping shared by accelerometer and magnetometer samples: a sample stepping back
    /// in time is dropped; a zero or non-finite vector is kept out of the filter; the first
    /// accel and mag samples initialise the attitude; during a gyro gap nothing is corrected.
    /// Returns the step to correct over (capped at `maxSampleInterval`), or nil when there is
    /// nothing to correct.
    @inline(__always)
    mutating func admit(_ v: Vector3, time: Double, accel: Bool) -> Double? {
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
            let e = state.restGyro.value - b
            let w = coefficients.biasRestNoise
            var s = p
            s.xx += w; s.yy += w; s.zz += w
            guard let si = s.inverse() else { state.biasCovariance = p; return }
            let k = SymmetricMatrix3.product(p, si)  // P·S⁻¹ (symmetric: P and S commute as S = P + wI)
            let ec = Vector3(clamp(e.x), clamp(e.y), clamp(e.z))
            state.gyroBias = b + k.times(ec)
            // P ← P − K·P
            p = SymmetricMatrix3.subtractProduct(p, k, p)
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
    mutating func startAbsoluteHeading(_ field: Vector3) {
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
}

/// Wraps radians to (−π, π].
@inlinable func wrapPi(_ a: Double) -> Double {
    if a > -.pi && a <= .pi { return a }
    var x = a.truncatingRemainder(dividingBy: 2 * .pi)
    if x > .pi { x -= 2 * .pi } else if x <= -.pi { x += 2 * .pi }
    return x
}
