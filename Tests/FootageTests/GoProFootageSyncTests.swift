import Footage
import Foundation
@testable import PhoneImport  // GoProTelemetry: the clip's CORI and IORI, for the stabilised view's rotation
import PoiarTestSupport
import POIARCore
import SensorLog
import Testing

/// `--footage-offset auto` on the real GoPro walk (docs/footage-sync.md). Its video is
/// stabilised in the camera: the picture follows the stabilised view (IORI·CORI), not the
/// body's gyro. Against the view's rotation every shift is recovered; against the gyro the
/// stabiliser's lag would be taken for an offset, and the estimate is refused.
@Suite struct GoProFootageSyncTests {
    static let clip = sampleLogs.appendingPathComponent("gopro-walk.mp4").path
    /// The clip's image shifts, measured once for all the tests: they run in parallel, and a
    /// static let is made once while the others wait for it.
    static let measured: Result<(times: [Double], shifts: [ImageShift]), any Error> = Result {
        let frames = GreyVideoFrames(video: try VideoDecoder(path: clip))
        return (frames.frameTimes, try FootageSync.measureShifts(frames: frames))
    }

    func shifts() throws -> (times: [Double], shifts: [ImageShift]) { try Self.measured.get() }

    /// The log's gyro, as `poiar convert` writes it from the clip.
    func convertedGyro() throws -> [GyroSample] {
        let recording = try GoProRecording(path: Self.clip)
        var gyro: [GyroSample] = []
        while let record = try recording.nextRecord() {
            if case .vector(.gyro, let t, let rate) = record.sample { gyro.append((t, rate)) }
        }
        return gyro
    }

    /// The stabilised view's rotation rate: IORI (the picture relative to the body) after CORI
    /// (the body), one quaternion per frame, differenced into rates at the frames' midpoints.
    func viewRates() throws -> [GyroSample] {
        let telemetry = try GoProTelemetry.read(path: Self.clip)
        func quaternions(_ key: String) -> [(time: Double, q: Quaternion)] {
            telemetry.series(key).payloads.flatMap { p in
                zip(p.times, p.stream?.samples ?? []).compactMap { t, s in
                    s.count == 4 ? (t, Quaternion(w: s[0], x: s[1], y: s[2], z: s[3]).normalized) : nil
                }
            }
        }
        let image = quaternions("IORI"), body = quaternions("CORI")
        #expect(image.count == body.count)
        let view = zip(image, body).map { (time: $0.time, q: $0.q * $1.q) }
        return zip(view, view.dropFirst()).map { a, b in
            (time: (a.time + b.time) / 2, rate: (a.q.conjugate * b.q).rotationVector / (b.time - a.time))
        }
    }

    func moved(_ gyro: [GyroSample], by shift: Double) -> [GyroSample] { gyro.map { ($0.time + shift, $0.rate) } }

    @Test func theViewsRotationTimesTheClipToWithin20ms() throws {
        let (times, shifts) = try shifts()
        let view = try viewRates()
        for shift in [0, 0.3, -0.2] {
            let result = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: moved(view, by: shift))
            guard case .success(let estimate) = result else { Issue.record("shift \(shift): \(result)"); return }
            #expect(abs(estimate.offset - shift) <= 0.020, "\(estimate)")
            #expect(estimate.uncertainty < 0.020, "\(estimate)")
            #expect(estimate.explained > 0.95, "\(estimate)")
        }
    }

    @Test func theBodysGyroIsRefusedAsStabilised() throws {
        let (times, shifts) = try shifts()
        let gyro = try convertedGyro()
        for shift in [0, 0.3, -0.2] {
            let result = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: moved(gyro, by: shift))
            guard case .failure(.motionDoesNotMatch(_, let fast, _, _)) = result else { Issue.record("shift \(shift): \(result)"); return }
            #expect(fast < 0.1)
            #expect("\(result)".contains("is the footage stabilised"), "\(result)")
        }
    }

    @Test func againstTheBodysGyroAShiftStillMovesTheEstimateByItself() throws {
        // With the stabilisation check off, the estimate is the stabiliser's lag (about +0.58 s)
        // plus the shift: the timing itself holds on real footage, the reference does not.
        let (times, shifts) = try shifts()
        let gyro = try convertedGyro()
        var params = FootageOffsetEstimator.Params()
        params.minFastMotionExplained = 0
        let estimator = FootageOffsetEstimator(params: params)
        guard case .success(let unshifted) = estimator.estimate(frameTimes: times, shifts: shifts, gyro: gyro) else { Issue.record(); return }
        #expect(abs(unshifted.offset - 0.58) <= 0.1, "\(unshifted)")
        for shift in [0.3, -0.2] {
            guard case .success(let e) = estimator.estimate(frameTimes: times, shifts: shifts, gyro: moved(gyro, by: shift)) else { Issue.record(); return }
            #expect(abs((e.offset - unshifted.offset) - shift) <= 0.020, "\(e)")
        }
    }

    @Test func theEntryPointSaysWhyItRefusesNamingTheClip() throws {
        let footage = try FootageSource(path: Self.clip)
        let error = try #require(throws: (any Error).self) { try FootageSync.estimate(footage: footage, gyro: try convertedGyro()) }
        #expect("\(error)".hasPrefix(Self.clip + ": cannot estimate the footage offset: the picture does not shake with the gyro"), "\(error)")
    }
}
