import Foundation
import POIARCore

/// Streaming reader of poiar-log/1 (`.csv` or `.csv.gz`).
///
/// Rows of different sensors may be out of time order by up to `reorderWindow` seconds; the
/// reader holds a small time-ordered buffer and hands out samples in time order (rows with
/// the same time keep their file order). Memory is bounded by the samples in one window,
/// not by the log's length. Every problem is an `InputError` naming the file and line.
public final class SensorLogReader: IteratorProtocol, Sequence {
    public static let header = "time,sensor,x,y,z,accuracy"
    public static let formatName = "poiar-log/1"
    /// How far (seconds) rows of different sensors may be out of order.
    public static let defaultReorderWindow = 5.0
    /// The longest time (seconds) a log may go without any row. A longer gap is not a pause
    /// of a recording but two recordings joined, or rows on different clocks (GPS rows in Unix
    /// seconds beside sensor rows from 0, milliseconds for seconds): refused, since frames made
    /// at `--fps` across it would be hours of one stale pose.
    public static let defaultMaxTimeGap = 600.0
    /// Most rows held at once in the reorder window (≈ 100 bytes each): 200,000 rows a second
    /// over the default 5 s, a hundred times a phone's rate. More is a log whose time column
    /// hardly advances (a constant, or not in seconds), which would otherwise fill memory.
    public static let maxRowsInWindow = 1_000_000
    /// Most `# key: value` lines before the header (a log has a dozen; more is not a log).
    public static let maxMetadataEntries = 10_000

    public let path: String
    public let metadata: LogMetadata
    public let reorderWindow: Double
    /// See `defaultMaxTimeGap`.
    public let maxTimeGap: Double
    /// The bound on rows held at once (`maxRowsInWindow`; tests set a smaller one).
    let maxPending: Int
    /// Called once per unknown sensor name (the row is skipped).
    public var onNotice: ((String) -> Void)?
    /// The first error met while iterating with `next()`; `nextRecord()` throws it instead.
    public private(set) var error: Error?

    private let lines: LineReader
    private var window: ReorderWindow
    private var lastEmittedTime = -Double.infinity
    private var lastEmittedLine = 0
    /// Time and line of each sensor's last row (a vector sensor's by its index, which the fast
    /// path reaches without hashing a name).
    private var lastVector = [(time: Double, line: Int)?](repeating: nil, count: VectorSensor.allCases.count)
    private var lastOrientation: (time: Double, line: Int)?
    private let fastRowNames = FastRow.names
    private var lastTimeBySensor: [String: (time: Double, line: Int)] = [:]
    private var unknownSensors: Set<String> = []
    /// A `gps_velocity` row waiting for the `gps` row of its time, which comes next.
    private var pendingVelocity: (time: Double, speed: Double, course: Double?, accuracy: Double?)?
    private var firstRowLine: Int?
    private var exhausted = false
    private var units = UnitPlausibility()

    public convenience init(path: String, reorderWindow: Double = SensorLogReader.defaultReorderWindow,
                            maxTimeGap: Double = SensorLogReader.defaultMaxTimeGap) throws {
        try self.init(path: path, reorderWindow: reorderWindow, maxTimeGap: maxTimeGap, maxPending: SensorLogReader.maxRowsInWindow)
    }

    /// A log whose file is already open (`descriptor`, at its start; the reader takes it over),
    /// so that telling what kind of file it is and reading it open it once.
    public convenience init(path: String, descriptor: Int32) throws {
        try self.init(path: path, reorderWindow: SensorLogReader.defaultReorderWindow, maxPending: SensorLogReader.maxRowsInWindow,
                      descriptor: descriptor)
    }

