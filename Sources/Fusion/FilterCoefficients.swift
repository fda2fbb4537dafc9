import Foundation

/// Gains and noise levels derived from the parameters for one time step of each sensor. Phone
/// logs have irregular sample times, so the filter keeps one set per sensor and recomputes it
/// only when that sensor's step changes by more than `stepTolerance` (0.1 %: a steady rate
/// whose timestamps are rounded, as in a CSV log, computes it once; the gains are then off by
/// at most 0.1 % of themselves).
public struct ComplementaryFilterCoefficients: Sendable, Equatable {
    // Gyro step.
    public private(set) var gyroStep = -1.0
    /// Per stage of the rest detector's gyro low-pass (τ_rest/2).
    public private(set) var restGyroGain = 0.0

    // Accelerometer step.
    public private(set) var accelStep = -1.0
    /// Fraction of an error a first-order filter with τ_acc removes in one accel step.
    public private(set) var accelGain = 0.0
    /// The accelerometer low-pass: second-order Butterworth, cut-off √2/(2π·τ_acc) (a delay
    /// of τ_acc), by the bilinear transform with pre-warping for this step.
    public private(set) var accelFilter = Biquad(passing: 1)
    /// Of the short inertial-frame low-pass whose norm the tilt's trust looks at (`accelNormTau`).
    public private(set) var accelShortGain = 0.0
    /// Per stage of the rest detector's accel low-pass (τ_rest/2).
    public private(set) var restAccelGain = 0.0
    /// Random walk added to each bias variance per accel step, (rad/s)².
    public private(set) var biasProcessNoise = 0.0
    /// Measurement noise of one motion / rest bias measurement, (rad/s)²: chosen so that the
    /// steady-state uncertainty is `biasSigmaMotion` / `biasSigmaRest` whatever the rate.
    public private(set) var biasMotionNoise = 0.0
    public private(set) var biasRestNoise = 0.0

    // Magnetometer step.
    public private(set) var magStep = -1.0
    /// Fraction of the heading error corrected in one mag step (τ_mag).
    public private(set) var magGain = 0.0
    public private(set) var magCurrentGain = 0.0
    public private(set) var magRefGain = 0.0
    /// Measurement noise of one magnetometer (vertical) bias measurement, (rad/s)².
    public private(set) var biasMagNoise = 0.0
    /// Per stage of the rest detector's field low-pass (τ_rest/2).
    public private(set) var restMagGain = 0.0
    /// cos(`restMaxAngleDeg`).
    public private(set) var restMaxAngleCos = 1.0

    public init() {}

    public init(params: ComplementaryFilterParams, accelStep: Double, magStep: Double) {
        setAccelStep(accelStep, params)
        setMagStep(magStep, params)
    }

    /// Relative change of a step below which the coefficients are kept.
    public static let stepTolerance = 1e-3

    @inline(__always)
    static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= stepTolerance * b }

    // (Inlined: called for every sample, and a call copies the 0.5 KB parameters first,
    // though the step has nearly always not changed.)
    @inline(__always)
    public mutating func setGyroStep(_ step: Double, _ p: ComplementaryFilterParams) {
        guard !Self.same(step, gyroStep) else { return }
        gyroStep = step
        restGyroGain = Self.gain(step: step, tau: p.restFilterTau / 2)
    }

    @inline(__always)
    public mutating func setAccelStep(_ step: Double, _ p: ComplementaryFilterParams) {
        guard !Self.same(step, accelStep) else { return }
        accelStep = step
        accelGain = Self.gain(step: step, tau: p.tauAccel)
        accelFilter = Biquad(lowPassTau: p.tauAccel, step: step)
        accelShortGain = Self.gain(step: step, tau: p.accelNormTau)
        restAccelGain = Self.gain(step: step, tau: p.restFilterTau / 2)
        restMaxAngleCos = cos(p.restMaxAngleDeg * Double.pi / 180)
        // Random walk: the bias may drift by σ_motion in `biasForgettingTime`.
        biasProcessNoise = p.biasSigmaMotion * p.biasSigmaMotion * step / max(p.biasForgettingTime, 1e-9)
        // For a measurement W each step and process noise V, the steady-state variance P solves
        // W·V = P·(P + V): W = P²/V + P.
        let v = max(biasProcessNoise, 1e-30)
        let pm = p.biasSigmaMotion * p.biasSigmaMotion, pr = p.biasSigmaRest * p.biasSigmaRest
        biasMotionNoise = pm * pm / v + pm
        biasRestNoise = pr * pr / v + pr
    }

    @inline(__always)
    public mutating func setMagStep(_ step: Double, _ p: ComplementaryFilterParams) {
        guard !Self.same(step, magStep) else { return }
        magStep = step
        magGain = Self.gain(step: step, tau: p.tauMag)
        magCurrentGain = Self.gain(step: step, tau: p.magCurrentTau)
        magRefGain = Self.gain(step: step, tau: p.magRefTau)
        restMagGain = Self.gain(step: step, tau: p.restFilterTau / 2)
        let v = max(p.biasSigmaMotion * p.biasSigmaMotion * step / max(p.biasForgettingTime, 1e-9), 1e-30)
        let pm = p.biasSigmaMag * p.biasSigmaMag
        biasMagNoise = pm * pm / v + pm
    }

    /// The fraction of an error corrected in one step of length Δt by a first-order filter
    /// with time constant τ: 1 − e^(−Δt/τ) (0 for Δt ≤ 0, 1 for τ ≤ 0).
    @inline(__always)
    public static func gain(step: Double, tau: Double) -> Double {
        guard step > 0 else { return 0 }
        guard tau > 0 else { return 1 }
        let x = step / tau
        if x < 1e-2 {
            // Taylor series of 1 − e^(−x); the first omitted term is below 1.4e-15 relative.
            return x * (1 - x * (0.5 - x * (1.0 / 6 - x * (1.0 / 24 - x * (1.0 / 120 - x / 720)))))
        }
        return -expm1(-x)
    }
}

/// Coefficients of a second-order IIR filter, y = (b0 + b1 z⁻¹ + b2 z⁻²)/(1 + a1 z⁻¹ + a2 z⁻²).
public struct Biquad: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double

    /// A filter that passes its input times `gain`.
    public init(passing gain: Double) { b0 = gain; b1 = 0; b2 = 0; a1 = 0; a2 = 0 }

    /// Second-order Butterworth low-pass with cut-off f_c = √2/(2π·τ) (delay ≈ τ at low
    /// frequencies), discretised for a step Δt (bilinear transform, pre-warped at f_c).
    public init(lowPassTau tau: Double, step: Double) {
        guard tau > 0, step > 0 else { self.init(passing: 1); return }
        let fc = 2.0.squareRoot() / (2 * Double.pi * tau)
        let c = tan(Double.pi * min(fc * step, 0.49))
        let d = c * c + 2.0.squareRoot() * c + 1
        let b = c * c / d
        self.init(b0: b, b1: 2 * b, b2: b, a1: 2 * (c * c - 1) / d, a2: (1 - 2.0.squareRoot() * c + c * c) / d)
    }

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }
}
