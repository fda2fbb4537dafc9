import Foundation
import POIARCore
import Testing
@testable import Fusion

/// A hand's still moment against a device set down (`RestFieldCheck`, `OfflineTrust`).
@Suite struct HandRestTests {
    /// 100 Hz accelerometer and 50 Hz field samples over 0…`end` s of a device upright, turning
    /// about the vertical at `yawRate` °/s (the field's horizontal part turns the other way in
    /// the device frame), with Helsinki's 74° dip and 0.3 µT of noise.
    static func samples(to end: Double, yawRate: Double) -> (accel: SampleSeries, mag: SampleSeries) {
        var a = SampleSeries(), m = SampleSeries()
        var rng = SplitMix64(seed: 5)
        for k in 0...Int(end * 100) {
            let t = Double(k) / 100
            a.append(time: t, Vector3(0.02 * rng.gaussian(), 0.02 * rng.gaussian(), 9.81 + 0.02 * rng.gaussian()))
            if k % 2 == 0 {
                let yaw = -yawRate * t * .pi / 180
                m.append(time: t, Vector3(14 * cos(yaw) + 0.3 * rng.gaussian(), 14 * sin(yaw) + 0.3 * rng.gaussian(), -49 + 0.3 * rng.gaussian()))
            }
        }
        return (a, m)
    }

    static func rest(_ start: Double, _ end: Double) -> RestBiasSurvey.Rest {
        RestBiasSurvey.Rest(start: start, end: end, bias: Vector3(0, 0, 0.002), samples: Int((end - start) * 100))
    }

    @Test func theFieldTellsAHandFromATable() throws {
        let p = ComplementaryFilterParams()
        let table = Self.samples(to: 60, yawRate: 0), hand = Self.samples(to: 60, yawRate: 0.15)
        let fit = try #require(RestFieldCheck.fieldYawRate(accel: hand.accel, mag: hand.mag, start: 10, end: 18))
        #expect(abs(fit.rate * 180 / .pi + 0.15) < 0.05, "\(fit.rate * 180 / .pi) °/s")
        #expect(!RestFieldCheck.turned(Self.rest(10, 18), accel: table.accel, mag: table.mag, params: p))
        #expect(RestFieldCheck.turned(Self.rest(10, 18), accel: hand.accel, mag: hand.mag, params: p))
        // Without a field the rest stands.
        #expect(!RestFieldCheck.turned(Self.rest(10, 18), accel: hand.accel, mag: SampleSeries(), params: p))
    }

    /// One rest of the hold turned with the field: its other long rests do not seed the passes
    /// and the whole hold falls back (live τ_mag, no rest bias); on a table the rests stand.
    @Test func aHoldWithOneTurningRestFallsBackWhole() {
        var survey = RestBiasSurvey(SensorRecording(), params: ComplementaryFilterParams())
        survey.rests = [Self.rest(10, 18), Self.rest(30, 40)]
        let hand = Self.samples(to: 121, yawRate: 0.15), table = Self.samples(to: 121, yawRate: 0)
        let p = ComplementaryFilterParams()
        let held = OfflineTrust(survey, accel: hand.accel, mag: hand.mag, start: 0, end: 120, params: p)
        #expect(held.rests.isEmpty)
        #expect(held.handRests == 2)
        #expect(held.fallsBack(at: 60) && held.fallsBack(at: 15))
        #expect(held.notice(start: 0, end: 120, params: p)?.contains("not taken for rests (2 of 5 s or more") == true)
        let set = OfflineTrust(survey, accel: table.accel, mag: table.mag, start: 0, end: 120, params: p)
        #expect(set.rests.count == 2)
        #expect(set.fallback.isEmpty)
    }
}