    init(path: String, reorderWindow: Double, maxTimeGap: Double = SensorLogReader.defaultMaxTimeGap, maxPending: Int,
         descriptor: Int32? = nil) throws {
        self.path = path
        self.reorderWindow = reorderWindow
        self.maxTimeGap = maxTimeGap
        self.maxPending = maxPending
        window = ReorderWindow(span: reorderWindow)
        lines = try LineReader(path: path, descriptor: descriptor)
        var meta = LogMetadata()
        var sawHeader = false
        while let line = try lines.nextLine() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                let body = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
                if let colon = body.firstIndex(of: ":") {
                    let key = body[..<colon].trimmingCharacters(in: .whitespaces)
                    let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if !key.isEmpty && !key.contains(" ") {
                        guard meta.entries.count < SensorLogReader.maxMetadataEntries else {
                            throw InputError(file: path, line: lines.lineNumber,
                                             "more than \(SensorLogReader.maxMetadataEntries) \"# key: value\" lines before the header \"\(SensorLogReader.header)\"")
                        }
                        meta.entries.append((key, value))
                    }
                }
                continue
            }
            if trimmed != SensorLogReader.header {
                let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                if fields.count > 1, Self.number(String(fields[0])) != nil {
                    throw InputError(file: path, line: lines.lineNumber,
                                     "data row before the header; expected the header \"\(SensorLogReader.header)\"")
                }
                if lines.lineNumber == 1, let kind = SensorLogReader.seekingKind(Array(line.utf8.prefix(8))) {
                    // A file of this kind is told from its first bytes before it reaches this
                    // reader; here it came through a pipe, whose first bytes cannot be read twice.
                    throw InputError(file: path, "is \(kind) arriving through a pipe: poiar reads it with seeking, which a pipe cannot do; save it to a file first")
                }
                throw InputError(file: path, line: lines.lineNumber,
                                 "unknown column layout \"\(trimmed.prefix(80))\"; expected the header \"\(SensorLogReader.header)\"")
            }
            sawHeader = true
            break
        }
        if !sawHeader {
            throw InputError(file: path, line: lines.lineNumber == 0 ? nil : lines.lineNumber,
                             lines.lineNumber == 0 ? "empty file, expected a poiar-log/1 log" : "no header \"\(SensorLogReader.header)\" found")
        }
        if let format = meta.format, format != SensorLogReader.formatName {
            throw InputError(file: path, field: "format", "unsupported format \"\(format)\", expected \(SensorLogReader.formatName)")
        }
        metadata = meta
    }

    /// The next sample in time order, or nil at the end of the log.
    public func nextRecord() throws -> LogRecord? {
        if let error { throw error }
        while !exhausted {
            if let ready = window.popReady() { return try emit(ready) }
            var parsed: LogRecord?
            let more = try lines.withNextLine { bytes -> Bool in
                let lineNumber = lines.lineNumber
                parsed = try parseFast(bytes, lineNumber: lineNumber)
                    ?? parse(String(decoding: bytes, as: UTF8.self), lineNumber: lineNumber)
                return true
            }
            if more == nil {
                exhausted = true
                try units.finish(path: path)
                break
            }
            if let record = parsed {
                let t = record.sample.time
                if t < lastEmittedTime {
                    throw InputError(file: path, line: record.line, field: "time",
                                     "time \(t) is more than \(reorderWindow) s before rows already read (rows may be out of order by at most \(reorderWindow) s)")
                }
                window.insert(record)
                if window.count > maxPending, let earliest = window.earliest {
                    throw InputError(file: path, line: record.line, field: "time",
                                     "more than \(maxPending) rows within \(reorderWindow) s (from time \(earliest.sample.time), line \(earliest.line)): the time column hardly advances; is it in seconds?")
                }
            }
        }
        if let last = window.popEarliest() { return try emit(last) }
        return nil
    }

    /// Sequence conformance: iteration stops at the first error, which is kept in `error`.
    public func next() -> LogRecord? {
        do { return try nextRecord() } catch { self.error = error; return nil }
    }

    /// Number of the last line read from the file.
    public var currentLine: Int { lines.lineNumber }

    /// Samples held in the reorder buffer (bounded by one window of samples; tests watch it).
    var pendingCount: Int { window.count }

    /// Hands on the next record in time order, refusing a gap longer than `maxTimeGap`.
    private func emit(_ record: LogRecord) throws -> LogRecord {
        let t = record.sample.time
        if lastEmittedTime > -Double.infinity, t - lastEmittedTime > maxTimeGap {
            let gap = t - lastEmittedTime
            let e = InputError(file: path, line: record.line, field: "time",
                               Self.timeJumpMessage(gap: gap, from: lastEmittedTime, at: "line \(lastEmittedLine)", to: t, maxTimeGap: maxTimeGap))
            error = e
            throw e
        }
        lastEmittedTime = t
        lastEmittedLine = record.line
        return record
    }

    /// The message of a gap over `maxTimeGap` between rows (here and in phone recordings);
    /// `at` says where the row before it is ("line 8").
    package static func timeJumpMessage(gap: Double, from: Double, at: String, to: Double, maxTimeGap: Double) -> String {
        "time jumps \(seconds(gap)) s from \(from) (\(at)) to \(to), over the \(seconds(maxTimeGap)) s a log may go without rows: two recordings joined, or rows on different clocks?"
    }

    private static func seconds(_ s: Double) -> String {
        s < 1e6 ? String(format: "%.1f", s) : String(format: "%.3g", s)
    }

    private func parse(_ raw: String, lineNumber: Int) throws -> LogRecord? {
        if raw.isEmpty || raw.first == "#" { return nil }
        if raw.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        let fields = raw.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { Self.trimmed(Substring($0)) }
        func fail(_ field: String?, _ message: String) -> InputError {
            InputError(file: path, line: lineNumber, field: field, message)
        }
        guard fields.count == 6 else {
            throw fail(nil, "expected 6 columns (\(SensorLogReader.header)), found \(fields.count)")
        }
        guard let time = Self.number(fields[0]) else { throw fail("time", "\"\(fields[0])\" is not a number") }
        guard time.isFinite else { throw fail("time", "time must be finite, found \(fields[0])") }
        let sensor = fields[1]

        func number(_ i: Int, _ name: String) throws -> Double {
            guard !fields[i].isEmpty else { throw fail(name, "missing value for \(sensor)") }
            guard let v = Self.number(fields[i]) else { throw fail(name, "\"\(fields[i])\" is not a number") }
            guard v.isFinite else { throw fail(name, "value must be finite, found \(fields[i])") }
            return v
        }
        func optionalNumber(_ i: Int, _ name: String) throws -> Double? {
            fields[i].isEmpty ? nil : try number(i, name)
        }
        func vector() throws -> Vector3 {
            let v = Vector3(try number(2, "x"), try number(3, "y"), try number(4, "z"))
            if !fields[5].isEmpty { _ = try number(5, "accuracy") }
            return v
        }

        let sample: SensorSample
        if let vectorSensor = VectorSensor(name: sensor) {
            let v = try vector()
            try units.check(vectorSensor, v, line: lineNumber) { fail("x", $0) }
            try checkOrder(&lastVector[Int(vectorSensor.index)], sensor, time, lineNumber)
            return LogRecord(sample: .vector(vectorSensor, time: time, value: v), line: lineNumber)
        }
        switch sensor {
        case "orientation":
            sample = .orientation(time: time, attitude: try Self.attitude(try vector()) { fail("x", $0) })
            try checkOrder(&lastOrientation, sensor, time, lineNumber)
        case "gps":
            let lat = try number(2, "x (latitude)"), lon = try number(3, "y (longitude)")
            guard abs(lat) <= 90 else { throw fail("x (latitude)", "latitude \(lat) is outside −90…90°") }
            guard abs(lon) <= 180 else { throw fail("y (longitude)", "longitude \(lon) is outside −180…180°") }
            let alt = try optionalNumber(4, "z (altitude)")
            let acc = try optionalNumber(5, "accuracy")
            if let acc, acc < 0 { throw fail("accuracy", "horizontal accuracy must be ≥ 0 m, found \(acc)") }
            var fix = GPSFix(time: time, coordinate: GeoCoordinate(latitude: lat, longitude: lon, altitude: alt), horizontalAccuracy: acc)
            if let v = pendingVelocity, v.time == time {
                fix.speed = v.speed; fix.course = v.course; fix.speedAccuracy = v.accuracy
            }
            pendingVelocity = nil
            sample = .gps(fix)
            try checkOrder(&lastTimeBySensor[sensor], sensor, time, lineNumber)
        case "gps_velocity":
            // The receiver's ground speed and course for the `gps` row right after it.
            let speed = try number(2, "x (speed)")
            guard speed >= 0 else { throw fail("x (speed)", "ground speed must be ≥ 0 m/s, found \(speed)") }
            let course = try optionalNumber(3, "y (course)")
            if let course, !(0...360).contains(course) { throw fail("y (course)", "course \(course) is outside 0…360°") }
            if !fields[4].isEmpty { throw fail("z", "gps_velocity rows have no z; it must be empty") }
            let acc = try optionalNumber(5, "accuracy")
            if let acc, acc < 0 { throw fail("accuracy", "speed accuracy must be ≥ 0 m/s, found \(acc)") }
            pendingVelocity = (time, speed, course, acc)
            return nil
        case "frame":
            for (i, name) in [(3, "y"), (4, "z"), (5, "accuracy")] where !fields[i].isEmpty {
                throw fail(name, "frame rows have only a still path in x; \(name) must be empty")
            }
            sample = .frame(time: time, still: fields[2].isEmpty ? nil : StillName(fields[2]))
            try checkOrder(&lastTimeBySensor[sensor], sensor, time, lineNumber)
        case "":
            throw fail("sensor", "missing sensor name")
        default:
            if unknownSensors.insert(sensor).inserted {
                onNotice?("\(path):\(lineNumber): skipping rows of unknown sensor \"\(sensor)\"")
            }
            return nil
        }
        return LogRecord(sample: sample, line: lineNumber)
    }

    /// Throws when `sensor`'s time steps back from its previous row; records this row.
    @inline(__always)
    private func checkOrder(_ last: inout (time: Double, line: Int)?, _ sensor: @autoclosure () -> String, _ time: Double, _ lineNumber: Int) throws {
        if let previous = last, time < previous.time {
            throw InputError(file: path, line: lineNumber, field: "time",
                             "\(sensor()) time steps back from \(previous.time) (line \(previous.line)) to \(time)")
        }
        last = (time, lineNumber)
    }
}

