import Foundation
import POIARCore
import Testing
@testable import Fusion

/// A phone OS's own magnetometer calibration: re-estimated in steps, so the calibrated stream
/// jumps by a constant vector (device frame) now and then; the uncalibrated stream keeps one
/// large hard iron throughout.
@Suite("Magnetometer: the OS's calibration steps, the uncalibrated stream")
struct MagnetometerStepsTests {
    /// The OS's estimate of the hard iron from each time on (µT, device frame): a first guess,
    /// then two re-estimates (the second far off, as the Android walk's that read 13–31 µT).
    static let hardIron = Vector3(38, -27, 22)
    static let estimates: [(time: Double, estimate: Vector3)] = [
        (0, Vector3(30, -20, 20)), (55, Vector3(40, -35, 14)), (125, Vector3(24, -15, 31)),
    ]

    static func estimate(at t: Double) -> Vector3 { estimates.last { $0.time <= t }!.estimate }

    /// A walk (`OfflineFusionTests.walk`) as the phone logs it: `mag` the OS-calibrated field
    /// (hard iron minus the estimate in force); with `uncalibrated`, `mag_uncal` too.
    static func walk(uncalibrated: Bool, steps: Bool = true) -> SimulatedRecording {
        var rig = OfflineFusionTests.phone
        rig.hardIron = hardIron
        var sim = SimulatedRecording(rig: rig, duration: 180, truth: OfflineFusionTests.walk)
        let raw = sim.recording.mag
        var calibrated = SampleSeries()
        for i in 0..<raw.count {
            let t = raw.times[i]
            calibrated.append(time: t, raw.vector(i) - (steps ? estimate(at: t) : estimates[0].estimate))
        }
        sim.recording.mag = calibrated
        if uncalibrated { sim.recording[.magUncal] = raw }
        sim.samples = sim.samples.map { s in
            var s = s
            if s.sensor == .mag { s.value = s.value - (steps ? estimate(at: s.time) : estimates[0].estimate) }
            return s
        }
        return sim
    }

    static func offline(_ sim: SimulatedRecording, removingSteps: Bool = true) -> (ErrorStats, OfflineFusion.Report) {
        var params = ComplementaryFilterParams()
        OfflineFusionTests.withModel(&params)
        var fusion = OfflineFusion(params: params)
        fusion.removesMagnetometerSteps = removingSteps
        var recording = sim.recording
        let (series, report) = fusion.estimate(&recording)
        return (score(series.poses, truth: OfflineFusionTests.walk, in: 20...180), report)
    }

    @Test func theStepsAreFoundAndTheirSizesMeasured() {
        var mag = Self.walk(uncalibrated: false).recording.mag
        let steps = MagnetometerSteps.remove(from: &mag, gyro: Self.walk(uncalibrated: false).recording.gyro)
        #expect(steps.count == 2, "\(steps)")
        for (step, k) in zip(steps, 1...) {
            let truth = Self.estimates[k - 1].estimate - Self.estimates[k].estimate
            #expect(abs(step.time - Self.estimates[k].time) < 0.05, "\(step.time)")
            // (The walk turns within the second either side: R·b of the offset left moves the
            // means by a few µT of the 19–30 µT steps.)
            #expect((step.offsetChange - truth).norm < 3.5, "found \(step.offsetChange), made \(truth)")
        }
    }

    /// No OS steps (turning, walking, a tumble): nothing is taken out.
    @Test func aSteadyStreamHasNoSteps() {
        let walk = Self.walk(uncalibrated: false, steps: false).recording
        var mag = walk.mag
        #expect(MagnetometerSteps.remove(from: &mag, gyro: walk.gyro).isEmpty)
        var rig = OfflineFusionTests.phone
        rig.hardIron = Vector3(3, -2, 1)
        let tumble = SimulatedRecording(rig: rig, duration: 120, truth: OfflineFusionTests.tumble).recording
        var tumbleMag = tumble.mag
        #expect(MagnetometerSteps.remove(from: &tumbleMag, gyro: tumble.gyro).isEmpty)
        #expect(tumbleMag == tumble.mag)
    }

    /// The stepped calibrated stream fits no one calibration; with the steps taken out it does,
    /// and the heading is as good as on a steady stream.
    @Test func offlineHeadingWithTheStepsTakenOut() {
        let sim = Self.walk(uncalibrated: false)
        let (before, _) = Self.offline(sim, removingSteps: false)
        let (after, report) = Self.offline(sim)
        #expect(report.notices.first?.contains("re-estimated the calibration 2 time(s)") == true, "\(report.notices)")
        #expect(after.heading < 2 && after.heading < before.heading / 2,
                "heading RMSE \(after.heading)° with the steps taken out, \(before.heading)° without")
    }

    /// With the uncalibrated stream at hand it is used when it can be calibrated (a phone
    /// turned every which way: one hard iron over the recording).
    @Test func theUncalibratedStreamIsPreferred() {
        var rig = OfflineFusionTests.phone
        rig.hardIron = Self.hardIron
        var sim = SimulatedRecording(rig: rig, duration: 120, truth: OfflineFusionTests.tumble)
        sim.recording[.magUncal] = sim.recording.mag
        var stepped = SampleSeries()
        for i in 0..<sim.recording.mag.count {
            let t = sim.recording.mag.times[i]
            stepped.append(time: t, sim.recording.mag.vector(i) - Self.estimate(at: t))
        }
        sim.recording.mag = stepped
        var params = ComplementaryFilterParams()
        OfflineFusionTests.withModel(&params)
        var recording = sim.recording
        let (series, report) = OfflineFusion(params: params).estimate(&recording)
        let stats = score(series.poses, truth: OfflineFusionTests.tumble, in: 20...120)
        #expect(report.notices.first?.contains("uncalibrated stream (mag_uncal) is used") == true, "\(report.notices)")
        #expect(report.calibration.map { ($0.offset - Self.hardIron).norm < 2 } == true, "\(String(describing: report.calibration))")
        #expect(stats.heading < 1.5, "heading RMSE \(stats.heading)°")
    }

    /// An uncalibrated stream no 3-D calibration fits (a walk that only turns about gravity,
    /// with an offset larger than the field): fitted in the horizontal plane given the tilt and
    /// the model's field (issue 26 item 2), and used instead of the stepped calibrated stream.
    @Test func anUncalibratedStreamTooNarrowForA3DFitIsFittedInTheHorizontalPlane() {
        let (stats, report) = Self.offline(Self.walk(uncalibrated: true))
        #expect(report.notices.first?.contains("mag_uncal) is used") == true, "\(report.notices)")
        #expect(report.notices.contains { $0.contains("fitted in the horizontal plane") }, "\(report.notices)")
        #expect(stats.heading < 2, "heading RMSE \(stats.heading)°")
    }
}
