import Foundation
import POIARCore

/// The offline pass's magnetometer before the passes: which stream, its calibration over the
/// whole recording, and the spans left out.
///
/// - The stream: `mag_uncal` when the log has it and it can be calibrated (one hard iron over
///   the recording, where the OS re-estimates the calibrated stream's); `mag_uncal` anyway when
///   the log has no calibrated `mag` rows (its online fits calibrate it as they go); else the
///   `mag` rows with the OS's steps taken out (`MagnetometerSteps`).
/// - The calibration: `MagnetometerCalibration.fit`; where the device turned too little for
///   it and the log has a GPS fix (WMM2025's field), `MagnetometerLevelFit`: the offset in the
///   horizontal plane given the tilt, along gravity from the model's vertical field.
/// - Disturbed spans: where the calibrated field is off the model's strength or dip (the
///   calibration matched to the model), its samples are left out: the passes hold the heading
///   on the gyro there; the notice names the spans and the share.
extension OfflineFusion {
    struct Magnetometer {
        var calibration: MagnetometerCalibration?
        /// Which stream, and the OS's steps taken out (for the first notice).
        var source: String?
        /// The disturbed spans left out (for the last notice).
        var disturbed: String?
    }

    /// Chooses and calibrates the magnetometer stream of `recording` in place (its `mag`
    /// series, calibrated, disturbed spans left out); `p` loses the log's offset when the
    /// stream is calibrated here.
    func prepareMagnetometer(_ recording: inout SensorRecording, _ p: inout ComplementaryFilterParams) -> Magnetometer {
        var out = Magnetometer()
        var source: String?
        var prior = params.magHardIronSeed
        var fitted: MagnetometerCalibration?
        var level: MagnetometerLevelFit.Result?
        // Set when the OS's calibration is kept: its stream was found free of steps then.
        var osKept: Double?
        if !recording[.magUncal].isEmpty {
            // The raw field's hard iron is one offset over the whole recording, where the OS may
            // have re-estimated the calibrated stream's bias: used when it can be calibrated.
            let raw = recording[.magUncal]
            recording[.magUncal] = SampleSeries()
            let (cal, fit) = calibrate(raw, accel: recording.accel, prior: nil)
            osKept = fit == nil ? nil : osCalibrationHolds(recording)
            if let osKept {
                source = "the uncalibrated stream (mag_uncal) is not used: it turned too little for a 3-D fit, and a fit in the horizontal plane cannot tell a hard iron from the local field, which the OS-calibrated stream already reads at WMM2025's strength and dip "
                    + String(format: "(%.0f%% of the samples, no recalibration step): the OS's calibration is kept", 100 * osKept)
            } else if !cal.isIdentity || recording.mag.isEmpty {
                let noCalibratedStream = recording.mag.isEmpty
                recording.mag = raw
                fitted = cal
                level = fit
                prior = nil  // (a log's offset is the calibrated stream's)
                p.magHardIronSeed = nil
                source = noCalibratedStream ? "the uncalibrated stream (mag_uncal) is used: the log has no calibrated one"
                    : "the uncalibrated stream (mag_uncal) is used"
            } else {
                source = "the uncalibrated stream (mag_uncal) is not used: \(cal.limitation ?? "no calibration fits it")"
            }
        }
        if fitted == nil && osKept == nil && removesMagnetometerSteps {
            let steps = MagnetometerSteps.remove(from: &recording.mag, gyro: recording.gyro)
            if !steps.isEmpty {
                let sizes = steps.map(\.offsetChange.norm)
                let text = String(format: "the OS re-estimated the calibration %d time(s) (steps of %.1f–%.1f µT, first at %.1f s): taken out",
                                  steps.count, sizes.min()!, sizes.max()!, steps[0].time - recording.mag.times[0])
                source = source.map { $0 + "; " + text } ?? text
            }
        }
        guard !recording.mag.isEmpty else { return out }
        if fitted == nil { (fitted, level) = calibrate(recording.mag, accel: recording.accel, prior: prior) }
        let cal = fitted!
        out.calibration = cal
        if !cal.isIdentity {
            recording.mag.transformVectors { cal.apply($0) }
            p.magHardIronSeed = nil
        }
        out.source = source
        if let level, !level.disturbed.isEmpty {
            // (Spans found through the level fit's offset, the one applied: the samples are
            // calibrated now.)
            var kept = SampleSeries()
            var k = 0
            let mag = recording.mag, spans = level.disturbed
            for i in 0..<mag.count {
                let t = mag.times[i]
                while k < spans.count && spans[k].end < t { k += 1 }
                if k < spans.count && t >= spans[k].start { continue }
                kept.append(time: t, mag.vector(i))
            }
            out.disturbed = String(format: "magnetometer: the field is off WMM2025's strength or dip over %@ (%.0f%% of the samples): left out, the heading holds on the gyro there",
                                   MagnetometerLevelFit.describe(spans, origin: mag.times[0]), 100 * level.disturbedFraction)
            recording.mag = kept
        }
        return out
    }