extension SensorLogReader {
    /// The common case, read straight from the line's bytes: a gyro, accel, mag or orientation
    /// row of six fields with plain decimal numbers (`DecimalText.scan`). Anything else (other
    /// sensors, spaces, long mantissas, NaN, a missing value, a wrong column count) returns nil
    /// and takes the general path, which gives the same result or the same error.
    private func parseFast(_ bytes: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws -> LogRecord? {
        guard let parsed = FastRow(bytes: bytes, names: fastRowNames) else { return nil }
        let time = parsed.time, v = parsed.vector
        func fail(_ field: String?, _ message: String) -> InputError {
            InputError(file: path, line: lineNumber, field: field, message)
        }
        guard let sensor = parsed.sensor else {
            let q = try Self.attitude(v) { fail("x", $0) }
            try checkOrder(&lastOrientation, "orientation", time, lineNumber)
            return LogRecord(sample: .orientation(time: time, attitude: q), line: lineNumber)
        }
        try units.check(sensor, v, line: lineNumber) { fail("x", $0) }
        try checkOrder(&lastVector[Int(sensor.index)], sensor.name, time, lineNumber)
        return LogRecord(sample: .vector(sensor, time: time, value: v), line: lineNumber)
    }

    /// The attitude of an `orientation` row's x, y, z (a unit quaternion's vector part, w ≥ 0).
    @inline(__always)
    static func attitude(_ v: Vector3, fail: (String) -> InputError) throws -> Quaternion {
        guard let q = OrientationRow.attitude(vectorPart: v) else {
            throw fail("orientation x, y, z must be a unit quaternion's vector part (length ≤ 1), found length \(v.norm)")
        }
        return q
    }

    /// "an MP4/MOV video (a GoPro clip?)" or "a zip archive (a phone export?)" when a file's
    /// first bytes are those of a kind poiar reads with seeking (an ISO media file's `ftyp`
    /// box, a zip's local header), else nil.
    static func seekingKind(_ head: [UInt8]) -> String? {
        if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) { return "an MP4/MOV video (a GoPro clip?)" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a zip archive (a phone export?)" }
        return nil
    }

    /// A trimmed field as a number (`DecimalText.parse`: the fast path's exact decimals, else
    /// strtod), nil when it is not one.
    static func number(_ field: String) -> Double? {
        var s = field
        return s.withUTF8 { DecimalText.parse($0) }
    }

    /// A field without surrounding whitespace. Fast path: a field that starts and ends with a
    /// printable ASCII character (nearly every field) is taken as it is; anything else goes
    /// through Foundation's trimming, which is exact but slow.
    @inline(__always)
    static func trimmed(_ s: Substring) -> String {
        guard let f = s.utf8.first, let l = s.utf8.last else { return "" }
        if f > 0x20, f < 0x7F, l > 0x20, l < 0x7F { return String(s) }
        return s.trimmingCharacters(in: .whitespaces)
    }
}
