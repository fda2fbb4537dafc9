import Foundation
import POIARCore
import SensorLog

/// A vector sample of one file, on the log's clock.
struct TimedVector {
    var time: Double
    var vector: Vector3
    var line: Int
}

/// Records in nondecreasing time order.
protocol RecordStream: AnyObject {
    func next() throws -> LogRecord?
}

/// How a file's time column becomes the log's time.
enum TimeColumn {
    /// Integer nanoseconds since the Unix epoch (Sensor Logger's `time`); log time is
    /// (t − origin) / 1e9, computed in integers so no precision is lost.
    case epochNanoseconds(index: Int, origin: Int64)
    /// Seconds (phyphox's `Time (s)`), shifted by `offset`.
    case seconds(index: Int, offset: Double)

    var index: Int {
        switch self {
        case .epochNanoseconds(let i, _), .seconds(let i, _): return i
        }
    }

    /// Parses integer nanoseconds ("1698501144401773000", or a float form).
    static func nanoseconds(_ s: String) -> Int64? {
        if let v = Int64(s) { return v }
        if let d = Double(s), d.isFinite, abs(d) < 9.2e18 { return Int64(d) }
        return nil
    }

    func time(_ table: CSVTable, _ fields: [String], line: Int) throws -> Double? {
        switch self {
        case .epochNanoseconds(let i, let origin):
            guard i < fields.count else {
                throw InputError(file: table.display, line: line, "expected \(table.columns.count) columns, found \(fields.count)")
            }
            if fields[i].isEmpty { return nil }
            guard let ns = TimeColumn.nanoseconds(fields[i]) else {
                throw InputError(file: table.display, line: line, field: table.columns[i], "\"\(fields[i])\" is not a time in nanoseconds")
            }
            let (sinceOrigin, overflow) = ns.subtractingReportingOverflow(origin)
            guard !overflow else {
                throw InputError(file: table.display, line: line, field: table.columns[i],
                                 "time \(ns) ns is too far from the recording's first sample (\(origin) ns)")
            }
            return Double(sinceOrigin) / 1e9
        case .seconds(let i, let offset):
            return try table.number(fields, i, line: line).map { $0 + offset }
        }
    }
}

/// The x, y, z columns of a CSV file as vectors, scaled (unit, sign). Rows whose time
/// repeats or steps back (phones sometimes write a sample twice) are skipped, with one
/// notice per file; rows with an empty or NaN value are skipped silently.
final class VectorFileStream {
    let table: CSVTable
    private let time: TimeColumn
    private let xyz: (Int, Int, Int)
    private let scale: Double
    private var lastTime = -Double.infinity
    private var skipped = 0
    private let notice: (String) -> Void

    init(table: CSVTable, time: TimeColumn, xyz: (Int, Int, Int), scale: Double, notice: @escaping (String) -> Void) {
        self.table = table; self.time = time; self.xyz = xyz; self.scale = scale; self.notice = notice
    }

    func next() throws -> TimedVector? {
        while let (fields, line) = try table.nextRow() {
            guard let t = try time.time(table, fields, line: line),
                  let x = try table.number(fields, xyz.0, line: line),
                  let y = try table.number(fields, xyz.1, line: line),
                  let z = try table.number(fields, xyz.2, line: line) else { continue }
            if t <= lastTime { skipped += 1; continue }
            lastTime = t
            return TimedVector(time: t, vector: Vector3(x, y, z) * scale, line: line)
        }
        if skipped > 0 {
            notice("\(table.display): skipped \(skipped) row(s) whose time repeats or steps back")
            skipped = 0
        }
        return nil
    }
}

/// Acceleration without gravity plus gravity, the latter interpolated linearly to the
/// former's times (held at the ends): the specific force an accelerometer would read.
final class SumStream {
    private let main: VectorFileStream
    private let added: VectorFileStream
    private var before: TimedVector?
    private var after: TimedVector?
    private var addedDone = false

    init(_ main: VectorFileStream, plus added: VectorFileStream) { self.main = main; self.added = added }

