import Foundation
import Geodesy
import POIARCore
import Testing
@testable import Fusion

/// Heading from the GPS course (`CourseAlignment`) for a relative heading.
@Suite struct CourseAlignmentTests {
    /// A walk at 1.3 m/s, one fix a second with 4 m of noise (deterministic), heading east for
    /// 60 s, then north for 60 s, then a 20 s stop, then west for 60 s.
    func walk() -> (fixes: [GPSFix], course: (Double) -> Double?) {
        let origin = GeoCoordinate(latitude: 60.17, longitude: 24.95)
        let plane = LocalTangentPlane(origin: origin)
        var rng = SplitMix64(seed: 7)
        func at(_ t: Double) -> (e: Double, n: Double) {
            if t < 60 { return (1.3 * t, 0) }
            if t < 120 { return (78, 1.3 * (t - 60)) }
            if t < 140 { return (78, 78) }
            return (78 - 1.3 * (t - 140), 78)
        }
        let fixes = (0...200).map { i -> GPSFix in
            let t = Double(i), p = at(t)
            let noise = (rng.uniform() * 2 - 1) * 4, noise2 = (rng.uniform() * 2 - 1) * 4
            return GPSFix(time: t, coordinate: plane.geodetic(enu: Vector3(p.e + noise, p.n + noise2, 0)), horizontalAccuracy: 4)
        }
        func course(_ t: Double) -> Double? {
            if t < 60 { return 90 }
            if t < 120 { return 0 }
            if t < 140 { return nil }
            return 270
        }
        return (fixes, course)
    }

    @Test func theOffsetFollowsADriftingRelativeHeadingAndIgnoresLookingAside() throws {
        let (fixes, course) = walk()
        let samples = CourseAlignment.courses(fixes)
        // No course while standing: no sample between 125 and 135 s.
        #expect(!samples.contains { $0.time > 125 && $0.time < 135 })
        #expect(samples.count > 100)
        for s in samples { if let c = course(s.time), abs(s.time - 60) > 8, abs(s.time - 120) > 8 { #expect(abs(wrap180(s.courseDeg - c)) < 30) } }
        // The relative heading is off by 40° plus a drift of 0.1°/s; from 30 to 40 s the
        // user looks 70° to the side.
        func trueOffset(_ t: Double) -> Double { 40 + 0.1 * t }
        func facing(_ t: Double) -> Double? {
            let c = course(t) ?? 0
            return wrap360(c - trueOffset(t) + (t >= 30 && t < 40 ? 70 : 0))
        }
        let correction = try #require(CourseAlignment.estimate(courses: samples, facing: facing))
        for t in stride(from: 10.0, through: 190, by: 10) where abs(t - 60) > 10 && abs(t - 120) > 10 {
            #expect(abs(wrap180(correction.offset(at: t) - trueOffset(t))) < 6, "t \(t): \(correction.offset(at: t)) vs \(trueOffset(t))")
        }
        #expect(correction.medianResidualDeg < 8)
        // Applied to an attitude, azimuths grow by the offset.
        let q = Pose(headingDeg: 10, pitchDeg: 0, rollDeg: 0).orientation
        let turned = Pose(correction.apply(q, at: 100))
        #expect(abs(wrap180(turned.headingDeg - 10 - correction.offset(at: 100))) < 1e-6)
    }

    /// A 13 m walk toward 150° at 1.3 m/s, fixes stating 4.6 m (a GoPro's DOP × 3 m) with a
    /// few centimetres of jitter: at 18 Hz the jitter shows and the 1 m floor and the 8 m
    /// minimum decide; the same walk at 1 Hz keeps its stated accuracy (23 m needed: no course).
    @Test func aHighRateTrackIsJudgedByItsJitterAOneHertzTrackByItsStatedAccuracy() throws {
        let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: 33.1268, longitude: -117.3273))
        var rng = SplitMix64(seed: 3)
        func track(rate: Double) -> [GPSFix] {
            (0...Int(10 * rate)).map { i in
                let t = Double(i) / rate, d = 1.3 * t
                let e = d * sin(150 * .pi / 180) + (rng.uniform() - 0.5) * 0.1, n = d * cos(150 * .pi / 180) + (rng.uniform() - 0.5) * 0.1
                return GPSFix(time: t, coordinate: plane.geodetic(enu: Vector3(e, n, 0)), horizontalAccuracy: 4.6)
            }
        }
        let fast = track(rate: 18)
        let relative = try #require(CourseAlignment.relativeAccuracy(fast))
        #expect(relative.measured < 0.1)
        #expect(relative.used == CourseAlignment.relativeAccuracyFloor)
        let courses = CourseAlignment.courses(fast)
        #expect(courses.count > 50)
        for c in courses { #expect(abs(wrap180(c.courseDeg - 150)) < 2) }
        let slow = track(rate: 1)
        #expect(CourseAlignment.relativeAccuracy(slow) == nil)
        #expect(CourseAlignment.courses(slow).isEmpty)
    }

    @Test func aRecordingThatDoesNotMoveHasNoCourse() {
        let still = (0...100).map { GPSFix(time: Double($0), coordinate: GeoCoordinate(latitude: 60.17, longitude: 24.95), horizontalAccuracy: 5) }
        #expect(CourseAlignment.courses(still).isEmpty)
        #expect(CourseAlignment.estimate(courses: [], facing: { _ in 0 }) == nil)
    }
}
