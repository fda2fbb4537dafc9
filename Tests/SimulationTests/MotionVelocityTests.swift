import Foundation
import POIARCore
import Testing
@testable import Recordings

/// The IMU's velocity across a GPS gap and the calibration of its direction (docs/position.md).
@Suite struct MotionVelocityTests {
    static func fixes(at times: [Double]) -> [PositionSmoother.PlaneFix] {
        times.map { PositionSmoother.PlaneFix(time: $0, east: 0, north: 0, accuracy: 5) }
    }

    /// An epoch every second inside each gap longer than 1.5 s, none between fixes a second apart.
    @Test func aGapGetsAnEpochEverySecond() {
        let gaps = MotionVelocity.gapTimes(Self.fixes(at: [0, 1, 2, 12, 13, 14.6]))
        #expect(gaps == [3, 4, 5, 6, 7, 8, 9, 10, 11, 14])
        #expect(MotionVelocity.gapTimes(Self.fixes(at: [0, 1, 2.4, 3.4])).isEmpty)
    }

    /// The step length and the offset are biases: across a gap the velocity's variance grows
    /// with the time from the fix, and next to a fix it is as calibrated.
    @Test func theVelocityLoosensAwayFromAFix() {
        let v = PositionSmoother.Velocity(east: 1.3, north: 0.2, variance: 0.04)
        #expect(MotionVelocity.bridged(v, elapsed: 0.5).variance == 0.04)
        #expect(abs(MotionVelocity.bridged(v, elapsed: 6).variance - 0.24) < 1e-12)
        #expect(MotionVelocity.bridged(v, elapsed: 6).east == 1.3)
    }

    /// Offsets of a phone swept by a few degrees, and a fifth of them from a reference that
    /// followed a multipath burst: the robust offset and spread are the phone's; the plain
    /// circular spread is beyond the 40° that turns the steps off.
    @Test func offsetsFromABurstDoNotWidenTheSpread() {
        let swept = (0..<32).map { radians(10 + 4 * sin(Double($0))) }
        let burst = (0..<8).map { radians(130 + 20 * cos(Double($0))) }
        let robust = MotionVelocity.robustOffset(swept + burst)
        #expect(abs(degrees(robust.offset) - 10) < 1)
        #expect(degrees(robust.spread) < 5)
        #expect(MotionVelocity.circularMean(swept + burst).spread > MotionVelocity.maxSpread)
    }
}
