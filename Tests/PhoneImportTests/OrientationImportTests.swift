import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// The simulated look-around's true attitudes (device → ENU, true north), by time in ms.
func lookAroundTruth() throws -> [Int: Quaternion] {
    let text = try String(contentsOf: phoneFixtures.appendingPathComponent("look-around.truth.csv"), encoding: .utf8)
    var out: [Int: Quaternion] = [:]
    for line in text.split(separator: "\n").dropFirst() {
        let p = line.split(separator: ",").map { Double($0)! }
        out[Int((p[0] * 1000).rounded())] = Quaternion(w: p[1], x: p[2], y: p[3], z: p[4])
    }
    return out
}

/// The rotation by `deg` degrees about up (counter-clockwise seen from above).
func aboutUp(_ deg: Double) -> Quaternion { Quaternion(axis: Vector3(0, 0, 1), angle: deg * .pi / 180) }

/// The angle between two attitudes, degrees.
func angleDeg(_ a: Quaternion, _ b: Quaternion) -> Double {
    2 * acos(min(1, abs((a.normalized * b.normalized.conjugate).normalized.w))) * 180 / .pi
}

/// The fixture's declination (`# sim_declination_deg:` of look-around.csv, WMM2025).
let lookAroundDeclination = 10.269

@Suite struct OrientationImportTests {
    /// The orientation samples of a recording and their largest angle from `expected` (the
    /// truth turned as the phone's north says) at the same times.
    func worstError(_ samples: [SensorSample], expected: (Quaternion) -> Quaternion) throws -> (Double, Int) {
        let truth = try lookAroundTruth()
        var worst = 0.0, n = 0
        for case .orientation(let t, let q) in samples {
            let truthQ = try #require(truth[Int((t * 1000).rounded())])
            worst = max(worst, angleDeg(q, expected(truthQ)))
            n += 1
        }
        return (worst, n)
    }

    /// Android: the rotation vector's quaternion is device → ENU with magnetic north, checked
    /// against gravity and the field; `orientation_north: magnetic`.
    @Test func androidOrientationIsDeviceToENUMagnetic() throws {
        let source = try PhoneRecording(path: phoneFixtures.appendingPathComponent("sensorlogger-android").path)
        var notices: [String] = []
        source.onNotice = { notices.append($0) }
        let samples = try readAll(source)
        let (worst, n) = try worstError(samples) { aboutUp(lookAroundDeclination) * $0 }
        #expect(n == 401 && worst < 0.01, "\(n) samples, worst \(worst)°")
        #expect(source.metadata.orientationNorth == .magnetic)
        let how = try #require(source.metadata["import_orientation"])
        #expect(how.hasPrefix("device→ENU = q of the file's (qw,qx,qy,qz) (as documented); checked on 401 samples: gravity within 0.0°"), "\(how)")
        #expect(!notices.contains { $0.contains("Orientation.csv") }, "\(notices)")
    }

    /// iOS: CoreMotion's x-north-z-vertical attitude with true north, a quarter turn from ENU.
    @Test func iOSOrientationIsTurnedToENUTrueNorth() throws {
        let source = try PhoneRecording(path: phoneFixtures.appendingPathComponent("sensorlogger-ios.zip").path)
        let samples = try readAll(source)
        let (worst, n) = try worstError(samples) { $0 }
        #expect(n == 401 && worst < 0.01, "\(n) samples, worst \(worst)°")
        #expect(source.metadata.orientationNorth == .true)
        #expect(source.metadata["import_orientation"]?.hasPrefix("device→ENU = Rz(90°) ⊗ q of the file's (qw,qx,qy,qz) (as documented)") == true)
    }

