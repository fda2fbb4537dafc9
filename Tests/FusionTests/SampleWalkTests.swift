import Foundation
import POIARCore
import SensorLog
import Testing
@testable import Fusion

@Suite("ComplementaryFilter on SampleLogs/walk.csv")
struct SampleWalkTests {
    /// walk.truth.csv (`poiar simulate --truth`:
    /// `time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement`), keyed by time in milliseconds.
    func readTruth() throws -> [Int: (q: Quaternion, moving: Bool)] {
        let text = try String(contentsOf: sampleLogs.appendingPathComponent("walk.truth.csv"), encoding: .utf8)
        var truth: [Int: (q: Quaternion, moving: Bool)] = [:]
        for (i, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            if i == 0 { #expect(line == "time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,movement"); continue }
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard f.count == 9, let t = f[0], let w = f[1], let x = f[2], let y = f[3], let z = f[4] else { continue }
            truth[Int((t * 1000).rounded())] = (Quaternion(w: w, x: x, y: y, z: z), f[8] == 1)
        }
        return truth
    }

    @Test func fusedPoseMatchesTheTruth() throws {
        let truth = try readTruth()
        #expect(truth.count > 20_000)

        let reader = try SensorLogReader(path: sampleLogs.appendingPathComponent("walk.csv").path)
        #expect(reader.metadata["sim_declination_deg"] == "10.269")
        var params = ComplementaryFilterParams()
        params.declinationDeg = 10.269
        var filter = ComplementaryFilter(params: params)

        var headingSq = 0.0, inclinationSq = 0.0, matched = 0, worstInclination = 0.0
        while let record = try reader.nextRecord() {
            switch record.sample {
            case .vector(.gyro, let time, let rate):
                filter.updateGyro(rate, time: time)
                // The pose at each gyro time, as `poiar pose` writes it.
                guard let pose = filter.pose, let t = truth[Int((time * 1000).rounded())], t.moving else { continue }
                let e = AttitudeError(estimate: pose.orientation, truth: t.q)
                headingSq += e.heading * e.heading
                inclinationSq += e.inclination * e.inclination
                worstInclination = max(worstInclination, e.inclination)
                matched += 1
            case .vector(.accel, let time, let force): filter.updateAccel(force, time: time)
            case .vector(.mag, let time, let field): filter.updateMag(field, time: time)
            default: break
            }
        }
        let moving = truth.values.filter(\.moving).count
        #expect(Double(matched) >= 0.99 * Double(moving), "only \(matched) of \(moving) truth rows have a pose")
        let headingRMSE = (headingSq / Double(matched)).squareRoot()
        let inclinationRMSE = (inclinationSq / Double(matched)).squareRoot()
        // Measured on the walk made by `poiar simulate --script SampleLogs/walk.script.json`:
        // heading 1.370°, inclination 0.502°, worst inclination 2.18°, bias off by 13 % of its norm.
        #expect(headingRMSE < 1.5, "heading RMSE \(headingRMSE)°")
        #expect(inclinationRMSE < 0.55, "inclination RMSE \(inclinationRMSE)°")
        #expect(worstInclination < 2.5, "worst inclination error \(worstInclination)°")
        // The log's gyro bias (0.0040, −0.0025, 0.0030) rad/s is learnt on the way.
        let bias = filter.state.gyroBias, simulated = Vector3(0.004, -0.0025, 0.003)
        #expect((bias - simulated).norm < 0.2 * simulated.norm, "bias \(bias)")
    }
}
