import POIARCore

/// Catches logs written in the wrong units (the most common export mistake): acceleration in g
/// instead of m/s², magnetic field in nT or gauss instead of µT, angular rate in °/s instead
/// of rad/s. Single samples are checked against physical limits of phone sensors; the median
/// magnitude of the first samples is checked against Earth's gravity and field.
package struct UnitPlausibility {
    /// Phone accelerometers saturate at 8–16 g (≈ 160 m/s²).
    static let maxAccel = 400.0
    /// Phone magnetometers saturate at ≈ 2000–4900 µT.
    static let maxField = 5000.0
    /// Phone gyroscopes saturate at ≈ 35 rad/s (2000 °/s).
    static let maxRate = 40.0
    static let sampleCount = 200

    private var accel = FirstNorms(), mag = FirstNorms()

    package init() {}

    package mutating func check(gyro v: Vector3, fail: (String) -> InputError) throws {
        if v.norm > UnitPlausibility.maxRate {
            throw fail("angular rate \(v.norm) is beyond any phone gyroscope: expected rad/s (is it °/s?)")
        }
    }

    package mutating func check(accel v: Vector3, line: Int, fail: (String) -> InputError) throws {
        if v.norm > UnitPlausibility.maxAccel {
            throw fail("acceleration \(v.norm) is beyond any phone accelerometer: expected m/s²")
        }
        if accel.add(v.norm, line: line) { try judgeAccel(fail) }
    }

    package mutating func check(mag v: Vector3, line: Int, fail: (String) -> InputError) throws {
        if v.norm > UnitPlausibility.maxField {
            throw fail("magnetic field \(v.norm) is beyond any phone magnetometer: expected µT (is it nT?)")
        }
        if mag.add(v.norm, line: line) { try judgeMag(fail) }
    }

    /// Judges short logs once the end is reached.
    package mutating func finish(path: String) throws {
        if accel.isShortButEnough {
            try judgeAccel { InputError(file: path, line: accel.firstLine, field: "x", $0) }
        }
        if mag.isShortButEnough {
            try judgeMag { InputError(file: path, line: mag.firstLine, field: "x", $0) }
        }
    }

    private func judgeAccel(_ fail: (String) -> InputError) throws {
        let m = median(accel.norms)
        if m < 3 {
            throw fail("accel magnitudes have median \(rounded(m)) over the first \(accel.norms.count) samples: expected m/s² with gravity (≈ 9.81 at rest), is it in g?")
        }
    }

    private func judgeMag(_ fail: (String) -> InputError) throws {
        let m = median(mag.norms)
        if m < 2 {
            throw fail("mag magnitudes have median \(rounded(m)) over the first \(mag.norms.count) samples: expected µT (Earth's field is 25–65 µT), is it in gauss or mT?")
        }
    }

    private func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
    private func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// The norms of one sensor's first `sampleCount` samples, and the line of the first.
    private struct FirstNorms {
        var norms: [Double] = []
        var firstLine = 0

        /// Keeps `norm` while fewer than `sampleCount` are kept; true when it is the last one
        /// kept (time to judge them).
        @inline(__always)
        mutating func add(_ norm: Double, line: Int) -> Bool {
            guard norms.count < UnitPlausibility.sampleCount else { return false }
            if norms.isEmpty { firstLine = line }
            norms.append(norm)
            return norms.count == UnitPlausibility.sampleCount
        }

        /// A log that ended before `sampleCount` samples but with enough (20) to judge.
        var isShortButEnough: Bool { norms.count >= 20 && norms.count < UnitPlausibility.sampleCount }
    }
}
