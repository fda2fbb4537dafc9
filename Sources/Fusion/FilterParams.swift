import Foundation
import POIARCore

/// Tunable parameters of the complementary filter, one set for every log. Time constants are
/// in seconds, so the filter behaves the same at any sample rate (gains are derived per step as
/// 1 − e^(−Δt/τ), see `ComplementaryFilterCoefficients`). Angular rates are in rad/s like the
/// gyro samples (the °/s equivalent is given). The table in docs/architecture.md lists them all.
///
/// The last group (`declinationDeg`, `expectedFieldUT`, `expectedDipDeg`, `magHardIronSeed`) is
/// not tuning but facts about one log; the pipeline fills it in from the log and WMM2025.
public struct ComplementaryFilterParams: Sendable, Equatable {
    // MARK: Tilt (accelerometer)

    /// τ_acc, s (default 3): time constant of the accelerometer low-pass, which runs in the
    /// almost-inertial frame of the gyro-only attitude (two first-order stages of τ_acc/2 each,
    /// a mean delay of τ_acc). There, gravity stands still while linear accelerations average
    /// out (their integral is a change of velocity, which stays small), so the tilt follows the
    /// filtered vector fully. Smaller follows gravity faster but lets accelerations tilt the pose.
    public var tauAccel: Double = 3.0
    /// g, m/s² (default 9.81): the gravity magnitude |a| is compared with.
    public var gravity: Double = 9.81
    /// Relative deviation from g (default 0.05) up to which the tilt correction has full gain;
    /// beyond it the gain falls linearly (Valenti et al. 2015's adaptive gain) …
    /// The norms compared are those of the specific force low-passed in the almost-inertial
    /// frame, over `accelNormTau` and over τ_acc: a sustained acceleration (a push, a vehicle)
    /// shows there, while steps, taps and a swinging hand average out.
    public var accelRejectionStart: Double = 0.05
    /// … to zero at this relative deviation (default 0.15) and beyond: the tilt is held on the
    /// gyro until the filtered specific force is back near g.
    public var accelRejectionEnd: Double = 0.15
    /// s (default 1): time constant of the short low-pass (inertial frame) whose norm is checked
    /// against g. Shorter catches the start of a push sooner but lets a swinging hand stop the
    /// corrections too.
    public var accelNormTau: Double = 1

    // MARK: Heading (magnetometer)

    /// τ_mag, s (default 10): time constant of the heading correction. Smaller removes gyro
    /// drift faster but passes more magnetic noise and disturbance into heading. For the first
    /// τ_mag seconds (and after a gyro gap) the correction is the running mean instead, so the
    /// start converges quickly.
    public var tauMag: Double = 10.0

    /// s (default 1): when no magnetometer sample has come this long after the first
    /// accelerometer sample, the filter starts from the accelerometer alone, with a relative
    /// heading (azimuth 0 = the device's facing direction then). Sensors of one recording start
    /// within a fraction of a second of each other, so a longer wait only delays the first pose
    /// of a log without a magnetometer. A field that comes later makes the heading absolute.
    public var magStartWait: Double = 1

    // MARK: Gyro

    /// Gyro gaps longer than this (s, default 0.5) are not integrated: the rotation over the gap
    /// is unknown, so the attitude is held (accelerometer and magnetometer samples during the
    /// gap correct nothing and measure no bias), and the tilt and heading filters restart (as
    /// at the start) to take the attitude from the sensors again.
    public var maxGyroGap: Double = 0.5
    /// Longest time, s (default 0.1), one accel or mag sample stands for in the filters' gains:
    /// after a gap in one sensor's stream, its first sample is not trusted as if it had been
    /// measured all along.
    public var maxSampleInterval: Double = 0.1

