import Foundation
import Geodesy
import POIARCore
import SensorLog

/// Sensor Logger (Kelvin Choi's app for Android and iOS), its zip/CSV export: one CSV per
/// sensor with the header `time,seconds_elapsed,z,y,x` (`time` in nanoseconds since the Unix
/// epoch, UTC), plus `Metadata.csv` (device name, platform, …). Units and frames, from the
/// app's documentation (github.com/tszheichoi/awesome-sensor-logger, UNITS.md, COORDINATES.md
/// and CROSSPLATFORM.md):
///
/// - `Gyroscope.csv`: rad/s, the same on both platforms.
/// - `TotalAcceleration.csv` (Android): m/s² with gravity, Android's sign (+9.81 up at rest).
/// - `Accelerometer.csv`: m/s² WITHOUT gravity; `Gravity.csv`: m/s². Their sum is the specific
///   force. On iOS both are negated with respect to Android (flat on a table gravity reads
///   −z), unless "Standardise Units & Frames" was on (`standardisation` in Metadata.csv).
/// - `AccelerometerUncalibrated.csv`: with gravity; on iOS without standardisation in g and
///   with iOS's sign.
/// - `Magnetometer.csv` / `MagnetometerUncalibrated.csv`: µT.
/// - `Location.csv`: latitude, longitude (°), `altitude` (m above the WGS84 ellipsoid on both
///   platforms, UNITS.md: Android's `Location.getAltitude()`, iOS's `ellipsoidalAltitude`),
///   `horizontalAccuracy` (m; negative = invalid), `speed` (m/s) with `speedAccuracy`, `bearing`
///   (°, the course; dropped when `bearingAccuracy` is over 30°). iOS also writes `altitudeAboveMeanSeaLevel`
///   (CoreLocation's `altitude`), which poiar does not need: `altitude` is already the
///   ellipsoidal height poiar's `gps` z is (docs/altitude.md).
/// - `Orientation.csv`: the phone's own attitude, `qx,qy,qz,qw` (`OrientationConvention`).
///
/// Android writes 0-byte files for sensors the phone lacks: an empty or header-only file is a
/// notice, and its alternative is used; only a role poiar needs with nothing usable left (the
/// gyroscope) is an error.
enum SensorLoggerImport {
    static let standardGravity = 9.80665
    /// Orientation rows read (from the start, over at most `checkSeconds`) to check the
    /// quaternions' convention; the gravity and field samples of that span are held too.
    static let checkRows = 1000
    static let checkSeconds = 60.0
    /// How near in time (s) a gravity or field sample must be to an orientation row to check it.
    static let checkTolerance = 0.05

    static let gyroFiles = ["Gyroscope.csv", "GyroscopeUncalibrated.csv"]
    static let magFiles = ["Magnetometer.csv", "MagnetometerUncalibrated.csv"]
    /// Files only Sensor Logger writes (with its `time,seconds_elapsed,…` header).
    static let knownFiles = gyroFiles + magFiles + ["TotalAcceleration.csv", "Accelerometer.csv", "Gravity.csv",
                                                    "AccelerometerUncalibrated.csv", "Orientation.csv", "Location.csv", "Metadata.csv"]

    /// True when a sensor file has Sensor Logger's columns, or `Metadata.csv` its; or, when no
    /// file has a header at all, when its files have Sensor Logger's names (an export whose
    /// sensor files are all empty: the roles' messages then say what is missing).
    static func recognises(_ container: RecordingContainer) -> Bool {
        var named = false, headed = false
        for name in knownFiles {
            guard let file = try? container.find(name) else { continue }
            named = true
            guard let table = try? container.openTable(file) else { continue }
            headed = true
            let cols = Set(table.columns.map { $0.lowercased() })
            if cols.contains("seconds_elapsed") || cols.contains("device name") { return true }
        }
        guard named, !headed else { return false }
        return !container.files.contains { f in
            f.lowercased().hasSuffix(".csv") && ((try? container.openTable(f)) ?? nil) != nil
        }
    }

    /// What the import is for: a whole recording, or only the phone's orientation (a truth for
    /// `evaluate`, from `file` or the export's `Orientation.csv`; the gyroscope is then not needed).
    enum Purpose: Equatable {
        case recording
        case orientation(file: String?)
    }

