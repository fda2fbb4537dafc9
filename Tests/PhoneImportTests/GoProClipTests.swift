import Foundation
import PoiarTestSupport
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// The real clip: SampleLogs/gopro-walk.mp4, a GoPro MAX in HERO mode walked 13 m along a
/// straight sidewalk in Carlsbad, California, on 2019-11-18, turning right at the end (the
/// video pans right: the building on the left leaves the frame).
@Suite struct GoProClipTests {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    struct Read {
        var metadata: LogMetadata
        var notices: [String]
        var records: [LogRecord]
        func samples(_ name: String) -> [SensorSample] { records.map(\.sample).filter { $0.sensorName == name } }
        var gyro: [(Double, Vector3)] { samples("gyro").compactMap { if case .vector(.gyro, let t, let r) = $0 { return (t, r) }; return nil } }
        var accel: [(Double, Vector3)] { samples("accel").compactMap { if case .vector(.accel, let t, let a) = $0 { return (t, a) }; return nil } }
        var fixes: [GPSFix] { samples("gps").compactMap { if case .gps(let f) = $0 { return f }; return nil } }
        var orientation: [(Double, Quaternion)] { samples("orientation").compactMap { if case .orientation(let t, let q) = $0 { return (t, q) }; return nil } }

        /// The camera body's orientation: the clip's CORI converted without IORI (the rows are
        /// the stabilised view's), up from the accelerometer.
        func body(_ clip: String) throws -> [(Double, Quaternion)] {
            let telemetry = try GoProTelemetry.read(path: clip)
            let r = try GoProCameraOrientation.convert(cori: telemetry.quaternions("CORI", file: clip), gravity: [], accel: accel.map { ($0.0, $0.1) },
                                                       gyro: GyroIntegration(times: gyro.map(\.0), rates: gyro.map(\.1)),
                                                       toDevice: GoProAxes.uprightDevice)
            return r.samples.map { ($0.time, $0.attitude) }
        }
    }

    func read() throws -> Read { try Self.read(clip) }

    static func read(_ clip: String) throws -> Read {
        let source = try openLogSource(path: clip)
        #expect(source is GoProRecording)
        var notices: [String] = []
        source.onNotice = { notices.append($0) }
        var records: [LogRecord] = []
        while let r = try source.nextRecord() { records.append(r) }
        return Read(metadata: source.metadata, notices: notices, records: records)
    }

    @Test func countsTimesAndMetadata() throws {
        let r = try read()
        #expect(r.samples("gyro").count == 2082)   // 198 Hz, 10 full payloads and one of 0.53 s
        #expect(r.samples("accel").count == 2082)
        #expect(r.samples("gps").count == 191)     // 18 Hz, all with a 3-D fix
        #expect(r.samples("orientation").count == 316)  // CORI, one per video frame (30 a payload; 16 in the last)
        #expect(r.samples("mag").isEmpty)
        // In time order, and each sensor strictly increasing.
        let times = r.records.map(\.sample.time)
        #expect(times == times.sorted())
        for name in ["gyro", "accel", "gps", "orientation"] {
            let t = r.samples(name).map(\.time)
            #expect(zip(t, t.dropFirst()).allSatisfy { $0 < $1 }, "\(name)")
        }
        #expect((times.first ?? -1) == 0)
        #expect(abs((times.last ?? 0) - 10.54) <= 0.01)  // the clip is 10.5 s (315 frames at 29.97 fps)
        // 198 Hz within a payload: 1.001 s / 198.
        let g = r.gyro.map(\.0)
        #expect(abs((g[1] - g[0]) - (1.001 / 198)) <= 1e-9)

        #expect(r.metadata["start_utc"] == "2019-11-18T23:45:15Z")
        #expect(r.metadata.device == "GoPro Max")
        #expect(r.metadata.footage == "gopro-walk.mp4")
        #expect(r.metadata.orientationNorth == .unknown)
        #expect(r.metadata.orientationSource == .camera)
        #expect(r.metadata["import_axes"]?.contains("ORIN \"XzY\"") ?? false, "\(r.metadata)")
        // The magnetometer reads 521 µT, not the Earth's 46 µT: not used, and said.
        #expect(r.notices.contains { $0.hasPrefix("\(clip): MAGN (the magnetometer) not used: its field is 521 µT, 11.3×") }, "\(r.notices)")
        #expect(r.notices.contains { $0.contains("the video is stabilised in the camera (IORI)") }, "\(r.notices)")
    }

    /// The GPS track: where and which way the walk went, and how accurate GoPro says it is.
    @Test func theGPSTrack() throws {
        let fixes = try read().fixes
        let first = try #require(fixes.first), last = try #require(fixes.last)
        #expect(abs(first.coordinate.latitude - 33.1267) <= 1e-4)
        #expect(abs(first.coordinate.longitude - (-117.3273)) <= 1e-4)
        #expect(abs((first.coordinate.altitude ?? 0) - (-22.96)) <= 0.01)  // ellipsoidal: the geoid is 35 m below it here
        // 13 m to the south-south-east (local flat approximation).
        let north = (last.coordinate.latitude - first.coordinate.latitude) * 110_574
        let east = (last.coordinate.longitude - first.coordinate.longitude) * 111_320 * cos(first.coordinate.latitude * .pi / 180)
        #expect(abs(hypot(north, east) - 13.1) <= 0.3)
        #expect(abs((atan2(east, north) * 180 / .pi) - 150) <= 5)
        // DOP 1.54–1.77 (GPSP 154–177) × 3 m.
        let accuracies = fixes.compactMap(\.horizontalAccuracy)
        #expect(accuracies.count == fixes.count)
        #expect(abs((accuracies.min() ?? 0) - 4.62) <= 1e-9)
        #expect(abs((accuracies.max() ?? 0) - 5.31) <= 1e-9)
    }

