import Foundation
import Geodesy
import POIARCore
import SensorLog

/// How a phone app's orientation quaternion becomes poiar's attitude (device → local ENU,
/// x east, y north, z up): q_enu = Rz(quarterTurns · 90°) ⊗ (conjugated ? q* : q).
///
/// Sensor Logger's documentation (awesome-sensor-logger, COORDINATES.md and CROSSPLATFORM.md):
/// Android's quaternion is the rotation vector's, device → ENU with magnetic north; iOS's is
/// CoreMotion's attitude in the `x-north-z-vertical` reference frame (world x north, z up, so
/// y west) with true north, which one quarter turn about up makes ENU. Apps and their
/// documentation change, so each recording's quaternions are checked against its own gravity
/// and magnetometer (`OrientationCheck`).
struct OrientationConvention: Equatable, Sendable, CustomStringConvertible {
    var conjugated: Bool
    /// Quarter turns about up (counter-clockwise seen from above) applied after.
    var quarterTurns: Int
    var north: OrientationNorth

    static let android = OrientationConvention(conjugated: false, quarterTurns: 0, north: .magnetic)
    static let iOS = OrientationConvention(conjugated: false, quarterTurns: 1, north: .true)

    /// `quarterTurns` in 0..<4.
    var turns: Int { ((quarterTurns % 4) + 4) % 4 }

    @inline(__always)
    func attitude(_ q: Quaternion) -> Quaternion {
        let base = (conjugated ? q.conjugate : q).normalized
        guard turns != 0 else { return base.canonical }
        let half = Double(turns) * .pi / 4
        return (Quaternion(w: cos(half), x: 0, y: 0, z: sin(half)) * base).normalized.canonical
    }

    /// Same frame, ignoring the north (what the quaternion's numbers mean).
    func sameFrame(_ o: OrientationConvention) -> Bool {
        conjugated == o.conjugated && turns == o.turns
    }

    var description: String {
        var s = conjugated ? "q*" : "q"
        if turns != 0 { s = "Rz(\(turns * 90)°) ⊗ " + s }
        return s
    }
}

/// One instant of a recording for the check: the phone's quaternion as the file gives it, the
/// device-frame direction that points up (gravity, Android's sign: +9.81 up at rest), and the
/// magnetic field when there is one.
struct OrientationCheckSample {
    var quaternion: Quaternion
    var up: Vector3
    var field: Vector3?
}

/// Checks a recording's quaternions against its gravity and magnetic field and chooses the
/// convention (see docs/formats.md, "The phone's orientation"):
///
/// 1. The quaternion or its conjugate: the one that turns the device's up into ENU's up
///    (median tilt error), and under which the field's azimuth stays steady; the documented
///    one unless the other fits clearly better.
/// 2. Quarter turns about up: those that bring the field's median azimuth nearest to north,
///    magnetic (0°) or true (the declination, when a GPS fix gives one), when the field's
///    azimuth is steady enough to tell (its spread at most `maxFieldSpreadDeg`).
/// 3. The north: the one the residual azimuth is nearer to, when the declination is large
///    enough to tell (`minDeclinationDeg`); the documented one otherwise; `unknown` when the
///    azimuth is near neither (an arbitrary heading, or a disturbed field).
enum OrientationCheck {
    /// A convention fits gravity when the median tilt error is at most this.
    static let maxTiltErrorDeg = 10.0
    /// The other conjugation is taken only when it fits better by this much.
    static let preferenceMarginDeg = 5.0
    /// The field's azimuth spread (median absolute deviation) up to which it can tell the heading.
    static let maxFieldSpreadDeg = 15.0
    /// A residual azimuth this near 0 or the declination matches that north.
    static let northToleranceDeg = 20.0
    /// The declination from which magnetic and true north can be told apart.
    static let minDeclinationDeg = 3.0

    struct Result: Equatable {
        /// nil: the quaternions fit gravity under no convention.
        var convention: OrientationConvention?
        var tiltErrorDeg: Double
        /// The field's median azimuth under the chosen convention (nil without a field).
        var fieldAzimuthDeg: Double?
        var fieldSpreadDeg: Double?
        var samples: Int
        /// What the check found that the documentation does not say, for notices.
        var disagreements: [String]
        /// What it could not check.
        var unchecked: [String]
    }