    static func open(_ container: RecordingContainer, purpose: Purpose = .recording,
                     notice: @escaping (String) -> Void) throws -> (streams: [RecordStream], metadata: LogMetadata) {
        let clock = RecordingClock()
        var empty: [String] = []

        // Metadata.csv: one header row, one value row.
        var info: [String: String] = [:]
        let metadataFile = try container.find("Metadata.csv")
        if let metadataFile, let table = try container.openTable(metadataFile), let (fields, _) = try table.nextRow() {
            for (i, c) in table.columns.enumerated() where i < fields.count { info[c.lowercased()] = fields[i] }
        }
        let platform = try Platform(info: info, container: container, hasMetadata: metadataFile != nil, notice: notice)
        let isIOS = platform.name == "ios"
        let standardised = (info["standardisation"] ?? info["standardization"])?.lowercased() == "true"
        if isIOS && info["standardisation"] == nil && info["standardization"] == nil {
            notice("\(container.path): \(metadataFile == nil ? "without Metadata.csv" : "Metadata.csv does not say") whether \"Standardise Units & Frames\" was on; taking it as off (the app's default)")
        }
        // iOS without standardisation: acceleration and gravity have the opposite sign.
        let accelSign = isIOS && !standardised ? -1.0 : 1.0
        let rawAccelScale = isIOS && !standardised ? -standardGravity : 1

        /// The file `name` with samples; nil when it is absent, or empty or header-only (noticed,
        /// unless `quiet`: a second reader of a file, for the orientation check).
        func sensorFile<V>(_ name: String, quiet: Bool = false, _ make: (CSVTable) throws -> SensorFile<V>) throws -> SensorFile<V>? {
            guard let file = try container.find(name) else { return nil }
            guard let table = try container.openTable(file) else {
                if !quiet {
                    empty.append(name)
                    notice("\(container.display(file)): empty file (the phone has no such sensor, or it was off): not used")
                }
                return nil
            }
            let f = try make(table)
            guard try f.first() != nil else {
                if !quiet {
                    empty.append(name)
                    notice("\(container.display(file)): no samples, only a header: not used")
                }
                return nil
            }
            return f
        }
        func vectors(_ name: String, scale: Double, quiet: Bool = false) throws -> SensorFile<Vector3>? {
            try sensorFile(name, quiet: quiet) { table in
                let lower = table.columns.map { $0.lowercased() }
                guard let t = lower.firstIndex(of: "time"), let x = lower.firstIndex(of: "x"),
                      let y = lower.firstIndex(of: "y"), let z = lower.firstIndex(of: "z") else {
                    throw InputError(file: table.display, line: table.headerLine,
                                     "unknown column layout \"\(table.columns.joined(separator: ","))\"; expected Sensor Logger's time,seconds_elapsed,z,y,x")
                }
                return SensorFile(vectors: table, time: .epochNanoseconds(index: t), xyz: (x, y, z), scale: scale, clock: clock,
                                  notice: quiet ? { _ in } : notice)
            }
        }
        func firstOf(_ names: [String]) throws -> (name: String, file: SensorFile<Vector3>)? {
            for n in names { if let f = try vectors(n, scale: 1) { return (n, f) } }
            return nil
        }
        func listed(_ names: [String]) -> String {
            names.map { empty.contains($0) ? "\($0) is empty" : "no \($0)" }.joined(separator: ", ")
        }

        var streams: [RecordStream] = []
        var used: [String] = []
        var firsts: [(raw: RawTime, line: Int, display: String)] = []
        func note<V>(_ f: SensorFile<V>) throws { if let first = try f.first() { firsts.append((first.raw, first.line, f.display)) } }
        /// Uses `file` (and `more`, which `source` also reads) for `kind`, as `label` says.
        func use(_ kind: VectorSensor, _ label: String, _ file: SensorFile<Vector3>, and more: SensorFile<Vector3>? = nil,
                 source: (() throws -> Timed<Vector3>?)? = nil) throws {
            try note(file)
            if let more { try note(more) }
            streams.append(SensorStream(kind, display: file.display, source: source ?? file.next))
            used.append(label)
        }

        // The gyroscope: needed for a recording.
        let gyro = try firstOf(gyroFiles)
        if let gyro {
            try use(.gyro, "gyro \(gyro.name)", gyro.file)
        } else if purpose == .recording {
            if gyroFiles.contains(where: empty.contains) {
                throw InputError(file: container.path, "no gyroscope samples (\(listed(gyroFiles))): poiar needs the gyroscope; record with the Gyroscope sensor on (a phone without one cannot be used)")
            }
            throw InputError(file: container.path, "a Sensor Logger recording without Gyroscope.csv: record with the gyroscope on (files: \(container.files.joined(separator: ", ")))")
        }

        // The acceleration with gravity, from the first of three sources that has samples.
        var upReference: String?
        if let total = try vectors("TotalAcceleration.csv", scale: accelSign) {
            try use(.accel, "accel TotalAcceleration.csv", total)
            upReference = "TotalAcceleration.csv"
        } else if let acc = try vectors("Accelerometer.csv", scale: accelSign), let grav = try vectors("Gravity.csv", scale: accelSign) {
            try use(.accel, "accel Accelerometer.csv + Gravity.csv", acc, and: grav, source: SumStream(acc, plus: grav).next)
        } else if let raw = try vectors("AccelerometerUncalibrated.csv", scale: rawAccelScale) {
            try use(.accel, "accel AccelerometerUncalibrated.csv", raw)
            upReference = "AccelerometerUncalibrated.csv"
        } else if purpose == .recording, let acc = try container.find("Accelerometer.csv"), !empty.contains("Accelerometer.csv") {
            throw InputError(file: container.display(acc),
                             "is acceleration without gravity, and the recording has no Gravity.csv or TotalAcceleration.csv to restore it (\(listed(["Gravity.csv", "TotalAcceleration.csv", "AccelerometerUncalibrated.csv"]))): record with the gravity sensor on")
        } else if purpose == .recording {
            notice("\(container.path): no acceleration with gravity (\(listed(["TotalAcceleration.csv", "Accelerometer.csv", "Gravity.csv", "AccelerometerUncalibrated.csv"]))): the pose cannot be fused")
        }

        let mag = try firstOf(magFiles)
        if let mag {
            try use(.mag, "mag \(mag.name)", mag.file)
            // Beside the OS-calibrated field, the raw one: its hard iron stays put where the
            // OS re-estimates the calibrated stream's bias in steps (offline fusion prefers it).
            if mag.name != "MagnetometerUncalibrated.csv", let raw = try vectors("MagnetometerUncalibrated.csv", scale: 1, quiet: true) {
                try use(.magUncal, "mag_uncal MagnetometerUncalibrated.csv", raw)
            }
        } else if purpose == .recording {
            notice("\(container.path): no magnetometer samples (\(listed(magFiles))): the heading has no magnetic reference to north")
        }

        var firstFix: GPSFix?
        let location = try sensorFile("Location.csv") { table -> SensorFile<GPSFix> in
            let lower = table.columns.map { $0.lowercased() }
            guard let t = lower.firstIndex(of: "time"), let la = lower.firstIndex(of: "latitude"),
                  let lo = lower.firstIndex(of: "longitude") else {
                throw InputError(file: table.display, line: table.headerLine,
                                 "unknown column layout \"\(table.columns.joined(separator: ","))\"; expected Sensor Logger's time,…,latitude,longitude")
            }
            return LocationStream.fixes(table: table, time: .epochNanoseconds(index: t), clock: clock, lat: la, lon: lo,
                                        alt: lower.firstIndex(of: "altitude"), accuracy: lower.firstIndex(of: "horizontalaccuracy"),
                                        velocity: .init(speed: lower.firstIndex(of: "speed"), speedAccuracy: lower.firstIndex(of: "speedaccuracy"),
                                                        course: lower.firstIndex(of: "bearing"), courseAccuracy: lower.firstIndex(of: "bearingaccuracy")),
                                        notice: notice)
        }
        if let location {
            try note(location)
            firstFix = try location.firstValue()
            streams.append(LocationStream(file: location))
            used.append("gps Location.csv")
        }

        // The phone's own orientation.
        let orientationName: String = { if case .orientation(let f?) = purpose { return f } else { return "Orientation.csv" } }()
        func quaternions(_ quiet: Bool) throws -> SensorFile<Quaternion>? {
            try sensorFile(orientationName, quiet: quiet) { table in
                let lower = table.columns.map { $0.lowercased() }
                guard let t = lower.firstIndex(of: "time"), let w = lower.firstIndex(of: "qw"), let x = lower.firstIndex(of: "qx"),
                      let y = lower.firstIndex(of: "qy"), let z = lower.firstIndex(of: "qz") else {
                    throw InputError(file: table.display, line: table.headerLine,
                                     "unknown column layout \"\(table.columns.joined(separator: ","))\"; expected Sensor Logger's time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw")
                }
                return SensorFile(table: table, time: .epochNanoseconds(index: t), clock: clock, notice: quiet ? { _ in } : notice) { row in
                    guard let qw = try row.number(w), let qx = try row.number(x), let qy = try row.number(y), let qz = try row.number(z) else { return nil }
                    let q = Quaternion(w: qw, x: qx, y: qy, z: qz)
                    guard abs(q.norm - 1) < 0.01 else {
                        throw InputError(file: table.display, line: row.line, field: table.columns[w],
                                         "quaternion (\(qw), \(qx), \(qy), \(qz)) has length \(q.norm): expected a unit quaternion")
                    }
                    return q
                }
            }
        }
        let orientation = try quaternions(false)
        if let orientation { try note(orientation) }

        // The log's time 0: the whole second at or before the earliest first sample.
        guard let first = firsts.min(by: { $0.raw.nanoseconds < $1.raw.nanoseconds }) else {
            guard purpose != .recording, try container.find(orientationName) == nil else {
                throw InputError(file: container.path, "no samples in \(orientationName)")
            }
            // A folder that is no export at all (a replay's output given as --truth).
            throw InputError(file: container.path, "has no \(orientationName): not a Sensor Logger export with the phone's orientation; a truth is a pose CSV (time,qw,qx,qy,qz) or such an export")
        }
        let firstNs = first.raw.nanoseconds
        let (originNs, overflow) = firstNs.subtractingReportingOverflow(((firstNs % 1_000_000_000) + 1_000_000_000) % 1_000_000_000)
        guard !overflow else {
            throw InputError(file: first.display, line: first.line, field: "time", "time \(firstNs) ns is not a time since 1970 in nanoseconds")
        }
        clock.originNs = originNs
        let start = Date(timeIntervalSince1970: TimeInterval(originNs / 1_000_000_000))

        var meta = LogMetadata()
        meta.entries.append(("format", SensorLogReader.formatName))
        meta.entries.append(("start_utc", PhoneRecording.isoSeconds(originNs / 1_000_000_000)))
        var device = info["device name"] ?? "unknown device"
        let details = [platform.description, info["appversion"].map { "Sensor Logger \($0)" }].compactMap { $0 }
        if !details.isEmpty { device += " (\(details.joined(separator: ", ")))" }
        meta.entries.append(("device", device))
        meta.entries.append(("import_source", "Sensor Logger export \(URL(fileURLWithPath: container.path).lastPathComponent)"))

        if let orientation {
            // With "Standardise Units & Frames" iOS follows Android's frame, but keeps true north
            // (CROSSPLATFORM.md).
            let documented: OrientationConvention = !isIOS ? .android
                : standardised ? OrientationConvention(conjugated: false, quarterTurns: 0, north: .true) : .iOS
            // Second readers of the start of the files: gravity (else the acceleration with it) and the field.
            let gravity = try vectors("Gravity.csv", scale: accelSign, quiet: true)
            let up = try gravity ?? upReference.flatMap {
                try vectors($0, scale: $0 == "AccelerometerUncalibrated.csv" ? rawAccelScale : accelSign, quiet: true)
            }
            let samples = try checkSamples(orientation: try quaternions(true), up: up, upIsGravity: gravity != nil,
                                           field: try mag.flatMap { try vectors($0.name, scale: 1, quiet: true) })
            let declination = firstFix.map { WorldMagneticModel.field(at: $0.coordinate, on: start).declinationDeg }.flatMap { $0.isFinite ? $0 : nil }
            let result = OrientationCheck.check(samples, documented: documented, declinationDeg: declination)
            let name = orientation.display
            if let convention = result.convention {
                for d in result.disagreements {
                    notice("\(name): \(d); using what the data shows (Sensor Logger documents \(documented) with \(documented.north.rawValue) north on \(isIOS ? "iOS" : "Android"))")
                }
                for u in result.unchecked { notice("\(name): \(u)") }
                streams.append(OrientationStream(file: orientation, convention: convention))
                used.append("orientation \(orientationName)")
                meta.entries.append((OrientationNorth.key, convention.north.rawValue))
                meta.entries.append(("import_orientation", describe(convention, result, documented: documented, declination: declination)))
            } else {
                let message = "the phone's quaternions fit gravity under no known convention (median tilt error \(OrientationCheck.deg(result.tiltErrorDeg))° over \(result.samples) samples)"
                if purpose != .recording { throw InputError(file: name, message) }
                notice("\(name): \(message): not imported")
            }
        } else if purpose != .recording {
            throw InputError(file: container.path, "no orientation samples (\(listed([orientationName]))): record with the Orientation sensor on")
        }
        meta.entries.append(("import_files", used.joined(separator: "; ")))
        if isIOS { meta.entries.append(("import_ios_standardised", standardised ? "true" : "false")) }
        if purpose != .recording { streams = streams.filter { $0 is OrientationStream } }
        return (streams, meta)
    }

