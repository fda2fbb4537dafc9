import Foundation
import POIARCore
import Recordings
import Testing
@testable import Simulation

/// The position smoother's vehicle term (`GPSVelocity`, docs/position.md) on the simulated
/// drive (benchmarks/position/drive-multipath.script.json: a phone on a dashboard, 11–14 m/s
/// with turns and stops, the walk's GPS errors and the receiver's Doppler speed): the smoothed
/// track with the speed against the same fixes without it (what poiar did before it kept the
/// speed), and issue 28's figures against the raw fixes.
@Suite struct VehicleSmootherTests {
    static let drive = Result { try PositionSmootherTests.walk(seed: 20250614, script: "drive-multipath") }

    static func scores(withSpeed: Bool, causal: Bool = false) throws -> PositionSmootherTests.Scores {
        let (fixes, truth, motion) = try drive.get()
        let given = withSpeed ? fixes : fixes.map { GPSFix(time: $0.time, coordinate: $0.coordinate, horizontalAccuracy: $0.horizontalAccuracy) }
        return try PositionSmootherTests.scores(fixes: given, truth: truth, motion: motion, causal: causal)
    }

    static func median(_ xs: [Double]) -> Double { PositionSmootherTests.percentile(xs, 50) }
    static func p95(_ xs: [Double]) -> Double { PositionSmootherTests.percentile(xs, 95) }

    @Test func theSimulatedDriveCarriesTheSpeed() throws {
        let (fixes, _, motion) = try Self.drive.get()
        let moving = fixes.filter { ($0.speed ?? 0) > 10 }
        #expect(moving.count > fixes.count / 2)
        #expect(moving.allSatisfy { $0.course != nil && $0.speedAccuracy == 0.3 })
        // A car does not step: the step detector finds no walking while it drives.
        #expect(motion.filter { $0.cadence != nil }.count < motion.count / 10)
    }

    /// Over the whole recording the speed brings the median and the p95 well below the track
    /// smoothed from the same fixes without it, and σ stays honest.
    @Test func theSpeedTightensTheDrive() throws {
        let with = try Self.scores(withSpeed: true), without = try Self.scores(withSpeed: false)
        #expect(Self.median(with.estimate) <= 0.8 * Self.median(without.estimate),
                "median \(Self.median(with.estimate)) m with the speed, \(Self.median(without.estimate)) m without")
        #expect(Self.p95(with.estimate) <= 0.8 * Self.p95(without.estimate),
                "p95 \(Self.p95(with.estimate)) m with the speed, \(Self.p95(without.estimate)) m without")
        #expect(Self.median(with.estimate) <= 0.9 * Self.median(with.raw))
        #expect(Self.p95(with.estimate) <= 0.5 * Self.p95(with.raw))
        #expect(with.share(with.within2) >= 0.9)
    }

    /// Causally (`--causal`) too the speed helps: the forward filter no longer trails the car.
    @Test func theSpeedHelpsTheCausalFilter() throws {
        let with = try Self.scores(withSpeed: true, causal: true), without = try Self.scores(withSpeed: false, causal: true)
        #expect(Self.median(with.estimate) <= 0.8 * Self.median(without.estimate),
                "median \(Self.median(with.estimate)) m with the speed, \(Self.median(without.estimate)) m without")
        #expect(Self.median(with.estimate) <= Self.median(with.raw))
    }
}
