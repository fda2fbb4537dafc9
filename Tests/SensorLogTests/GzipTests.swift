import Foundation
import POIARCore
import Testing
@testable import SensorLog

@Suite("SensorLogReader: gzip")
struct GzipTests {
    /// A valid log of `rows` rows with varied digits (so it does not compress to nothing).
    func variedLog(rows: Int) -> String {
        var text = "# format: poiar-log/1\n# start_utc: 2025-06-14T10:02:11Z\n\(SensorLogReader.header)\n"
        var state: UInt64 = 12345
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        for i in 0..<rows {
            let t = Double(i / 3) * 0.01
            switch i % 3 {
            case 0: text += "\(t),gyro,\(noise() * 0.1),\(noise() * 0.1),\(noise() * 0.1),\n"
            case 1: text += "\(t),accel,\(noise()),\(9.81 + noise()),\(noise()),\n"
            default: text += "\(t),mag,\(10 + noise()),\(-20 + noise()),\(-40 + noise()),\n"
            }
        }
        return text
    }

    func gzip(_ path: String) throws -> String {
        let gz = try #require(toolPath("gzip"), "gzip is needed for this test")
        #expect(try run(gz, ["-k", "-f", path]) == 0)
        return path + ".gz"
    }

    @Test func gzipLogReadsLikeThePlainFile() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let plain = try write(WellFormedLogTests.goodLog, to: "small.csv", in: folder)
        let gz = try gzip(plain)
        #expect(try readAll(gz) == readAll(plain))
        #expect(try SensorLogReader(path: gz).metadata == SensorLogReader(path: plain).metadata)

        let bigPlain = try write(variedLog(rows: 30_000), to: "big.csv", in: folder)
        let bigGz = try gzip(bigPlain)
        let expected = try readAll(bigPlain)
        #expect(expected.count == 30_000)
        #expect(try readAll(bigGz) == expected)
    }

    @Test func truncatedGzipIsReported() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let plain = try write(variedLog(rows: 30_000), to: "big.csv", in: folder)
        let gz = try gzip(plain)
        let data = try Data(contentsOf: URL(fileURLWithPath: gz))
        #expect(data.count > 100_000)
        let truncated = try write(bytes: Array(data.prefix(data.count / 2)), to: "cut.csv.gz", in: folder)

        let reader = try SensorLogReader(path: truncated)
        #expect(reader.metadata.format == "poiar-log/1")
        var lines = Set<Int>()
        let error = inputError {
            while let r = try reader.nextRecord() { lines.insert(r.line) }
        }
        let e = try #require(error)
        #expect(e.location.file == truncated)
        #expect(e.description.contains("truncated"), "\(e.description)")
        // Roughly half the rows came out, and the error names the line after the last whole one.
        let line = try #require(e.location.line)
        #expect(line > 10_000 && line < 25_000, "\(e.description)")
        #expect(e.description.hasPrefix("\(truncated):\(line)"))
        #expect(line == reader.currentLine + 1)  // the line being read when the data ran out
        #expect(lines.max().map { $0 < line } ?? false)
        #expect(lines.count > 5_000)
    }

    @Test func truncatedGzipAtTheStart() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let plain = try write(WellFormedLogTests.goodLog, to: "small.csv", in: folder)
        let gz = try gzip(plain)
        let data = try Data(contentsOf: URL(fileURLWithPath: gz))
        // Cut inside the compressed data: not even the header survives.
        let truncated = try write(bytes: Array(data.prefix(30)), to: "cut.csv.gz", in: folder)
        let e = try #require(inputError { _ = try readAll(truncated) })
        #expect(e.location.file == truncated)
        #expect(e.location.line == 1)
        #expect(e.description.contains("truncated") || e.description.contains("empty"), "\(e.description)")
    }
}