    /// s (default 0.002): how far the IMU's samples lag the motion (the group delay of its
    /// digital low-pass filters, late timestamps; MEMS gyros are typically 1–4 ms late). The
    /// output pose is predicted this far ahead with the latest bias-corrected rate,
    /// q ⊗ exp(ω·delay); the filter itself is unchanged. (On BROAD the optical truth matches
    /// the IMU-integrated attitude about 2 ms later, in every trial.) 0 turns it off; a larger
    /// value also compensates a display's latency.
    public var sensorDelay: Double = 0.002

    // MARK: Rest detection

    /// Whether the gyro bias is measured while the device rests (default on).
    public var restBiasEstimation = true
    /// Time, s (default 2.5), the device must stay still before it counts as at rest (longer
    /// than VQF's 1.5 s: the slow start of a hand-held turn can look still for that long).
    public var restMinTime: Double = 2.5
    /// Time constant, s (default 0.5), of the low-pass the rest detector compares the gyro and
    /// accelerometer samples with.
    public var restFilterTau: Double = 0.5
    /// rad/s (default 0.035 ≈ 2°/s): largest deviation of the gyro from its low-pass at rest.
    public var restGyroThreshold: Double = 2 * radPerDeg
    /// m/s² (default 0.5): largest deviation of the accelerometer from its low-pass at rest.
    public var restAccelThreshold: Double = 0.5
    /// Degrees (default 0.5): how far the low-passed gravity and field directions (device frame)
    /// may turn during a rest. A slow, smooth pan passes the gyro and accelerometer thresholds
    /// but turns these; without this check its rate would be taken for a bias.
    public var restMaxAngleDeg: Double = 0.5

    // MARK: Gyro bias (Kalman filter, 3 states)

    /// Whether the gyro bias is estimated in motion from the accelerometer (default on): the
    /// tilt correction the low-passed gravity keeps asking for, taken back to the device frame.
    public var motionBiasEstimation = true
    /// rad/s (default 0.0087 ≈ 0.5°/s): initial uncertainty of the bias (1σ), and the largest
    /// the uncertainty grows back to without measurements.
    public var biasSigmaInit: Double = 0.5 * radPerDeg
    /// s (default 100): time in which the bias may drift by `biasSigmaMotion` (the random walk
    /// of the Kalman filter's process model). Smaller follows a changing bias faster, noisier.
    public var biasForgettingTime: Double = 100
    /// rad/s (default 0.0017 ≈ 0.1°/s): the bias uncertainty reached in steady motion; sets how
    /// much weight one motion measurement gets.
    public var biasSigmaMotion: Double = 0.1 * radPerDeg
    /// Whether the magnetometer's heading corrections also measure the bias about the vertical
    /// (default on), which the accelerometer cannot see; only while the field looks undisturbed.
    /// Without it, that part is learnt only at rest.
    public var magBiasEstimation = true
    /// rad/s (default 0.0035 ≈ 0.2°/s): the vertical bias uncertainty the magnetometer alone
    /// would reach; larger trusts it less (a field that changes from place to place).
    public var biasSigmaMag: Double = 0.2 * radPerDeg
    /// rad/s (default 0.00052 ≈ 0.03°/s): the bias uncertainty reached at rest.
    public var biasSigmaRest: Double = 0.03 * radPerDeg
    /// rad/s (default 0.035 ≈ 2°/s): cap on the bias estimate's magnitude (and on each
    /// component of a disagreement fed to the Kalman filter), so a disturbance cannot wind it
    /// up. A device whose low-passed rate exceeds this on any axis is not taken for resting.
    public var maxBias: Double = 2 * radPerDeg

    // MARK: Magnetic disturbance rejection

