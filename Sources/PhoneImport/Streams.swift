import Foundation
import Geodesy
import POIARCore
import SensorLog

/// A value of one file's row, on the log's clock.
struct Timed<Value> {
    var time: Double
    var value: Value
    var line: Int
}

/// Records in nondecreasing time order.
protocol RecordStream: AnyObject {
    /// The file the records come from (`rec.zip/Gyroscope.csv`), for messages.
    var display: String { get }
    /// The sensor its records are, as poiar-log/1 names it (`gyro`, `gps`, …).
    var sensor: String { get }
    func next() throws -> LogRecord?
}

/// The mapping from a recording's file times to the log's time, shared by its files and set
/// once the recording's time 0 is known.
final class RecordingClock {
    /// Sensor Logger: the epoch time (ns) of log time 0.
    var originNs: Int64 = 0
    /// phyphox: added to the experiment time (the fraction of a second of the first START).
    var offset: Double = 0
}

/// A row's time as the file gives it, before the clock makes it the log's time.
struct RawTime {
    /// Sensor Logger: nanoseconds since the Unix epoch.
    var nanoseconds: Int64 = 0
    /// phyphox: seconds of experiment time.
    var seconds: Double = 0
}

/// How a file's time column becomes the log's time.
enum TimeColumn {
    /// Integer nanoseconds since the Unix epoch (Sensor Logger's `time`); log time is
    /// (t − origin) / 1e9, computed in integers so no precision is lost.
    case epochNanoseconds(index: Int)
    /// Seconds (phyphox's `Time (s)`), shifted by the clock's offset.
    case seconds(index: Int)

    @inline(__always)
    func raw(_ row: CSVRow) throws -> RawTime? {
        switch self {
        case .epochNanoseconds(let i): return try row.nanoseconds(i).map { RawTime(nanoseconds: $0) }
        case .seconds(let i): return try row.number(i).map { RawTime(seconds: $0) }
        }
    }

    @inline(__always)
    func logTime(_ raw: RawTime, clock: RecordingClock, table: CSVTable, line: Int) throws -> Double {
        switch self {
        case .epochNanoseconds(let i):
            let (sinceOrigin, overflow) = raw.nanoseconds.subtractingReportingOverflow(clock.originNs)
            guard !overflow else {
                throw InputError(file: table.display, line: line, field: table.columns[i],
                                 "time \(raw.nanoseconds) ns is too far from the recording's first sample (\(clock.originNs) ns)")
            }
            return Double(sinceOrigin) / 1e9
        case .seconds:
            return raw.seconds + clock.offset
        }
    }
}

/// Reports a sensor that stops for a while: one notice per gap longer than
/// max(`minimumGap`, `periods` × the sensor's sample period), the period being the median of
/// its first `estimateIntervals` intervals (of those seen so far, early on).
struct GapWatch {
    static let minimumGap = 1.0
    static let periods = 50.0
    static let estimateIntervals = 64
    private var intervals: [Double] = []
    private var period = 0.0
    private var last: Double?

    /// Records a sample at `time` (after the previous one); returns the gap before it when it
    /// is one to report.
    @inline(__always)
    mutating func add(_ time: Double) -> Double? {
        defer { last = time }
        guard let last else { return nil }
        let interval = time - last
        if intervals.count < GapWatch.estimateIntervals {
            intervals.append(interval)
            period = intervals.sorted()[intervals.count / 2]
            // Until a few intervals are known, a sensor's rate is not.
            if intervals.count < 4 { return nil }
        }
        return interval > max(GapWatch.minimumGap, GapWatch.periods * period) ? interval : nil
    }
}

/// The rows of one sensor file as timed values, in time order, on the recording's clock.
/// The first row is read ahead (`firstTime`), so the recording's time 0 can be found without
/// opening the file twice. Rows whose time repeats or steps back (phones sometimes write a
/// sample twice) are skipped, with one notice per file; rows `parse` gives nil for (an empty
/// or NaN value) are skipped silently. A gap in the file is a notice (`GapWatch`).
final class SensorFile<Value> {
    let table: CSVTable
    private let time: TimeColumn
    private let clock: RecordingClock
    private let parse: (CSVRow) throws -> Value?
    private let notice: (String) -> Void
    private var ahead: (raw: RawTime, value: Value, line: Int)?
    private var readAhead = false
    private var lastTime = -Double.infinity
    private var skipped = 0
    private var gaps = GapWatch()
    private var finished = false

    var display: String { table.display }

    init(table: CSVTable, time: TimeColumn, clock: RecordingClock, notice: @escaping (String) -> Void,
         parse: @escaping (CSVRow) throws -> Value?) {
        self.table = table; self.time = time; self.clock = clock; self.notice = notice; self.parse = parse
    }

    /// The next row with a time and a value, as the file gives them.
    @inline(__always)
    private func nextRaw() throws -> (raw: RawTime, value: Value, line: Int)? {
        while let row = try table.withNextRow({ row -> (RawTime, Value, Int)? in
            guard let t = try time.raw(row), let v = try parse(row) else { return nil }
            return (t, v, row.line)
        }) {
            if let row { return row }
        }
        return nil
    }

