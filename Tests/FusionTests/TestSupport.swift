import Foundation
import POIARCore
@_exported import PoiarTestSupport
@testable import Fusion

let degPerRad = 180.0 / Double.pi
let upENU = Vector3(0, 0, 1)
/// Gravity's reaction as the accelerometer sees it, in ENU.
let gravityENU = Vector3(0, 0, 9.81)
/// A field 15 µT north and 50 µT down (dip ≈ 73°, like Helsinki's).
let fieldENU = Vector3(0, 15, -50)

/// Rotation about the ENU vertical by `deg` degrees (counter-clockwise seen from above).
func yaw(_ deg: Double) -> Quaternion { Quaternion(axis: upENU, angle: deg / degPerRad) }

/// A world vector expressed in the device frame of attitude `q`: Rᵀ·v.
func inDevice(_ q: Quaternion, _ v: Vector3) -> Vector3 { q.conjugate.rotate(v) }

/// The rotation vector of a unit quaternion (the logarithm map): axis · angle, radians.
func rotationVector(_ q: Quaternion) -> Vector3 { q.rotationVector }

/// BROAD's error measures (Laidig et al. 2021), degrees: e = q_est ⊗ q_truth⁻¹.
struct AttitudeError {
    var heading: Double
    var inclination: Double
    var total: Double
    /// Signed rotation of e about the vertical, degrees (+ counter-clockwise from above).
    var signedHeading: Double

    init(estimate: Quaternion, truth: Quaternion) {
        let e = (estimate * truth.conjugate).normalized
        heading = 2 * atan(abs(e.z / e.w)) * degPerRad
        inclination = 2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot())) * degPerRad
        total = 2 * acos(min(1, abs(e.w))) * degPerRad
        let c = e.canonical
        signedHeading = 2 * atan2(c.z, c.w) * degPerRad
    }
}

/// Difference of two angles in degrees, wrapped to (−180, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
    return d
}

/// Feeds a filter the ideal sensors of a simulated motion: at each step (gyro, accel, mag at
/// the same time) the gyro reads the exact mean body rate since the previous step (plus
/// `gyroBias`), the accelerometer Rᵀ·(g + linear acceleration) and the magnetometer Rᵀ·field.
/// `observe` is called after each step once the filter has a pose.
func simulate(_ filter: inout ComplementaryFilter, rate: Double, duration: Double, startTime: Double = 0,
              truth: (Double) -> Quaternion,
              field: (Double) -> Vector3 = { _ in fieldENU },
              linearAcceleration: (Double) -> Vector3 = { _ in .zero },
              gyroBias: Vector3 = .zero,
              observe: (Double, Quaternion) -> Void = { _, _ in }) {
    let steps = Int((duration * rate).rounded())
    var previous: (t: Double, q: Quaternion)?
    for k in 0...steps {
        let t = startTime + Double(k) / rate
        let q = truth(t)
        var omega = Vector3.zero
        if let previous {
            omega = rotationVector(previous.q.conjugate * q) / (t - previous.t)
        }
        filter.updateGyro(omega + gyroBias, time: t)
        filter.updateAccel(inDevice(q, gravityENU + linearAcceleration(t)), time: t)
        filter.updateMag(inDevice(q, field(t)), time: t)
        if filter.isInitialized { observe(t, filter.state.orientation) }
        previous = (t, q)
    }
}

/// A deterministic Gaussian source (SplitMix64 + Box–Muller), for sensor noise in tests.
struct TestNoise {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
    }
    mutating func vector(_ sigma: Double) -> Vector3 {
        sigma == 0 ? .zero : Vector3(gaussian(), gaussian(), gaussian()) * sigma
    }
}

/// How simulated sensors are sampled: each sensor at its own rate, optionally with jittered
/// times, noise, a gyro bias and a magnetometer hard-iron offset.
struct SensorRig {
    var gyroRate = 100.0, accelRate = 100.0, magRate = 100.0
    /// Each sample time moves by up to ± this fraction of its period (deterministic).
    var jitter = 0.0
    var gyroBias = Vector3.zero
    var hardIron = Vector3.zero
    var gyroNoise = 0.0, accelNoise = 0.0, magNoise = 0.0
    var seed: UInt64 = 1
}

/// Feeds a filter the sensors of a simulated motion, in time order (gyro, accel, mag at equal
/// times). The gyro reads the mean body rate since its previous sample. `observe` is called
/// after every gyro sample once the filter has a pose (as `poiar pose` writes rows).
func run(_ filter: inout ComplementaryFilter, rig: SensorRig = SensorRig(), duration: Double, startTime: Double = 0,
         truth: (Double) -> Quaternion,
         field: (Double) -> Vector3 = { _ in fieldENU },
         linearAcceleration: (Double) -> Vector3 = { _ in .zero },
         observe: (Double, ComplementaryFilter) -> Void = { _, _ in }) {
    var noise = TestNoise(seed: rig.seed)
    func times(_ rate: Double, _ salt: Double) -> [Double] {
        let n = Int((duration * rate).rounded())
        return (0...n).map { k in
            let j = rig.jitter == 0 || k == 0 ? 0 : rig.jitter * sin(Double(k) * 12.9898 + salt) / rate
            return startTime + Double(k) / rate + j
        }
    }
    // 0 gyro, 1 accel, 2 mag: merged by time, then by sensor.
    var events = times(rig.gyroRate, 1).map { ($0, 0) } + times(rig.accelRate, 2).map { ($0, 1) }
        + times(rig.magRate, 3).map { ($0, 2) }
    events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    var previousGyro: (t: Double, q: Quaternion)?
    for (t, sensor) in events {
        let q = truth(t)
        switch sensor {
        case 0:
            var omega = Vector3.zero
            if let p = previousGyro { omega = rotationVector(p.q.conjugate * q) / (t - p.t) }
            filter.updateGyro(omega + rig.gyroBias + noise.vector(rig.gyroNoise), time: t)
            previousGyro = (t, q)
            if filter.isInitialized { observe(t, filter) }
        case 1:
            filter.updateAccel(inDevice(q, gravityENU + linearAcceleration(t)) + noise.vector(rig.accelNoise), time: t)
        default:
            filter.updateMag(inDevice(q, field(t)) + rig.hardIron + noise.vector(rig.magNoise), time: t)
        }
    }
}

/// RMS of heading and inclination errors (degrees) over observations after `from` seconds.
struct ErrorStats {
    var headingSq = 0.0, inclinationSq = 0.0, n = 0
    var worstHeading = 0.0, worstInclination = 0.0, worstTotal = 0.0
    mutating func add(_ e: AttitudeError) {
        headingSq += e.heading * e.heading; inclinationSq += e.inclination * e.inclination; n += 1
        worstHeading = max(worstHeading, e.heading); worstInclination = max(worstInclination, e.inclination)
        worstTotal = max(worstTotal, e.total)
    }
    var heading: Double { (headingSq / Double(max(n, 1))).squareRoot() }
    var inclination: Double { (inclinationSq / Double(max(n, 1))).squareRoot() }
}

/// Parameters without the output prediction, so that `pose` is the attitude itself.
func noPrediction(_ edit: (inout ComplementaryFilterParams) -> Void = { _ in }) -> ComplementaryFilterParams {
    var p = ComplementaryFilterParams()
    p.sensorDelay = 0
    edit(&p)
    return p
}
