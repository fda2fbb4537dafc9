import Foundation
import POIARCore

/// The device's horizontal position from GPS fixes on a local east-north plane: a Kalman filter
/// forward in time, and over a whole recording a Rauch–Tung–Striebel pass back (the position's
/// counterpart of the attitude's forward and backward passes, `OfflineFusion`).
///
/// Each axis (east, north) has the state [position, velocity, wander]: the position moves at
/// a velocity that changes at random (a constant-velocity model whose acceleration noise grows
/// with speed, for walkers and cars alike), and a fix measures position + wander + white noise.
/// The wander is the slow, time-correlated part of a phone's GPS error (first-order
/// Gauss–Markov, `wanderSeconds`): modelled, it is not averaged away as if each fix were
/// independent, which keeps the stated uncertainty honest. Both axes share one covariance
/// (the model and the fixes are isotropic), so the filter is three-state.
///
/// Fixes that disagree with the motion (multipath jumps that still claim a good accuracy) are
/// found by their normalised innovation: beyond the 99 % gate of χ² with two degrees of
/// freedom their noise is inflated by how far beyond they are (a Student-t-like weight), and
/// over a whole recording the weights are found again from the smoothed track's residuals,
/// which see the fixes after a jump as well as before it (iteratively reweighted smoothing).
struct PositionSmoother {
    struct Settings {
        /// Correlation time of the GPS wander, s (smartphone studies find minutes-scale
        /// pseudorange multipath and tens of seconds of position wander; docs/position.md).
        var wanderSeconds = 30.0
        /// Shares of a fix's stated per-axis σ that wander and that are white (0.85² + 0.6² ≈ 1.08:
        /// together a little more than the stated σ, which phones tend to understate).
        var wanderShare = 0.85
        var whiteShare = 0.6
        /// Acceleration noise density, m²/s³: `accelDensity + speedGain · speed²` (turns at
        /// speed are accelerations too).
        var accelDensity = 0.05
        var speedGain = 0.05
        /// The least acceleration noise density, m²/s³, where the receiver measures its speed
        /// (`Velocity.drifts` false): a car pulls away at 2–3 m/s², which the speed-scaled
        /// density, starting from a standstill, would not let the filter follow; the measured
        /// speed then holds the velocity instead of the model.
        var measuredSpeedAccelDensity = 1.0
        /// χ²(2 dof) 99 %: innovations beyond it are down-weighted.
        var gate = 9.21
        /// How long a filter keeps judging fixes against its uncertainty before a jump, s.
        var stickySeconds = 20.0
        /// Reweighting passes over a whole recording.
        var passes = 3
        /// Speed assumed at the start, s.d. m/s.
        var initialSpeedSigma = 10.0
    }

    /// A fix on the plane: time, east and north (m), and its stated 68 % horizontal radius;
    /// with the walker's velocity at its time when the IMU tells it (`MotionVelocity`).
    struct PlaneFix {
        var time: Double
        var east: Double, north: Double
        var accuracy: Double
        var velocity: Velocity? = nil
        /// False for an epoch inside a GPS gap that carries the IMU's velocity alone
        /// (`MotionVelocity.gapTimes`): its position and accuracy are not a measurement.
        var isFix = true
    }

    /// A velocity measurement, m/s, with the variance of each axis, (m/s)².
    struct Velocity {
        var east: Double, north: Double
        var variance: Double
        /// Whether its error is a bias that adds up where no fix checks it (the steps' length
        /// and offset, `bridging`); the receiver's Doppler speed is measured afresh each time.
        var drifts = true
    }

    /// The estimate at one fix's time (per axis: the state; shared: the covariance).
    struct Estimate {
        var time: Double
        var east: Vector3, north: Vector3  // position, velocity, wander
        var covariance: Matrix3
        /// The 68 % radius of the horizontal position error: an isotropic 2-D Gaussian holds
        /// 68 % of its mass within 1.51 σ.
        var radius68: Double { 1.5096 * max(0, covariance[0, 0]).squareRoot() }
    }

    var settings = Settings()

    /// Per-axis σ of a fix with `accuracy` (the 68 % radius).
    static func axisSigma(_ accuracy: Double) -> Double { accuracy / 1.5096 }