    /// The first row's time (nanoseconds since the epoch, or seconds) and line; nil when the
    /// file has no rows with values. Read once and kept for `next()`.
    func first() throws -> (raw: RawTime, line: Int)? {
        if !readAhead {
            readAhead = true
            ahead = try nextRaw()
        }
        return ahead.map { ($0.raw, $0.line) }
    }

    /// The first row's value (read ahead as `first()`).
    func firstValue() throws -> Value? {
        _ = try first()
        return ahead?.value
    }

    func next() throws -> Timed<Value>? {
        while !finished {
            let row: (raw: RawTime, value: Value, line: Int)
            if !readAhead { readAhead = true; ahead = try nextRaw() }
            if let a = ahead {
                row = a
                ahead = nil
            } else if let r = try nextRaw() {
                row = r
            } else {
                finished = true
                break
            }
            let t = try time.logTime(row.raw, clock: clock, table: table, line: row.line)
            if t <= lastTime { skipped += 1; continue }
            if let gap = gaps.add(t) {
                notice("\(table.display): no samples for \(String(format: "%.1f", gap)) s from t = \(String(format: "%.1f", lastTime)) s (line \(row.line) ends the gap)")
            }
            lastTime = t
            return Timed(time: t, value: row.value, line: row.line)
        }
        if skipped > 0 {
            notice("\(table.display): skipped \(skipped) row(s) whose time repeats or steps back")
            skipped = 0
        }
        return nil
    }
}

extension SensorFile where Value == Vector3 {
    /// The x, y, z columns of a file as vectors, times `scale` (unit, sign).
    convenience init(vectors table: CSVTable, time: TimeColumn, xyz: (Int, Int, Int), scale: Double, clock: RecordingClock,
                     notice: @escaping (String) -> Void) {
        self.init(table: table, time: time, clock: clock, notice: notice) { row in
            guard let x = try row.number(xyz.0), let y = try row.number(xyz.1), let z = try row.number(xyz.2) else { return nil }
            return Vector3(x, y, z) * scale
        }
    }
}

/// Acceleration without gravity plus gravity, the latter interpolated linearly to the
/// former's times (held at the ends): the specific force an accelerometer would read.
final class SumStream {
    private let main: SensorFile<Vector3>
    private let added: SensorFile<Vector3>
    private var before: Timed<Vector3>?
    private var after: Timed<Vector3>?
    private var addedDone = false

    init(_ main: SensorFile<Vector3>, plus added: SensorFile<Vector3>) { self.main = main; self.added = added }

    func next() throws -> Timed<Vector3>? {
        guard var s = try main.next() else { return nil }
        if after == nil && !addedDone { after = try added.next(); addedDone = after == nil }
        while let a = after, a.time < s.time {
            before = a
            after = try added.next()
            if after == nil { addedDone = true }
        }
        let g: Vector3
        switch (before, after) {
        case let (b?, a?):
            let span = a.time - b.time
            let w = span > 0 ? (s.time - b.time) / span : 0
            g = b.value * (1 - w) + a.value * w
        case let (b?, nil): g = b.value
        case let (nil, a?): g = a.value
        case (nil, nil):
            throw InputError(file: added.display, "has no samples to add to \(main.display)")
        }
        s.value = s.value + g
        return s
    }
}

/// A vector sensor's records (gyro, accel, mag…) from a vector source, checked for plausible units.
final class SensorStream: RecordStream {
    private let kind: VectorSensor
    var sensor: String { kind.name }
    private let source: () throws -> Timed<Vector3>?
    let display: String
    private var units = UnitPlausibility()
    private var finished = false

    init(_ kind: VectorSensor, display: String, source: @escaping () throws -> Timed<Vector3>?) {
        self.kind = kind; self.display = display; self.source = source
    }

    func next() throws -> LogRecord? {
        guard !finished else { return nil }
        guard let s = try source() else {
            finished = true
            try units.finish(path: display)
            return nil
        }
        try units.check(kind, s.value, line: s.line) { InputError(file: self.display, line: s.line, field: "x", $0) }
        return LogRecord(sample: .vector(kind, time: s.time, value: s.value), line: s.line)
    }
}

/// GPS fixes from a location CSV. A negative or missing accuracy is "unknown"; rows without
/// a position, and "no fix yet" rows at 0°, 0°, are skipped.
final class LocationStream: RecordStream {
    let file: SensorFile<GPSFix>
    var display: String { file.display }
    var sensor: String { "gps" }

    init(file: SensorFile<GPSFix>) { self.file = file }

