import POIARCore

/// Everything that changes from sample to sample. A plain value: copy it to fork a filter.
///
/// The attitude is kept in three factors, as in VQF (Laidig & Seel 2023):
///   q = H(ψ) ⊗ T ⊗ G
/// G (`gyroAttitude`) integrates the gyro alone: device → an almost-inertial frame I.
/// T (`tiltCorrection`) turns I so that the low-passed gravity points up: I → the 6D earth
/// frame (tilt right, heading only from the gyro). H(ψ) (`heading`) turns that about the
/// vertical so the field points to (true) north: the 9D (ENU) frame.
public struct ComplementaryFilterState: Sendable, Equatable {
    public var initialized = false
    /// G: device → I, the gyro integrated alone.
    public var gyroAttitude = Quaternion.identity
    /// T: I → 6D earth frame.
    public var tiltCorrection = Quaternion.identity
    /// H(ψ) = (cos ψ/2, 0, 0, sin ψ/2): 6D → ENU, ψ counter-clockwise seen from above.
    public var heading = Quaternion.identity

    /// Gyro bias estimate, rad/s (subtracted from every gyro sample).
    public var gyroBias = Vector3.zero
    /// Covariance of the bias estimate, (rad/s)².
    public var biasCovariance = SymmetricMatrix3(diagonal: 0)
    /// The magnetometer's hard-iron offset, µT (subtracted from every mag sample).
    public var hardIron = Vector3.zero

    /// Whether the heading is referenced to the field (north: magnetic, or true with the
    /// declination): true from a start with a magnetometer sample. False after a start from the
    /// accelerometer alone (no magnetometer): azimuth 0 is then the device's facing direction
    /// (`ComplementaryFilter.facingAxis`) at the start, and the heading drifts with the gyro.
    public var headingIsAbsolute = false
    /// Time of the first usable accelerometer sample (for the start without a magnetometer).
    public var firstAccelTime: Double?

    /// True while the device is at rest (the gyro bias is measured then).
    public var atRest = false
    /// True while the field is taken for disturbed (the heading correction is off or weak).
    public var magDisturbed = false
    /// The reference the field's norm (µT) and dip (rad, + down) are checked against; nil until
    /// known (from WMM2025, or learnt from the first steady seconds).
    public var magReference: (norm: Double, dip: Double)? {
        get { magRefNorm > 0 ? (magRefNorm, magRefDip) : nil }
        set { magRefNorm = newValue?.norm ?? 0; magRefDip = newValue?.dip ?? 0 }
    }

    /// The fraction of its tilt correction the latest accel sample made (1 unless the
    /// filtered specific force is away from g).
    public var lastTiltTrust = 1.0
    /// The latest bias-corrected gyro rate, rad/s (device frame).
    public var lastRate = Vector3.zero
    public var lastGyroTime: Double?
    public var lastAccelTime: Double?
    public var lastMagTime: Double?
    /// Latest samples, used to initialise the attitude.
    public var latestAccel: Vector3?
    public var latestMag: Vector3?

    /// Device → ENU attitude, q = H ⊗ T ⊗ G; meaningful once `initialized`. Setting it puts the
    /// whole attitude into G (T and H become identity).
    public var orientation: Quaternion {
        get { composedAttitude() }
        set { gyroAttitude = newValue.normalized; tiltCorrection = .identity; heading = .identity }
    }

    /// The 6D attitude T ⊗ G (device → tilt-corrected frame, heading from the gyro).
    public var attitude6D: Quaternion { tiltCorrection * gyroAttitude }

    // MARK: internals

    // The accelerometer low-pass (second-order Butterworth, direct form II transposed) over 14
    // channels: gravity in the I frame (0–2); for the motion bias estimate R, device → 6D
    // (3–11, row-major) and the first two rows of R·b̂ (12–13).
    var accelS0 = SIMD16<Double>(), accelS1 = SIMD16<Double>()
    var accelMean = SIMD16<Double>()
    /// The low-pass's latest output.
    var accelFiltered = SIMD16<Double>()
    /// The specific force in the I frame over the last `accelNormTau` seconds (first order).
    var accelShort = Vector3.zero
    /// Time, s, the accel low-pass has run since it (re)started; below τ_acc it is the running
    /// mean of what it has seen.
    var accelWarmup = 0.0

    // Rest detection (`RestDetection.swift`).
    var restGyro = RestLowPass(), restAccel = RestLowPass(), restMag = RestLowPass()
    var restTime = 0.0
    /// The low-passed gravity and field (device frame) when the current stillness began.
    var restRefAccel = Vector3.zero, restRefMag = Vector3.zero
    var restRefAccelSet = false, restRefMagSet = false

    // Magnetometer.
    var magNormLP = 0.0, magDipLP = 0.0, magLPStarted = false
    var magRefNorm = 0.0, magRefDip = 0.0
    var magCandidateNorm = -1.0, magCandidateDip = 0.0, magCandidateTime = 0.0
    var magUndisturbedTime = 0.0
    var magRejectTime = 0.0
    /// Time, s, the heading has been corrected since it (re)started; below τ_mag the correction
    /// is the running mean.
    var headingWarmup = 0.0
    /// First-order low-passes (τ_mag) of R's third row and of (R·b̂)_z, for the vertical bias.
    var magBiasRow = Vector3.zero, magBiasRotated = 0.0, magBiasLPStarted = false
    var hardIronFit = HardIronFit()
    /// Usable fits since the offset last jumped (nil before any jump).
    var hardIronFitsSinceJump: Int?

    public init() {}

    @inline(__always)
    func composedAttitude() -> Quaternion {
        let a = tiltCorrection * gyroAttitude
        let w = heading.w, z = heading.z
        return Quaternion(w: w * a.w - z * a.z, x: w * a.x - z * a.y, y: w * a.y + z * a.x, z: w * a.z + z * a.w)
    }
}