    static func check(_ samples: [OrientationCheckSample], documented: OrientationConvention, declinationDeg: Double?) -> Result {
        var disagreements: [String] = [], unchecked: [String] = []
        guard !samples.isEmpty else {
            return Result(convention: documented, tiltErrorDeg: .nan, fieldAzimuthDeg: nil, fieldSpreadDeg: nil, samples: 0,
                          disagreements: [], unchecked: ["no gravity samples at the orientation's times: the convention is the documented one, unchecked"])
        }
        struct Fit { var conjugated: Bool; var tilt: Double; var azimuth: Double?; var spread: Double? }
        func fit(_ conjugated: Bool) -> Fit {
            var tilts: [Double] = [], azimuths: [Double] = []
            for s in samples {
                let q = conjugated ? s.quaternion.conjugate.normalized : s.quaternion.normalized
                let up = q.rotate(s.up.normalized)
                tilts.append(acos(max(-1, min(1, up.z))) * 180 / .pi)
                if let m = s.field {
                    let f = q.rotate(m)
                    if hypot(f.x, f.y) > 1e-9 { azimuths.append(atan2(f.x, f.y) * 180 / .pi) }
                }
            }
            let centre = circularMedianDeg(azimuths)
            return Fit(conjugated: conjugated, tilt: median(tilts), azimuth: centre?.centre, spread: centre?.spread)
        }
        let mine = fit(documented.conjugated), other = fit(!documented.conjugated)
        func score(_ f: Fit) -> Double { f.tilt + (f.spread ?? 0) }
        var chosen = mine
        if other.tilt <= maxTiltErrorDeg && score(other) + preferenceMarginDeg < score(mine) { chosen = other }
        guard chosen.tilt <= maxTiltErrorDeg else {
            return Result(convention: nil, tiltErrorDeg: min(mine.tilt, other.tilt), fieldAzimuthDeg: nil, fieldSpreadDeg: nil,
                          samples: samples.count, disagreements: [], unchecked: [])
        }
        if chosen.conjugated != documented.conjugated {
            disagreements.append("its quaternions are the conjugates of the documented ones (gravity fits with a tilt error of \(deg(chosen.tilt)) against \(deg(mine.tilt)))")
        }
        var convention = OrientationConvention(conjugated: chosen.conjugated, quarterTurns: documented.quarterTurns, north: documented.north)
        guard let azimuth = chosen.azimuth, let spread = chosen.spread else {
            unchecked.append("no magnetometer to check its heading against: the documented heading frame and \(documented.north.rawValue) north are assumed")
            return Result(convention: convention, tiltErrorDeg: chosen.tilt, fieldAzimuthDeg: nil, fieldSpreadDeg: nil,
                          samples: samples.count, disagreements: disagreements, unchecked: unchecked)
        }
        guard spread <= maxFieldSpreadDeg else {
            unchecked.append("the magnetic field's azimuth varies too much (spread \(deg(spread))°) to check its heading: the documented heading frame and \(documented.north.rawValue) north are assumed")
            return Result(convention: convention, tiltErrorDeg: chosen.tilt, fieldAzimuthDeg: wrap180(azimuth - Double(documented.turns) * 90),
                          fieldSpreadDeg: spread, samples: samples.count, disagreements: disagreements, unchecked: unchecked)
        }
        // Rz(k·90°) turns the field's azimuth (clockwise from north) by −k·90°.
        let d = declinationDeg ?? 0
        func miss(_ k: Int) -> Double {
            let r = wrap180(azimuth - Double(k) * 90)
            return min(abs(r), abs(wrap180(r - d)))
        }
        var best = documented.turns
        for k in 0..<4 where miss(k) < miss(best) { best = k }
        let residual = wrap180(azimuth - Double(best) * 90)
        if !OrientationConvention(conjugated: chosen.conjugated, quarterTurns: best, north: documented.north).sameFrame(convention) {
            disagreements.append("its heading frame is turned \(best * 90)° about up, not \(documented.turns * 90)° as documented (the field's azimuth is then \(deg(residual))°)")
        }
        convention.quarterTurns = best
        let nearMagnetic = abs(residual) <= northToleranceDeg, nearTrue = abs(wrap180(residual - d)) <= northToleranceDeg
        if let declinationDeg, abs(declinationDeg) >= minDeclinationDeg {
            // The nearer north, when it is clearly nearer (outside the middle third between them).
            let toMagnetic = abs(residual), toTrue = abs(wrap180(residual - declinationDeg))
            let north: OrientationNorth = !(nearMagnetic || nearTrue) ? .unknown
                : abs(toMagnetic - toTrue) < abs(declinationDeg) / 3 ? documented.north
                : toMagnetic < toTrue ? .magnetic : .true
            if north != documented.north {
                disagreements.append(north == .unknown
                    ? "its heading matches neither north: the field's azimuth is \(deg(residual))°, expected 0° (magnetic north) or the declination \(deg(declinationDeg))° (true north)"
                    : "its heading is to \(north.rawValue) north, not \(documented.north.rawValue) north as documented (the field's azimuth is \(deg(residual))°, the declination \(deg(declinationDeg))°)")
            }
            convention.north = north
        } else if !nearMagnetic {
            disagreements.append("its heading matches no north: the field's azimuth is \(deg(residual))°, expected about 0°")
            convention.north = .unknown
        } else if declinationDeg == nil {
            unchecked.append("no GPS fix to date the declination: \(documented.north.rawValue) north as documented")
        }
        return Result(convention: convention, tiltErrorDeg: chosen.tilt, fieldAzimuthDeg: residual, fieldSpreadDeg: spread,
                      samples: samples.count, disagreements: disagreements, unchecked: unchecked)
    }

    static func deg(_ v: Double) -> String { String(format: "%.1f", v) }
}