    /// Whether disturbed fields are detected and left out of the heading (default on).
    public var magDisturbanceRejection = true
    /// s (default 0.05): low-pass of the field's norm and dip before they are checked.
    public var magCurrentTau: Double = 0.05
    /// s (default 20): time constant with which the reference norm and dip follow an
    /// undisturbed field (slow changes: a building's steel, a drifting sensor scale).
    public var magRefTau: Double = 20
    /// Relative deviation of |m| from the reference norm (default 0.1) beyond which the field
    /// counts as disturbed.
    public var magNormThreshold: Double = 0.1
    /// Degrees (default 10): deviation of the field's dip from the reference dip beyond which
    /// the field counts as disturbed.
    public var magDipThresholdDeg: Double = 10
    /// s (default 0.5): the field must look undisturbed this long before it is used again.
    public var magMinUndisturbedTime: Double = 0.5
    /// s (default 20): a new, steady field (norm and dip within the thresholds of a candidate)
    /// seen this long while the device turns becomes the reference: the way back when the
    /// disturbance is really a new place (a car, a train).
    public var magNewTime: Double = 20
    /// s (default 5): without any reference yet (no WMM2025 field), the first steady field seen
    /// this long becomes the reference (turning or not).
    public var magNewFirstTime: Double = 5
    /// rad/s (default 0.35 ≈ 20°/s): the device must turn at least this fast for the time
    /// toward `magNewTime` to count (a field that stays steady while turning is homogeneous).
    public var magNewMinRate: Double = 20 * radPerDeg
    /// s (default 60): a field rejected longer than this is used again, at gain/`magRejectionFactor`,
    /// so the heading cannot drift away on the gyro forever.
    public var magMaxRejectionTime: Double = 60
    /// Default 2: gain divisor after `magMaxRejectionTime`; also how much faster the rejection
    /// time runs back down while the field is undisturbed.
    public var magRejectionFactor: Double = 2

    // MARK: Hard-iron calibration

    /// Whether the magnetometer's hard-iron offset is estimated online (default on). In the
    /// gyro+accel (6D) earth frame the true field h is constant: R·(m − b) = h, linear in (h, b);
    /// a least-squares fit over the last `hardIronWindow` seconds replaces the offset b when
    /// the device turned enough and the fit explains the field well.
    public var hardIronEstimation = true
    /// s (default 10): window of the hard-iron fit (refitted every tenth of it).
    public var hardIronWindow: Double = 10
    /// Default 0.1 (of 1): how much turning a fit needs, as eigenvalues of I − M̄ᵀM̄ (M̄ the mean
    /// rotation over the window; 0 along an axis the device never turned away from, up to 1).
    /// A jump needs the middle eigenvalue this large (turning about one axis through a wide
    /// range pins the offset across that axis; along it the offset stays, which cannot bend
    /// the heading while that axis stays put), and so do the refinements after a jump; other
    /// refinements need the smallest one.
    public var hardIronMinExcitation: Double = 0.1
    /// Relative RMS residual (default 0.06, of the fitted |h|) a fit may leave to be used:
    /// larger means the field was not one constant earth field plus one offset (a magnet
    /// nearby, moving). When the current offset leaves more than this over the same window, and
    /// twice what the fit leaves, it is wrong (a magnet came or went): the fit replaces it at once.
    public var hardIronMaxResidual: Double = 0.06
    /// s (default 300): otherwise the offset moves toward each usable fit with this time
    /// constant (or faster, to the mean of the fits since the last jump), averaging the fits'
    /// noise away and following slow changes.
    public var hardIronTau: Double = 300
    /// Default 0.02: weight pulling the fit toward the current offset, which keeps directions the
    /// device did not turn about where they were.
    public var hardIronRegularization: Double = 0.02
    /// Degrees (default 10): when the offset jumps and the field through the new offset points
    /// further than this from the current heading, the heading came through the wrong offset
    /// (it started from an uncalibrated field) and starts over like at the beginning.
    public var hardIronHeadingResetDeg: Double = 10

    // MARK: Offline estimation (whole recording; `OfflineFusion`)