    /// The share of the OS-calibrated `mag` samples whose field has WMM2025's strength and dip,
    /// when it is `minOSAgreement` or more and the OS never re-estimated its calibration in
    /// the recording; else nil. Over a phone that turned too little for a 3-D fit (one held
    /// still), the horizontal-plane fit of the raw stream forces the model's field on it: a
    /// local field a few µT off the model (indoors, always) becomes a hard iron and turns the
    /// heading by degrees, where the OS's calibration, learnt over the phone's turns of days,
    /// reads the local field as it is (the live filter's field, and the phone's own attitude).
    func osCalibrationHolds(_ recording: SensorRecording) -> Double? {
        guard !recording.mag.isEmpty, let f = params.expectedFieldUT, f > 0, let dip = params.expectedDipDeg else { return nil }
        var mag = recording.mag
        guard MagnetometerSteps.remove(from: &mag, gyro: recording.gyro).isEmpty else { return nil }
        let points = MagnetometerLevelFit.points(recording.mag, accel: recording.accel)
        let share = MagnetometerLevelFit.share(points, offset: .zero, horizontalUT: f * cos(dip * radPerDeg),
                                               upUT: -f * sin(dip * radPerDeg), params: params)
        return points.isEmpty || share < Self.minOSAgreement ? nil : share
    }

    /// Fewest OS-calibrated samples agreeing with the model for the OS's calibration to be kept
    /// over a horizontal-plane fit of the raw stream.
    static let minOSAgreement = 0.9

    /// The whole-recording calibration of `mag`; where it finds none and WMM2025's field is
    /// known, the fit in the horizontal plane (used when it moves the offset by a tenth of the
    /// field or more: less is within the field's own variation).
    func calibrate(_ mag: SampleSeries, accel: SampleSeries, prior: Vector3?) -> (MagnetometerCalibration, MagnetometerLevelFit.Result?) {
        var cal = MagnetometerCalibration.fit(mag, accel: accel, prior: prior, expectedFieldUT: params.expectedFieldUT,
                                              expectedDipDeg: params.expectedDipDeg, params: params)
        guard cal.isIdentity, let f = params.expectedFieldUT, f > 0, let dip = params.expectedDipDeg else { return (cal, nil) }
        let h = f * cos(dip * radPerDeg), v = -f * sin(dip * radPerDeg)
        var why = ""
        let points = MagnetometerLevelFit.points(mag, accel: accel)
        guard let fit = MagnetometerLevelFit.fit(points, horizontalUT: h, upUT: v, params: params, why: &why) else {
            cal.limitation = (cal.limitation.map { $0 + "; " } ?? "") + "in the horizontal plane: " + why
            return (cal, nil)
        }
        guard (fit.offset - (prior ?? .zero)).norm >= params.magNormThreshold * f else { return (cal, nil) }
        var level = MagnetometerCalibration()
        level.kind = .hardIron
        level.offset = fit.offset
        level.coverage = cal.coverage
        level.measuredFieldUT = fit.measuredFieldUT
        level.matchesModel = true
        level.inlierFraction = fit.inlierFraction
        level.limitation = String(format: "turned too little for a 3-D fit (%@): fitted in the horizontal plane given the tilt, along gravity from WMM2025's field (±%.1f° of heading)",
                                  cal.limitation ?? "", fit.headingSigmaDeg)
        return (level, fit)
    }
}
