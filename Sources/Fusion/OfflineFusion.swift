import Dispatch
import Foundation
import POIARCore

/// Attitude estimation with the whole recording at hand (a replay, not a live app):
///
/// 1. **Calibrate over the whole recording**: the uncalibrated stream when the log has one
///    (one hard iron throughout), else the calibrated one with the OS's re-estimates taken out
///    (`MagnetometerSteps`); the magnetometer's hard iron (and soft iron and
///    scale when its norm is far from WMM2025's intensity; `MagnetometerCalibration`; in the
///    horizontal plane when the device turned too little, `MagnetometerLevelFit`; disturbed
///    spans left out: `prepareMagnetometer`), its
///    delay behind the gyro (`MagnetometerDelay`: its samples are moved to the instant they
///    describe), and the gyro bias wherever the device rested long enough to measure it
///    (`RestBiasSurvey`, `OfflineTrust`).
/// 2. **Fuse forward and backward**: the complementary filter runs over the calibrated samples
///    in time order, and over them time-reversed (samples in reverse order, times negated, gyro
///    rates negated and taken from the sample after, so that each rate still covers the
///    interval it was measured over), each starting with the bias of the rest nearest its start.
///    The online hard-iron fit and disturbance rejection stay in both (a magnet that comes or
///    goes). Heading uses `offlineTauMag`: the bias lag of the two passes cancels — near a rest
///    that measured the bias; elsewhere the passes fall back to the live τ_mag (`OfflineTrust`).
/// 3. **Combine** at each gyro sample: the backward attitude's difference from the forward
///    one, split into a turn about the vertical (heading) and a tilt, is taken in proportion to
///    the passes' inverse variances: a bias error e (each pass's Kalman variance) tilts by
///    e·τ_acc and turns the heading by e·τ_mag, plus e per second the field has been held off
///    as disturbed; until a filter has run for its τ since a (re)start its weight grows in
///    proportion. Right after a start or a gyro gap one pass knows little and the other
///    carries the estimate; through a disturbance the pass that entered it last weighs most.
///
/// Without a magnetometer the tilt is absolute and the heading relative (the forward pass's:
/// azimuth 0 = the device's facing direction at the first pose); the series says so.
///
/// Memory: the samples (`SampleSeries.bytesPerSample` = 20 bytes each) and 24 bytes per gyro
/// sample for each pass; then the samples are freed and the series built (24 bytes per gyro
/// sample) while the passes' buffers are still there.
public struct OfflineFusion {
    public var params: ComplementaryFilterParams
    /// Called after each gyro sample of the forward pass (the passes then run one after the
    /// other on the calling thread instead of side by side).
    public var onForwardFilter: ((Double, ComplementaryFilter) -> Void)?
    /// Whether the OS's calibration steps are taken out of the calibrated magnetometer stream
    /// (`MagnetometerSteps`) when there is no uncalibrated one (off: to measure what they cost).
    public var removesMagnetometerSteps = true

    public init(params: ComplementaryFilterParams) { self.params = params }

    /// What the whole-recording calibration found, and the notices to show once.
    public struct Report: Sendable {
        /// nil: the recording has no magnetometer samples.
        public var calibration: MagnetometerCalibration?
        /// The magnetometer's delay behind the gyro, s (nil: none found).
        public var magDelay: Double?
        /// The rests long enough to measure the gyro bias (`OfflineTrust`).
        public var rests: Int = 0
        /// Where no such rest is near: the passes ran with the live filter's τ_mag there.
        public var fallback: [ClosedRange<Double>] = []
        public var notices: [String] = []
        /// Why the heading is relative, when it is (no magnetometer); the caller may still
        /// settle it from other sources and says which.
        public var relativeHeading: String?
    }