    /// How a filter pass judges a fix against its prediction.
    enum Gating {
        /// Each fix with its given inflation.
        case none
        /// A fix beyond the gate is inflated until it sits at the gate (a Student-t weight): the
        /// causal filter, which has no second opinion and must never lose the track.
        case soften
        /// A fix beyond the gate is left out: the passes of the smoother, whose two directions
        /// settle which fixes were off.
        case reject
    }

    /// One forward pass with the given noise inflations (1: as stated); gates (and so updates
    /// `inflation`) as `gating` says. Returns the updated and predicted estimates and the
    /// transitions, for the smoother, and each fix's prior: the prediction with the velocity
    /// measured at its time (what the fix is judged against).
    func forward(_ fixes: [PlaneFix], inflation: inout [Double], gating: Gating) -> Pass {
        var updated: [Estimate] = [], predicted: [Estimate] = [], priors: [Estimate] = [], transitions: [Matrix3] = []
        updated.reserveCapacity(fixes.count); predicted.reserveCapacity(fixes.count)
        priors.reserveCapacity(fixes.count); transitions.reserveCapacity(fixes.count)
        var current: Estimate?
        var rejection: (since: Double, hph: Double)?  // the run of fixes left out
        var consistency = Consistency(seconds: settings.wanderSeconds)
        var lastFixTime: Double?
        for (k, fix) in fixes.enumerated() {
            let sigma = Self.axisSigma(fix.accuracy)
            let wanderVar = pow(settings.wanderShare * sigma, 2)
            var prior: Estimate
            if let last = current {
                let (f, q) = transition(from: last, to: fix.time, wanderVar: wanderVar, measured: fix.velocity)
                prior = Estimate(time: fix.time, east: f * last.east, north: f * last.north,
                                 covariance: (f * last.covariance * f.transposed) + q)
                transitions.append(f)
            } else {
                // Diffuse position, unknown speed, wander as stated.
                prior = Estimate(time: fix.time, east: Vector3(fix.east, 0, 0), north: Vector3(fix.north, 0, 0),
                                 covariance: .diagonal(1e6, pow(settings.initialSpeedSigma, 2), wanderVar))
            }
            predicted.append(prior)
            if let v = fix.velocity { prior = Self.update(prior, with: v, gate: settings.gate) }
            priors.append(prior)
            guard fix.isFix else {
                // An epoch in a GPS gap: the velocity alone.
                current = prior
                var stated = prior
                if gating == .soften { stated.covariance = stated.covariance * consistency.scale }
                updated.append(stated)
                continue
            }
            defer { lastFixTime = fix.time }
            let whiteVar = pow(settings.whiteShare * sigma, 2)
            // Innovation: z − (p + b), variance HPHᵀ + R with H = [1 0 1].
            let c = prior.covariance
            let hph = c[0, 0] + 2 * c[0, 2] + c[2, 2]
            let ie = fix.east - prior.east.x - prior.east.z, inn = fix.north - prior.north.x - prior.north.z
            if gating == .soften, let lastFixTime {
                let d2 = (ie * ie + inn * inn) / (hph + whiteVar)
                inflation[k] = d2 > settings.gate ? ((hph + whiteVar) * d2 / settings.gate - hph) / whiteVar : 1
                consistency.add(d2: min(d2, settings.gate), dt: fix.time - lastFixTime)
            } else if gating == .reject && lastFixTime != nil {
                // One filter alone cannot tell a jump from a turn it has not seen yet: it leaves
                // the fix out. While it leaves fixes out its uncertainty grows (the velocity is
                // loosely known), which would let the rest of a jump in: for `stickySeconds`
                // the fixes are judged against the uncertainty it had at the first one left out.
                let judged: Double
                if let run = rejection, fix.time - run.since <= settings.stickySeconds { judged = min(hph, run.hph) } else { judged = hph }
                let d2 = (ie * ie + inn * inn) / (judged + whiteVar)
                if d2 > settings.gate {
                    inflation[k] = Self.rejected
                    if rejection == nil { rejection = (fix.time, hph) }
                } else {
                    inflation[k] = 1
                    rejection = nil
                }
            }
            let r = whiteVar * inflation[k]
            let s = hph + r
            let ph = Vector3(c[0, 0] + c[0, 2], c[1, 0] + c[1, 2], c[2, 0] + c[2, 2])  // P Hᵀ
            var gain = ph / s
            var post = prior
            if gating == .soften && inflation[k] > 1 {
                // A softened fix is an outlier (a multipath jump), not the slow wander: it may
                // move the position a little but not the wander, which would carry it on for
                // tens of seconds after the jump ends. The gain is then not the optimal one, so
                // the covariance takes Joseph's form: (I − KH) P (I − KH)ᵀ + K R Kᵀ.
                gain = Vector3(gain.x, gain.y, 0)
                let a = Matrix3.diagonal(1, 1, 1) - .outer(gain, Vector3(1, 0, 1))
                post.covariance = (a * c * a.transposed) + .outer(gain, gain * r)
            } else {
                // The optimal gain's symmetric form: P − K S Kᵀ.
                post.covariance = c - .outer(gain, gain * s)
            }
            post.east = prior.east + gain * ie
            post.north = prior.north + gain * inn
            current = post
            // The causal filter states its covariance scaled by how far its recent fixes sat
            // from it (`Consistency`); the recursion goes on with the model's own.
            if gating == .soften { post.covariance = post.covariance * consistency.scale }
            updated.append(post)
        }
        return Pass(updated: updated, predicted: predicted, priors: priors, transitions: transitions)
    }

