import Foundation
import POIARCore

/// Tunable parameters of the complementary filter. Time constants are in seconds, so the
/// filter behaves the same at any sample rate (gains are derived per update as 1 − e^(−Δt/τ)).
public struct ComplementaryFilterParams: Sendable, Equatable {
    /// τ_acc, s (default 3): time constant of the accelerometer tilt correction. Smaller
    /// follows gravity faster but lets walking accelerations tilt the pose.
    public var tauAccel: Double = 3.0
    /// τ_mag, s (default 6): time constant of the magnetometer heading correction. Smaller
    /// corrects gyro drift faster but passes more magnetic noise into heading.
    public var tauMag: Double = 6.0
    /// g, m/s² (default 9.81): the gravity magnitude the accelerometer is compared with.
    public var gravity: Double = 9.81
    /// Relative |a| deviation from g (default 0.1) up to which the tilt correction has full gain;
    /// it falls linearly to zero at `accelRejectionEnd` (Valenti et al. 2015, adaptive gain).
    public var accelRejectionStart: Double = 0.1
    /// Relative |a| deviation from g (default 0.2) at and beyond which the tilt correction is off.
    public var accelRejectionEnd: Double = 0.2
    /// Declination, degrees east (default 0): the angle from true north to magnetic north.
    /// With it set, the filter's "north" is true north; 0 keeps magnetic north.
    public var declinationDeg: Double = 0
    /// Gyro gaps longer than this (s, default 0.5) are not integrated: the rate over the gap
    /// is unknown, so the attitude is held and left to the corrections.
    public var maxGyroGap: Double = 0.5
    /// τ_bias, s (default 40): time constant of the gyro-bias integrator, which turns the
    /// corrections the accelerometer and magnetometer keep asking for into a bias estimate
    /// (the integral term of Mahony's filter). Larger is steadier; 0 disables it.
    public var tauBias: Double = 40
    /// Largest bias the estimator may reach, rad/s (default 0.05, ≈ 3°/s: phone gyros stay
    /// well below; the cap stops a long disturbance from winding it up).
    public var maxBias: Double = 0.05

    public init() {}
}

/// Everything that changes from sample to sample. Plain value: copy it to fork a filter.
public struct ComplementaryFilterState: Sendable, Equatable {
    /// Device → ENU attitude; meaningful once `initialized`.
    public var orientation = Quaternion.identity
    public var initialized = false
    /// Gyro bias estimate, rad/s (held at zero until the bias estimator lands; subtracted from
    /// every gyro sample).
    public var gyroBias = Vector3.zero
    public var lastGyroTime: Double?
    public var lastAccelTime: Double?
    public var lastMagTime: Double?
    /// Latest samples, used to initialise the attitude.
    public var latestAccel: Vector3?
    public var latestMag: Vector3?
    public init() {}
}

/// Gains derived from the parameters for a time step. Recomputed per update because phone
/// logs have irregular sample times.
public struct ComplementaryFilterCoefficients: Sendable, Equatable {
    public var accelGain: Double
    public var magGain: Double

    public init(params: ComplementaryFilterParams, accelStep: Double, magStep: Double) {
        accelGain = ComplementaryFilterCoefficients.gain(step: accelStep, tau: params.tauAccel)
        magGain = ComplementaryFilterCoefficients.gain(step: magStep, tau: params.tauMag)
    }

    /// The fraction of an error corrected in one step of length Δt by a first-order filter
    /// with time constant τ: 1 − e^(−Δt/τ).
    public static func gain(step: Double, tau: Double) -> Double {
        guard step > 0 else { return 0 }
        guard tau > 0 else { return 1 }
        return 1 - exp(-step / tau)
    }
}

/// A quaternion complementary filter (after Valenti, Dryanovski & Xiao, "Keeping a Good
/// Attitude", Sensors 2015): gyro prediction, accelerometer tilt correction with an adaptive
/// gain, and a magnetometer correction that only turns the attitude about the vertical, so a
/// disturbed field never tilts the pose. Corrections are applied in the earth frame:
///   tilt:    q ← Δq_acc ⊗ q, Δq_acc about the horizontal axis that brings R(q)·a to +z
///   heading: q ← Δq_mag ⊗ q, Δq_mag about +z that brings the horizontal part of R(q)·m to north
/// The attitude starts from the first accelerometer and magnetometer samples.
public struct ComplementaryFilter: Sendable {
    public var params: ComplementaryFilterParams
    public var state = ComplementaryFilterState()

    public init(params: ComplementaryFilterParams = ComplementaryFilterParams()) {
        self.params = params
    }

