import Foundation
import POIARCore
import Testing
@testable import Fusion

/// Where the offline passes keep their long heading time constant (`OfflineTrust`).
@Suite struct OfflineTrustTests {
    static func survey(_ rests: [(Double, Double)]) -> RestBiasSurvey {
        var s = RestBiasSurvey(SensorRecording(), params: ComplementaryFilterParams())
        s.rests = rests.map { RestBiasSurvey.Rest(start: $0.0, end: $0.1, bias: Vector3(0.01, 0, 0), samples: 100) }
        return s
    }

    /// 100 Hz accelerometer samples from 0 to `end` s (a second past a recording's end, so that
    /// its last second is a whole one): steady (0.05 m/s² of noise) or a walk's
    /// (1 m/s² at 1.8 Hz).
    static func accel(to end: Double, walking: Bool = false) -> SampleSeries {
        var a = SampleSeries()
        var rng = SplitMix64(seed: 3)
        for k in 0...Int(end * 100) {
            let t = Double(k) / 100
            let shake = walking ? sin(2 * .pi * 1.8 * t) : 0.05 * rng.gaussian()
            a.append(time: t, Vector3(0, 9.81 + shake, 0.5))
        }
        return a
    }

    @Test func aWalkKeepsTheLongTimeConstant() {
        let trust = OfflineTrust(Self.survey([]), accel: Self.accel(to: 120, walking: true), start: 0, end: 120,
                                 params: ComplementaryFilterParams())
        #expect(trust.fallback.isEmpty)
        #expect(trust.notice(start: 0, end: 120, params: ComplementaryFilterParams()) == nil)
    }

    @Test func shortRestsMeasureNothingAndFarSpansFallBack() {
        let p = ComplementaryFilterParams()  // rests of 5 s or more, reach 2 × 100 s
        // A hand-held second at 10 s, a rest set down from 300 to 310 s, a recording to 700 s.
        let trust = OfflineTrust(Self.survey([(10, 11.5), (300, 310)]), accel: Self.accel(to: 701), start: 0, end: 700, params: p)
        #expect(trust.rests.count == 1 && trust.rests[0].start == 300)
        #expect(trust.fallback == [0...100, 510...700])
        #expect(trust.fallsBack(at: 50) && !trust.fallsBack(at: 200) && trust.fallsBack(at: 600))
        #expect(trust.seeds(Self.survey([(10, 11.5), (300, 310)])).rests.map(\.start) == [300])
        let notice = trust.notice(start: 0, end: 700, params: p) ?? ""
        #expect(notice.contains("for 290 s of the recording (0–100 s, 510–700 s)"), "\(notice)")
        // No long rest at all: the whole recording, said so.
        let none = OfflineTrust(Self.survey([(10, 11.5)]), accel: Self.accel(to: 121), start: 0, end: 120, params: p)
        #expect(none.fallback == [0...120])
        #expect(none.notice(start: 0, end: 120, params: p)?.contains("for the whole recording") == true)
        // The same τ both ways: nothing to fall back to.
        var same = p
        same.offlineTauMag = same.tauMag
        #expect(OfflineTrust(Self.survey([]), accel: Self.accel(to: 120), start: 0, end: 120, params: same).fallback.isEmpty)
    }

    @Test func theCursorFindsTheSpansEitherWay() {
        let trust = OfflineTrust(Self.survey([(300, 310)]), accel: Self.accel(to: 700), start: 0, end: 700, params: ComplementaryFilterParams())
        let times = stride(from: 0.0, through: 700, by: 0.5).map { $0 }
        var forward = OfflineTrust.Cursor(trust, forward: true), backward = OfflineTrust.Cursor(trust, forward: false)
        let bounds: Set<Double> = [0, 100, 510, 700]  // (either side, at a boundary itself)
        var changes = 0
        for t in times {
            let s = forward.update(t)
            #expect(s.fallsBack == trust.fallsBack(at: t) || bounds.contains(t), "forward at \(t)")
            if s.changed { changes += 1 }
        }
        #expect(changes == 4)  // in at 0, out at 100, in at 510, out at 700
        for t in times.reversed() {
            #expect(backward.update(t).fallsBack == trust.fallsBack(at: t) || bounds.contains(t), "backward at \(t)")
        }
    }
}