    /// Covariance matching for the causal filter: the running mean, over the wander's
    /// correlation time, of its fixes' normalised innovations d² (clipped at the gate, so one
    /// jump counts as one fix at the gate). A consistent filter's d² has mean 2 (χ², two degrees
    /// of freedom); a larger mean says the errors it meets are larger than its model (the
    /// unmodelled, time-correlated part: a wander larger than stated, jumps inside the gate),
    /// and its covariance is scaled by that ratio. Never below 1: fixes that agree better than
    /// stated do not make it claim more than the model. Over a whole recording the two
    /// directions see each fix from both sides and need no such scale (docs/position.md).
    struct Consistency {
        let seconds: Double
        private var mean = 2.0
        init(seconds: Double) { self.seconds = seconds }
        mutating func add(d2: Double, dt: Double) {
            mean += (1 - exp(-max(0, dt) / seconds)) * (d2 - mean)
        }
        var scale: Double { max(1, mean / 2) }
    }

    /// What a forward pass gives.
    struct Pass {
        var updated: [Estimate], predicted: [Estimate], priors: [Estimate], transitions: [Matrix3]
    }

    /// `e` updated with a velocity measurement (H = [0 1 0] on each axis). A velocity beyond
    /// the gate is softened until it sits at it, as the causal filter does with fixes: the
    /// IMU's word is not taken over a track that plainly goes elsewhere (a walker who looks
    /// aside for a while). The receiver's speed, measured afresh each time, only beyond three
    /// gates: softened, it let the filter trail a car pulling away by 30 m.
    static func update(_ e: Estimate, with v: Velocity, gate: Double) -> Estimate {
        let c = e.covariance
        let ie = v.east - e.east.y, inn = v.north - e.north.y
        var s = c[1, 1] + v.variance
        let d2 = (ie * ie + inn * inn) / s
        let limit = v.drifts ? gate : 3 * gate
        if d2 > limit { s *= d2 / limit }
        let gain = Vector3(c[0, 1], c[1, 1], c[2, 1]) / s
        var post = e
        post.east = e.east + gain * ie
        post.north = e.north + gain * inn
        post.covariance = c - .outer(gain, gain * s)
        return post
    }

    /// The inflation that leaves a fix out.
    static let rejected = 1e6

    /// How much to inflate a fix's white noise when its normalised innovation d² is beyond the
    /// gate: enough that the whole innovation variance grows by d²/gate (the fix then sits at
    /// the gate), as a Student-t weight does.
    static func inflation(_ d2: Double, gate: Double, hph: Double, whiteVar: Double) -> Double {
        guard d2 > gate, whiteVar > 0 else { return 1 }
        guard d2 < 3 * gate else { return rejected }
        let wanted = (hph + whiteVar) * pow(d2 / gate, 2)
        return max(1, (wanted - hph) / whiteVar)
    }

