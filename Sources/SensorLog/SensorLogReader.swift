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

    public let path: String
    public let metadata: LogMetadata
    public let reorderWindow: Double
    /// Called once per unknown sensor name (the row is skipped).
    public var onNotice: ((String) -> Void)?
    /// The first error met while iterating with `next()`; `nextRecord()` throws it instead.
    public private(set) var error: Error?

    private let lines: LineReader
    private var pending = MinHeap<PendingRecord>()
    private var queue: [PendingRecord] = []
    private var queueHead = 0
    private var lastQueuedTime = -Double.infinity
    private var sequence = 0
    private var newestTime = -Double.infinity
    private var lastEmittedTime = -Double.infinity
    private var lastTimeBySensor: [String: (time: Double, line: Int)] = [:]
    private var unknownSensors: Set<String> = []
    private var firstRowLine: Int?
    private var exhausted = false
    private var units = UnitPlausibility()

    public init(path: String, reorderWindow: Double = SensorLogReader.defaultReorderWindow) throws {
        self.path = path
        self.reorderWindow = reorderWindow
        lines = try LineReader(path: path)
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
                    if !key.isEmpty && !key.contains(" ") { meta.entries.append((key, value)) }
                }
                continue
            }
            if trimmed != SensorLogReader.header {
                let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                if fields.count > 1, Double(fields[0]) != nil {
                    throw InputError(file: path, line: lines.lineNumber,
                                     "data row before the header; expected the header \"\(SensorLogReader.header)\"")
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
            if let top = earliestPending, top.record.sample.time <= newestTime - reorderWindow {
                return emit(popEarliest())
            }
            guard let line = try lines.nextLine() else {
                exhausted = true
                try units.finish(path: path)
                break
            }
            if let record = try parseFast(line, lineNumber: lines.lineNumber) ?? parse(line, lineNumber: lines.lineNumber) {
                let t = record.sample.time
                if t < lastEmittedTime {
                    throw InputError(file: path, line: record.line, field: "time",
                                     "time \(t) is more than \(reorderWindow) s before rows already read (rows may be out of order by at most \(reorderWindow) s)")
                }
                newestTime = Swift.max(newestTime, t)
                // Rows in time order (nearly all) queue at the back of a FIFO; only rows that
                // arrive out of order go through the heap.
                let p = PendingRecord(record: record, sequence: sequence)
                if t >= lastQueuedTime { queue.append(p); lastQueuedTime = t } else { pending.insert(p) }
                sequence += 1
            }
        }
        if earliestPending != nil { return emit(popEarliest()) }
        return nil
    }

    /// The earliest record waiting: the FIFO's front or the heap's top, by (time, file order).
    private var earliestPending: PendingRecord? {
        let q = queueHead < queue.count ? queue[queueHead] : nil
        guard let h = pending.min else { return q }
        guard let q else { return h }
        return h < q ? h : q
    }

    private func popEarliest() -> PendingRecord {
        if queueHead < queue.count, pending.min.map({ !($0 < queue[queueHead]) }) ?? true {
            let p = queue[queueHead]
            queueHead += 1
            if queueHead > 4096 && queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            return p
        }
        return pending.popMin()!
    }

    /// Sequence conformance: iteration stops at the first error, which is kept in `error`.
    public func next() -> LogRecord? {
        do { return try nextRecord() } catch { self.error = error; return nil }
    }

    /// Number of the last line read from the file.
    public var currentLine: Int { lines.lineNumber }

    /// Samples held in the reorder buffer (bounded by one window of samples; tests watch it).
    var pendingCount: Int { pending.count + queue.count - queueHead }

    private func emit(_ p: PendingRecord) -> LogRecord {
        lastEmittedTime = p.record.sample.time
        return p.record
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
        guard let time = Double(fields[0]) else { throw fail("time", "\"\(fields[0])\" is not a number") }
        guard time.isFinite else { throw fail("time", "time must be finite, found \(fields[0])") }
        let sensor = fields[1]

        func number(_ i: Int, _ name: String) throws -> Double {
            guard !fields[i].isEmpty else { throw fail(name, "missing value for \(sensor)") }
            guard let v = Double(fields[i]) else { throw fail(name, "\"\(fields[i])\" is not a number") }
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
        switch sensor {
        case "gyro":
            let v = try vector()
            try units.check(gyro: v) { fail("x", $0) }
            sample = .gyro(time: time, rate: v)
        case "accel":
            let v = try vector()
            try units.check(accel: v, line: lineNumber) { fail("x", $0) }
            sample = .accel(time: time, force: v)
        case "mag":
            let v = try vector()
            try units.check(mag: v, line: lineNumber) { fail("x", $0) }
            sample = .mag(time: time, field: v)
        case "gps":
            let lat = try number(2, "x (latitude)"), lon = try number(3, "y (longitude)")
            guard abs(lat) <= 90 else { throw fail("x (latitude)", "latitude \(lat) is outside −90…90°") }
            guard abs(lon) <= 180 else { throw fail("y (longitude)", "longitude \(lon) is outside −180…180°") }
            let alt = try optionalNumber(4, "z (altitude)")
            let acc = try optionalNumber(5, "accuracy")
            if let acc, acc < 0 { throw fail("accuracy", "horizontal accuracy must be ≥ 0 m, found \(acc)") }
            sample = .gps(GPSFix(time: time, coordinate: GeoCoordinate(latitude: lat, longitude: lon, altitude: alt),
                                 horizontalAccuracy: acc))
        case "frame":
            for (i, name) in [(3, "y"), (4, "z"), (5, "accuracy")] where !fields[i].isEmpty {
                throw fail(name, "frame rows have only a still path in x; \(name) must be empty")
            }
            sample = .frame(time: time, still: fields[2].isEmpty ? nil : fields[2])
        case "":
            throw fail("sensor", "missing sensor name")
        default:
            if unknownSensors.insert(sensor).inserted {
                onNotice?("\(path):\(lineNumber): skipping rows of unknown sensor \"\(sensor)\"")
            }
            return nil
        }
        if let previous = lastTimeBySensor[sensor], time < previous.time {
            throw fail("time", "\(sensor) time steps back from \(previous.time) (line \(previous.line)) to \(time)")
        }
        lastTimeBySensor[sensor] = (time, lineNumber)
        return LogRecord(sample: sample, line: lineNumber)
    }
}

