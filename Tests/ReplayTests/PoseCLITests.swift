import Foundation
import Testing

@Suite("poiar pose: north chosen in one pass")
struct PoseCLITests {
    /// A log whose first GPS fix comes late: the file output (fused first as if the log had no
    /// fix, then again once the fix turns up) equals stdout's (the log looked through for a fix
    /// first), is true north, and the notices of the dropped pass are not repeated.
    @Test func aLateFirstFixGivesTheSamePosesOnStdoutAndInAFile() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines: [String] = []
        for line in try walkPrefix(seconds: 20).split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count > 1, fields[1] == "gps", let t = Double(fields[0]), t < 12 { continue }
            lines.append(String(line))
            if line.hasPrefix("time,") { lines.append("0.5,barometer,1013.2,,,") }
        }
        let log = try writeLog(lines.joined(separator: "\n"), named: "late.csv", in: dir)
        let file = dir.appendingPathComponent("poses.csv")
        let toFile = try runPoiar(["pose", log.path, "--out", file.path])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        let toStdout = try runPoiar(["pose", log.path])
        #expect(toStdout.status == 0)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == toStdout.stdout)
        #expect(written.split(separator: "\n").count > 1500)
        #expect(toFile.stderr.components(separatedBy: "unknown sensor \"barometer\"").count == 2, "\(toFile.stderr)")
        #expect(toFile.stderr.contains("north: true north"))
        #expect(leftoverTemporaries(in: dir).isEmpty)

        // True north: the headings are the magnetic ones turned by the declination (10.27°).
        let magnetic = try runPoiar(["pose", log.path, "--magnetic"])
        func heading(_ csv: String) -> Double {
            let last = csv.split(separator: "\n").last!.split(separator: ",")
            return Double(last[5])!
        }
        let turn = (heading(written) - heading(magnetic.stdout) + 540).truncatingRemainder(dividingBy: 360) - 180
        #expect(abs(turn - 10.27) < 0.05, "\(turn)")
    }

    /// A log without GPS is fused once: the poses are those of `--magnetic`.
    @Test func aLogWithoutGPSIsMagneticNorth() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = try walkPrefix(seconds: 8).split(separator: "\n").filter { !$0.contains(",gps,") }
        let log = try writeLog(rows.joined(separator: "\n"), named: "nogps.csv", in: dir)
        let file = dir.appendingPathComponent("poses.csv")
        let run = try runPoiar(["pose", log.path, "--out", file.path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("north: magnetic north: the log has no GPS fix"))
        let magnetic = try runPoiar(["pose", log.path, "--magnetic"])
        #expect(try String(contentsOf: file, encoding: .utf8) == magnetic.stdout)
    }
}