    /// The transition and process noise from `from` to `time`, where `measured` is the
    /// velocity measured at `time`, if any: the receiver's speed, when faster than the
    /// filter's own, scales the acceleration noise too (its own lags a car pulling away).
    func transition(from e: Estimate, to time: Double, wanderVar: Double, measured: Velocity? = nil) -> (Matrix3, Matrix3) {
        let dt = max(0, time - e.time)
        let phi = exp(-dt / settings.wanderSeconds)
        let f = Matrix3(rows: Vector3(1, dt, 0), Vector3(0, 1, 0), Vector3(0, 0, phi))
        var speed2 = e.east.y * e.east.y + e.north.y * e.north.y
        var qa = settings.accelDensity
        if let m = measured, !m.drifts {
            speed2 = max(speed2, m.east * m.east + m.north * m.north)
            qa = max(qa, settings.measuredSpeedAccelDensity - settings.speedGain * speed2)
        }
        qa += settings.speedGain * speed2
        // The Gauss–Markov step at the stated accuracy's scale: a fix that suddenly claims
        // worse does not make the wander jump (a jump is what multipath looks like).
        let qb = wanderVar * (1 - phi * phi)
        let q = Matrix3(rows: Vector3(qa * dt * dt * dt / 3, qa * dt * dt / 2, 0),
                        Vector3(qa * dt * dt / 2, qa * dt, 0),
                        Vector3(0, 0, qb))
        return (f, q)
    }

    /// The forward filter alone (causal): each fix's estimate from it and the fixes before.
    /// Fixes beyond the gate are softened: it has no second opinion and must not lose the
    /// track (leaving them out, or out beyond three gates, was measured worse: a filter that
    /// locks onto a burst stays there; docs/position.md).
    func filter(_ fixes: [PlaneFix]) -> [Estimate] {
        var inflation = [Double](repeating: 1, count: fixes.count)
        return forward(fixes, inflation: &inflation, gating: .soften).updated
    }

    /// The filter run back in time (the same model with time reversed): at each fix, the
    /// estimate from the fixes after it alone, in forward time (velocity turned back).
    func backwardPredictions(_ fixes: [PlaneFix], inflation: [Double], gating: Gating) -> [Estimate] {
        let reversed = fixes.reversed().map {
            PlaneFix(time: -$0.time, east: $0.east, north: $0.north, accuracy: $0.accuracy,
                     velocity: $0.velocity.map { Velocity(east: -$0.east, north: -$0.north, variance: $0.variance, drifts: $0.drifts) },
                     isFix: $0.isFix)
        }
        var weights = Array(inflation.reversed())
        let flip = Matrix3.diagonal(1, -1, 1)
        return forward(reversed, inflation: &weights, gating: gating).priors.reversed().map { e in
            Estimate(time: -e.time, east: flip * e.east, north: flip * e.north, covariance: flip * e.covariance * flip)
        }
    }

    /// Each fix's normalised residual against the track the other fixes give: the forward
    /// filter's prediction (fixes before) and the backward one's (fixes after) combined, so a
    /// jump is judged from both sides whichever side it starts on.
    func leaveOneOut(_ fixes: [PlaneFix], forward: [Estimate], backward: [Estimate])
        -> [(d2: Double, hph: Double, whiteVar: Double)] {
        fixes.indices.map { k in
            guard fixes[k].isFix else { return (0, 0, 0) }  // no fix to judge
            let f = forward[k], b = backward[k]
            let whiteVar = pow(settings.whiteShare * Self.axisSigma(fixes[k].accuracy), 2)
            var east = f.east, north = f.north, cov = f.covariance
            if let fi = f.covariance.symmetricInverse, let bi = b.covariance.symmetricInverse,
               let c = (fi + bi).symmetricInverse {
                cov = c
                east = c * (fi * f.east + bi * b.east)
                north = c * (fi * f.north + bi * b.north)
            }
            let hph = max(0, cov[0, 0] + 2 * cov[0, 2] + cov[2, 2])
            let ie = fixes[k].east - east.x - east.z, inn = fixes[k].north - north.x - north.z
            return ((ie * ie + inn * inn) / (hph + whiteVar), hph, whiteVar)
        }
    }

