import Foundation
import Geodesy
import GeodesyData
import POIARCore
import SensorLog

/// phyphox (RWTH Aachen), its "CSV (zip)" export of an experiment: one CSV per export set,
/// named after the set (`Accelerometer.csv`, `Gyroscope.csv`, `Magnetometer.csv`,
/// `Location.csv`, `Linear Acceleration.csv`, or `Raw Data.csv` for a one-sensor
/// experiment), with quoted headers such as `"Time (s)","Acceleration x (m/s^2)"`, numbers like
/// `1.234567890E-1` and `NaN` padding; comma, tab or semicolon separated (the last with
/// decimal commas). `meta/device.csv` ("property","value") names the device and
/// `meta/time.csv` maps experiment time to system time (Unix seconds) at each START/PAUSE.
///
/// Units and frames (phyphox-android DataExport.java and its experiments; phyphox-ios
/// ExperimentSensorInput.swift, which multiplies CoreMotion's g by −9.81 so both platforms
/// agree): "Acceleration with g" is the specific force in m/s², +9.81 up at rest (Android's
/// convention); "Linear Acceleration" has no gravity and cannot give the tilt; gyroscope
/// rad/s; magnetic field µT; latitude/longitude °, horizontal accuracy m.
///
/// Height: phyphox's `z` ("Height (m)") is above sea level on both platforms — iOS writes
/// CoreLocation's `altitude` (above mean sea level), Android writes `Location.getAltitude()`
/// (above the WGS84 ellipsoid) minus an EGM84 geoid height (phyphox-android `GpsInput.java`);
/// its `zwgs84` output is the ellipsoidal height. poiar uses a height column that names WGS84
/// as it is, and makes any other ellipsoidal through the geoid (docs/altitude.md). (Android
/// versions of phyphox from before the geoid correction wrote the ellipsoidal height as
/// `z`; such a recording comes out N too high.)
enum PhyphoxImport {
    /// Unix seconds of 9999-12-31: later (or earlier than −that) is no recording's start.
    static let maxUnixSeconds = 253_402_300_799.0

    enum Kind: String { case accel = "acceleration with g", linear = "linear acceleration", gyro = "gyroscope", mag = "magnetometer", location = "location" }

    /// One sensor of a file: its kind, and for vectors the x, y, z columns (a file of a
    /// custom experiment may hold several sensors, each read through its own table).
    struct Classified {
        var file: String
        var kind: Kind
        var table: CSVTable
        var xyz: (Int, Int, Int)?
    }

    static func recognises(_ container: RecordingContainer) -> Bool {
        for f in container.files where f.lowercased().hasSuffix(".csv") && !f.hasPrefix("meta/") {
            if let table = (try? container.openTable(f)) ?? nil, table.columns.first?.lowercased().hasPrefix("time (") == true {
                return true
            }
        }
        return false
    }

    /// What the x, y, z columns starting at column `x` of a phyphox file hold, from their
    /// names (and the file's name when the columns are just "X (m/s^2)").
    static func classify(_ file: String, _ table: CSVTable, x: Int) -> Kind? {
        let name = table.columns[x].lowercased()
        if name.contains("linear") { return .linear }
        if name.contains("gyro") || name.contains("rotation") || name.contains("angular") { return .gyro }
        if name.contains("magnetic") { return .mag }
        if name.contains("acceleration") || name.contains("accelerometer") { return .accel }
        switch unit(of: table.columns[x]) {
        case "rad/s", "°/s", "deg/s": return .gyro
        case "µt", "μt", "ut", "mt", "nt": return .mag
        case "m/s^2", "m/s²":
            return file.lowercased().contains("linear") ? .linear : .accel
        default: return nil
        }
    }

