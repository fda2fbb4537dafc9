import Foundation
import Testing
import POIARCore
@testable import Geodesy

/// Official WMM2025 test values (NOAA/NCEI; copied from ../shared/data/wmm with the coefficients).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite struct WorldMagneticModelTests {
    @Test func reproducesEveryOfficialTestValue() throws {
        let text = try String(contentsOf: fixtures.appendingPathComponent("WMM2025_TEST_VALUES.txt"), encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count >= 11 else { continue }
            let f = WorldMagneticModel.wmm2025.field(latitude: v[2], longitude: v[3], heightKm: v[1], year: v[0])
            // The file rounds to 0.1 nT and 0.01°.
            #expect(abs(f.north - v[4]) < 0.06, "X at \(line)")
            #expect(abs(f.east - v[5]) < 0.06, "Y at \(line)")
            #expect(abs(f.down - v[6]) < 0.06, "Z at \(line)")
            #expect(abs(f.horizontal - v[7]) < 0.06, "H at \(line)")
            #expect(abs(f.total - v[8]) < 0.06, "F at \(line)")
            #expect(abs(f.inclinationDeg - v[9]) < 0.006, "I at \(line)")
            #expect(abs(f.declinationDeg - v[10]) < 0.006, "D at \(line)")
            checked += 1
        }
        #expect(checked == 12)
    }

    @Test func embeddedCoefficientsMatchTheCOFFile() throws {
        let text = try String(contentsOf: fixtures.appendingPathComponent("WMM2025.COF"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: " ") }.filter { $0.count == 6 }
        #expect(rows.count == WorldMagneticModel.wmm2025Coefficients.count)
        for (row, c) in zip(rows, WorldMagneticModel.wmm2025Coefficients) {
            #expect(Int(row[0]) == c.0 && Int(row[1]) == c.1)
            #expect(Double(row[2]) == c.2 && Double(row[3]) == c.3 && Double(row[4]) == c.4 && Double(row[5]) == c.5)
        }
    }

    @Test func helsinkiDeclinationMatchesTheDataReadme() {
        // ../shared/data/wmm/README.md: Helsinki 60.17 N 24.94 E, 0.05 km, 2025.5: D = +10.27°.
        let f = WorldMagneticModel.wmm2025.field(latitude: 60.17, longitude: 24.94, heightKm: 0.05, year: 2025.5)
        #expect(abs(f.declinationDeg - 10.27) < 0.01)
        let berlin = WorldMagneticModel.wmm2025.field(latitude: 52.52, longitude: 13.40, heightKm: 0.05, year: 2025.5)
        #expect(abs(berlin.declinationDeg - 5.01) < 0.01)
        #expect(abs(berlin.inclinationDeg - 68.08) < 0.01)
        #expect(abs(berlin.total - 50034.5) < 0.5)
    }

    @Test func decimalYear() {
        let d = ISO8601DateFormatter().date(from: "2025-07-02T12:00:00Z")!
        // 2025 is not a leap year: 2 July noon is day 183 − 1 + 0.5 = 182.5 days in.
        #expect(abs(WorldMagneticModel.decimalYear(d) - (2025 + 182.5 / 365)) < 1e-9)
    }
}