    /// The columns of the receiver's own velocity, when the table has them: ground speed (m/s)
    /// and its accuracy, course (°) and its accuracy. A negative value is "unknown"; a course
    /// is kept only with a speed, and not when its stated accuracy is over `maxCourseAccuracy`
    /// (a receiver standing still states 180°).
    struct VelocityColumns {
        var speed: Int?, speedAccuracy: Int? = nil, course: Int? = nil, courseAccuracy: Int? = nil
        static let maxCourseAccuracy = 30.0
    }

    /// The fixes of a table with latitude, longitude and optional altitude and accuracy columns.
    /// The altitude column is above the WGS84 ellipsoid, or, with `seaLevel`, above sea level
    /// and made ellipsoidal through that geoid.
    static func fixes(table: CSVTable, time: TimeColumn, clock: RecordingClock, lat: Int, lon: Int, alt: Int?, accuracy: Int?,
                      velocity: VelocityColumns = .init(), seaLevel: Geoid? = nil, notice: @escaping (String) -> Void) -> SensorFile<GPSFix> {
        SensorFile(table: table, time: time, clock: clock, notice: notice) { row in
            guard let la = try row.number(lat), let lo = try row.number(lon) else { return nil }
            guard abs(la) <= 90, abs(lo) <= 180 else {
                throw InputError(file: table.display, line: row.line, field: table.columns[lat], "latitude \(la), longitude \(lo) is not a position")
            }
            if la == 0 && lo == 0 { return nil }
            var a = try alt.flatMap { try row.number($0) }
            if let geoid = seaLevel, let h = a {
                a = geoid.ellipsoidalHeight(aboveSeaLevel: h, latitude: la, longitude: lo) { notice("\(table.display): \($0)") }
            }
            var acc = try accuracy.flatMap { try row.number($0) }
            if let v = acc, v < 0 { acc = nil }
            func known(_ column: Int?) throws -> Double? { try column.flatMap { try row.number($0) }.flatMap { $0 >= 0 ? $0 : nil } }
            // The time is set when the row is handed on.
            var fix = GPSFix(time: 0, coordinate: GeoCoordinate(latitude: la, longitude: lo, altitude: a), horizontalAccuracy: acc)
            if let speed = try known(velocity.speed) {
                fix.speed = speed
                fix.speedAccuracy = try known(velocity.speedAccuracy)
                fix.course = try known(velocity.course).map { $0.truncatingRemainder(dividingBy: 360) }
                if let a = try known(velocity.courseAccuracy), a > VelocityColumns.maxCourseAccuracy { fix.course = nil }
            }
            return fix
        }
    }

    func next() throws -> LogRecord? {
        guard let s = try file.next() else { return nil }
        var fix = s.value
        fix.time = s.time
        return LogRecord(sample: .gps(fix), line: s.line)
    }
}

/// The phone's own attitude (Sensor Logger's `Orientation.csv`), turned into poiar's
/// device → ENU convention.
final class OrientationStream: RecordStream {
    let file: SensorFile<Quaternion>
    private let convention: OrientationConvention
    var display: String { file.display }
    var sensor: String { "orientation" }

    init(file: SensorFile<Quaternion>, convention: OrientationConvention) {
        self.file = file; self.convention = convention
    }

    func next() throws -> LogRecord? {
        guard let s = try file.next() else { return nil }
        return LogRecord(sample: .orientation(time: s.time, attitude: convention.attitude(s.value)), line: s.line)
    }
}

/// Merges time-ordered streams into one (ties: the stream listed first). A recording has a
/// handful of streams, so the earliest head is found by a scan (no heap). Like a poiar-log/1
/// log, the recording may not go more than `SensorLogReader.defaultMaxTimeGap` without any row.
final class MergedStreams {
    let streams: [RecordStream]
    private var heads: [LogRecord?] = []
    /// The heads' times (∞ for a stream at its end), scanned without touching the records.
    private var times: [Double] = []
    private var started = false
    private var last: (time: Double, line: Int, stream: Int)?
    let maxTimeGap: Double

    init(_ streams: [RecordStream], maxTimeGap: Double = SensorLogReader.defaultMaxTimeGap) {
        self.streams = streams; self.maxTimeGap = maxTimeGap
    }

    func next() throws -> LogRecord? {
        if !started {
            started = true
            heads = try streams.map { try $0.next() }
            times = heads.map { $0?.sample.time ?? .infinity }
        }
        var best = 0, bestTime = Double.infinity
        for i in times.indices where times[i] < bestTime { best = i; bestTime = times[i] }
        guard bestTime < .infinity, let record = heads[best] else { return nil }
        let following = try streams[best].next()
        times[best] = following?.sample.time ?? .infinity
        heads[best] = following
        if let last, bestTime - last.time > maxTimeGap {
            let before = URL(fileURLWithPath: streams[last.stream].display).lastPathComponent
            throw InputError(file: streams[best].display, line: record.line, field: "time",
                             SensorLogReader.timeJumpMessage(gap: bestTime - last.time, from: last.time, at: "\(before) line \(last.line)",
                                                             to: bestTime, maxTimeGap: maxTimeGap))
        }
        last = (bestTime, record.line, best)
        return record
    }
}
