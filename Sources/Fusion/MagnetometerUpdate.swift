import Foundation
import POIARCore

/// The magnetometer's part of the filter: each sample refits the hard iron (`HardIronFit`),
/// is checked for disturbance against the reference field, and turns the heading H(ψ) toward
/// (true) north; an undisturbed field also measures the vertical part of the gyro bias.
extension ComplementaryFilter {
    /// Magnetometer sample: initialises, or refits the hard iron, checks the field for
    /// disturbance and turns the heading toward (true) north.
    public mutating func updateMag(_ field: Vector3, time: Double) {
        guard let dt = admit(field, time: time, accel: false) else { return }
        if !state.headingIsAbsolute {
            startAbsoluteHeading(field)
            return
        }
        coefficients.setMagStep(dt, params)

        if params.restBiasEstimation { detectRest(mag: field) }
        let r = Matrix9(state.tiltCorrection * state.gyroAttitude)
        if params.hardIronEstimation { learnHardIron(r, field, dt) }
        let e = r.times(field - state.hardIron)  // the field in the 6D frame
        if params.magDisturbanceRejection { detectDisturbance(e, dt) }

        // Heading error: azimuth of the horizontal field in the ENU frame minus the declination.
        let hw = state.heading.w, hz = state.heading.z
        let c = hw * hw - hz * hz, s = 2 * hw * hz  // cos ψ, sin ψ
        let ex = c * e.x - s * e.y, ey = s * e.x + c * e.y
        let h2 = ex * ex + ey * ey
        guard h2 > 1e-18 * e.normSquared else { return }  // vertical field: no heading information
        let err = wrapPi(atan2(ex, ey) - params.declinationDeg * radPerDeg)

        var k = coefficients.magGain
        if params.magDisturbanceRejection {
            if state.magDisturbed {
                if state.magRejectTime <= params.magMaxRejectionTime {
                    state.magRejectTime += dt
                    k = 0
                } else {
                    k /= params.magRejectionFactor
                }
            } else {
                state.magRejectTime = max(state.magRejectTime - params.magRejectionFactor * dt, 0)
            }
        }
        let warming = state.headingWarmup < params.tauMag
        if warming {
            // Running mean for the first τ_mag seconds: a quick, steady start.
            state.headingWarmup += dt
            k = max(k, dt / state.headingWarmup)
        }
        guard k > 0 else { return }
        if params.magBiasEstimation && !warming && !state.magDisturbed && !state.atRest {
            updateVerticalBias(r, correction: k * err, dt: dt)
        }
        state.heading = Self.turnAboutUp(state.heading, k * err)
    }

    /// The heading correction the field keeps asking for measures the vertical part of the bias
    /// error the way the tilt correction measures the horizontal part (see `updateBias`): if the
    /// bias is off by e, the 6D frame turns about the vertical at (R·e)_z against the world,
    /// and in steady state the heading follows at that rate. Both sides go through the heading
    /// loop's own first-order lag (τ_mag): y = LP(R·b̂)_z − c/Δt ≈ LP(R)_z·b (H = LP of R's
    /// third row). Used only while the field looks undisturbed.
    mutating func updateVerticalBias(_ r: Matrix9, correction c: Double, dt: Double) {
        let b = state.gyroBias
        let row = Vector3(r.a20, r.a21, r.a22)
        let k = coefficients.magGain
        if !state.magBiasLPStarted {
            state.magBiasRow = row; state.magBiasRotated = row.dot(b); state.magBiasLPStarted = true
        } else {
            state.magBiasRow = state.magBiasRow + (row - state.magBiasRow) * k
            state.magBiasRotated += k * (row.dot(b) - state.magBiasRotated)
        }
        let clip = params.maxBias
        let h = state.magBiasRow
        let e = min(clip, max(-clip, state.magBiasRotated - c / dt - h.dot(b)))
        var p = state.biasCovariance
        let ph = p.times(h)
        let sInv = 1 / (h.dot(ph) + coefficients.biasMagNoise)
        let gain = ph * sInv
        let nb = b + gain * e
        state.gyroBias = capBias(nb)
        // P ← P − K·hᵀ·P = P − (P h)(P h)ᵀ / s
        p.xx -= gain.x * ph.x; p.yy -= gain.y * ph.y; p.zz -= gain.z * ph.z
        p.xy -= gain.x * ph.y; p.xz -= gain.x * ph.z; p.yz -= gain.y * ph.z
        state.biasCovariance = p
    }

