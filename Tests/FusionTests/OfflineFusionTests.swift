import Foundation
import POIARCore
import Testing
@testable import Fusion

/// The sensors of a simulated motion as a recording (what offline fusion gets) and as the
/// time-ordered samples a causal filter gets, with the same noise. The gyro reads the mean
/// body rate since its previous sample; the magnetometer reads `softIron`·Rᵀ·field + hard iron.
struct SimulatedRecording {
    var recording = SensorRecording()
    var samples: [FilterSample] = []

    init(rig: SensorRig, duration: Double, truth: (Double) -> Quaternion,
         field: (Double) -> Vector3 = { _ in fieldENU }, softIron: Matrix3? = nil,
         gyroGap: ClosedRange<Double>? = nil, withMag: Bool = true) {
        var noise = TestNoise(seed: rig.seed)
        func times(_ rate: Double, _ salt: Double) -> [Double] {
            let n = Int((duration * rate).rounded())
            return (0...n).map { k in
                let j = rig.jitter == 0 || k == 0 ? 0 : rig.jitter * sin(Double(k) * 12.9898 + salt) / rate
                return Double(k) / rate + j
            }
        }
        var events = times(rig.gyroRate, 1).map { ($0, VectorSensor.gyro) } + times(rig.accelRate, 2).map { ($0, .accel) }
        if withMag { events += times(rig.magRate, 3).map { ($0, VectorSensor.mag) } }
        events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var previousGyro: (t: Double, q: Quaternion)?
        for (t, sensor) in events {
            let q = truth(t)
            let v: Vector3
            switch sensor {
            case .gyro:
                var omega = Vector3.zero
                if let p = previousGyro { omega = rotationVector(p.q.conjugate * q) / (t - p.t) }
                previousGyro = (t, q)
                v = omega + rig.gyroBias + noise.vector(rig.gyroNoise)
                if let gap = gyroGap, gap.contains(t) { continue }
            case .accel:
                v = inDevice(q, gravityENU) + noise.vector(rig.accelNoise)
            default:
                let m = inDevice(q, field(t))
                v = (softIron.map { $0 * m } ?? m) + rig.hardIron + noise.vector(rig.magNoise)
            }
            recording.append(sensor, time: t, v)
            samples.append(FilterSample(sensor, time: t, value: v))
        }
    }

    /// The causal filter's pose after each gyro sample, as `poiar pose --causal` writes them.
    func causal(_ params: ComplementaryFilterParams) -> [(Double, Quaternion)] {
        var f = ComplementaryFilter(params: params)
        var out: [(Double, Quaternion)] = []
        f.process(samples) { out.append(($0, $1)) }
        return out
    }
}

/// Heading and inclination RMSE of poses against the truth, over times in `range`.
func score(_ poses: [(Double, Quaternion)], truth: (Double) -> Quaternion, in range: ClosedRange<Double>) -> ErrorStats {
    var s = ErrorStats()
    for (t, q) in poses where range.contains(t) { s.add(AttitudeError(estimate: q, truth: truth(t))) }
    return s
}

extension AttitudeSeries {
    var poses: [(Double, Quaternion)] { (0..<count).map { (times[$0], self[$0]) } }
}

@Suite("Offline fusion: whole-recording calibration, forward and backward passes")
struct OfflineFusionTests {
    static let phone = SensorRig(gyroRate: 100, accelRate: 100, magRate: 50, jitter: 0.1,
                                 gyroBias: Vector3(0.004, -0.003, 0.0035),
                                 gyroNoise: 0.003, accelNoise: 0.05, magNoise: 0.4, seed: 11)

    /// A hand-held phone turning about all its axes (so every field direction is seen), never
    /// at rest: heading swings ±120°, pitch and roll ±35°.
    static func wander(_ t: Double) -> Quaternion {
        yaw(120 * sin(0.13 * t) + 40 * sin(0.41 * t)) * Pose(headingDeg: 0, pitchDeg: 5, rollDeg: 0).orientation
            * Quaternion(axis: Vector3(1, 0, 0), angle: 0.6 * sin(0.23 * t + 0.5))
            * Quaternion(axis: Vector3(0, 1, 0), angle: 0.6 * sin(0.31 * t + 1))
    }

