import Foundation
import POIARCore

/// The camera's own orientation, `CORI` (HERO8 and later, MAX: one unit quaternion per video
/// frame, "the camera orientation since capture start", from GoPro's own fusion of its gyro and
/// accelerometer), turned into poiar's `orientation` rows: device → a local frame whose z is
/// up and whose heading is arbitrary (`orientation_north: unknown`; docs/formats.md).
///
/// **CORI's frame**, measured on the sample clip (docs/gopro.md): its axes are the image's —
/// x right, y down, z out of the lens — which are the camera's (−X, −Z, −Y) and the device's
/// (x, −y, −z); and the quaternion turns the capture start's frame into the current one, so
/// the device's attitude relative to the start is its conjugate in device axes. Each clip is
/// checked, as the phones' orientation is: over windows of a second, CORI's turn must match
/// the gyroscope's within `maxGyroMismatchDeg`. Another model may write CORI in other axes: of
/// the 24 axis frames and the quaternion or its conjugate, the one that turns with the
/// gyroscope is taken, the measured one unless another fits clearly better.
///
/// **Up.** The start frame is tilted so that gravity points down: `GRAV` (per frame, the
/// direction of gravity in CORI's axes) carried into the start frame stays within a fraction
/// of a degree of one direction when CORI is right; its mean direction is made up. Without
/// GRAV (or when it strays more than `maxGravitySpreadDeg`), the accelerometer's mean
/// direction carried the same way is.
///
/// **The view.** A stabilised video (HyperSmooth) is cut from the sensor's image turned by
/// `IORI`, the image's orientation relative to the body, one per frame in CORI's axes; labels
/// drawn on that video must follow the image, not the body. The view's quaternion is
/// IORI ⊗ CORI, taken into device axes as CORI is (its conjugate, for the MAX): the body's
/// attitude followed by the image's turn in the body's axes. Measured on the sample clip: the
/// image's shift between consecutive frames follows the view's turn with R² 0.97–0.98 and
/// one focal length for both axes (386 px), the body's with R² 0.17–0.44; and the view's
/// roll stays within 0.2° of level (HyperSmooth levels the horizon) while the body's swings
/// 11°. With IORI, the rows are the view's; without it, the body's. The tilt (GRAV) and the
/// check against the gyroscope are the body's, which is what those sensors measure.
///
/// **Heading** is arbitrary: azimuth 0 is where the camera faced at the first sample (the
/// lens's axis, or the image's top edge when the lens looks straight up or down).
struct GoProCameraOrientation {
    /// Largest median mismatch (degrees over a window of `windowSeconds`) between CORI's turn
    /// and the gyroscope's for CORI to be used.
    static let maxGyroMismatchDeg = 5.0
    static let windowSeconds = 1.0
    /// GRAV is used for up when, carried into the start frame, it stays within this of its mean
    /// (median).
    static let maxGravitySpreadDeg = 5.0
    /// Another frame or convention is taken instead of the measured one only when it fits
    /// better by this much and by half (on the sample clip the measured one fits to 0.35°, the
    /// next best to 1.6°: a walk turns the camera mostly about one axis).
    static let preferenceMarginDeg = 1.0

    /// CORI's axes (image: x right, y down, z out of the lens) → the camera's axes (X, Y, Z).
    static let coriToCamera = Matrix3(rows: Vector3(-1, 0, 0), Vector3(0, 0, -1), Vector3(0, -1, 0))

    /// IORI is matched to CORI's samples within this (both are one per video frame).
    static let imageMatchSeconds = 0.02

    struct Result {
        var samples: [(time: Double, attitude: Quaternion)]
        /// The samples are the stabilised view's (IORI applied), not the body's.
        var isView: Bool
        /// Why IORI was given but not applied, for a notice.
        var imageUnused: String?
        /// CORI's axes → the camera's (the measured `coriToCamera`, unless another frame fits
        /// the gyroscope clearly better).
        var coriAxes: Matrix3
        /// The conjugate of the file's quaternions (the measured convention) or them as stored.
        var conjugated: Bool
        /// Median mismatch with the gyroscope over the windows, degrees (nil: too few).
        var gyroMismatchDeg: Double?
        var windows: Int
        /// What gave up ("GRAV" or "the accelerometer") and how far it strays, degrees.
        var upSource: String
        var upSpreadDeg: Double

        /// "CORI's x, y, z = the camera's −X, −Z, −Y".
        var axesSaid: String {
            func axis(_ v: Vector3) -> String {
                let (name, value) = abs(v.x) > 0.5 ? ("X", v.x) : abs(v.y) > 0.5 ? ("Y", v.y) : ("Z", v.z)
                return (value < 0 ? "−" : "") + name
            }
            return "CORI's x, y, z = the camera's \(axis(coriAxes.column0)), \(axis(coriAxes.column1)), \(axis(coriAxes.column2))"
        }
    }

