import Foundation
import POIARCore
import Testing
@testable import Replay

@Suite("Pose CSV row formatting")
struct PoseRowFormatTests {
    /// `LineBytes.fixed` writes what printf's %.Nf writes, byte for byte.
    @Test func fixedPointMatchesPrintf() {
        var state: UInt64 = 12345
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 0.0000000005, -0.0000000005, 0.00000000049999,
                                359.99995, 359.99994999, 1e-12, -1e-12, 123456.1234565, 0.1234567895, 2.5e-7,
                                99.995, 9.5, 10.5, 123456789.987654321, -8.99e11, 8_999_999_999_999_999, .infinity, -.nan]
        for _ in 0..<100_000 {
            let u = next(), e = Int(next() * 14) - 8
            values.append((u * 2 - 1) * pow(10, Double(e)))
        }
        for decimals in [0, 1, 2, 3, 4, 6, 9, 12, 15] {
            for v in values {
                let s = LineBytes.string { $0.fixed(v, decimals) }
                #expect(s == String(format: "%.\(decimals)f", v), "\(v) with \(decimals) decimals")
            }
        }
    }

    @Test func rowHasTheContractColumns() {
        let pose = Pose(headingDeg: 123.4, pitchDeg: -5, rollDeg: 2)
        let q = pose.orientation, a = pose.angles
        let expected = String(format: "%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f", 12.5, q.w, q.x, q.y, q.z, a.heading, a.pitch, a.roll)
        #expect(PoseExport.row(time: 12.5, pose: pose, headingSigmaDeg: 3.456) == expected + ",3.46")
        // The heading's bound comes last and is empty when no source gives one.
        #expect(PoseExport.row(time: 12.5, pose: pose, headingSigmaDeg: nil) == expected + ",")
        #expect(PoseExport.header.hasSuffix(",roll_deg,heading_sigma_deg"))
    }
}
