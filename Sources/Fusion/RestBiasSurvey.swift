import POIARCore

/// The gyro bias measured wherever the device rested in the whole recording, to start each
/// offline pass with it (the causal filter learns it only at its first rest).
///
/// Rests are found by the filter's own rest detector (`ComplementaryFilter.detectRest`, the
/// same thresholds, low-passes and the check that gravity and the field did not turn), run
/// alone over the samples in time order; the mean gyro rate over a rest is the bias then.
public struct RestBiasSurvey: Sendable, Equatable {
    public struct Rest: Sendable, Equatable {
        public var start: Double, end: Double
        /// Mean gyro rate over the rest, rad/s.
        public var bias: Vector3
        public var samples: Int
    }

    public var rests: [Rest] = []

    public init(_ r: SensorRecording, params p: ComplementaryFilterParams) {
        guard r.gyro.count > 1, p.restBiasEstimation else { return }
        var f = ComplementaryFilter(params: p)
        let g = r.gyro, a = r.accel, m = r.mag
        var gi = 0, ai = 0, mi = 0
        var lastGyro: Double?, lastAccel: Double?, lastMag: Double?
        var current: Rest?
        func close() {
            if let c = current { rests.append(c) }
            current = nil
        }
        while gi < g.count || ai < a.count || mi < m.count {
            let tg = gi < g.count ? g.times[gi] : .infinity
            let ta = ai < a.count ? a.times[ai] : .infinity
            let tm = mi < m.count ? m.times[mi] : .infinity
            if tg <= ta && tg <= tm {
                let v = g.vector(gi)
                if let last = lastGyro, tg - last > p.maxGyroGap {
                    f.restartAfterGap()
                    close()
                } else if let last = lastGyro, tg > last {
                    f.detectRest(gyro: v, dt: tg - last)
                }
                lastGyro = tg
                if f.state.atRest {
                    if var c = current {
                        c.bias = c.bias + (v - c.bias) / Double(c.samples + 1)
                        c.samples += 1
                        c.end = tg
                        current = c
                    } else {
                        current = Rest(start: tg, end: tg, bias: v, samples: 1)
                    }
                } else {
                    close()
                }
                gi += 1
            } else if ta <= tm {
                let v = a.vector(ai)
                if let last = lastAccel, ta > last, v.normSquared > 0 {
                    let dt = min(ta - last, p.maxSampleInterval)
                    f.coefficients.setAccelStep(dt, p)
                    f.detectRest(accel: v, dt: dt)
                }
                lastAccel = ta
                ai += 1
            } else {
                let v = m.vector(mi)
                if let last = lastMag, tm > last, v.normSquared > 0 {
                    f.coefficients.setMagStep(min(tm - last, p.maxSampleInterval), p)
                    f.detectRest(mag: v)
                }
                lastMag = tm
                mi += 1
            }
        }
        close()
    }

    /// The bias to start a pass with at time `t` (the rest nearest in time) and its variance,
    /// (rad/s)²: the rest's σ_rest², grown by the bias's random walk (σ_motion² per
    /// `biasForgettingTime`) over the time between, capped at σ_init². nil without rests.
    public func seed(at t: Double, params p: ComplementaryFilterParams) -> (bias: Vector3, variance: Double)? {
        guard let r = rests.min(by: { Self.distance($0, t) < Self.distance($1, t) }) else { return nil }
        let v = p.biasSigmaRest * p.biasSigmaRest
            + p.biasSigmaMotion * p.biasSigmaMotion * Self.distance(r, t) / max(p.biasForgettingTime, 1e-9)
        return (r.bias, min(v, p.biasSigmaInit * p.biasSigmaInit))
    }

    static func distance(_ r: Rest, _ t: Double) -> Double { t < r.start ? r.start - t : (t > r.end ? t - r.end : 0) }
}