    /// The 24 proper rotations that permute the axes with signs: the frames CORI's axes could
    /// be in, for a model whose CORI is not in the MAX's.
    static let axisFrames: [Matrix3] = {
        var out: [Matrix3] = []
        let units = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        for p in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            for signs in [(1.0, 1.0, 1.0), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1)] {
                let m = Matrix3(rows: units[p[0]] * signs.0, units[p[1]] * signs.1, units[p[2]] * signs.2)
                if m.row0.cross(m.row1).dot(m.row2) > 0 { out.append(m) }
            }
        }
        return out
    }()

    /// Converts `cori` (times, quaternions w, x, y, z as stored after SCAL) with the camera →
    /// device matrix `toDevice`; `gravity` is GRAV (times, vectors in CORI's axes), `accel` the
    /// accelerometer in the device frame, `gyro` the gyroscope's integration in it, `iori` the
    /// image's orientation (IORI, empty when the clip has none: the rows are then the body's).
    /// Throws a reason (for a notice) when CORI does not fit the gyroscope or nothing gives up.
    static func convert(cori: [(time: Double, q: Quaternion)], gravity: [(time: Double, v: Vector3)],
                        accel: [(time: Double, v: Vector3)], gyro: GyroIntegration, toDevice: Matrix3,
                        iori: [(time: Double, q: Quaternion)] = []) throws -> Result {
        let valid = cori.filter { $0.q.isFinite && $0.q.norm > 0.5 }
        guard !valid.isEmpty else { throw Unusable(reason: "no valid quaternions") }
        /// The device's attitude relative to the start, for CORI's axes `axes` (→ camera).
        func device(_ q: Quaternion, _ axes: Matrix3, conjugated: Bool) -> Quaternion {
            let n = q.normalized
            let v = toDevice * axes * (conjugated ? -n.vector : n.vector)
            return Quaternion(w: n.w, x: v.x, y: v.y, z: v.z)
        }
        // Which frame and convention turn with the gyroscope: the measured one (the MAX's axes,
        // the conjugate) unless another fits clearly better.
        var best = (axes: coriToCamera, conjugated: true,
                    fit: mismatch(valid.map { ($0.time, device($0.q, coriToCamera, conjugated: true)) }, gyro))
        let measured = best.fit.median
        for axes in axisFrames {
            for conjugated in [true, false] where !(axes == coriToCamera && conjugated) {
                let fit = mismatch(valid.map { ($0.time, device($0.q, axes, conjugated: conjugated)) }, gyro)
                if let f = fit.median, f + preferenceMarginDeg < (measured ?? .infinity), f < (measured ?? .infinity) / 2,
                   f < (best.fit.median ?? .infinity) {
                    best = (axes, conjugated, fit)
                }
            }
        }
        let chosen = best.fit
        let m = toDevice * best.axes  // CORI's axes → device axes (a proper rotation)
        let conjugated = best.conjugated
        if let mis = chosen.median, mis > maxGyroMismatchDeg {
            throw Unusable(reason: String(format: "it does not turn with the gyroscope (%.1f° apart over %.0f s windows, more than %.0f°)",
                                          mis, windowSeconds, maxGyroMismatchDeg))
        }
        let relative = valid.map { ($0.time, device($0.q, best.axes, conjugated: conjugated)) }

        // Up in the start frame: GRAV (gravity, so its opposite), else the accelerometer.
        func upInStart(_ series: [(time: Double, v: Vector3)], toDeviceUp: (Vector3) -> Vector3) -> (mean: Vector3, spread: Double)? {
            let times = series.map(\.time)
            var ups: [Vector3] = []
            for (t, q) in relative {
                guard let k = GyroIntegration.nearest(times, t), abs(times[k] - t) < 0.1 else { continue }
                let u = toDeviceUp(series[k].v)
                guard u.norm > 1e-9, u.isFinite else { continue }
                ups.append(q.rotate(u.normalized))
            }
            let sum = ups.reduce(Vector3(0, 0, 0), +)
            guard !ups.isEmpty, sum.norm > 1e-9 else { return nil }
            let mean = sum.normalized
            let spreads = ups.map { acos(max(-1, min(1, $0.dot(mean)))) * 180 / .pi }.sorted()
            return (mean, spreads[spreads.count / 2])
        }
        var up: (mean: Vector3, spread: Double)?
        var upSource = "GRAV"
        if let g = upInStart(gravity, toDeviceUp: { m * (-$0) }), g.spread <= maxGravitySpreadDeg { up = g }
        if up == nil, let a = upInStart(accel, toDeviceUp: { $0 }) {
            up = a
            upSource = "the accelerometer"
        }
        guard let up else { throw Unusable(reason: "neither GRAV nor the accelerometer tells where up is") }
        let tilt = shortestRotation(from: up.mean, to: Vector3(0, 0, 1))
        // The view: the body's attitude, then the image's turn in the body's axes.
        let image = imageTurns(iori, at: valid.map(\.time))
        let view = image.turns.map { turns in
            zip(relative, turns).map { ($0.0, $0.1 * device($1, best.axes, conjugated: conjugated)) }
        } ?? relative
        // Heading: the camera's facing direction at the first sample is azimuth 0.
        let first = tilt * view[0].1
        var facing = first.rotate(Vector3(0, 0, -1))
        if hypot(facing.x, facing.y) < 0.1 { facing = first.rotate(Vector3(0, 1, 0)) }
        let azimuth = atan2(facing.x, facing.y)
        // A rotation about up by +θ turns azimuths by −θ.
        let heading = Quaternion(axis: Vector3(0, 0, 1), angle: azimuth)
        let samples = view.map { (time: $0.0, attitude: (heading * tilt * $0.1).normalized.canonical) }
        return Result(samples: samples, isView: image.turns != nil, imageUnused: image.unused, coriAxes: best.axes, conjugated: conjugated, gyroMismatchDeg: chosen.median, windows: chosen.windows,
                      upSource: upSource, upSpreadDeg: up.spread)
    }

    struct Unusable: Error { var reason: String }

    /// IORI's quaternion at each of `times` (CORI's), as stored; nil when IORI is empty, or,
    /// with the reason, when a time has no valid IORI within `imageMatchSeconds`.
    static func imageTurns(_ iori: [(time: Double, q: Quaternion)], at times: [Double]) -> (turns: [Quaternion]?, unused: String?) {
        guard !iori.isEmpty else { return (nil, nil) }
        let valid = iori.filter { $0.q.isFinite && $0.q.norm > 0.5 }
        let ioriTimes = valid.map(\.time)
        var turns: [Quaternion] = []
        for t in times {
            guard let k = GyroIntegration.nearest(ioriTimes, t), abs(ioriTimes[k] - t) <= imageMatchSeconds else {
                return (nil, String(format: "IORI (%d samples) has none at %.3f s, where CORI has one", iori.count, t))
            }
            turns.append(valid[k].q.normalized)
        }
        return (turns, nil)
    }

    /// The median angle between the series' turn and the gyroscope's over windows of
    /// `windowSeconds` (one window from each sample that starts one).
    static func mismatch(_ series: [(Double, Quaternion)], _ gyro: GyroIntegration) -> (median: Double?, windows: Int) {
        guard !gyro.isEmpty else { return (nil, 0) }
        var angles: [Double] = []
        var j = 0
        var i = 0
        while i < series.count {
            while j < series.count && series[j].0 < series[i].0 + windowSeconds { j += 1 }
            guard j < series.count else { break }
            let (t0, a) = series[i], (t1, b) = series[j]
            if let g0 = gyro.attitude(at: t0), let g1 = gyro.attitude(at: t1),
               let k0 = GyroIntegration.nearest(gyro.times, t0), let k1 = GyroIntegration.nearest(gyro.times, t1),
               abs(gyro.times[k0] - t0) < 0.05, abs(gyro.times[k1] - t1) < 0.05 {
                let turn = a.conjugate * b, gyroTurn = g0.conjugate * g1
                angles.append(turn.angle(to: gyroTurn) * 180 / .pi)
            }
            i = j
        }
        angles.sort()
        return (angles.isEmpty ? nil : angles[angles.count / 2], angles.count)
    }

    /// The shortest rotation taking the unit vector `a` to the unit vector `b`.
    static func shortestRotation(from a: Vector3, to b: Vector3) -> Quaternion {
        let c = a.dot(b)
        if c < -1 + 1e-12 {
            // Opposite: half a turn about any axis perpendicular to a.
            let axis = abs(a.x) < 0.9 ? a.cross(Vector3(1, 0, 0)) : a.cross(Vector3(0, 1, 0))
            return Quaternion(axis: axis, angle: .pi)
        }
        let v = a.cross(b)
        return Quaternion(w: 1 + c, x: v.x, y: v.y, z: v.z).normalized
    }

    /// How far the image turns from the camera's body by the camera's stabilisation: the
    /// angles of `IORI` (image orientation relative to the body), degrees: median and largest.
    static func stabilisation(_ iori: [Quaternion]) -> (median: Double, max: Double)? {
        let angles = iori.filter { $0.isFinite && $0.norm > 0.5 }.map { $0.normalized.angle(to: .identity) * 180 / .pi }.sorted()
        guard let last = angles.last else { return nil }
        return (angles[angles.count / 2], last)
    }
}
