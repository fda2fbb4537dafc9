import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// The real Sensor Logger exports in ../shared/data/phones (see its README.md), when they are
/// there: their licence is unstated, so they are read in place and never copied here.
let realPhones = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/phones")
let realPhonesRequired = SharedData.required("phones/android-orientation/Orientation.csv", "phones/android-drive-leaf/Gyroscope.csv")

@Suite(realPhonesRequired.trait)
struct RealPhoneExportTests {
    init() throws { try realPhonesRequired.check() }

    /// Both open and read to the end, with notices (no Metadata.csv in either) but no error.
    @Test(arguments: ["android-drive-leaf", "android-orientation"])
    func opens(_ name: String) throws {
        let (samples, notices, metadata) = try readWithNotices(realPhones.appendingPathComponent(name))
        let counts = bySensor(samples).mapValues(\.count)
        #expect((counts["gyro"] ?? 0) > 9000 && (counts["accel"] ?? 0) > 9000 && (counts["mag"] ?? 0) > 9000, "\(counts)")
        #expect(notices.contains { $0.contains("no Metadata.csv: taken as recorded on Android") }, "\(notices)")
        #expect(metadata.device == "unknown device (android, inferred)")
        var last = -Double.infinity
        for s in samples { #expect(s.time >= last); last = s.time }
    }

    /// The drive's gyroscope stops for 85 s at t = 182.6 s while the others go on: reported.
    @Test func theDrivesGyroscopeGapIsReported() throws {
        let dir = realPhones.appendingPathComponent("android-drive-leaf")
        let (_, notices, _) = try readWithNotices(dir)
        #expect(notices.contains { $0.hasPrefix("\(dir.path)/Gyroscope.csv: no samples for 85.5 s from t = 182.6 s") }, "\(notices)")
        #expect(notices.filter { $0.contains("Gyroscope.csv: no samples for") }.count == 1)
    }

    /// The drive's fixes keep Sensor Logger's ground speed and its accuracy, and its course
    /// where the phone states it within 30° (the car moving).
    @Test func theDrivesFixesKeepTheSpeed() throws {
        let (samples, _, _) = try readWithNotices(realPhones.appendingPathComponent("android-drive-leaf"))
        let fixes = samples.compactMap { s -> GPSFix? in if case .gps(let f) = s { return f }; return nil }
        #expect(fixes.count > 250 && fixes.allSatisfy { $0.speed != nil && $0.speedAccuracy != nil })
        let moving = fixes.filter { ($0.speed ?? 0) > 5 }
        #expect(moving.count > fixes.count / 2 && moving.allSatisfy { $0.course != nil })
        #expect(fixes.contains { $0.course == nil })
    }

    /// The phone's own orientation: Android's documented convention (device → ENU, magnetic
    /// north) passes the check against its gravity and field, and turns Gravity.csv's vector
    /// (Android's sign, up) to ENU's up and the field's horizontal part to north.
    @Test func theOrientationFrameCheckPasses() throws {
        let dir = realPhones.appendingPathComponent("android-orientation")
        let (samples, notices, metadata) = try readWithNotices(dir)
        #expect(metadata.orientationNorth == .magnetic)
        let how = try #require(metadata["import_orientation"])
        #expect(how.hasPrefix("device→ENU = q of the file's (qw,qx,qy,qz) (as documented); checked on 1000 samples"), "\(how)")
        #expect(!notices.contains { $0.contains("using what the data shows") || $0.contains("not imported") }, "\(notices)")

        // Gravity.csv at the orientation's times (the same rows), turned by the attitude.
        let gravity = try PhoneRecording.gravityForTest(dir)
        var tilts: [Double] = []
        for case .orientation(let t, let q) in samples {
            guard let g = gravity[Int((t * 1e6).rounded())] else { continue }
            tilts.append(acos(min(1, q.rotate(g).normalized.z)) * 180 / .pi)
        }
        #expect(tilts.count > 9000)
        #expect((tilts.max() ?? 99) < 0.1, "worst tilt \(tilts.max() ?? .nan)°")
    }
}

extension PhoneRecording {
    /// Gravity.csv of a Sensor Logger export by time in µs on the recording's clock (as its
    /// import reads it).
    static func gravityForTest(_ dir: URL) throws -> [Int: Vector3] {
        let container = try RecordingContainer(path: dir.path)
        let clock = RecordingClock()
        let table = try #require(try container.openTable("Gravity.csv"))
        let lower = table.columns.map { $0.lowercased() }
        let file = SensorFile(vectors: table, time: .epochNanoseconds(index: lower.firstIndex(of: "time")!),
                              xyz: (lower.firstIndex(of: "x")!, lower.firstIndex(of: "y")!, lower.firstIndex(of: "z")!),
                              scale: 1, clock: clock, notice: { _ in })
        let first = try #require(try file.first())
        clock.originNs = first.raw.nanoseconds - first.raw.nanoseconds % 1_000_000_000
        var out: [Int: Vector3] = [:]
        while let s = try file.next() { out[Int((s.time * 1e6).rounded())] = s.value }
        return out
    }
}