    /// The unit in parentheses at the end of a column name, lower-cased.
    static func unit(of column: String) -> String {
        guard let open = column.lastIndex(of: "("), let close = column.lastIndex(of: ")"), open < close else { return "" }
        return column[column.index(after: open)..<close].trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The x, y, z column triples of a table: columns whose last word before the unit is x,
    /// y or z, grouped by the words before it ("Gyroscope x (rad/s)": "gyroscope").
    static func xyzTriples(_ table: CSVTable) -> [(Int, Int, Int)] {
        let parts = table.columns.map { c -> (prefix: String, axis: String) in
            var s = c.lowercased()
            if let open = s.lastIndex(of: "(") { s = String(s[..<open]) }
            let words = s.split(separator: " ")
            return (words.dropLast().joined(separator: " "), words.last.map(String.init) ?? "")
        }
        return parts.indices.compactMap { x in
            guard parts[x].axis == "x",
                  let y = parts.firstIndex(where: { $0.prefix == parts[x].prefix && $0.axis == "y" }),
                  let z = parts.firstIndex(where: { $0.prefix == parts[x].prefix && $0.axis == "z" }) else { return nil }
            return (x, y, z)
        }
    }

    /// What each phyphox export set's columns are: for the messages about a file whose columns
    /// are not a sensor's.
    static let expectedColumns = "\"Time (s)\" and x, y, z columns such as \"Gyroscope x (rad/s)\", \"Acceleration x (m/s^2)\", "
        + "\"Magnetic field x (µT)\", or \"Latitude (°)\", \"Longitude (°)\""

    static func open(_ container: RecordingContainer, geoid: Geoid = .system,
                     notice: @escaping (String) -> Void) throws -> (streams: [RecordStream], metadata: LogMetadata) {
        // meta/time.csv: the system time of experiment time 0 (from the first START).
        var epochOfZero: Double?
        if let timeFile = container.files.first(where: { $0.lowercased().hasSuffix("meta/time.csv") }),
           let table = try container.openTable(timeFile) {
            let lower = table.columns.map { $0.lowercased() }
            if let ev = lower.firstIndex(of: "event"), let et = lower.firstIndex(of: "experiment time"),
               let st = lower.firstIndex(of: "system time") {
                var found = false
                while !found, try table.withNextRow({ row in
                    guard ev < row.count, row.string(ev).uppercased() == "START" else { return }
                    found = true
                    if let e = try row.number(et), let s = try row.number(st) {
                        // Unix seconds of a date between the years 1 and 9999 (and so an Int64).
                        guard abs(s - e) < PhyphoxImport.maxUnixSeconds else {
                            throw InputError(file: table.display, line: row.line, field: table.columns[st],
                                             "system time \(s) s at experiment time \(e) s is not a Unix time in seconds")
                        }
                        epochOfZero = s - e
                    }
                }) != nil {}
            }
        }
        // Time 0 of the log: the whole second at or before experiment time 0.
        let originSeconds = epochOfZero.map { floor($0) }
        let clock = RecordingClock()
        clock.offset = epochOfZero.map { $0 - floor($0) } ?? 0

        var device: [String: String] = [:]
        if let deviceFile = container.files.first(where: { $0.lowercased().hasSuffix("meta/device.csv") }),
           let table = try container.openTable(deviceFile) {
            while let (fields, _) = try table.nextRow() {
                if fields.count >= 2 { device[fields[0]] = fields[1] }
            }
        }

        var byKind: [Kind: Classified] = [:]
        var unknown: [(file: String, columns: [String])] = []
        for f in container.files where f.lowercased().hasSuffix(".csv") && !f.lowercased().contains("meta/") {
            guard let table = try container.openTable(f) else {
                notice("\(container.display(f)): empty file: not used")
                continue
            }
            var found: [Classified] = []
            if table.columns.contains(where: { $0.lowercased().hasPrefix("latitude") }) {
                found.append(Classified(file: f, kind: .location, table: table))
            } else {
                for xyz in xyzTriples(table) {
                    guard let kind = classify(f, table, x: xyz.0) else { continue }
                    // A second sensor of the same file is read through a table of its own.
                    let own = try found.isEmpty ? table : container.openTable(f) ?? table
                    found.append(Classified(file: f, kind: kind, table: own, xyz: xyz))
                }
            }
            if found.isEmpty {
                unknown.append((f, table.columns))
                notice("\(container.display(f)): columns \(quoted(table.columns)) are not a sensor's poiar knows (expected \(expectedColumns)): not used")
            }
            for c in found {
                if let already = byKind[c.kind] {
                    notice("\(container.display(f)): a second \(c.kind.rawValue)\(c.xyz.map { " (\(quoted([c.table.columns[$0.0]])), …)" } ?? ""); using \(already.file)'s")
                    continue
                }
                byKind[c.kind] = c
            }
        }

        guard let gyro = byKind[.gyro] else {
            // A file that should be the gyroscope's (by its name, or the only unknown one) with
            // other columns: say so, rather than that there is no gyroscope.
            if let suspect = unknown.first(where: { $0.file.lowercased().contains("gyro") }) ?? (unknown.count == 1 ? unknown[0] : nil) {
                throw InputError(file: container.display(suspect.file),
                                 "columns \(quoted(suspect.columns)) are not phyphox's: expected \"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\" (a gyroscope export; renamed columns cannot be told apart)")
            }
            if !unknown.isEmpty {
                throw InputError(file: container.path, "a phyphox export without gyroscope data; files with columns poiar does not know: "
                                 + unknown.map { "\($0.file) (\(quoted($0.columns)))" }.joined(separator: "; ")
                                 + ": expected a gyroscope export with \"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"")
            }
            throw InputError(file: container.path, "a phyphox export without gyroscope data: record an experiment with the gyroscope (files: \(container.files.joined(separator: ", ")))")
        }

        func timeColumn(_ c: Classified) throws -> TimeColumn {
            guard let t = c.table.column({ $0.lowercased().hasPrefix("time") }) else {
                throw InputError(file: c.table.display, line: 1, "no \"Time (s)\" column (columns: \(c.table.columns.joined(separator: ", ")))")
            }
            let u = unit(of: c.table.columns[t])
            guard u == "s" || u.isEmpty else {
                throw InputError(file: c.table.display, line: 1, field: c.table.columns[t], "time in \"\(u)\"; expected seconds")
            }
            return .seconds(index: t)
        }
        func vectors(_ c: Classified) throws -> SensorFile<Vector3> {
            guard let xyz = c.xyz else {
                throw InputError(file: c.table.display, line: c.table.headerLine, "unknown column layout \"\(c.table.columns.joined(separator: ","))\"; expected x, y and z columns")
            }
            let u = unit(of: c.table.columns[xyz.0])
            let scale: Double
            switch (c.kind, u) {
            case (.gyro, "rad/s"), (.gyro, ""): scale = 1
            case (.gyro, "°/s"), (.gyro, "deg/s"): scale = Double.pi / 180
            case (.accel, "m/s^2"), (.accel, "m/s²"), (.accel, ""), (.linear, _): scale = 1
            case (.accel, "g"): scale = SensorLoggerImport.standardGravity
            case (.mag, "µt"), (.mag, "μt"), (.mag, "ut"), (.mag, ""): scale = 1
            case (.mag, "mt"): scale = 1000
            case (.mag, "nt"): scale = 0.001
            default:
                throw InputError(file: c.table.display, line: 1, field: c.table.columns[xyz.0], "unit \"\(u)\" is not one poiar converts for \(c.kind.rawValue)")
            }
            return SensorFile(vectors: c.table, time: try timeColumn(c), xyz: xyz, scale: scale, clock: clock, notice: notice)
        }

        var streams: [RecordStream] = []
        var used: [String] = []
        let g = try vectors(gyro)
        streams.append(SensorStream(.gyro, display: gyro.table.display, source: g.next))
        used.append("gyro \(gyro.file)")
        if let acc = byKind[.accel] {
            let a = try vectors(acc)
            streams.append(SensorStream(.accel, display: acc.table.display, source: a.next))
            used.append("accel \(acc.file)")
        } else if let lin = byKind[.linear] {
            throw InputError(file: lin.table.display,
                             "is phyphox's linear acceleration (without gravity), which cannot give the tilt: record \"Acceleration with g\" (the accelerometer) instead")
        } else {
            notice("\(container.path): no accelerometer data (\"Acceleration with g\"): the pose cannot be fused")
        }
        if let mag = byKind[.mag] {
            let m = try vectors(mag)
            streams.append(SensorStream(.mag, display: mag.table.display, source: m.next))
            used.append("mag \(mag.file)")
        } else {
            notice("\(container.path): no magnetometer data: the heading has no magnetic reference to north")
        }
        var altitudeNote: String?
        if let loc = byKind[.location] {
            let lower = loc.table.columns.map { $0.lowercased() }
            guard let la = lower.firstIndex(where: { $0.hasPrefix("latitude") }),
                  let lo = lower.firstIndex(where: { $0.hasPrefix("longitude") }) else {
                throw InputError(file: loc.table.display, line: 1, "no latitude and longitude columns")
            }
            let heights = lower.indices.filter { lower[$0].hasPrefix("height") || lower[$0].hasPrefix("altitude") }
            let ellipsoidal = heights.first { lower[$0].contains("wgs84") || lower[$0].contains("wgs 84") || lower[$0].contains("ellipsoid") }
            let seaLevel = heights.first { $0 != ellipsoidal }
            let alt = ellipsoidal ?? seaLevel
            streams.append(LocationStream(file: LocationStream.fixes(
                table: loc.table, time: try timeColumn(loc), clock: clock, lat: la, lon: lo, alt: alt,
                accuracy: lower.firstIndex(where: { $0.hasPrefix("horizontal accuracy") }),
                velocity: .init(speed: lower.firstIndex(where: { $0.hasPrefix("velocity") }),
                                course: lower.firstIndex(where: { $0.hasPrefix("direction") })),
                seaLevel: ellipsoidal == nil ? geoid : nil, notice: notice)))
            used.append("gps \(loc.file)")
            if let alt {
                let how = ellipsoidal != nil ? "above the WGS84 ellipsoid"
                    : "above sea level + the geoid's height (\(geoid.grid.map { URL(fileURLWithPath: $0.name).lastPathComponent } ?? "none: taken as ellipsoidal"))"
                altitudeNote = "\(loc.table.columns[alt]) \(how)"
            }
        }

        var meta = LogMetadata()
        meta.entries.append(("format", SensorLogReader.formatName))
        if let originSeconds { meta.entries.append(("start_utc", PhoneRecording.isoSeconds(Int64(originSeconds)))) }
        else {
            // Said once, here: the north's explanation does not repeat it (`LogMetadata.startUnknownKey`).
            let why = "\(container.path): no meta/time.csv, so the recording's date is unknown (the log has no start_utc)"
            notice(why + "; where the magnetic model needs a date (true north from GPS), today's is used")
            meta.entries.append((LogMetadata.startUnknownKey, "no meta/time.csv in the phyphox export"))
        }
        let name = [device["deviceBrand"] ?? device["deviceManufacturer"], device["deviceModel"]].compactMap { $0 }.joined(separator: " ")
        meta.entries.append(("device", (name.isEmpty ? "unknown device" : name) + (device["version"].map { " (phyphox \($0))" } ?? " (phyphox)")))
        meta.entries.append(("import_source", "phyphox export \(URL(fileURLWithPath: container.path).lastPathComponent)"))
        meta.entries.append(("import_files", used.joined(separator: "; ")))
        if let altitudeNote { meta.entries.append(("import_altitude", altitudeNote)) }
        return (streams, meta)
    }
}

/// Column names as the messages quote them: "Time (s)", "a", …
func quoted(_ columns: [String]) -> String {
    columns.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ") + (columns.count > 12 ? ", …" : "")
}