    /// s (default 20): τ_mag of the offline passes. Causally, a gyro-bias error e becomes a
    /// heading lag of e·τ_mag, which keeps τ_mag short (10 s). Offline, the forward and backward
    /// passes lag by +e·τ and −e·τ, which cancel in their combination, and the bias is known
    /// from the whole recording; what is left to trade is the bias's change over τ against
    /// the field's local disturbances (a building's steel, a lab's furniture), which a longer
    /// τ averages away.
    public var offlineTauMag: Double = 20
    /// s (default 5): how long a rest (after `restMinTime`) must last to measure the gyro bias
    /// for the offline passes (`OfflineTrust`): their seeds, and the spans where they use
    /// `offlineTauMag`. A phone set down rests for longer; a phone held still passes the rest
    /// detector for a second or two at a time, at the hand's slow rate.
    public var offlineRestTrustTime: Double = 5
    /// Default 0.05: how widely the field's direction must vary (device frame) for the whole
    /// recording's magnetometer calibration: eigenvalues of the covariance of the unit field
    /// directions visited (1/3 each for directions all over the sphere; 0.05 ≈ a spread of
    /// ±13° across that axis, what half a turn about a vertical axis gives at mid latitudes).
    /// Hard iron needs two such axes (a device turned about one axis: the offset across it; along
    /// it the log's offset, or none, is kept), soft iron all three. With less, a fit would take
    /// the field's changes from place to place for an offset.
    public var magCalibrationMinCoverage: Double = 0.05
    /// Fraction (default 0.8) of the magnetometer samples whose calibrated norm must lie within
    /// `magNormThreshold` of the median for a whole-recording calibration to be used. A field
    /// off by more for over a fifth of the recording was not one field through one distortion
    /// (a magnet came or went: BROAD trial 32 has 63 %): the calibration is then left to the
    /// online hard-iron fit of each pass. (A car drive in a city keeps 85–88 %: the steel
    /// around changes the field for moments, not for long.)
    public var magCalibrationMinInliers: Double = 0.8
    /// s (default 0.25): the longest magnetometer delay (relative to the gyro) the offline
    /// calibration looks for. Magnetometers sample slower and filter more than gyros (BROAD's
    /// IMU: 12 ms; phones: up to a few hundred ms); a delayed field turns the heading by ω·delay
    /// while the device turns.
    public var magDelayMax: Double = 0.25

    /// The heading's uncertainty model (`HeadingUncertainty`): how the filter's state becomes
    /// the pose's `heading_sigma_deg`; it never changes the pose.
    public var headingSigma = HeadingSigmaParams()

    // MARK: Facts about the log (set by the pipeline)

    /// Declination, degrees east (default 0): the angle from true north to magnetic north.
    /// With it set, the filter's "north" is true north; 0 keeps magnetic north.
    public var declinationDeg: Double = 0
    /// µT (default nil): the total intensity the field should have (WMM2025 at the log's first
    /// GPS fix); the first reference of the disturbance check. nil: learnt from the log.
    public var expectedFieldUT: Double?
    /// Degrees, + down (default nil): the field's expected inclination (dip), with
    /// `expectedFieldUT`.
    public var expectedDipDeg: Double?
    /// µT (default nil): hard-iron offset to start from (the log's `# mag_hard_iron_ut:`),
    /// subtracted from every mag sample; the online estimate refines it. nil: zero.
    public var magHardIronSeed: Vector3?

    public init() {}
}

let radPerDeg = Double.pi / 180