    /// A phone held upright before a walker who turns round and back (heading ±170°), with the
    /// small sway of the steps; never at rest.
    static func walk(_ t: Double) -> Quaternion {
        yaw(150 * sin(0.09 * t) + 20 * sin(0.5 * t)) * Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
            * Quaternion(axis: Vector3(1, 0, 0), angle: 0.06 * sin(11.3 * t)) * Quaternion(axis: Vector3(0, 0, 1), angle: 0.05 * sin(5.6 * t))
    }

    /// Turned every which way (as for a figure-of-eight calibration): 30°/s about an axis 40°
    /// off the vertical, nodding ±70°.
    static func tumble(_ t: Double) -> Quaternion {
        Quaternion(axis: Vector3(sin(40 * radPerDeg), 0, cos(40 * radPerDeg)), angle: 0.5 * t)
            * Quaternion(axis: Vector3(1, 0, 0), angle: 1.2 * sin(0.07 * t))
    }

    /// The field's strength and dip for WMM2025-like facts in the parameters.
    static func withModel(_ p: inout ComplementaryFilterParams) {
        p.expectedFieldUT = fieldENU.norm
        p.expectedDipDeg = asin(-fieldENU.z / fieldENU.norm) * degPerRad
    }

    /// A walk with a gyro bias and a strongly distorted magnetometer (an offset of 33 µT and a
    /// soft iron that reads the field 25–40 % weak, as a phone in a case might): the causal
    /// filter starts on a wrong field, finds it too weak for WMM2025's and holds the heading on
    /// the gyro; offline, the whole recording's fit (across gravity: the phone only turns about
    /// it) removes both before the passes, and the two passes cancel each other's bias lag.
    @Test func offlineBeatsCausalWithGyroBiasAndHardAndSoftIron() throws {
        var rig = Self.phone
        rig.hardIron = Vector3(25, 12, 18)
        let soft = Matrix3(rows: Vector3(0.7, 0, 0.08), Vector3(0, 0.75, 0), Vector3(0.08, 0, 0.6))
        let sim = SimulatedRecording(rig: rig, duration: 180, truth: Self.walk, softIron: soft)
        var params = ComplementaryFilterParams()
        Self.withModel(&params)

        let causal = score(sim.causal(params), truth: Self.walk, in: 20...180)
        var recording = sim.recording
        let (series, report) = OfflineFusion(params: params).estimate(&recording)
        let offline = score(series.poses, truth: Self.walk, in: 20...180)
        #expect(report.calibration?.kind == .softIron, "\(report.notices)")
        #expect(report.magDelay == nil)
        #expect(offline.heading <= causal.heading && offline.inclination <= causal.inclination + 0.05,
                "offline \(offline.heading)°/\(offline.inclination)°, causal \(causal.heading)°/\(causal.inclination)°")
        #expect(offline.heading < 2 && offline.inclination < 1, "offline \(offline.heading)°/\(offline.inclination)°")
        // The field is reported once: weaker than the model's, calibrated to it.
        #expect(report.notices.contains { $0.contains("where WMM2025 expects 52.2 µT") && $0.contains("soft iron and scale") },
                "\(report.notices)")
        // Same rows as the causal pass: one per gyro sample from its first pose on.
        #expect(series.count == sim.causal(params).count)
        #expect(series.headingIsAbsolute)
    }

    /// Without a magnetometer: the tilt is right, the heading relative (the facing direction
    /// at azimuth 0 at the first pose) and flagged so; causal and offline alike.
    @Test func withoutAMagnetometerTheTiltIsAbsoluteAndTheHeadingRelative() throws {
        let sim = SimulatedRecording(rig: Self.phone, duration: 90, truth: Self.wander, withMag: false)
        var recording = sim.recording
        let (series, report) = OfflineFusion(params: ComplementaryFilterParams()).estimate(&recording)
        #expect(!series.headingIsAbsolute)
        #expect(report.relativeHeading?.contains("heading is relative") == true)
        let offline = score(series.poses, truth: Self.wander, in: 10...90)
        #expect(offline.inclination < 1.0, "inclination \(offline.inclination)°")
        let first = try #require(series.poses.first)
        // (The first pose is a gyro step and the output prediction after the start.)
        #expect(abs(angleDifference(facingAzimuth(first.1), 0)) < 2)

        var f = ComplementaryFilter()
        var causalPoses: [(Double, Quaternion)] = []
        f.process(sim.samples) { causalPoses.append(($0, $1)) }
        #expect(!f.state.headingIsAbsolute)
        let causal = score(causalPoses, truth: Self.wander, in: 10...90)
        #expect(causal.inclination < 1.0, "inclination \(causal.inclination)°")
        // The causal filter waits `magStartWait` for a field, then starts; offline starts at once.
        let firstCausal = try #require(causalPoses.first?.0)
        #expect(firstCausal >= 1 && firstCausal < 1.1)
        #expect(series.times[0] < 0.05)
        // The relative heading follows the truth's turns: its offset from the truth stays put.
        let offsets = series.poses.filter { $0.0 > 5 }.map { AttitudeError(estimate: $0.1, truth: Self.wander($0.0)).signedHeading }
        let spread = offsets.map { abs(angleDifference($0, offsets[0])) }.max() ?? 0
        #expect(spread < 10, "relative heading drifts by \(spread)°")
    }

    /// The gyro stops for 20 s while the device keeps turning (as on the Android drive): both
    /// kinds of fusion recover; offline, the backward pass carries the attitude right after
    /// the gap, where the forward one is starting over.
    @Test func aGyroGapIsRecoveredFrom() throws {
        let sim = SimulatedRecording(rig: Self.phone, duration: 120, truth: Self.wander, gyroGap: 50...70)
        var params = ComplementaryFilterParams()
        Self.withModel(&params)
        var recording = sim.recording
        let (series, _) = OfflineFusion(params: params).estimate(&recording)
        let causalPoses = sim.causal(params)
        #expect(!series.poses.contains { $0.0 > 50 && $0.0 < 70 })
        let offlineAfter = score(series.poses, truth: Self.wander, in: 70...75)
        let causalLater = score(causalPoses, truth: Self.wander, in: 85...120)
        let offlineLater = score(series.poses, truth: Self.wander, in: 85...120)
        #expect(offlineAfter.heading < 3 && offlineAfter.inclination < 1.5, "offline right after the gap \(offlineAfter.heading)°/\(offlineAfter.inclination)°")
        #expect(causalLater.heading < 3 && causalLater.inclination < 1.5, "causal after the gap \(causalLater.heading)°/\(causalLater.inclination)°")
        #expect(offlineLater.heading < 2 && offlineLater.inclination < 1, "offline after the gap \(offlineLater.heading)°/\(offlineLater.inclination)°")
        // Across the gap, frames hold the nearer pose rather than turn through the unknown.
        let before = try #require(series.poses.last { $0.0 < 50 })
        #expect(series.orientation(at: 52) == before.1)
    }

    /// A magnetometer 60 ms late: found from the data, to within a few ms. (A delay shifts the
    /// field against the gyro's attitude by ω·delay, but only a changing rate shows it in the
    /// field's own changes.)
    @Test func theMagnetometerDelayIsFound() throws {
        let delay = 0.06
        var rig = Self.phone
        rig.magNoise = 0.2
        // A delay shows where the rate changes (a shake), not in a steady turn.
        let shake = { (t: Double) in Self.wander(t) * Quaternion(axis: Vector3(1, 0, 0), angle: 0.35 * sin(2 * .pi * 1.2 * t)) }
        let sim = SimulatedRecording(rig: rig, duration: 60, truth: { shake($0 - delay) })
        // Gyro and accel of the undelayed motion, the field of the delayed one.
        let plain = SimulatedRecording(rig: rig, duration: 60, truth: shake)
        var recording = plain.recording
        recording.mag = sim.recording.mag
        let estimate = MagnetometerDelay.estimate(gyro: recording.gyro, mag: recording.mag, maxDelay: 0.25)
        let found = try #require(estimate)
        #expect(abs(found - delay) < 0.004, "found \(found * 1000) ms")
        // None where there is none.
        let none = MagnetometerDelay.estimate(gyro: plain.recording.gyro, mag: plain.recording.mag, maxDelay: 0.25)
        #expect(none == nil || abs(none!) < 0.004, "\(String(describing: none))")
    }
}

