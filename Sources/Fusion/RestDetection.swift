import POIARCore

/// Rest, VQF's way, made stricter for hand-held use: the gyro and accelerometer stay within
/// their thresholds of their low-passes for `restMinTime`, the low-passed rate stays below
/// `maxBias`, and — so that a slow, smooth pan is not taken for a bias — the low-passed
/// gravity and field directions (device frame) stay within `restMaxAngleDeg` of where they
/// were when the stillness began.
extension ComplementaryFilter {
    mutating func notAtRest() {
        state.restTime = 0
        state.atRest = false
        state.restRefAccelSet = false
        state.restRefMagSet = false
    }

    mutating func detectRest(gyro: Vector3, dt: Double) {
        coefficients.setGyroStep(dt, params)
        state.restGyro.add(gyro, gain: coefficients.restGyroGain)
        let lp = state.restGyro.value
        let d = gyro - lp
        let th = params.restGyroThreshold, cap = params.maxBias
        if d.normSquared >= th * th || abs(lp.x) > cap || abs(lp.y) > cap || abs(lp.z) > cap {
            notAtRest()
        }
    }

    mutating func detectRest(accel: Vector3, dt: Double) {
        guard state.restAccel.add(accel, gain: coefficients.restAccelGain) else { return }
        let lp = state.restAccel.value
        let d = accel - lp
        if d.normSquared >= params.restAccelThreshold * params.restAccelThreshold {
            notAtRest()
            return
        }
        if !state.restRefAccelSet {
            state.restRefAccel = lp; state.restRefAccelSet = true
        } else if !Self.within(lp, state.restRefAccel, cos: coefficients.restMaxAngleCos) {
            notAtRest()
            return
        }
        state.restTime += dt
        if state.restTime >= params.restMinTime && state.restGyro.started { state.atRest = true }
    }

    mutating func detectRest(mag: Vector3) {
        guard state.restMag.add(mag, gain: coefficients.restMagGain) else { return }
        guard state.restTime > 0 else { return }
        let lp = state.restMag.value
        if !state.restRefMagSet {
            state.restRefMag = lp; state.restRefMagSet = true
        } else if !Self.within(lp, state.restRefMag, cos: coefficients.restMaxAngleCos) {
            notAtRest()
        }
    }

    /// Whether the angle between a and b is at most acos(c) (c > 0), without trigonometry.
    @inline(__always)
    static func within(_ a: Vector3, _ b: Vector3, cos c: Double) -> Bool {
        let d = a.dot(b)
        return d > 0 && d * d >= c * c * a.normSquared * b.normSquared
    }
}

/// The rest detector's low-pass of one sensor (device frame), as VQF's rest detection
/// low-passes each sensor with one helper (`filterVec`); here two first-order passes of the
/// same gain in cascade. It starts at the first sample.
struct RestLowPass: Sendable, Equatable {
    /// The first pass's output.
    var first = Vector3.zero
    /// The second pass's output: the low-passed value the detector tests.
    var value = Vector3.zero
    var started = false

    /// Feeds `x`, with gain `k` per step. Returns false for the first sample since a start,
    /// which only sets the filter to it.
    @inline(__always) @discardableResult
    mutating func add(_ x: Vector3, gain k: Double) -> Bool {
        guard started else {
            first = x; value = x; started = true
            return false
        }
        first = first + (x - first) * k
        value = value + (first - value) * k
        return true
    }
}