    /// The phone's platform: Metadata.csv's, or inferred from the files (with a notice saying
    /// what was assumed): `TotalAcceleration.csv` is written only on Android, Location's
    /// `altitudeAboveMeanSeaLevel` only on iOS; Android otherwise.
    struct Platform: CustomStringConvertible {
        var name: String
        var inferred: Bool
        var description: String { name.isEmpty ? "unknown platform" : inferred ? "\(name), inferred" : name }

        init(info: [String: String], container: RecordingContainer, hasMetadata: Bool, notice: (String) -> Void) throws {
            if let p = info["platform"]?.lowercased(), !p.isEmpty {
                name = p.contains("ios") ? "ios" : p
                inferred = false
                return
            }
            inferred = true
            let why: String
            if try container.find("TotalAcceleration.csv") != nil {
                name = "android"; why = "TotalAcceleration.csv is written only on Android"
            } else if let loc = try container.find("Location.csv"), let table = try container.openTable(loc),
                      table.columns.contains(where: { $0.lowercased() == "altitudeabovemeansealevel" }) {
                name = "ios"; why = "Location.csv's altitudeAboveMeanSeaLevel is written only on iOS"
            } else {
                name = "android"; why = "nothing in the files tells, and Android is the commoner"
            }
            let whatFile = hasMetadata ? "Metadata.csv names no platform" : "no Metadata.csv"
            notice("\(container.path): \(whatFile): taken as recorded on \(name == "ios" ? "iOS" : "Android") (\(why))")
        }
    }