/// Azimuth of the facing direction (`ComplementaryFilter.facingAxis`), degrees.
func facingAzimuth(_ q: Quaternion) -> Double {
    let v = q.rotate(ComplementaryFilter.facingAxis)
    return atan2(v.x, v.y) * degPerRad
}

@Suite("Magnetometer calibration over a whole recording")
struct MagnetometerCalibrationTests {
    /// Field samples of a device turned about all axes, with an offset and a soft iron.
    func samples(_ q: (Double) -> Quaternion, offset: Vector3, soft: Matrix3, duration: Double = 120) -> (SampleSeries, SampleSeries) {
        var mag = SampleSeries(), accel = SampleSeries()
        var noise = TestNoise(seed: 3)
        var t = 0.0
        while t <= duration {
            mag.append(time: t, soft * inDevice(q(t), fieldENU) + offset + noise.vector(0.3))
            accel.append(time: t, inDevice(q(t), gravityENU) + noise.vector(0.05))
            t += 0.02
        }
        return (mag, accel)
    }

    @Test func hardAndSoftIronAreRemoved() {
        let soft = Matrix3(rows: Vector3(0.7, 0.08, 0), Vector3(0.08, 0.6, 0.05), Vector3(0, 0.05, 0.75))
        let (mag, accel) = samples(OfflineFusionTests.tumble, offset: Vector3(25, -12, 18), soft: soft)
        var p = ComplementaryFilterParams()
        OfflineFusionTests.withModel(&p)
        let cal = MagnetometerCalibration.fit(mag, accel: accel, prior: nil, expectedFieldUT: p.expectedFieldUT, params: p)
        #expect(cal.kind == .softIron)
        // Every calibrated sample has the field's strength, within the noise.
        var worst = 0.0
        for i in 0..<mag.count { worst = max(worst, abs(cal.apply(mag.vector(i)).norm - fieldENU.norm)) }
        #expect(worst < 2.5, "worst norm error \(worst) µT")
        #expect(cal.inlierFraction > 0.99)
    }