    /// H(ψ + a) from H(ψ).
    @inline(__always)
    static func turnAboutUp(_ h: Quaternion, _ a: Double) -> Quaternion {
        let c: Double, s: Double
        if abs(a) < 2e-2 {
            let a2 = a * a
            c = 1 - a2 * (1.0 / 8 - a2 / 384)
            s = a * 0.5 * (1 - a2 * (1.0 / 24 - a2 / 1920))
        } else {
            c = cos(a / 2); s = sin(a / 2)
        }
        let w = c * h.w - s * h.z, z = c * h.z + s * h.w
        let n = 1 / (w * w + z * z).squareRoot()
        return Quaternion(w: w * n, x: 0, y: 0, z: z * n)
    }

    /// Norm and dip of the field (6D frame) against the reference, VQF's way: a field that
    /// disagrees is disturbed at once, and used again after `magMinUndisturbedTime` of
    /// agreement; a steady candidate becomes the new reference after `magNewTime` of turning
    /// (`magNewFirstTime`, turning or not, when there is no reference yet).
    mutating func detectDisturbance(_ e: Vector3, _ dt: Double) {
        let norm = e.norm
        let dip = asin(max(-1, min(1, -e.z / norm)))
        if !state.magLPStarted {
            state.magNormLP = norm; state.magDipLP = dip; state.magLPStarted = true
        } else {
            let kc = coefficients.magCurrentGain
            state.magNormLP += kc * (norm - state.magNormLP)
            state.magDipLP += kc * (dip - state.magDipLP)
        }
        let n = state.magNormLP, d = state.magDipLP
        let dipTh = params.magDipThresholdDeg * radPerDeg, kRef = coefficients.magRefGain

        if state.magRefNorm > 0 {
            if abs(n - state.magRefNorm) < params.magNormThreshold * state.magRefNorm && abs(d - state.magRefDip) < dipTh {
                state.magUndisturbedTime += dt
                if state.magUndisturbedTime >= params.magMinUndisturbedTime {
                    state.magDisturbed = false
                    state.magRefNorm += kRef * (n - state.magRefNorm)
                    state.magRefDip += kRef * (d - state.magRefDip)
                }
            } else {
                state.magUndisturbedTime = 0
                state.magDisturbed = true
            }
        } else {
            state.magDisturbed = false
        }

        if state.magCandidateNorm > 0 && abs(n - state.magCandidateNorm) < params.magNormThreshold * state.magCandidateNorm
            && abs(d - state.magCandidateDip) < dipTh {
            if state.magRefNorm == 0 || state.restGyro.value.normSquared >= params.magNewMinRate * params.magNewMinRate {
                state.magCandidateTime += dt
            }
            state.magCandidateNorm += kRef * (n - state.magCandidateNorm)
            state.magCandidateDip += kRef * (d - state.magCandidateDip)
            let first = state.magRefNorm == 0 && state.magCandidateTime >= params.magNewFirstTime
            if first || (state.magDisturbed && state.magCandidateTime >= params.magNewTime) {
                state.magRefNorm = state.magCandidateNorm
                state.magRefDip = state.magCandidateDip
                state.magDisturbed = false
                state.magUndisturbedTime = params.magMinUndisturbedTime
            }
        } else {
            state.magCandidateTime = 0
            state.magCandidateNorm = n
            state.magCandidateDip = d
        }
    }