    /// The fixture's Orientation.csv with each quaternion changed by `change`.
    func orientationFile(_ change: (Quaternion) -> Quaternion) throws -> String {
        let text = try String(contentsOf: phoneFixtures.appendingPathComponent("sensorlogger-android/Orientation.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        for i in 1..<lines.count {
            var p = lines[i].split(separator: ",").map(String.init)  // time,seconds_elapsed,qz,qy,qx,qw,…
            let q = change(Quaternion(w: Double(p[5])!, x: Double(p[4])!, y: Double(p[3])!, z: Double(p[2])!))
            (p[2], p[3], p[4], p[5]) = (String(q.z), String(q.y), String(q.x), String(q.w))
            lines[i] = p.joined(separator: ",")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A phone whose quaternions are the conjugates of the documented ones: the check against
    /// gravity finds it, says so, and uses what the data shows.
    @Test func conjugatedQuaternionsAreFoundAndSaid() throws {
        let dir = try androidExport(["Orientation.csv": try orientationFile { $0.conjugate }])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, notices, metadata) = try readWithNotices(dir)
        let (worst, n) = try worstError(samples) { aboutUp(lookAroundDeclination) * $0 }
        #expect(n == 401 && worst < 0.01, "worst \(worst)°")
        #expect(notices.contains { $0.hasPrefix("\(dir.path)/Orientation.csv: its quaternions are the conjugates of the documented ones") && $0.contains("using what the data shows") }, "\(notices)")
        #expect(metadata["import_orientation"]?.contains("q* of the file's") == true)
    }

    /// An Android recording whose Orientation.csv is in iOS's frame (x north, true north): a
    /// quarter turn and the other north, both found from the field and said.
    @Test func anotherHeadingFrameAndNorthAreFoundAndSaid() throws {
        let dir = try androidExport(["Orientation.csv": try orientationFile { aboutUp(-90) * aboutUp(-lookAroundDeclination) * $0 }])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, notices, metadata) = try readWithNotices(dir)
        let (worst, _) = try worstError(samples) { $0 }
        #expect(worst < 0.01, "worst \(worst)°")
        #expect(metadata.orientationNorth == .true)
        #expect(notices.contains { $0.contains("its heading frame is turned 90° about up, not 0° as documented") }, "\(notices)")
        #expect(notices.contains { $0.contains("its heading is to true north, not magnetic north as documented") }, "\(notices)")
    }

    /// Quaternions that fit gravity under no convention are not imported (a notice says why).
    @Test func quaternionsThatFitNoConventionAreNotImported() throws {
        var k = 0
        let dir = try androidExport(["Orientation.csv": try orientationFile { _ in
            k += 1
            return Quaternion(axis: Vector3(1, Double(k % 7), 0.5), angle: Double(k % 11) * 0.5)
        }])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (samples, notices, metadata) = try readWithNotices(dir)
        #expect(bySensor(samples)["orientation"] == nil)
        #expect(metadata.orientationNorth == nil)
        #expect(notices.contains { $0.hasPrefix("\(dir.path)/Orientation.csv: the phone's quaternions fit gravity under no known convention") && $0.hasSuffix("not imported") }, "\(notices)")
    }

    /// A quaternion that is not a unit one is bad input, named by file, line and column.
    @Test func aQuaternionThatIsNotUnitIsAnError() throws {
        let text = try orientationFile { $0 }.split(separator: "\n").enumerated()
            .map { $0.offset == 5 ? "1749895331040000000,0,0,0,0,2,0,0,0" : String($0.element) }.joined(separator: "\n")
        let dir = try androidExport(["Orientation.csv": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        expectError({ _ = try readAll(PhoneRecording(path: dir.path)) }, mentions: ["\(dir.path)/Orientation.csv:6 (qw)", "expected a unit quaternion"])
    }

    // MARK: The check itself

    func samples(_ turn: Quaternion, field: Bool = true) throws -> [OrientationCheckSample] {
        // Attitudes of the look-around (true north), gravity and the Helsinki field seen from the device.
        let truth = try lookAroundTruth().sorted { $0.key < $1.key }.map(\.value)
        let fieldENU = Vector3(2.634, 14.537, -50.416)  // sim_mag_field_enu_ut
        return truth.map { q in
            OrientationCheckSample(quaternion: turn * q, up: q.conjugate.rotate(Vector3(0, 0, 9.81)),
                                   field: field ? q.conjugate.rotate(fieldENU) : nil)
        }
    }

    @Test func withoutAFieldTheHeadingIsTheDocumentedOne() throws {
        let r = OrientationCheck.check(try samples(aboutUp(lookAroundDeclination), field: false), documented: .android, declinationDeg: nil)
        #expect(r.convention == .android)
        #expect(r.unchecked.first?.contains("no magnetometer to check its heading against") == true)
    }

    @Test func aHeadingToNoNorthIsUnknown() throws {
        let r = OrientationCheck.check(try samples(aboutUp(40)), documented: .android, declinationDeg: lookAroundDeclination)
        #expect(r.convention?.north == .unknown)
        #expect(r.disagreements.contains { $0.contains("matches neither north") }, "\(r.disagreements)")
    }

    @Test func aSmallDeclinationKeepsTheDocumentedNorth() throws {
        // A true-north phone where the declination is 1°: magnetic and true cannot be told apart.
        let r = OrientationCheck.check(try samples(.identity), documented: .iOS.with(quarterTurns: 0), declinationDeg: 1)
        #expect(r.convention?.north == .true && r.disagreements.isEmpty, "\(r)")
    }
}

extension OrientationConvention {
    func with(quarterTurns: Int) -> OrientationConvention {
        var c = self
        c.quarterTurns = quarterTurns
        return c
    }
}
