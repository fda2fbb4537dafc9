import Footage
import Foundation
@testable import PhoneImport  // GoProTelemetry: the clip's CORI and IORI, for the stabilised view's rotation
import PoiarTestSupport
import POIARCore
import SensorLog
import XCTest

/// `--footage-offset auto` on the real GoPro walk (docs/footage-sync.md). Its video is
/// stabilised in the camera: the picture follows the stabilised view (IORI·CORI), not the
/// body's gyro. Against the view's rotation every shift is recovered; against the gyro the
/// stabiliser's lag would be taken for an offset, and the estimate is refused.
final class GoProFootageSyncTests: XCTestCase {
    static let clip = sampleLogs.appendingPathComponent("gopro-walk.mp4").path
    /// The clip's image shifts, measured once for all the tests.
    nonisolated(unsafe) static var measured: (times: [Double], shifts: [ImageShift])?

    func shifts() throws -> (times: [Double], shifts: [ImageShift]) {
        if let m = Self.measured { return m }
        let frames = GreyVideoFrames(video: try VideoDecoder(path: Self.clip))
        let m = (frames.frameTimes, try FootageSync.measureShifts(frames: frames))
        Self.measured = m
        return m
    }

    /// The log's gyro, as `poiar convert` writes it from the clip.
    func convertedGyro() throws -> [GyroSample] {
        let recording = try GoProRecording(path: Self.clip)
        var gyro: [GyroSample] = []
        while let record = try recording.nextRecord() {
            if case .gyro(let t, let rate) = record.sample { gyro.append((t, rate)) }
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
        XCTAssertEqual(image.count, body.count)
        let view = zip(image, body).map { (time: $0.time, q: $0.q * $1.q) }
        return zip(view, view.dropFirst()).map { a, b in
            (time: (a.time + b.time) / 2, rate: (a.q.conjugate * b.q).rotationVector / (b.time - a.time))
        }
    }

    func moved(_ gyro: [GyroSample], by shift: Double) -> [GyroSample] { gyro.map { ($0.time + shift, $0.rate) } }

    func testTheViewsRotationTimesTheClipToWithin20ms() throws {
        let (times, shifts) = try shifts()
        let view = try viewRates()
        for shift in [0, 0.3, -0.2] {
            let result = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: moved(view, by: shift))
            guard case .success(let estimate) = result else { return XCTFail("shift \(shift): \(result)") }
            XCTAssertEqual(estimate.offset, shift, accuracy: 0.020, "\(estimate)")
            XCTAssertLessThan(estimate.uncertainty, 0.020, "\(estimate)")
            XCTAssertGreaterThan(estimate.explained, 0.95, "\(estimate)")
        }
    }

    func testTheBodysGyroIsRefusedAsStabilised() throws {
        let (times, shifts) = try shifts()
        let gyro = try convertedGyro()
        for shift in [0, 0.3, -0.2] {
            let result = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: moved(gyro, by: shift))
            guard case .failure(.motionDoesNotMatch(_, let fast, _, _)) = result else { return XCTFail("shift \(shift): \(result)") }
            XCTAssertLessThan(fast, 0.1)
            XCTAssertTrue("\(result)".contains("is the footage stabilised"), "\(result)")
        }
    }

    func testAgainstTheBodysGyroAShiftStillMovesTheEstimateByItself() throws {
        // With the stabilisation check off, the estimate is the stabiliser's lag (about +0.58 s)
        // plus the shift: the timing itself holds on real footage, the reference does not.
        let (times, shifts) = try shifts()
        let gyro = try convertedGyro()
        var params = FootageOffsetEstimator.Params()
        params.minFastMotionExplained = 0
        let estimator = FootageOffsetEstimator(params: params)
        guard case .success(let unshifted) = estimator.estimate(frameTimes: times, shifts: shifts, gyro: gyro) else { return XCTFail() }
        XCTAssertEqual(unshifted.offset, 0.58, accuracy: 0.1, "\(unshifted)")
        for shift in [0.3, -0.2] {
            guard case .success(let e) = estimator.estimate(frameTimes: times, shifts: shifts, gyro: moved(gyro, by: shift)) else { return XCTFail() }
            XCTAssertEqual(e.offset - unshifted.offset, shift, accuracy: 0.020, "\(e)")
        }
    }

    func testTheEntryPointSaysWhyItRefusesNamingTheClip() throws {
        let footage = try FootageSource(path: Self.clip)
        XCTAssertThrowsError(try FootageSync.estimate(footage: footage, gyro: try convertedGyro())) { error in
            XCTAssertTrue("\(error)".hasPrefix(Self.clip + ": cannot estimate the footage offset: the picture does not shake with the gyro"), "\(error)")
        }
    }
}
