import Foundation
import Testing

/// Real phone exports' quirks through the command line (issue "Real phone recordings, first
/// time right"): 0-byte files, no Metadata.csv, the phone's own orientation (kept by
/// `convert`, a truth for `evaluate`), sensor gaps, phyphox without a date.
@Suite struct PhoneRecordingCLITests {
    let phone = packageRoot.appendingPathComponent("Tests/Fixtures/phone")
    static let realPhones = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/phones")

    /// A copy of the Android fixture export in `dir`/rec, with `edit` applied (nil removes).
    func export(in dir: URL, _ edit: [String: String?] = [:]) throws -> URL {
        let rec = dir.appendingPathComponent("rec")
        try FileManager.default.copyItem(at: phone.appendingPathComponent("sensorlogger-android"), to: rec)
        for (name, text) in edit {
            let url = rec.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: url)
            if let text { try Data(text.utf8).write(to: url) }
        }
        return rec
    }

    /// `pose` on an Android export with 0-byte files of sensors it can do without, no
    /// Metadata.csv and no magnetometer: notices, one line each, and the poses.
    @Test func poseReadsAnExportWithEmptyFilesAndNoMetadata() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = try export(in: dir, ["AccelerometerUncalibrated.csv": "", "MagnetometerUncalibrated.csv": "", "Orientation.csv": "",
                                       "Metadata.csv": nil, "Magnetometer.csv": nil])
        let out = dir.appendingPathComponent("pose.csv")
        let r = try runPoiar(["pose", rec.path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: \(rec.path): no Metadata.csv: taken as recorded on Android (TotalAcceleration.csv is written only on Android)\n"), "\(r.stderr)")
        #expect(r.stderr.contains("poiar: \(rec.path)/Orientation.csv: empty file (the phone has no such sensor, or it was off): not used\n"))
        #expect(r.stderr.contains("poiar: \(rec.path): no magnetometer samples (no Magnetometer.csv, MagnetometerUncalibrated.csv is empty)"))
        #expect(!r.stderr.contains("error"))
        #expect(FileManager.default.fileExists(atPath: out.path))
    }

    /// An empty gyroscope with nothing else for the role: one error line, exit 1, no output.
    @Test func anEmptyGyroscopeIsOneErrorLine() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = try export(in: dir, ["Gyroscope.csv": ""])
        let out = dir.appendingPathComponent("pose.csv")
        let r = try runPoiar(["pose", rec.path, "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("poiar: error: \(rec.path): no gyroscope samples (Gyroscope.csv is empty, no GyroscopeUncalibrated.csv): poiar needs the gyroscope; record with the Gyroscope sensor on (a phone without one cannot be used)\n"), "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "error:").count == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path) && leftoverTemporaries(in: dir).isEmpty)
    }

    /// A recording that goes more than 600 s without a row: one error line at the row after.
    @Test func aTenMinuteGapIsOneErrorLine() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gyro = try String(contentsOf: phone.appendingPathComponent("sensorlogger-android/Gyroscope.csv"), encoding: .utf8)
        let rec = try export(in: dir, ["Gyroscope.csv": gyro + "1749896331000000000,0,0.01,0.02,0.03\n"])
        let r = try runPoiar(["convert", rec.path, "--out", dir.appendingPathComponent("x.csv").path])
        #expect(r.status == 1)
        let lines = gyro.split(separator: "\n").count + 1
        #expect(r.stderr.contains("poiar: error: \(rec.path)/Gyroscope.csv:\(lines) (time): time jumps 996.0 s from 4.0 ("), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.csv").path))
    }

    /// `convert` keeps the phone's orientation as `orientation` rows, with `orientation_north`;
    /// the converted log reads back the same attitudes.
    @Test func convertKeepsTheOrientation() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("android.csv")
        let r = try runPoiar(["convert", phone.appendingPathComponent("sensorlogger-android").path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("401 gyro, 401 accel, 200 mag, 5 gps, 401 orientation, 4.0 s"), "\(r.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("\n# orientation_north: magnetic\n"))
        #expect(text.contains("\n0.000000,orientation,0.78390"), "\(text.prefix(2000))")
        // The converted log is a truth too: the same as the export's.
        let fromLog = try runPoiar(["evaluate", phone.appendingPathComponent("sensorlogger-android").path, "--truth", out.path])
        let fromExport = try runPoiar(["evaluate", phone.appendingPathComponent("sensorlogger-android").path, "--truth",
                                       phone.appendingPathComponent("sensorlogger-android").path])
        #expect(fromLog.status == 0 && fromLog.stdout == fromExport.stdout, "\(fromLog.stdout) \(fromLog.stderr)")
        // Converting the converted log again gives it back unchanged.
        let again = dir.appendingPathComponent("again.csv")
        #expect(try runPoiar(["convert", out.path, "--out", again.path]).status == 0)
        #expect(try String(contentsOf: again, encoding: .utf8) == text)
    }

    /// `evaluate --truth` takes a Sensor Logger export or its Orientation.csv: the phone's own
    /// orientation, on the recording's clock. Android's is to magnetic north, so against poses
    /// fused to true north the headings differ by the declination (+10.27° in Helsinki), which
    /// `--align-heading` finds and removes.
    @Test func evaluateAgainstThePhonesOrientation() throws {
        let android = phone.appendingPathComponent("sensorlogger-android").path
        let plain = try runPoiar(["evaluate", android, "--truth", android + "/Orientation.csv", "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let a = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any]
        #expect(abs((a?["heading_rmse_deg"] as? Double ?? 0) - 10.27) < 1, "\(plain.stdout)")
        #expect(a?["matched"] as? Int == 400 && a?["heading_offset_deg"] == nil)
        #expect(plain.stderr.contains("truth: the phone's own orientation, 401 samples, magnetic north"))

        let aligned = try runPoiar(["evaluate", android, "--truth", android, "--align-heading"])
        #expect(aligned.status == 0, "\(aligned.stderr)")
        let offset = try #require(aligned.stdout.split(separator: "\n").first { $0.hasPrefix("heading_offset_deg: ") })
        #expect(abs(Double(offset.dropFirst(20).prefix { $0 != " " })! - 10.27) < 0.5, "\(aligned.stdout)")
        let heading = try #require(aligned.stdout.split(separator: "\n").first { $0.hasPrefix("heading_rmse_deg: ") })
        #expect(Double(heading.dropFirst(18))! < 1.5, "\(aligned.stdout)")

        // Magnetic north on both sides: no offset to remove.
        let magnetic = try runPoiar(["evaluate", android, "--truth", android, "--magnetic", "--json"])
        let m = try JSONSerialization.jsonObject(with: Data(magnetic.stdout.utf8)) as? [String: Any]
        #expect((m?["heading_rmse_deg"] as? Double ?? 99) < 1.5, "\(magnetic.stdout)")

        // iOS: true north, and the same clock as the fused zip.
        let ios = phone.appendingPathComponent("sensorlogger-ios.zip").path
        let i = try runPoiar(["evaluate", ios, "--truth", ios, "--json", "--align-heading"])
        let j = try JSONSerialization.jsonObject(with: Data(i.stdout.utf8)) as? [String: Any]
        #expect((j?["heading_rmse_deg"] as? Double ?? 99) < 1.5 && abs(j?["heading_offset_deg"] as? Double ?? 99) < 1, "\(i.stdout) \(i.stderr)")

        // A truth CSV still reads as before, and an export without Orientation.csv is one error.
        let noOrientation = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: noOrientation) }
        let rec = try export(in: noOrientation, ["Orientation.csv": nil])
        let missing = try runPoiar(["evaluate", android, "--truth", rec.path])
        #expect(missing.status == 1 && missing.stderr.hasSuffix("poiar: error: \(rec.path): no orientation samples (no Orientation.csv): record with the Orientation sensor on\n"), "\(missing.stderr)")
    }

    /// A phyphox export without meta/time.csv has no date: the user is told once, even where
    /// the magnetic model then uses today's date.
    @Test func anUndatedPhyphoxExportIsSaidOnce() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        func table(_ header: String, _ row: (Double) -> String) -> String {
            header + "\n" + (0..<200).map { row(Double($0) * 0.02) }.joined(separator: "\n") + "\n"
        }
        let rec = dir.appendingPathComponent("phyphox")
        try FileManager.default.createDirectory(at: rec, withIntermediateDirectories: true)
        let files = [
            "Gyroscope.csv": table("\"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"") { "\($0),0.001,0,0" },
            "Accelerometer.csv": table("\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"") { "\($0),0,0.1,9.8" },
            "Magnetometer.csv": table("\"Time (s)\",\"Magnetic field x (µT)\",\"Magnetic field y (µT)\",\"Magnetic field z (µT)\"") { "\($0),0,14.8,-50.4" },
            "Location.csv": "\"Time (s)\",\"Latitude (°)\",\"Longitude (°)\",\"Height (m)\",\"Horizontal Accuracy (m)\"\n0.5,60.1678863,24.9493217,20,5\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: rec.appendingPathComponent(name)) }
        let r = try runPoiar(["pose", rec.path, "--out", dir.appendingPathComponent("pose.csv").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "today").count == 2, "\(r.stderr)")
        #expect(r.stderr.contains("poiar: \(rec.path): no meta/time.csv, so the recording's date is unknown (the log has no start_utc); where the magnetic model needs a date (true north from GPS), today's is used\n"))
        #expect(r.stderr.contains("poiar: north: true north: WMM2025 declination"))
        // The converted log has no such mark: using it, the north's explanation says it.
        let log = dir.appendingPathComponent("phyphox.csv")
        #expect(try runPoiar(["convert", rec.path, "--out", log.path]).status == 0)
        let fromLog = try runPoiar(["pose", log.path, "--out", dir.appendingPathComponent("pose2.csv").path])
        #expect(fromLog.stderr.contains("the log has no start_utc, so today's date was used"), "\(fromLog.stderr)")
    }

    /// The real exports, when ../shared/data/phones is there: the drive's gyroscope gap is
    /// reported by `pose`, and `convert` keeps the orientation rows of the other.
    static let realExportsRequired = SharedData.required("phones/android-orientation/Orientation.csv", "phones/android-drive-leaf/Gyroscope.csv")

    @Test(realExportsRequired.trait)
    func realExports() throws {
        try Self.realExportsRequired.check()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let drive = Self.realPhones.appendingPathComponent("android-drive-leaf").path
        let pose = try runPoiar(["pose", drive, "--out", dir.appendingPathComponent("drive.csv").path])
        #expect(pose.status == 0, "\(pose.stderr)")
        #expect(pose.stderr.contains("poiar: \(drive)/Gyroscope.csv: no samples for 85.5 s from t = 182.6 s"), "\(pose.stderr)")

        let handling = Self.realPhones.appendingPathComponent("android-orientation").path
        let out = dir.appendingPathComponent("handling.csv")
        let convert = try runPoiar(["convert", handling, "--out", out.path])
        #expect(convert.status == 0 && convert.stderr.contains("9720 orientation"), "\(convert.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("\n# orientation_north: magnetic\n"))
        #expect(text.split(separator: "\n").filter { $0.contains(",orientation,") }.count == 9720)
        // Scoring poiar's fusion of the export against the phone's own orientation.
        let evaluate = try runPoiar(["evaluate", handling, "--truth", handling])
        #expect(evaluate.status == 0 && evaluate.stdout.contains("matched: "), "\(evaluate.stderr)")
    }
}