    func next() throws -> TimedVector? {
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
            g = b.vector * (1 - w) + a.vector * w
        case let (b?, nil): g = b.vector
        case let (nil, a?): g = a.vector
        case (nil, nil):
            throw InputError(file: added.table.display, "has no samples to add to \(main.table.display)")
        }
        s.vector = s.vector + g
        return s
    }
}

/// Gyro, accel or mag records from a vector stream, checked for plausible units.
final class SensorStream: RecordStream {
    enum Kind { case gyro, accel, mag }
    private let kind: Kind
    private let source: () throws -> TimedVector?
    private let display: String
    private var units = UnitPlausibility()
    private var finished = false

    init(_ kind: Kind, display: String, source: @escaping () throws -> TimedVector?) {
        self.kind = kind; self.display = display; self.source = source
    }

    func next() throws -> LogRecord? {
        guard !finished else { return nil }
        guard let s = try source() else {
            finished = true
            try units.finish(path: display)
            return nil
        }
        let fail = { (m: String) in InputError(file: self.display, line: s.line, field: "x", m) }
        switch kind {
        case .gyro:
            try units.check(gyro: s.vector, fail: fail)
            return LogRecord(sample: .gyro(time: s.time, rate: s.vector), line: s.line)
        case .accel:
            try units.check(accel: s.vector, line: s.line, fail: fail)
            return LogRecord(sample: .accel(time: s.time, force: s.vector), line: s.line)
        case .mag:
            try units.check(mag: s.vector, line: s.line, fail: fail)
            return LogRecord(sample: .mag(time: s.time, field: s.vector), line: s.line)
        }
    }
}

/// GPS fixes from a location CSV. A negative or missing accuracy is "unknown"; rows without
/// a position are skipped.
final class LocationStream: RecordStream {
    private let table: CSVTable
    private let time: TimeColumn
    private let lat: Int, lon: Int
    private let alt: Int?, accuracy: Int?
    private var lastTime = -Double.infinity

    init(table: CSVTable, time: TimeColumn, lat: Int, lon: Int, alt: Int?, accuracy: Int?) {
        self.table = table; self.time = time; self.lat = lat; self.lon = lon; self.alt = alt; self.accuracy = accuracy
    }

    func next() throws -> LogRecord? {
        while let (fields, line) = try table.nextRow() {
            guard let t = try time.time(table, fields, line: line),
                  let la = try table.number(fields, lat, line: line),
                  let lo = try table.number(fields, lon, line: line) else { continue }
            guard abs(la) <= 90, abs(lo) <= 180 else {
                throw InputError(file: table.display, line: line, field: table.columns[lat], "latitude \(la), longitude \(lo) is not a position")
            }
            if t <= lastTime { continue }
            lastTime = t
            let a = try alt.flatMap { try table.number(fields, $0, line: line) }
            var acc = try accuracy.flatMap { try table.number(fields, $0, line: line) }
            if let v = acc, v < 0 { acc = nil }
            if la == 0 && lo == 0 { continue }  // "no fix yet" placeholder rows
            return LogRecord(sample: .gps(GPSFix(time: t, coordinate: GeoCoordinate(latitude: la, longitude: lo, altitude: a),
                                                  horizontalAccuracy: acc)), line: line)
        }
        return nil
    }
}

/// Merges time-ordered streams into one (ties: the stream listed first).
final class MergedStreams {
    private struct Head: Comparable {
        var record: LogRecord
        var stream: Int
        static func < (a: Head, b: Head) -> Bool {
            a.record.sample.time != b.record.sample.time ? a.record.sample.time < b.record.sample.time : a.stream < b.stream
        }
        static func == (a: Head, b: Head) -> Bool { a.stream == b.stream && a.record == b.record }
    }
    private let streams: [RecordStream]
    private var heap = MinHeap<Head>()
    private var started = false

    init(_ streams: [RecordStream]) { self.streams = streams }

    func next() throws -> LogRecord? {
        if !started {
            started = true
            for (i, s) in streams.enumerated() {
                if let r = try s.next() { heap.insert(Head(record: r, stream: i)) }
            }
        }
        guard let top = heap.popMin() else { return nil }
        if let r = try streams[top.stream].next() { heap.insert(Head(record: r, stream: top.stream)) }
        return top.record
    }
}
