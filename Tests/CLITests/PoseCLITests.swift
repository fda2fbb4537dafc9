import Foundation
import Fusion
import Manifest
import POIARCore
import Recordings
import SensorLog
@testable import Replay
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

@Suite("poiar pose: offline by default, --causal the live filter")
struct PoseOfflineCausalCLITests {
    /// `--causal` is the filter as it ran before offline fusion: its rows are, byte for byte,
    /// those of the filter run directly over the log's records (north and expected field from
    /// WMM2025 at the first fix, as `pose` sets them).
    @Test func causalIsTheFilterRunDirectly() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try writeLog(try walkPrefix(seconds: 12), named: "walk12.csv", in: dir)
        let run = try runPoiar(["pose", log.path, "--causal"])
        #expect(run.status == 0, "\(run.stderr)")

        let reader = try SensorLogReader(path: log.path)
        var fix: GPSFix?
        while let r = try reader.nextRecord() { if case .gps(let f) = r.sample, TrueNorth.isUsable(f) { fix = f; break } }
        let records = try SensorLogReader(path: log.path)
        var params = ComplementaryFilterParams()
        TrueNorth.reference(firstFix: fix, metadata: records.metadata, magnetic: false).apply(to: &params)
        var filter = ComplementaryFilter(params: params)
        var uncertainty = HeadingUncertainty()
        var expected = [PoseExport.header]
        while let r = try records.nextRecord() {
            switch r.sample {
            case .vector(.gyro, let t, let v):
                filter.updateGyro(v, time: t)
                uncertainty.update(filter, time: t)
                if let pose = filter.pose {
                    expected.append(PoseExport.row(time: t, pose: pose, headingSigmaDeg: uncertainty.sigma * 180 / .pi))
                }
            case .vector(.accel, let t, let v): filter.updateAccel(v, time: t)
            case .vector(.mag, let t, let v): filter.updateMag(v, time: t)
            default: break
            }
        }
        #expect(run.stdout == expected.joined(separator: "\n") + "\n")
        #expect(expected.count > 1000)
    }

    /// Offline (the default) writes the same rows (one per gyro sample from the first pose on)
    /// with other values, and the same on stdout as in a file.
    @Test func offlineCoversTheSameRows() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try writeLog(try walkPrefix(seconds: 12), named: "walk12.csv", in: dir)
        let causal = try runPoiar(["pose", log.path, "--causal"])
        let offline = try runPoiar(["pose", log.path])
        let file = dir.appendingPathComponent("poses.csv")
        let toFile = try runPoiar(["pose", log.path, "--out", file.path])
        #expect(offline.status == 0 && toFile.status == 0, "\(offline.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == offline.stdout)
        let times = { (csv: String) in csv.split(separator: "\n").map { $0.split(separator: ",")[0] } }
        #expect(times(offline.stdout) == times(causal.stdout))
        #expect(offline.stdout != causal.stdout)
    }

    /// A log without a magnetometer gets poses (tilt absolute, heading relative) and says so;
    /// so does a replay of it.
    @Test func aLogWithoutMagnetometerGetsPosesWithARelativeHeading() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = try walkPrefix(seconds: 10).split(separator: "\n").filter { !$0.contains(",mag,") }
        let log = try writeLog(rows.joined(separator: "\n"), named: "nomag.csv", in: dir)
        for mode in [[], ["--causal"]] {
            let run = try runPoiar(["pose", log.path] + mode)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("heading is relative"), "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").count > 800, "\(mode)")
        }
        let out = dir.appendingPathComponent("frames")
        let replay = try runPoiar(["replay", log.path, "--out", out.path, "--size", "320x180", "--no-hud"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("heading is relative"))
        let frames = try ManifestReader.frames(out.appendingPathComponent("frames.jsonl")).count
        #expect(frames == rows.filter { $0.contains(",frame,") }.count, "\(frames) frames")
    }

    @Test func causalIsInTheHelpOfEveryFusingCommand() throws {
        for command in ["pose", "replay", "map", "evaluate"] {
            let help = try runPoiar([command, "--help"])
            #expect(help.stdout.contains("--causal"), "\(command)")
        }
    }
}