    /// The whole recording: forward and backward filters with gating find the fixes that
    /// disagree with the rest (`leaveOneOut`), their noise is inflated, and that is found again
    /// with the new weights; then forward with those weights and back with RTS.
    func smooth(_ given: [PlaneFix]) -> (estimates: [Estimate], inflation: [Double]) {
        let fixes = Self.bridging(given) { given[$0].isFix }
        var inflation = [Double](repeating: 1, count: fixes.count)
        guard fixes.count > 1 else { return (forward(fixes, inflation: &inflation, gating: .none).updated, inflation) }
        var gating = Gating.reject
        for _ in 0..<max(1, settings.passes) {
            var forwardWeights = inflation
            let f = forward(fixes, inflation: &forwardWeights, gating: gating).priors
            let b = backwardPredictions(fixes, inflation: inflation, gating: gating)
            let loo = leaveOneOut(fixes, forward: f, backward: b)
            // A fix once found off stays at least as far down-weighted: with its weight lowered
            // the track moves off it, and a jump of several fixes must not win back its pull.
            inflation = zip(loo, inflation).map { l, before in
                max(before, Self.inflation(l.d2, gate: settings.gate, hph: l.hph, whiteVar: l.whiteVar))
            }
            gating = .none
        }
        // A run of fixes left out is a gap for the IMU as well: its velocity is loosened with the
        // time from the nearest fix kept, as across a dropout (a long burst crossed on the steps
        // alone drifted by 5–10 m while σ said 3 m).
        var weights = inflation
        let bridged = Self.bridging(given) { given[$0].isFix && inflation[$0] <= 3 }
        return (rts(forward(bridged, inflation: &weights, gating: .none)), inflation)
    }

    /// `fixes` with each IMU velocity's variance grown by the time from the nearest `trusted`
    /// fix (`MotionVelocity.bridged`): the step length and the offset are biases, which add up
    /// wherever no fix checks them.
    static func bridging(_ fixes: [PlaneFix], trusted: (Int) -> Bool) -> [PlaneFix] {
        var before = [Double](repeating: -.infinity, count: fixes.count), after = [Double](repeating: .infinity, count: fixes.count)
        var last = -Double.infinity
        for k in fixes.indices { if trusted(k) { last = fixes[k].time }; before[k] = last }
        last = .infinity
        for k in fixes.indices.reversed() { if trusted(k) { last = fixes[k].time }; after[k] = last }
        return fixes.indices.map { k in
            var fix = fixes[k]
            let elapsed = min(fix.time - before[k], after[k] - fix.time)
            if let v = fix.velocity, v.drifts, elapsed.isFinite { fix.velocity = MotionVelocity.bridged(v, elapsed: elapsed) }
            return fix
        }
    }

    /// Rauch–Tung–Striebel: each estimate corrected by the one after it.
    func rts(_ pass: Pass) -> [Estimate] {
        var out = pass.updated
        guard out.count > 1 else { return out }
        for k in stride(from: out.count - 2, through: 0, by: -1) {
            let u = pass.updated[k], p = pass.predicted[k + 1], f = pass.transitions[k]
            guard let inv = p.covariance.symmetricInverse else { continue }
            let gain = u.covariance * f.transposed * inv
            let next = out[k + 1]
            out[k].east = u.east + gain * (next.east - p.east)
            out[k].north = u.north + gain * (next.north - p.north)
            out[k].covariance = u.covariance + gain * (next.covariance - p.covariance) * gain.transposed
        }
        return out
    }
}

extension Matrix3 {
    static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 {
        Matrix3(rows: Vector3(a, 0, 0), Vector3(0, b, 0), Vector3(0, 0, c))
    }

    static func outer(_ a: Vector3, _ b: Vector3) -> Matrix3 { Matrix3(rows: b * a.x, b * a.y, b * a.z) }

    static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2) }

    static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2) }

    /// The inverse through the adjugate; nil when (nearly) singular.
    var symmetricInverse: Matrix3? {
        let r0 = row0, r1 = row1, r2 = row2
        let c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1)
        let det = r0.dot(c0)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        return Matrix3(rows: c0, c1, c2).transposed * (1 / det)
    }

    static func * (a: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: a.row0 * s, a.row1 * s, a.row2 * s) }
}
