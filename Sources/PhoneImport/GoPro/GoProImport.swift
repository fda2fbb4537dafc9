import Footage
import Foundation
import Geodesy
import GeodesyData
import POIARCore
import SensorLog

/// A GoPro clip's telemetry as poiar's samples: the gyroscope and accelerometer in the device
/// frame (`GoProAxes`, `GoProMount`), the GPS fixes with a fix (`GoProGPS`), the magnetometer
/// when it passes its checks (`GoProMagnetometer`), the camera's own orientation
/// (`GoProCameraOrientation`), each sample at its time on the clip's timeline
/// (`GoProTimeline`); and the metadata and notices that say what was read and what was not.
/// docs/gopro.md tells it for users.
struct GoProImport {
    var records: [LogRecord] = []
    var metadata = LogMetadata()
    var notices: [String] = []
    var sensors: Set<String> = []
    /// The clip, open, for its video.
    var media: MediaFile?

    static func read(path: String, geoid: Geoid = .system) throws -> GoProImport {
        let telemetry = try GoProTelemetry.read(path: path)
        var out = GoProImport()
        out.media = telemetry.media
        var notes: [(key: String, value: String)] = []
        let file = URL(fileURLWithPath: path).lastPathComponent
        let devices = telemetry.payloads.flatMap(\.streams.devices)
        let model = telemetry.payloads.lazy.compactMap(\.streams.model).first ?? devices.first
        func notice(_ text: String) { out.notices.append("\(path): \(text)") }

        // The IMU, in the camera's axes.
        let gyro = try GoProVectorSeries.read("GYRO", from: telemetry, model: model, file: path)
        let accel = try GoProVectorSeries.read("ACCL", from: telemetry, model: model, file: path)
        for (series, what) in [(gyro, "gyroscope"), (accel, "accelerometer")] where series.isEmpty {
            throw InputError(file: path, "no \(what) samples (\(series.key)) in its GPMF telemetry\(series.compressed ? ": they are stored compressed (GPMF type #), which poiar does not read" : ""): poiar needs the \(what)")
        }
        for s in [gyro, accel] { out.noteStream(s, notice: notice) }
        for key in ["GYRO", "ACCL"] {
            let others = telemetry.payloads.flatMap { $0.streams.otherDevices(key) }
            if !others.isEmpty { notice("\(key) of other devices (\(Set(others).sorted().joined(separator: ", "))) not used: the camera's are") }
        }

        // The mount, from where gravity points in the camera's axes.
        let (mount, medianUpZ) = GoProMount.from(upInCamera: accel.vectors)
        let toDevice = mount.toDevice
        if mount == .upsideDown {
            notice(String(format: "the camera was upside down (gravity's median along its up axis %.2f): taken as mounted so, with its image turned (GoPro's Auto orientation)", medianUpZ ?? 0))
        }
        let gyroDevice = gyro.turned(by: toDevice), accelDevice = accel.turned(by: toDevice)
        let axesSaid = "GYRO \(gyro.axes.joined(separator: ", ")), ACCL \(accel.axes.joined(separator: ", "))"
        notes.append(("import_axes", "\(axesSaid); device x = \(mount == .upright ? "−X, y = Z" : "X, y = −Z"), z = Y (camera axes X left, Y back, Z up); mounted \(mount.rawValue)"
            + (medianUpZ.map { String(format: " (gravity's median along Z %.2f)", $0) } ?? "")))
        if gyro.axesAssumed || accel.axesAssumed {
            notice("its IMU streams carry no ORIN (axis order): \(axesSaid), as GoPro documents for the model (\(model ?? "unknown"))")
        }

        // GPS.
        var gps = GoProGPS()
        let gpsKey = telemetry.payloads.contains { !$0.streams.streams("GPS9").isEmpty } ? "GPS9" : "GPS5"
        let (gpsPayloads, _) = telemetry.series(gpsKey)
        for (payload, stream, times) in gpsPayloads {
            guard let stream else { continue }
            gps.add(stream, times: times, payloadStart: payload.time)
        }
        gps.settleStart()
        gps.convertSeaLevelAltitudes(geoid: geoid, notice: notice)
        out.noteGPS(gps, hadGPS5: gpsKey == "GPS9" && telemetry.payloads.contains { !$0.streams.streams("GPS5").isEmpty },
                    notes: &notes, notice: notice)

        // Metadata that dates and names the clip.
        out.metadata.entries.append(("format", SensorLogReader.formatName))
        if let start = gps.startUTC {
            out.metadata.entries.append(("start_utc", PhoneRecording.isoSeconds(Int64(floor(start.timeIntervalSince1970)))))
        } else {
            notice("no GPS time (GPSU, GPS9) to date the clip: today's date stands in where the magnetic model needs one")
            out.metadata.entries.append((LogMetadata.startUnknownKey, "no GPS time in the GoPro clip"))
        }
        out.metadata.entries.append(("device", model.map { $0 == "Camera" ? "GoPro camera (DVNM \"Camera\")" : $0 } ?? "GoPro camera"))
        out.metadata.entries.append((LogMetadata.footageKey, file))

        // The magnetometer, only when it is the Earth's field.
        var mag: [(time: Double, v: Vector3)] = []
        let integration = GyroIntegration(times: gyroDevice.map(\.time), rates: gyroDevice.map(\.v))
        let firstAccelAxes = telemetry.payloads.lazy.compactMap { $0.streams.streams("ACCL").first }.first
        let magSeries = try GoProVectorSeries.read("MAGN", from: telemetry, model: model, file: path) { stream in
            // Without its own ORIN, MAGN is taken in the accelerometer's stored order.
            stream.text("ORIN") == nil && stream.numbers("MTRX") == nil
                ? firstAccelAxes.flatMap { try? GoProAxes.of($0, model: model, file: path, payload: "") }
                    .map { GoProAxes(toCamera: $0.toCamera, source: "no ORIN: the accelerometer's \($0.source)", assumed: true) }
                : nil
        }
        if !magSeries.isEmpty {
            let field = magSeries.turned(by: toDevice)
            switch GoProMagnetometer.check(field: field, up: accelDevice, gyro: integration, place: gps.fixes.first?.coordinate, date: gps.startUTC) {
            case .usable(let said):
                mag = field
                notes.append(("import_mag", "MAGN used (\(magSeries.axes.joined(separator: ", "))): \(said)"))
            case .unusable(let why):
                notice("MAGN (the magnetometer) not used: \(why)")
                notes.append(("import_mag", "MAGN not used: \(why)"))
            }
            if magSeries.extraElements > 0 { notes.append(("import_mag_elements", "MAGN has \(3 + magSeries.extraElements) elements per sample; the first three read as x, y, z")) }
        }

        // The camera's own orientation: the stabilised view's when the clip has IORI.
        var orientation: [(time: Double, attitude: Quaternion)] = []
        let iori = try telemetry.quaternions("IORI", file: path)
        let stabilisation = GoProCameraOrientation.stabilisation(iori.map(\.q))
        let cori = try telemetry.quaternions("CORI", file: path)
        var isView = false
        if !cori.isEmpty {
            let grav = try GoProVectorSeries.read("GRAV", from: telemetry, model: model, file: path) { _ in
                GoProAxes(toCamera: Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), source: "CORI's axes", assumed: false)
            }
            do {
                let r = try GoProCameraOrientation.convert(cori: cori, gravity: zip(grav.times, grav.vectors).map { ($0, $1) },
                                                           accel: accelDevice, gyro: integration, toDevice: toDevice, iori: iori)
                orientation = r.samples
                out.metadata.entries.append((OrientationNorth.key, OrientationNorth.unknown.rawValue))
                out.metadata.entries.append((OrientationSource.key, OrientationSource.camera.rawValue))
                let gyroSaid = r.gyroMismatchDeg.map { String(format: "within %.1f° of the gyroscope over %d windows of 1 s", $0, r.windows) } ?? "not checked against the gyroscope (too short)"
                let viewSaid = r.isView ? "the stabilised view's: IORI ⊗ CORI (the image's turn on the body's), " : "the body's: "
                notes.append(("import_orientation", String(format: "%@CORI, %d samples: %@, device→start = %@ of %@ in device axes (%@); up from %@ (within %.1f°); heading arbitrary: azimuth 0 = where the camera faced at %.3f s",
                                                           viewSaid, r.samples.count, r.axesSaid, r.conjugated ? "the conjugate" : "the quaternion", r.isView ? "IORI ⊗ CORI" : "CORI",
                                                           gyroSaid, r.upSource, r.upSpreadDeg, r.samples[0].time)))
                isView = r.isView
                if let why = r.imageUnused { notice("IORI (the stabilisation) not applied: \(why)") }
                if r.coriAxes != GoProCameraOrientation.coriToCamera || !r.conjugated {
                    notice("CORI is in other axes than the GoPro MAX's (\(r.axesSaid), \(r.conjugated ? "conjugated" : "as stored")): taken as the gyroscope shows")
                }
            } catch let e as GoProCameraOrientation.Unusable {
                notice("CORI (the camera's own orientation) not used: \(e.reason)")
                notes.append(("import_orientation", "CORI not used: \(e.reason)"))
            }
        }

        if let stab = stabilisation, stab.max > 2 {
            let said = String(format: "the video is stabilised in the camera (IORI): its image turns up to %.1f° from the camera's body (median %.1f°); ", stab.max, stab.median)
                + (isView ? "the orientation rows are the view's (IORI ⊗ CORI), so labels follow the image; the gyroscope and accelerometer stay the body's"
                          : "the poses are the body's, so labels drawn on the video may be off by as much")
            notice(said)
            notes.append(("import_stabilisation", said))
        }

        // Timing, and what the telemetry covers.
        let first = telemetry.payloads[0].time, last = telemetry.payloads[telemetry.payloads.count - 1].time
        notes.append(("import_timing", String(format: "%d GPMF payloads from %.3f s to %.3f s on the clip's timeline; each payload's samples spread evenly to the next payload's time, the last payload's over %@",
                                              telemetry.payloads.count, first, last, gyro.lastSpan.rawValue)))
        if let end = gyro.times.last, let clip = telemetry.clipDuration, clip - end > 2 {
            notice(String(format: "its telemetry ends at %.1f s, %.1f s before the clip does (%.1f s): the poses stop there", end, clip - end, clip))
        }
        if let codec = telemetry.videoCodec { notes.append(("import_video", "\(codec) video on the same timeline (time 0 of the log is the clip's time 0)")) }
        out.metadata.entries.append(("import_source", "GoPro GPMF telemetry (gpmd track) of \(file)"))
        out.metadata.entries.append(contentsOf: notes)

        // The samples, merged in time order (GPS first at equal times, then as the phones').
        var tagged: [(t: Double, rank: Int, record: LogRecord)] = []
        tagged.reserveCapacity(gyroDevice.count + accelDevice.count + mag.count + gps.fixes.count + orientation.count)
        for f in gps.fixes { tagged.append((f.time, 0, LogRecord(sample: .gps(f), line: 0))) }
        for s in gyroDevice { tagged.append((s.time, 1, LogRecord(sample: .gyro(time: s.time, rate: s.v), line: 0))) }
        for s in accelDevice { tagged.append((s.time, 2, LogRecord(sample: .accel(time: s.time, force: s.v), line: 0))) }
        for s in mag { tagged.append((s.time, 3, LogRecord(sample: .mag(time: s.time, field: s.v), line: 0))) }
        for s in orientation { tagged.append((s.time, 4, LogRecord(sample: .orientation(time: s.time, attitude: s.attitude), line: 0))) }
        tagged.sort { ($0.t, $0.rank) < ($1.t, $1.rank) }
        out.records = tagged.map(\.record)
        out.sensors = Set(out.records.map(\.sample.sensorName))
        return out
    }

    /// Notices for what a stream lacks.
    func noteStream(_ s: GoProVectorSeries, notice: (String) -> Void) {
        if s.missingSamples > 0 { notice("\(s.key): its TSMP counts \(s.missingSamples) samples that no payload holds (a gap in the recording)") }
        if let u = s.unknownUnit { notice("\(s.key): unknown unit \"\(u)\": taken as SI") }
        if s.compressed { notice("\(s.key): part of it is stored compressed (GPMF type #), which poiar does not read: those payloads are left out") }
    }

    /// The GPS's notes and notices.
    func noteGPS(_ gps: GoProGPS, hadGPS5: Bool, notes: inout [(key: String, value: String)], notice: (String) -> Void) {
        guard let key = gps.key else {
            notice("no GPS stream (GPS5, GPS9): the camera's GPS was off, or the model has none (HERO12): give --at LAT,LON for a replay")
            return
        }
        if gps.withoutFix > 0 {
            notice("\(gps.withoutFix) \(key) samples without a 2-D or 3-D fix not used (\(key == "GPS9" ? "their fix" : "GPSF") below 2)")
        }
        if gps.withoutPosition > 0 { notice("\(gps.withoutPosition) \(key) samples with a fix but no position (0, 0 or out of range) not used") }
        var said = "\(key), \(gps.fixes.count) fixes used (\(gps.withoutFix) without a fix); horizontal accuracy = DOP × \(String(format: "%.0f", GoProGPS.rangeErrorMetres)) m (UERE)"
        if let dop = gps.dopRange {
            said += String(format: ": DOP %.2f–%.2f, %.1f–%.1f m", dop.lowerBound, dop.upperBound,
                           dop.lowerBound * GoProGPS.rangeErrorMetres, dop.upperBound * GoProGPS.rangeErrorMetres)
        }
        said += "; altitude above \(gps.altitudeReference ?? "the WGS84 ellipsoid")"
        if let conversion = gps.altitudeConversion { said += " \(conversion)" }
        if hadGPS5 { said += "; GPS5 beside it not used" }
        if let source = gps.startUTCSource { said += "; start_utc from \(source)" }
        notes.append(("import_gps", said))
    }
}