extension ComplementaryFilterParams {
    /// The tunable numbers by name (for experiments: `poiar pose --param name=value`, hidden).
    public static var numericFields: [String: WritableKeyPath<ComplementaryFilterParams, Double>] { [
        "tauAccel": \.tauAccel, "gravity": \.gravity, "accelRejectionStart": \.accelRejectionStart,
        "accelRejectionEnd": \.accelRejectionEnd, "accelNormTau": \.accelNormTau, "tauMag": \.tauMag, "maxGyroGap": \.maxGyroGap,
        "maxSampleInterval": \.maxSampleInterval, "sensorDelay": \.sensorDelay, "restMinTime": \.restMinTime, "restFilterTau": \.restFilterTau,
        "restGyroThreshold": \.restGyroThreshold, "restAccelThreshold": \.restAccelThreshold, "restMaxAngleDeg": \.restMaxAngleDeg,
        "biasSigmaInit": \.biasSigmaInit, "biasForgettingTime": \.biasForgettingTime,
        "biasSigmaMotion": \.biasSigmaMotion, "biasSigmaMag": \.biasSigmaMag, "biasSigmaRest": \.biasSigmaRest, "maxBias": \.maxBias,
        "magCurrentTau": \.magCurrentTau, "magRefTau": \.magRefTau, "magNormThreshold": \.magNormThreshold,
        "magDipThresholdDeg": \.magDipThresholdDeg, "magMinUndisturbedTime": \.magMinUndisturbedTime,
        "magNewTime": \.magNewTime, "magNewFirstTime": \.magNewFirstTime, "magNewMinRate": \.magNewMinRate,
        "magMaxRejectionTime": \.magMaxRejectionTime, "magRejectionFactor": \.magRejectionFactor,
        "hardIronWindow": \.hardIronWindow, "hardIronMinExcitation": \.hardIronMinExcitation,
        "hardIronMaxResidual": \.hardIronMaxResidual, "hardIronTau": \.hardIronTau, "hardIronRegularization": \.hardIronRegularization,
        "hardIronHeadingResetDeg": \.hardIronHeadingResetDeg, "magStartWait": \.magStartWait,
        "offlineTauMag": \.offlineTauMag, "offlineRestTrustTime": \.offlineRestTrustTime, "magCalibrationMinCoverage": \.magCalibrationMinCoverage,
        "magCalibrationMinInliers": \.magCalibrationMinInliers, "magDelayMax": \.magDelayMax,
        "declinationDeg": \.declinationDeg,
    ] }
    /// The switches by name.
    public static var switchFields: [String: WritableKeyPath<ComplementaryFilterParams, Bool>] { [
        "restBiasEstimation": \.restBiasEstimation, "motionBiasEstimation": \.motionBiasEstimation,
        "magBiasEstimation": \.magBiasEstimation,
        "magDisturbanceRejection": \.magDisturbanceRejection, "hardIronEstimation": \.hardIronEstimation,
    ] }

    /// Sets one parameter from `name=value` (numbers; true/false/1/0 for switches).
    public mutating func set(_ assignment: String) throws {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ParamError(message: "expected name=value, got \"\(assignment)\"") }
        if parts[0].hasPrefix("headingSigma."), let k = HeadingSigmaParams.numericFields[String(parts[0].dropFirst(13))] {
            guard let v = Double(parts[1]), v.isFinite else { throw ParamError(message: "\(parts[0]): \"\(parts[1])\" is not a number") }
            headingSigma[keyPath: k] = v
        } else if let k = Self.numericFields[parts[0]] {
            guard let v = Double(parts[1]), v.isFinite else { throw ParamError(message: "\(parts[0]): \"\(parts[1])\" is not a number") }
            self[keyPath: k] = v
        } else if let k = Self.switchFields[parts[0]] {
            switch parts[1] {
            case "true", "1", "on": self[keyPath: k] = true
            case "false", "0", "off": self[keyPath: k] = false
            default: throw ParamError(message: "\(parts[0]): expected true or false, got \"\(parts[1])\"")
            }
        } else {
            let known = (Array(Self.numericFields.keys) + Array(Self.switchFields.keys)
                + HeadingSigmaParams.numericFields.keys.map { "headingSigma.\($0)" }).sorted().joined(separator: ", ")
            throw ParamError(message: "unknown filter parameter \"\(parts[0])\" (known: \(known))")
        }
    }
}

extension ComplementaryFilterParams {
    /// A hard-iron offset written `x, y, z` (µT, as in a log's `# mag_hard_iron_ut:` line);
    /// nil unless three finite numbers.
    public static func parseHardIron(_ text: String) -> Vector3? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2],
              x.isFinite, y.isFinite, z.isFinite else { return nil }
        return Vector3(x, y, z)
    }
}

/// A bad `name=value` filter parameter.
public struct ParamError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
