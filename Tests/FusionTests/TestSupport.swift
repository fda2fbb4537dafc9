import Foundation
import POIARCore
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
func rotationVector(_ q: Quaternion) -> Vector3 {
    let c = q.canonical
    let s = c.vector.norm
    guard s > 1e-15 else { return 2 * c.vector }
    return c.vector / s * (2 * atan2(s, c.w))
}

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

/// The sample walk, found from this file's place in the tree (main/Tests/FusionTests/).
let sampleLogs: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FusionTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // main
    .appendingPathComponent("SampleLogs")
