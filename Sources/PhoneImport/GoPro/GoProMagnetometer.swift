import Foundation
import Geodesy
import POIARCore

/// Whether a GoPro's magnetometer (`MAGN`, MAX and Fusion; GoPro's README: "valid in v2.0
/// firmware") can serve as a compass. GoPro documents neither its calibration nor its axes, and
/// the sample clip's reads 521 µT, steady while the camera turns 50°: not the Earth's field. So
/// its samples are written only when they pass three checks against the World Magnetic Model
/// (WMM2025, at the first GPS fix, on the clip's date) and the camera's own motion:
///
/// 1. **Strength**: the median field is within `strengthRange` times the model's (poiar's
///    fusion calibrates hard and soft iron, not a field of another scale or unit).
/// 2. **Dip**: the median angle between the field and up is within `maxDipErrorDeg` of the
///    model's (90° plus the inclination).
/// 3. **Turning**: carried into the clip's first frame by the gyroscope, the field's
///    horizontal part stays within `maxTurningSpreadDeg` of one direction (median) — an Earth
///    field turns with the camera, a sensor's offset or a wrong axis order does not — when the
///    camera turned at least `minTurnDeg` (else this check is said to be impossible, and the
///    first two decide).
///
/// Without a GPS fix there is no model to check against, and the samples are not used.
enum GoProMagnetometer {
    static let strengthRange = 0.5...2.0
    static let maxDipErrorDeg = 15.0
    static let maxTurningSpreadDeg = 15.0
    static let minTurnDeg = 30.0

    enum Verdict: Equatable {
        /// Usable; the text says what was checked.
        case usable(String)
        /// Not usable, and why.
        case unusable(String)
    }

    /// `field` and `up` in the device frame (µT; up: the accelerometer's specific force), at
    /// their times; `gyro` the clip's gyro integration; `place` and `date` where and when.
    static func check(field: [(time: Double, v: Vector3)], up: [(time: Double, v: Vector3)], gyro: GyroIntegration,
                      place: GeoCoordinate?, date: Date?) -> Verdict {
        guard !field.isEmpty else { return .unusable("no samples") }
        guard let place else { return .unusable("the clip has no GPS fix to check it against the Earth's field (WMM2025)") }
        let model = WorldMagneticModel.field(at: place, on: date ?? Date())
        let expected = model.total / 1000  // nT → µT
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
        let strength = median(field.map { $0.v.norm })
        let ratio = strength / expected
        guard strengthRange.contains(ratio) else {
            return .unusable(String(format: "its field is %.0f µT, %.1f× the %.0f µT the Earth's field has here (WMM2025): not a field a compass can use",
                                    strength, ratio, expected))
        }
        let upTimes = up.map(\.time)
        var dips: [Double] = []
        for s in field {
            guard let k = GyroIntegration.nearest(upTimes, s.time), abs(upTimes[k] - s.time) < 0.1 else { continue }
            let u = up[k].v, b = s.v
            guard u.norm > 0, b.norm > 0 else { continue }
            dips.append(acos(max(-1, min(1, u.dot(b) / (u.norm * b.norm)))) * 180 / .pi)
        }
        let expectedDip = 90 + model.inclinationDeg
        if !dips.isEmpty, abs(median(dips) - expectedDip) > maxDipErrorDeg {
            return .unusable(String(format: "its field is %.0f° from up, the Earth's field here %.0f° (WMM2025): its axes or calibration are off",
                                    median(dips), expectedDip))
        }
        // Turning: the field's horizontal part in the first frame's axes, by the gyroscope (at a
        // steep inclination the whole field hardly moves when the camera turns about up).
        var carried: [Vector3] = []
        var turned = 0.0
        for s in field {
            guard let q = gyro.attitude(at: s.time), s.v.norm > 0,
                  let k = GyroIntegration.nearest(upTimes, s.time), up[k].v.norm > 0 else { continue }
            let b = q.rotate(s.v), u = q.rotate(up[k].v.normalized)
            let horizontal = b - u * b.dot(u)
            if horizontal.norm > 1e-6 * b.norm { carried.append(horizontal.normalized) }
            turned = max(turned, q.angle(to: .identity) * 180 / .pi)
        }
        var said = String(format: "%.0f µT against %.0f µT expected, dip %.0f° against %.0f°", strength, expected,
                          dips.isEmpty ? .nan : median(dips), expectedDip)
        let sum = carried.reduce(Vector3(0, 0, 0), +)
        if turned >= minTurnDeg, sum.norm > 0 {
            let m = sum.normalized
            let spread = median(carried.map { acos(max(-1, min(1, $0.dot(m)))) * 180 / .pi })
            guard spread <= maxTurningSpreadDeg else {
                return .unusable(String(format: "it does not turn with the camera (the camera turned %.0f°, the field's horizontal part strays %.0f° from one direction): an offset or a wrong axis order",
                                        turned, spread))
            }
            said += String(format: ", turns with the camera (its horizontal part within %.0f°)", spread)
        } else {
            said += String(format: "; the camera turned only %.0f°, too little to check that the field turns with it", turned)
        }
        return .usable(said)
    }
}