    /// Adds a sample to the hard-iron fit; at each block's end, uses the fit when the turns
    /// pinned the offset down and the fit explains the field. If the current offset explains the
    /// window badly, and twice as badly as the fit (a magnet came or went), the fitted one
    /// replaces it at once, and the reference becomes the fitted field; otherwise the offset
    /// moves toward the fit: to the mean of the fits since the last jump, or with `hardIronTau`.
    mutating func learnHardIron(_ r: Matrix9, _ m: Vector3, _ dt: Double) {
        state.hardIronFit.add(rotation: r, field: m, rotated: r.times(m), weight: dt)
        let window = params.hardIronWindow
        guard let fit = state.hardIronFit.closeBlockIfDue(window: window, regularization: params.hardIronRegularization,
                                                          prior: state.hardIron) else { return }
        let h = fit.field.norm, limit = params.hardIronMaxResidual * h
        guard fit.excitation >= params.hardIronMinExcitation, h > 0, fit.residual <= limit, fit.offset.isFinite else { return }
        if fit.priorResidual > max(limit, 2 * fit.residual) {
            let change = (fit.offset - state.hardIron).norm
            state.hardIron = fit.offset
            state.hardIronFitsSinceJump = 1
            if change > params.magNormThreshold * h {
                // The reference was measured through the wrong offset: take the fitted field's
                // (it includes whatever part of the offset the turns could not tell apart from
                // the earth's field, e.g. the vertical one when turning about the vertical only).
                let f = fit.field
                restartFieldReference((h, asin(max(-1, min(1, -f.z / h)))), field: f)
            }
        } else if fit.fullExcitation >= params.hardIronMinExcitation || state.hardIronFitsSinceJump != nil {
            // Refined by fits that pin every direction down; after a jump also by those that
            // pin two (each fit leaves the rest at the current offset): the mean of the fits
            // since the jump, then slowly (`hardIronTau`).
            var k = ComplementaryFilterCoefficients.gain(step: window / Double(HardIronFit.blocks), tau: params.hardIronTau)
            if let n = state.hardIronFitsSinceJump {
                state.hardIronFitsSinceJump = n + 1
                k = max(k, 1 / Double(n + 1))
            }
            state.hardIron = state.hardIron + (fit.offset - state.hardIron) * k
        }
    }

    /// After a jump of the offset: `reference` becomes the disturbance check's reference, the
    /// field counts as undisturbed, and if `f` (the field through the new offset, 6D frame)
    /// points more than `hardIronHeadingResetDeg` away from the heading, the heading came
    /// through the wrong offset too (it started from an uncalibrated field): it starts over, a
    /// running mean for τ_mag as at the beginning. (A heading the gyro held while the field was
    /// rejected agrees, and is kept.)
    mutating func restartFieldReference(_ reference: (norm: Double, dip: Double), field f: Vector3) {
        state.magReference = reference
        state.magCandidateNorm = -1
        state.magCandidateTime = 0
        state.magUndisturbedTime = 0
        state.magDisturbed = false
        let hw = state.heading.w, hz = state.heading.z
        let c = hw * hw - hz * hz, sn = 2 * hw * hz
        let az = atan2(c * f.x - sn * f.y, sn * f.x + c * f.y)
        if abs(wrapPi(az - params.declinationDeg * radPerDeg)) > params.hardIronHeadingResetDeg * radPerDeg {
            state.headingWarmup = 0
        }
    }

    /// Takes `offset` as the hard iron, found by a fit outside the filter that explains the
    /// field far better than the current offset (`RunningLevelFit`: WMM2025's field in the
    /// horizontal plane); `field` is the latest raw sample. The model's field becomes the
    /// reference, and the heading starts over if it came through the wrong offset.
    public mutating func adoptHardIron(_ offset: Vector3, latest field: Vector3) {
        state.hardIron = offset
        state.hardIronFitsSinceJump = nil
        state.hardIronFit.reset()
        guard let reference = expectedReference, state.initialized else { return }
        let r = Matrix9(state.tiltCorrection * state.gyroAttitude)
        restartFieldReference(reference, field: r.times(field - offset))
    }
}