    /// The axis mapping, checked on the clip: gravity mostly +y (the camera upright), the lens
    /// pitched a little down (as the image's horizon, above its middle, shows); the gyroscope's
    /// yaw turning the camera right at the end as the video pans right, and as CORI does.
    @Test func gravityAndYawAgreeWithTheVideoAndCORI() throws {
        let r = try read()
        let mean = r.accel.reduce(Vector3(0, 0, 0)) { $0 + $1.1 } / Double(r.accel.count)
        let up = mean.normalized
        #expect(up.y > 0.98, "\(up)")
        #expect(abs(up.x) < 0.05, "\(up)")
        #expect(abs(up.z - 0.13) <= 0.05, "\(up)")  // the lens 7–8° below the horizon
        #expect(abs(mean.norm - 9.8) <= 0.2)

        // The final turn, from 10.0 s: the rotation about the device's up (+y, the camera held
        // upright) is negative, clockwise seen from above: a turn to the right.
        let turn = r.gyro.filter { $0.0 >= 10.0 }
        let yaw = zip(turn, turn.dropFirst()).reduce(0.0) { $0 + $1.0.1.y * ($1.1.0 - $1.0.0) } * 180 / .pi
        #expect(yaw < -15, "the gyroscope's turn at the end, degrees about up")
        // CORI's heading (the lens's azimuth, the body's) grows by as much over the same time.
        let o = try r.body(clip)
        let start = try #require(o.last { $0.0 <= 10.0 }), end = try #require(o.last)
        var coriTurn = Pose(end.1).headingDeg - Pose(start.1).headingDeg
        coriTurn = (coriTurn + 540).truncatingRemainder(dividingBy: 360) - 180
        #expect(coriTurn > 15)
        #expect(abs(coriTurn - (-yaw)) <= 5, "CORI's turn against the gyroscope's")

        // CORI turns with the gyroscope throughout (1 s windows), and its up is gravity's.
        let integration = GyroIntegration(times: r.gyro.map(\.0), rates: r.gyro.map(\.1))
        let mismatch = GoProCameraOrientation.mismatch(o, integration)
        #expect((mismatch.median ?? 99) < 1)
        #expect(mismatch.windows >= 9)
        let accelTimes = r.accel.map(\.0)
        let tilts = o.map { t, q -> Double in
            let a = r.accel[GyroIntegration.nearest(accelTimes, t)!].1
            return acos(min(1, q.rotate(a.normalized).z)) * 180 / .pi
        }.sorted()
        #expect(tilts[tilts.count / 2] < 5, "median angle between the accelerometer's up and the orientation's")
    }

    /// Of the 24 axis frames CORI could be in, and the quaternion or its conjugate, the measured
    /// one (the image's axes, conjugated) turns with the gyroscope: 0.35° over 1 s windows, the
    /// next best 1.6° (a frame that differs about the axis the walk hardly turned about).
    @Test func onlyTheMeasuredCORIFrameTurnsWithTheGyroscope() throws {
        let telemetry = try GoProTelemetry.read(path: clip)
        let cori = telemetry.series("CORI").payloads.flatMap { p in
            zip(p.times, p.stream?.samples ?? []).map { ($0, Quaternion(w: $1[0], x: $1[1], y: $1[2], z: $1[3]).normalized) }
        }
        let r = try read()
        let integration = GyroIntegration(times: r.gyro.map(\.0), rates: r.gyro.map(\.1))
        var fits: [(axes: Matrix3, conjugated: Bool, deg: Double)] = []
        for axes in GoProCameraOrientation.axisFrames {
            for conjugated in [true, false] {
                let m = GoProMount.upright.toDevice * axes
                let series = cori.map { t, q -> (Double, Quaternion) in
                    let v = m * (conjugated ? -q.vector : q.vector)
                    return (t, Quaternion(w: q.w, x: v.x, y: v.y, z: v.z))
                }
                fits.append((axes, conjugated, GoProCameraOrientation.mismatch(series, integration).median ?? 99))
            }
        }
        fits.sort { $0.deg < $1.deg }
        #expect(fits.count == 48)
        #expect(fits[0].axes == GoProCameraOrientation.coriToCamera)
        #expect(fits[0].conjugated)
        #expect(fits[0].deg < 0.5)
        #expect(fits[1].deg > max(1, 3 * fits[0].deg), "the next best frame")
    }

    @Test func anMP4WithoutTelemetryIsOneLineNamingWhatIsMissing() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let path = dir.appendingPathComponent("phone.mp4").path
        try minimalMP4WithoutTelemetry().write(to: URL(fileURLWithPath: path))
        let e = try #require(throws: (any Error).self) { try openLogSource(path: path) }
        #expect("\(e)" == "\(path): no GPMF telemetry track (GoPro's gpmd): give a sensor log and this clip as --footage")
    }

    @Test func aTruncatedClipIsOneLineNamingIt() throws {
        let dir = try makeTempDir()
        defer { cleanUp(dir) }
        let path = dir.appendingPathComponent("cut.mp4").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        let e = try #require(throws: (any Error).self) { try openLogSource(path: path) }
        let text = "\(e)"
        #expect(text.hasPrefix("\(path): is an MP4/MOV whose index (its moov box) cannot be read ("), "\(text)")
        #expect(text.contains("is it truncated, or still being written?"), "\(text)")
        #expect(!text.contains("\n"))
    }
}