    /// The orientation rows at the start of the recording, each with the up direction and the
    /// field nearest in time (within `checkTolerance`).
    static func checkSamples(orientation: SensorFile<Quaternion>?, up: SensorFile<Vector3>?, upIsGravity: Bool,
                             field: SensorFile<Vector3>?) throws -> [OrientationCheckSample] {
        guard let orientation, let up else { return [] }
        var qs: [Timed<Quaternion>] = []
        while qs.count < checkRows, let q = try orientation.next() {
            if let first = qs.first, q.time > first.time + checkSeconds { break }
            qs.append(q)
        }
        guard let last = qs.last?.time else { return [] }
        func load(_ f: SensorFile<Vector3>?) throws -> [Timed<Vector3>] {
            var out: [Timed<Vector3>] = []
            while let f, let s = try f.next() {
                out.append(s)
                if s.time > last + checkTolerance { break }
            }
            return out
        }
        // Acceleration with gravity is gravity only when it is near 1 g (not while shaken).
        let ups = try load(up).filter { upIsGravity || abs($0.value.norm - standardGravity) < 0.25 * standardGravity }
        let fields = try load(field)
        func nearest(_ xs: [Timed<Vector3>], _ t: Double) -> Vector3? {
            guard let best = xs.nearestIndex(to: t, by: \.time), abs(xs[best].time - t) <= checkTolerance else { return nil }
            return xs[best].value
        }
        return qs.compactMap { q in
            nearest(ups, q.time).map { OrientationCheckSample(quaternion: q.value, up: $0, field: nearest(fields, q.time)) }
        }
    }

    /// The `import_orientation` metadata: the convention used and what it was checked against.
    static func describe(_ c: OrientationConvention, _ r: OrientationCheck.Result, documented: OrientationConvention,
                         declination: Double?) -> String {
        var s = "device→ENU = \(c) of the file's (qw,qx,qy,qz)"
        s += c.sameFrame(documented) ? " (as documented)" : " (documented: \(documented))"
        if r.samples > 0 {
            s += "; checked on \(r.samples) samples: gravity within \(OrientationCheck.deg(r.tiltErrorDeg))°"
            if let a = r.fieldAzimuthDeg, let sp = r.fieldSpreadDeg {
                s += ", the field's azimuth \(OrientationCheck.deg(a))° (spread \(OrientationCheck.deg(sp))°)"
            }
            if let declination { s += ", declination \(OrientationCheck.deg(declination))°" }
        } else {
            s += "; unchecked"
        }
        return s
    }
}