    /// The attitude series of `recording` (from the forward pass's first pose on: the rows a
    /// causal pass would write). `recording` is consumed: its magnetometer samples are
    /// calibrated and moved in time in place, and it is emptied once the passes have run.
    public func estimate(_ recording: inout SensorRecording) -> (series: AttitudeSeries, report: Report) {
        var report = Report()
        var p = params
        p.tauMag = params.offlineTauMag
        let magnetometer = prepareMagnetometer(&recording, &p)
        let hasMag = !recording.mag.isEmpty

        if hasMag, let cal = magnetometer.calibration {
            report.calibration = cal
            if let expected = params.expectedFieldUT {
                // The disturbance check compares the field with a reference: the model's
                // intensity and dip only when the calibrated field matches them (a full
                // calibration scaled to it, or a sensor that reads it anyway); otherwise the
                // field's own, learnt from its first steady seconds.
                let matches = cal.scaledToUT != nil ? cal.matchesModel
                    : (cal.measuredFieldUT.map { abs($0 - expected) <= params.magNormThreshold * expected } ?? true)
                if !matches {
                    p.expectedFieldUT = nil
                    p.expectedDipDeg = nil
                }
            }
            if let delay = MagnetometerDelay.estimate(gyro: recording.gyro, mag: recording.mag, maxDelay: params.magDelayMax) {
                report.magDelay = delay
                recording.mag.shiftTimes(by: -delay)
            }
            report.notices = Self.notices(cal, delay: report.magDelay, expected: params.expectedFieldUT,
                                          threshold: params.magNormThreshold)
            if let source = magnetometer.source { report.notices.insert("magnetometer: \(source)", at: 0) }
            if let disturbed = magnetometer.disturbed { report.notices.append(disturbed) }
        } else {
            p.magStartWait = 0
            report.relativeHeading = "heading is relative: the recording has no magnetometer (azimuth 0 = the device's facing direction at the first pose)"
        }

        let n = recording.gyro.count
        guard n > 0 else {
            return (AttitudeSeries(headingIsAbsolute: hasMag, maxInterpolationGap: params.maxGyroGap), report)
        }
        let (start, end) = (recording.gyro.times[0], recording.gyro.times[n - 1])
        let allRests = RestBiasSurvey(recording, params: params)
        let trust = OfflineTrust(allRests, accel: recording.accel, mag: recording.mag, start: start, end: end, params: params)
        let survey = trust.seeds(allRests)
        report.rests = survey.rests.count
        if hasMag, let notice = trust.notice(start: start, end: end, params: params) { report.notices.append(notice) }
        report.fallback = hasMag ? trust.fallback : []
        // The heading's uncertainty counts on a calibrated magnetometer where the recording's
        // turns pinned its offset down (or the log gave it).
        let calibrated = params.magHardIronSeed != nil
            || (report.calibration.map { $0.coverage.count == 3 && $0.coverage[1] >= params.magCalibrationMinCoverage } ?? false)
        let forwardSeed = survey.seed(at: start, params: params)
        let backwardSeed = survey.seed(at: end, params: params)

        let forward = PassBuffers(count: n), backward = PassBuffers(count: n)
        defer { forward.deallocate(); backward.deallocate() }
        var backwardParams = p
        backwardParams.sensorDelay = -p.sensorDelay  // the prediction ahead in (forward) time
        do {  // (a scope, so that the passes' copy of the samples ends with them)
            let rec = recording, fp = p, bp = backwardParams, live = params.tauMag
            let fallback = hasMag ? trust : OfflineTrust.none
            if let onForwardFilter {
                Self.forwardPass(rec, fp, seed: forwardSeed, fallback: fallback, liveTauMag: live, calibrated: calibrated, into: forward, trace: onForwardFilter)
                Self.backwardPass(rec, bp, seed: backwardSeed, fallback: fallback, liveTauMag: live, calibrated: calibrated, into: backward)
            } else {
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 { Self.forwardPass(rec, fp, seed: forwardSeed, fallback: fallback, liveTauMag: live, calibrated: calibrated, into: forward, trace: nil) }
                    else { Self.backwardPass(rec, bp, seed: backwardSeed, fallback: fallback, liveTauMag: live, calibrated: calibrated, into: backward) }
                }
            }
        }
        // The samples are not needed any more: free them before the series is built.
        var gyroTimes = recording.gyro.times
        recording = SensorRecording()
        let series = Self.combine(times: &gyroTimes, forward, backward, heading: hasMag, maxGap: params.maxGyroGap)
        return (series, report)
    }

    // MARK: - Passes

    /// Each pass's attitude (w, x, y, z), weights (tilt, heading) and heading variances
    /// (bias, noise, systematic: `HeadingUncertainty`) per gyro sample; a tilt weight below 0 marks a
    /// sample without a pose.
    final class PassBuffers: @unchecked Sendable {
        let quats: UnsafeMutableBufferPointer<Float>
        let weights: UnsafeMutableBufferPointer<Float>
        let headingVariances: UnsafeMutableBufferPointer<Float>
        init(count n: Int) {
            quats = .allocate(capacity: 4 * n)
            weights = .allocate(capacity: 2 * n)
            headingVariances = .allocate(capacity: 3 * n)
            weights.initialize(repeating: -1)
            quats.initialize(repeating: 0)
            headingVariances.initialize(repeating: 0)
        }
        func deallocate() { quats.deallocate(); weights.deallocate(); headingVariances.deallocate() }

        @inline(__always)
        func store(_ k: Int, _ u: HeadingUncertainty) {
            headingVariances[3 * k] = Float(u.biasDrift)
            headingVariances[3 * k + 1] = Float(u.noiseDrift)
            headingVariances[3 * k + 2] = Float(u.systematic)
        }

        @inline(__always)
        func headingVariance(_ k: Int) -> HeadingUncertainty.Variances {
            HeadingUncertainty.Variances(bias: headingVariances[3 * k], noise: headingVariances[3 * k + 1],
                                         systematic: headingVariances[3 * k + 2])
        }

        @inline(__always)
        func store(_ k: Int, _ f: ComplementaryFilter) {
            let q = f.outputAttitude
            quats[4 * k] = Float(q.w); quats[4 * k + 1] = Float(q.x); quats[4 * k + 2] = Float(q.y); quats[4 * k + 3] = Float(q.z)
            // Inverse variances. A bias error e tilts the pose by about e·τ_acc and turns the
            // heading by e·τ_mag (the lag of each correction), and a heading held on the gyro
            // while the field is rejected drifts by e per second of it: with σ² the bias
            // variance (the Kalman filter's, plus the floor σ_motion² it keeps in motion)
            // Var(tilt) = σ²·τ_acc², Var(heading) = σ²·(τ_mag² + t_rejected²). Until a filter
            // has run for its τ since a (re)start, its estimate is a running mean of what it has
            // seen: the weight grows in proportion.
            let p = f.params, s = f.state, c = s.biasCovariance
            let sigma2 = (c.xx + c.yy + c.zz) / 3 + p.biasSigmaMotion * p.biasSigmaMotion
            let tilt = (p.tauAccel > 0 ? min(1, s.accelWarmup / p.tauAccel) : 1) / (sigma2 * max(p.tauAccel * p.tauAccel, 1e-6))
            var heading = 0.0
            if s.headingIsAbsolute {
                let t = s.magRejectTime
                heading = (p.tauMag > 0 ? min(1, s.headingWarmup / p.tauMag) : 1) / (sigma2 * max(p.tauMag * p.tauMag + t * t, 1e-6))
            }
            weights[2 * k] = Float(tilt)
            weights[2 * k + 1] = Float(heading)
        }

        @inline(__always)
        func quaternion(_ k: Int) -> Quaternion {
            Quaternion(w: Double(quats[4 * k]), x: Double(quats[4 * k + 1]), y: Double(quats[4 * k + 2]), z: Double(quats[4 * k + 3]))
        }
    }

    static func seeded(_ p: ComplementaryFilterParams, _ seed: (bias: Vector3, variance: Double)?, sign: Double) -> ComplementaryFilter {
        var f = ComplementaryFilter(params: p)
        if let seed {
            f.state.gyroBias = seed.bias * sign
            f.state.biasCovariance = SymmetricMatrix3(diagonal: seed.variance)
        }
        return f
    }

    /// The filter over the samples in time order (ties: gyro, accel, mag, as in a log).
    static func forwardPass(_ r: SensorRecording, _ p: ComplementaryFilterParams, seed: (bias: Vector3, variance: Double)?,
                            fallback: OfflineTrust, liveTauMag: Double, calibrated: Bool,
                            into out: PassBuffers, trace: ((Double, ComplementaryFilter) -> Void)?) {
        var f = seeded(p, seed, sign: 1)
        var spans = OfflineTrust.Cursor(fallback, forward: true)
        var u = HeadingUncertainty(calibrated: calibrated)
        let g = r.gyro, a = r.accel, m = r.mag
        let gn = g.count, an = a.count, mn = m.count
        var gi = 0, ai = 0, mi = 0
        while gi < gn || ai < an || mi < mn {
            let tg = gi < gn ? g.times[gi] : .infinity
            let ta = ai < an ? a.times[ai] : .infinity
            let tm = mi < mn ? m.times[mi] : .infinity
            if tg <= ta && tg <= tm {
                let span = spans.update(tg)
                if span.changed { f.setFallback(span.fallsBack, offline: p, liveTauMag: liveTauMag) }
                f.updateGyro(g.vector(gi), time: tg)
                u.update(&f, time: tg)
                if f.state.initialized { out.store(gi, f); out.store(gi, u) }
                trace?(tg, f)
                gi += 1
            } else if ta <= tm {
                f.updateAccel(a.vector(ai), time: ta)
                ai += 1
            } else {
                f.updateMag(m.vector(mi), time: tm)
                mi += 1
            }
        }
    }

    /// The filter over the samples time-reversed: times negated, order reversed, and at the
    /// time of gyro sample k the negated rate of sample k + 1 (which covers the interval from
    /// k to k + 1), so that the attitude after it is the one at sample k.
    static func backwardPass(_ r: SensorRecording, _ p: ComplementaryFilterParams, seed: (bias: Vector3, variance: Double)?,
                             fallback: OfflineTrust, liveTauMag: Double, calibrated: Bool, into out: PassBuffers) {
        var f = seeded(p, seed, sign: -1)
        var spans = OfflineTrust.Cursor(fallback, forward: false)
        var u = HeadingUncertainty(calibrated: calibrated)
        let g = r.gyro, a = r.accel, m = r.mag
        let gn = g.count
        var gi = gn - 1, ai = a.count - 1, mi = m.count - 1
        while gi >= 0 || ai >= 0 || mi >= 0 {
            let tg = gi >= 0 ? -g.times[gi] : .infinity
            let ta = ai >= 0 ? -a.times[ai] : .infinity
            let tm = mi >= 0 ? -m.times[mi] : .infinity
            if tg <= ta && tg <= tm {
                let span = spans.update(g.times[gi])
                if span.changed { f.setFallback(span.fallsBack, offline: p, liveTauMag: liveTauMag) }
                f.updateGyro(gi + 1 < gn ? -g.vector(gi + 1) : .zero, time: tg)
                u.update(&f, time: tg)
                if f.state.initialized { out.store(gi, f); out.store(gi, u) }
                gi -= 1
            } else if ta <= tm {
                f.updateAccel(a.vector(ai), time: ta)
                ai -= 1
            } else {
                f.updateMag(m.vector(mi), time: tm)
                mi -= 1
            }
        }
    }

    // MARK: - Combination

    /// q = twist^αh ⊗ swing^αt ⊗ q_f, where q_b ⊗ q_f⁻¹ = twist ⊗ swing (twist about the
    /// vertical, swing about a horizontal axis), αt and αh the backward pass's share of the
    /// tilt and heading weights. Samples before the forward pass's first pose are left out;
    /// where the backward pass has no pose the forward one is taken.
    static func combine(times: inout [Double], _ fw: PassBuffers, _ bw: PassBuffers, heading: Bool, maxGap: Double) -> AttitudeSeries {
        let n = times.count
        var first = 0
        while first < n && fw.weights[2 * first] < 0 { first += 1 }
        var storage = [Float](repeating: 0, count: 4 * (n - first))
        var sigmas = [Float](repeating: 0, count: n - first)
        for k in first..<n {
            var q = fw.quaternion(k)
            let forward = fw.headingVariance(k)
            var sigma = Double(forward.bias + forward.noise + forward.systematic).squareRoot()
            if fw.weights[2 * k] >= 0 {  // (a sample after a pose always has one)
                let wtb = bw.weights[2 * k]
                if wtb >= 0 {
                    let wtf = Double(fw.weights[2 * k]), whf = Double(fw.weights[2 * k + 1])
                    let wt = Double(wtb), wh = Double(bw.weights[2 * k + 1])
                    let at = wtf + wt > 0 ? wt / (wtf + wt) : 0.5
                    let ah = heading ? (whf + wh > 0 ? wh / (whf + wh) : 0.5) : 0
                    let qb = bw.quaternion(k)
                    if heading {
                        sigma = HeadingUncertainty.combined(forward: forward, backward: bw.headingVariance(k), alpha: ah,
                                                            difference: headingDifference(q, qb))
                    }
                    q = blend(q, qb, tilt: at, heading: ah)
                }
            }
            q = ComplementaryFilter.normalize(q)
            let o = 4 * (k - first)
            storage[o] = Float(q.w); storage[o + 1] = Float(q.x); storage[o + 2] = Float(q.y); storage[o + 3] = Float(q.z)
            sigmas[k - first] = Float(min(sigma, .pi) * 180 / .pi)
        }
        times.removeFirst(first)
        return AttitudeSeries(times: times, storage: storage, headingIsAbsolute: heading, maxInterpolationGap: maxGap,
                              headingSigmas: sigmas)
    }

    /// The angle, rad, about the vertical from `qf` to `qb` (the twist of their difference).
    @inline(__always)
    static func headingDifference(_ qf: Quaternion, _ qb: Quaternion) -> Double {
        var e = qb * qf.conjugate
        if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
        return 2 * atan2(e.z, e.w)
    }

    /// From `qf` toward `qb`: the fraction `heading` of their difference's twist (about the
    /// vertical) and `tilt` of its swing (about a horizontal axis), ENU frame. The difference
    /// is split as e = twist ⊗ swing, so the swing is the tilt difference in the forward
    /// pass's own horizontal axes even when the two headings differ widely (a relative
    /// heading without a magnetometer).
    @inline(__always)
    static func blend(_ qf: Quaternion, _ qb: Quaternion, tilt: Double, heading: Double) -> Quaternion {
        var e = qb * qf.conjugate
        if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
        // Twist about z: (w, 0, 0, z) normalised; swing = twist⁻¹ ⊗ e.
        let tn = (e.w * e.w + e.z * e.z).squareRoot()
        let twist = tn > 1e-12 ? Quaternion(w: e.w / tn, x: 0, y: 0, z: e.z / tn) : Quaternion.identity
        let swing = twist.conjugate * e
        return power(twist, heading) * power(swing, tilt) * qf
    }

    /// q^f for a unit quaternion (the rotation by f times its angle about its axis), with a
    /// series for the small angles between two passes.
    @inline(__always)
    static func power(_ q: Quaternion, _ f: Double) -> Quaternion {
        var q = q
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard s > 0 else { return .identity }
        let c: Double, k: Double  // cos(f·h), sin(f·h)/s with h = half the angle
        if s < 0.05 {
            let h = asinSeries(s), fh = f * h, fh2 = fh * fh
            c = 1 - fh2 * (0.5 - fh2 / 24)
            // sin(f·h)/sin(h)
            let h2 = h * h
            k = f * (1 - fh2 / 6 + fh2 * fh2 / 120) / (1 - h2 / 6 + h2 * h2 / 120)
        } else {
            let h = atan2(s, q.w)
            c = cos(f * h)
            k = sin(f * h) / s
        }
        return Quaternion(w: c, x: q.x * k, y: q.y * k, z: q.z * k)
    }

    /// asin(s) for small s (|s| < 0.05: the omitted term is below 10⁻¹¹).
    @inline(__always)
    static func asinSeries(_ s: Double) -> Double {
        let s2 = s * s
        return s * (1 + s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * 5.0 / 112)))
    }

    // MARK: - Notices

    static func notices(_ cal: MagnetometerCalibration, delay: Double?, expected: Double?, threshold: Double) -> [String] {
        var parts: [String] = []
        let b = cal.offset
        switch cal.kind {
        case .none:
            // Said as what poiar does, not as a fault: most recordings (a walk holding the
            // phone upright) do not turn the phone enough to calibrate, and their readings serve.
            parts.append("magnetometer: readings used as measured (\(cal.limitation ?? "no calibration fits the recording"))")
        case .hardIron, .softIron:
            var text = String(format: "magnetometer: %@ calibrated over the recording (offset %.1f, %.1f, %.1f µT", cal.kind.rawValue, b.x, b.y, b.z)
            if let s = cal.scaledToUT { text += String(format: ", scaled to %.1f µT", s) }
            text += ")"
            if let limit = cal.limitation { text += "; \(limit)" }
            parts.append(text)
        }
        if let delay { parts[0] += String(format: "; its samples lag the gyro by %.0f ms (moved back)", delay * 1000) }
        if let expected, let measured = cal.measuredFieldUT, abs(measured - expected) > threshold * expected {
            let done: String
            switch cal.kind {
            case .softIron: done = String(format: "soft iron and scale calibrated to %.1f µT", expected)
            case .hardIron: done = String(format: "the scale set to %.1f µT (%@)", expected, cal.limitation ?? "hard iron only")
            case .none: done = "not calibrated: the field's own strength is used as the reference"
            }
            parts.append(String(format: "the magnetic field measures %.1f µT where WMM2025 expects %.1f µT: %@", measured, expected, done))
        }
        return parts
    }
}