    public var isInitialized: Bool { state.initialized }
    public var pose: Pose? { state.initialized ? Pose(state.orientation) : nil }

    /// Gyro sample: integrates the body rate since the previous gyro sample.
    public mutating func updateGyro(_ rate: Vector3, time: Double) {
        defer { state.lastGyroTime = time }
        guard state.initialized, let last = state.lastGyroTime else { return }
        let dt = time - last
        guard dt > 0, dt <= params.maxGyroGap else { return }
        let omega = rate - state.gyroBias
        // q̇ = ½ q ⊗ (0, ω): over one step, q ← q ⊗ exp(ω Δt).
        state.orientation = (state.orientation * Quaternion(rotationVector: omega * dt)).normalized
    }

    /// Accelerometer sample: initialises, or pulls the tilt toward gravity.
    public mutating func updateAccel(_ force: Vector3, time: Double) {
        let step = state.lastAccelTime.map { time - $0 } ?? 0
        state.lastAccelTime = time
        state.latestAccel = force
        guard force.norm > 0 else { return }
        if !state.initialized { tryInitialize(); return }

        let k = ComplementaryFilterCoefficients.gain(step: step, tau: params.tauAccel) * accelTrust(force)
        guard k > 0 else { return }
        let up = state.orientation.rotate(force.normalized)  // where the filter thinks "up" is
        // Rotation taking `up` to +z: axis up × z (horizontal), angle acos(up·z).
        let axis = Vector3(up.y, -up.x, 0)
        let sinAngle = axis.norm
        guard sinAngle > 1e-12 else { return }
        let angle = atan2(sinAngle, up.z)
        let correction = Quaternion(axis: axis / sinAngle, angle: k * angle)
        learnBias(fromWorldCorrection: axis / sinAngle * (k * angle))
        state.orientation = (correction * state.orientation).normalized
    }

    /// Magnetometer sample: initialises, or turns the heading toward (true) north.
    public mutating func updateMag(_ field: Vector3, time: Double) {
        let step = state.lastMagTime.map { time - $0 } ?? 0
        state.lastMagTime = time
        state.latestMag = field
        guard field.norm > 0 else { return }
        if !state.initialized { tryInitialize(); return }

        let k = ComplementaryFilterCoefficients.gain(step: step, tau: params.tauMag)
        guard k > 0 else { return }
        let m = state.orientation.rotate(field)
        guard hypot(m.x, m.y) > 1e-9 * field.norm else { return }  // field vertical: no heading info
        // Azimuth of the horizontal field, clockwise from the frame's north; it should equal
        // the declination. Turning the frame by +δ about up (counter-clockwise) brings it there.
        let error = wrapPi(atan2(m.x, m.y) - radians(params.declinationDeg))
        learnBias(fromWorldCorrection: Vector3(0, 0, k * error))
        state.orientation = (Quaternion(axis: Vector3(0, 0, 1), angle: k * error) * state.orientation).normalized
    }

    /// A correction Δ applied in the earth frame (q ← Δ ⊗ q, rotation vector r) equals one in
    /// the device frame with rotation vector Rᵀ r. Corrections that keep pushing the same way
    /// mean the gyro reads too little that way: move the bias estimate against them.
    private mutating func learnBias(fromWorldCorrection r: Vector3) {
        guard params.tauBias > 0 else { return }
        let device = state.orientation.conjugate.rotate(r)
        var b = state.gyroBias - device / params.tauBias
        let n = b.norm
        if n > params.maxBias { b = b * (params.maxBias / n) }
        state.gyroBias = b
    }

    /// 1 when |a| ≈ g, falling linearly to 0 as |a| departs from g (walking, tapping).
    func accelTrust(_ a: Vector3) -> Double {
        let deviation = abs(a.norm - params.gravity) / params.gravity
        if deviation <= params.accelRejectionStart { return 1 }
        if deviation >= params.accelRejectionEnd { return 0 }
        return (params.accelRejectionEnd - deviation) / (params.accelRejectionEnd - params.accelRejectionStart)
    }

    private mutating func tryInitialize() {
        guard let a = state.latestAccel, let m = state.latestMag,
              let q = ComplementaryFilter.attitude(accel: a, mag: m, declinationDeg: params.declinationDeg)
        else { return }
        state.orientation = q
        state.initialized = true
    }

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
}

/// Wraps radians to (−π, π].
@inlinable func wrapPi(_ a: Double) -> Double {
    var x = a.truncatingRemainder(dividingBy: 2 * .pi)
    if x > .pi { x -= 2 * .pi } else if x <= -.pi { x += 2 * .pi }
    return x
}