extension SensorLogReader {
    /// The common case, read straight from the line's bytes: a gyro, accel or mag row of six
    /// fields with plain decimal numbers. Anything else (other sensors, spaces, exponents,
    /// NaN, a missing value, a wrong column count) returns nil and takes the general path,
    /// which gives the same result or the same error.
    private func parseFast(_ raw: String, lineNumber: Int) throws -> LogRecord? {
        var raw = raw
        guard let parsed = raw.withUTF8({ FastRow(bytes: $0) }) else { return nil }
        let time = parsed.time, v = parsed.vector
        let sample: SensorSample
        let sensor: String
        func fail(_ field: String?, _ message: String) -> InputError {
            InputError(file: path, line: lineNumber, field: field, message)
        }
        switch parsed.kind {
        case .gyro:
            try units.check(gyro: v) { fail("x", $0) }
            sample = .gyro(time: time, rate: v); sensor = "gyro"
        case .accel:
            try units.check(accel: v, line: lineNumber) { fail("x", $0) }
            sample = .accel(time: time, force: v); sensor = "accel"
        case .mag:
            try units.check(mag: v, line: lineNumber) { fail("x", $0) }
            sample = .mag(time: time, field: v); sensor = "mag"
        }
        if let previous = lastTimeBySensor[sensor], time < previous.time {
            throw fail("time", "\(sensor) time steps back from \(previous.time) (line \(previous.line)) to \(time)")
        }
        lastTimeBySensor[sensor] = (time, lineNumber)
        return LogRecord(sample: sample, line: lineNumber)
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

/// A record waiting in the reorder buffer; ordered by time, then by file order.
private struct PendingRecord: Comparable {
    var record: LogRecord
    var sequence: Int
    static func < (a: PendingRecord, b: PendingRecord) -> Bool {
        a.record.sample.time != b.record.sample.time ? a.record.sample.time < b.record.sample.time : a.sequence < b.sequence
    }
    static func == (a: PendingRecord, b: PendingRecord) -> Bool { a.sequence == b.sequence }
}

/// A gyro/accel/mag row parsed from bytes, or nil when the row needs the general parser.
private struct FastRow {
    enum Kind { case gyro, accel, mag }
    var kind: Kind
    var time: Double
    var vector: Vector3

    init?(bytes b: UnsafeBufferPointer<UInt8>) {
        // Field boundaries: exactly five commas.
        var commas = (0, 0, 0, 0, 0)
        var n = 0
        for i in 0..<b.count where b[i] == 0x2C {
            switch n {
            case 0: commas.0 = i
            case 1: commas.1 = i
            case 2: commas.2 = i
            case 3: commas.3 = i
            case 4: commas.4 = i
            default: return nil
            }
            n += 1
        }
        guard n == 5 else { return nil }
        let nameStart = commas.0 + 1, nameLength = commas.1 - nameStart
        switch nameLength {
        case 4 where b[nameStart] == 0x67 && b[nameStart + 1] == 0x79 && b[nameStart + 2] == 0x72 && b[nameStart + 3] == 0x6F: kind = .gyro
        case 5 where b[nameStart] == 0x61 && b[nameStart + 1] == 0x63 && b[nameStart + 2] == 0x63 && b[nameStart + 3] == 0x65 && b[nameStart + 4] == 0x6C: kind = .accel
        case 3 where b[nameStart] == 0x6D && b[nameStart + 1] == 0x61 && b[nameStart + 2] == 0x67: kind = .mag
        default: return nil
        }
        guard commas.4 + 1 == b.count,  // accuracy empty
              let t = FastRow.decimal(b, 0, commas.0),
              let x = FastRow.decimal(b, commas.1 + 1, commas.2),
              let y = FastRow.decimal(b, commas.2 + 1, commas.3),
              let z = FastRow.decimal(b, commas.3 + 1, commas.4)
        else { return nil }
        time = t
        vector = Vector3(x, y, z)
    }

    /// A plain decimal number (optional sign, digits, optional point and digits) parsed
    /// exactly: up to 15 significant digits and 22 decimals, the integer mantissa and the
    /// power of ten are both exact doubles, so one division rounds correctly (Clinger's fast
    /// path). Anything else returns nil.
    static func decimal(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Double? {
        var i = from
        guard i < to else { return nil }
        var negative = false
        if b[i] == 0x2D { negative = true; i += 1 } else if b[i] == 0x2B { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, decimals = 0
        var sawPoint = false, sawDigit = false
        while i < to {
            let c = b[i]
            if c >= 0x30 && c <= 0x39 {
                sawDigit = true
                if mantissa != 0 || c != 0x30 { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(c - 0x30)
                if sawPoint { decimals += 1 }
            } else if c == 0x2E && !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard sawDigit, decimals <= 22 else { return nil }
        var v = Double(mantissa)
        if decimals > 0 { v /= powersOfTen[decimals] }
        return negative ? -v : v
    }

    static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }
}
