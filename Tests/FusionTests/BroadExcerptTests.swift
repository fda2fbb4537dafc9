import Foundation
import POIARCore
import SensorLog
import Testing
@testable import Fusion

/// A 60 s excerpt of BROAD trial 24 (Tests/Fixtures/broad, CC-BY-4.0): 20 s of rest, then
/// 40 s of rotations while the board is tapped, scored like `pose_eval.py score` (BROAD's
/// error definitions, movement rows only).
@Suite("ComplementaryFilter on a BROAD excerpt")
struct BroadExcerptTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/broad")

    /// time → (q, movement) from the gzipped truth, keyed by time in 0.1 ms.
    func readTruth() throws -> [Int: (q: Quaternion, moving: Bool)] {
        let lines = try LineReader(path: Self.folder.appendingPathComponent("24_disturbed_tapping_A.truth.csv.gz").path)
        var truth: [Int: (q: Quaternion, moving: Bool)] = [:]
        #expect(try lines.nextLine() == "time,qw,qx,qy,qz,movement")
        while let line = try lines.nextLine() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard f.count == 6, let t = f[0], let w = f[1], let x = f[2], let y = f[3], let z = f[4] else { continue }
            truth[Int((t * 10_000).rounded())] = (Quaternion(w: w, x: x, y: y, z: z), f[5] == 1)
        }
        return truth
    }

    @Test func tappedRotationsAreTracked() throws {
        let truth = try readTruth()
        let reader = try SensorLogReader(path: Self.folder.appendingPathComponent("24_disturbed_tapping_A.csv.gz").path)
        var filter = ComplementaryFilter()
        var stats = ErrorStats()
        var biasAtMovement: Vector3?
        while let record = try reader.nextRecord() {
            switch record.sample {
            case .vector(.gyro, let time, let rate):
                filter.updateGyro(rate, time: time)
                guard let pose = filter.pose, let t = truth[Int((time * 10_000).rounded())], t.moving else { continue }
                if biasAtMovement == nil { biasAtMovement = filter.state.gyroBias }
                stats.add(AttitudeError(estimate: pose.orientation, truth: t.q))
            case .vector(.accel, let time, let force): filter.updateAccel(force, time: time)
            case .vector(.mag, let time, let field): filter.updateMag(field, time: time)
            default: break
            }
        }
        let moving = truth.values.filter(\.moving).count
        #expect(stats.n == moving, "\(stats.n) of \(moving) movement rows scored")
        // `poiar pose` on this excerpt: heading 0.91°, inclination 0.34° (full trial: 1.39°, 0.45°).
        #expect(stats.heading < 1.0, "heading RMSE \(stats.heading)°")
        #expect(stats.inclination < 0.4, "inclination RMSE \(stats.inclination)°")
        // The rest before the movement gave the bias (about 0.48, −0.20, −0.26 °/s).
        let b = try #require(biasAtMovement) * degPerRad
        #expect((b - Vector3(0.478, -0.196, -0.256)).norm < 0.02, "bias \(b) °/s")
    }
}