    /// A device that only turns about gravity (a phone lying in a car): the offset across
    /// gravity is found, along gravity the prior is kept.
    @Test func aLevelDeviceIsCalibratedAcrossGravityOnly() {
        let q = { (t: Double) in yaw(200 * sin(0.05 * t)) * Pose(headingDeg: 0, pitchDeg: -90, rollDeg: 0).orientation }
        let offset = Vector3(12, -20, 30)
        let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
        let (mag, accel) = samples(q, offset: offset, soft: identity)
        let cal = MagnetometerCalibration.fit(mag, accel: accel, prior: nil, expectedFieldUT: nil, params: ComplementaryFilterParams())
        #expect(cal.kind == .hardIron)
        let up = inDevice(q(0), Vector3(0, 0, 1))
        let across = (cal.offset - offset) - up * (cal.offset - offset).dot(up)
        #expect(across.norm < 0.5, "offset \(cal.offset)")
        #expect(abs(cal.offset.dot(up)) < 0.05, "along gravity \(cal.offset.dot(up))")
    }

    /// An offset that changes half-way (a magnet attached, as in BROAD trial 32): no
    /// whole-recording calibration; the passes' online fit handles it.
    @Test func aChangingOffsetIsLeftUncalibrated() {
        let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
        let (mag, accel) = samples(OfflineFusionTests.tumble, offset: .zero, soft: identity)
        let magnet = Vector3(-6, -1, 55)
        var shifted = SampleSeries()
        for i in 0..<mag.count { shifted.append(time: mag.times[i], mag.vector(i) + (mag.times[i] > 40 && mag.times[i] < 90 ? magnet : .zero)) }
        let cal = MagnetometerCalibration.fit(shifted, accel: accel, prior: nil, expectedFieldUT: nil, params: ComplementaryFilterParams())
        #expect(cal.kind == .none)
        #expect(cal.limitation?.contains("one calibrated field") == true, "\(cal.limitation ?? "")")
    }

    @Test func symmetricEigenDecomposition() {
        let m = [[4.0, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 1]]
        let e = symmetricEigen(m)
        #expect(e.values[0] <= e.values[1] && e.values[1] <= e.values[2])
        for k in 0..<3 {
            let v = e.vectors[k]
            let mv = Vector3(m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                             m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z)
            #expect((mv - v * e.values[k]).norm < 1e-10)
            #expect(abs(v.norm - 1) < 1e-12)
        }
    }
}
