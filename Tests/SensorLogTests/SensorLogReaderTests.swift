import Foundation
import POIARCore
import Testing
@testable import SensorLog

@Suite("SensorLogReader: well-formed logs")
struct WellFormedLogTests {
    static let goodLog = """
        # format: poiar-log/1
        # start_utc: 2025-06-14T10:02:11Z
        # pois: pois.sqlite
        # camera_hfov_deg: 66.0
        # sim_note: kept, though unknown: with a colon
        time,sensor,x,y,z,accuracy
        0.000,gps,60.168913,24.951745,12.5,4.0
        0.005,gyro,0.0012,-0.0300,0.0051,
        0.005,accel,0.08,9.79,0.31,
        # a comment between rows

        0.010,mag,12.1,-33.4,-25.0,
        0.100,frame,stills/000001.jpg,,,
        0.200,frame,,,,
        0.300,gps,-33.5,-70.25,,
        0.400,gyro,1e-3,-2.5E-2,0,0.5

        """

    @Test func metadataIsParsedAndUnknownKeysAreKept() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(Self.goodLog, to: "good.csv", in: folder)
        let reader = try SensorLogReader(path: path)
        let meta = reader.metadata
        #expect(meta.format == "poiar-log/1")
        #expect(meta.pois == "pois.sqlite")
        #expect(meta.cameraHFOVDeg == 66.0)
        #expect(meta["sim_note"] == "kept, though unknown: with a colon")
        #expect(meta.entries.map(\.key) == ["format", "start_utc", "pois", "camera_hfov_deg", "sim_note"])
        #expect(meta.camera == nil && meta.stills == nil && meta.device == nil)

        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let expected = utc.date(from: DateComponents(year: 2025, month: 6, day: 14, hour: 10, minute: 2, second: 11))
        #expect(meta.startUTC != nil)
        #expect(meta.startUTC == expected)
    }

    @Test func allFiveSensorsParseToTheRightSamples() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(Self.goodLog, to: "good.csv", in: folder)
        let records = try readAll(path)
        let expected: [LogRecord] = [
            LogRecord(sample: .gps(GPSFix(time: 0, coordinate: GeoCoordinate(latitude: 60.168913, longitude: 24.951745, altitude: 12.5),
                                          horizontalAccuracy: 4.0)), line: 7),
            LogRecord(sample: .gyro(time: 0.005, rate: Vector3(0.0012, -0.03, 0.0051)), line: 8),
            LogRecord(sample: .accel(time: 0.005, force: Vector3(0.08, 9.79, 0.31)), line: 9),
            LogRecord(sample: .mag(time: 0.01, field: Vector3(12.1, -33.4, -25.0)), line: 12),
            LogRecord(sample: .frame(time: 0.1, still: "stills/000001.jpg"), line: 13),
            LogRecord(sample: .frame(time: 0.2, still: nil), line: 14),
            LogRecord(sample: .gps(GPSFix(time: 0.3, coordinate: GeoCoordinate(latitude: -33.5, longitude: -70.25, altitude: nil),
                                          horizontalAccuracy: nil)), line: 15),
            LogRecord(sample: .gyro(time: 0.4, rate: Vector3(0.001, -0.025, 0)), line: 16),
        ]
        #expect(records == expected)
        #expect(records.map(\.sample.sensorName) == ["gps", "gyro", "accel", "mag", "frame", "frame", "gps", "gyro"])
        #expect(records.map(\.sample.time) == [0, 0.005, 0.005, 0.01, 0.1, 0.2, 0.3, 0.4])
    }

    @Test func readerIsASequenceThatStopsAtTheFirstError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let good = try write(Self.goodLog, to: "good.csv", in: folder)
        let reader = try SensorLogReader(path: good)
        #expect(Array(reader).count == 8)
        #expect(reader.error == nil)
        #expect(reader.next() == nil)  // stays at the end

        let bad = try write(logText(["0.0,gyro,0,0,0,", "0.1,gyro,0,x,0,", "0.2,gyro,0,0,0,"]), to: "bad.csv", in: folder)
        let badReader = try SensorLogReader(path: bad)
        var count = 0
        for _ in badReader { count += 1 }
        #expect(count == 0)  // the first row is still in the reorder buffer when the error comes
        let error = try #require(badReader.error as? InputError)
        #expect(error.location.line == 4)
        #expect(error.location.field == "y")
        // nextRecord() rethrows the kept error.
        #expect(inputError { _ = try badReader.nextRecord() } == error)
    }

    @Test func headerOnlyLogHasNoRecordsAndNoError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let bare = try write("time,sensor,x,y,z,accuracy\n", to: "bare.csv", in: folder)
        #expect(try readAll(bare).isEmpty)
        let noNewline = try write("time,sensor,x,y,z,accuracy", to: "nonl.csv", in: folder)
        #expect(try readAll(noNewline).isEmpty)
        let withMeta = try write(logText([], metadata: ["# format: poiar-log/1", "# pois: x"]), to: "meta.csv", in: folder)
        let reader = try SensorLogReader(path: withMeta)
        #expect(reader.metadata.pois == "x")
        #expect(try reader.nextRecord() == nil)
        #expect(try reader.nextRecord() == nil)
    }

    @Test func crlfLineEndingsAndByteOrderMarkReadTheSame() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let plain = try write(Self.goodLog, to: "lf.csv", in: folder)
        let crlfText = Self.goodLog.replacingOccurrences(of: "\n", with: "\r\n")
        let crlf = try write(crlfText, to: "crlf.csv", in: folder)
        let bom = try write(bytes: [0xEF, 0xBB, 0xBF] + Array(Self.goodLog.utf8), to: "bom.csv", in: folder)
        let both = try write(bytes: [0xEF, 0xBB, 0xBF] + Array(crlfText.utf8), to: "both.csv", in: folder)
        // A CRLF file whose last row has no line end at all.
        let noFinal = try write(String(crlfText.dropLast(2)), to: "nofinal.csv", in: folder)

        let expected = try readAll(plain)
        let meta = try SensorLogReader(path: plain).metadata
        #expect(expected.count == 8)
        for path in [crlf, bom, both, noFinal] {
            #expect(try readAll(path) == expected, "\(path)")
            #expect(try SensorLogReader(path: path).metadata == meta, "\(path)")
        }
        // A BOM right before the header (no metadata) works too.
        let bomHeader = try write(bytes: [0xEF, 0xBB, 0xBF] + Array("time,sensor,x,y,z,accuracy\r\n0.0,gyro,1,2,3,\r\n".utf8),
                                  to: "bomheader.csv", in: folder)
        #expect(try readAll(bomHeader) == [LogRecord(sample: .gyro(time: 0, rate: Vector3(1, 2, 3)), line: 2)])
    }

    @Test func unknownSensorsAreSkippedWithOneNoticePerName() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText([
            "0.0,gyro,0,0,0,",
            "0.1,baro,1013.2,,,",
            "0.2,baro,1013.1,,,",
            "0.3,light,120,,,",
            "0.3,baro,1013.0,,,",
            "0.4,gyro,0,0,0,",
        ]), to: "unknown.csv", in: folder)
        var notices: [String] = []
        let records = try readAll(path) { notices.append($0) }
        #expect(records.map(\.line) == [3, 8])
        #expect(notices.count == 2)
        #expect(notices.filter { $0.contains("\"baro\"") }.count == 1)
        #expect(notices.filter { $0.contains("\"light\"") }.count == 1)
        // Each notice names the file and the first row of that sensor.
        #expect(notices[0].hasPrefix("\(path):4"))
        #expect(notices[1].hasPrefix("\(path):6"))
    }

    @Test func aTimeOriginOtherThanZeroAndNegativeTimesAreFine() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["-2.5,gyro,0,0,0,", "-1.0,accel,0,0,9.8,", "599.0,frame,,,,"]),
                             to: "origin.csv", in: folder)
        #expect(try readAll(path).map(\.sample.time) == [-2.5, -1.0, 599.0])
        let unix = try write(logText(["1700000000.0,gyro,0,0,0,", "1700000000.25,frame,,,,", "1700000600.25,gyro,0,0,0,"]),
                             to: "unix.csv", in: folder)
        #expect(try readAll(unix).map(\.sample.time) == [1_700_000_000, 1_700_000_000.25, 1_700_000_600.25])
    }

    /// A gap of more than 600 s without any row is refused at the row after it (two
    /// recordings joined, or rows on different clocks), also when that row comes first in the
    /// file; the limit can be set.
    @Test func aGapOverTenMinutesIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,gyro,0,0,0,", "0.5,gyro,0,0,0,", "600.6,gyro,0,0,0,"]), to: "gap.csv", in: folder)
        let error = try #require(inputError { _ = try readAll(path) })
        #expect(error.location == InputLocation(file: path, line: 5, field: "time"))
        #expect(error.message.hasPrefix("time jumps 600.1 s from 0.5 (line 4) to 600.6"))
        #expect(try readAll(path, maxTimeGap: 700).count == 3)
        // GPS rows on the Unix clock before sensor rows from 0: the GPS row is the one refused.
        let clocks = try write(logText(["1700000000.0,gps,60.1,24.9,,5", "0.0,gyro,0,0,0,", "0.01,gyro,0,0,0,"]),
                               to: "clocks.csv", in: folder)
        let e2 = try #require(inputError { _ = try readAll(clocks) })
        #expect(e2.location == InputLocation(file: clocks, line: 3, field: "time"))
    }
}

@Suite("SensorLogReader: file-level errors")
struct FileErrorTests {
    @Test func missingFileAndFolder() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let missing = folder.appendingPathComponent("nope.csv").path
        let e1 = try #require(inputError { _ = try SensorLogReader(path: missing) })
        #expect(e1.location.file == missing)
        #expect(e1.description.contains("no such file"))
        let e2 = try #require(inputError { _ = try SensorLogReader(path: folder.path) })
        #expect(e2.location.file == folder.path)
        #expect(e2.description.contains("folder"))
    }

    @Test func emptyFile() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write("", to: "empty.csv", in: folder)
        let error = try #require(inputError { _ = try SensorLogReader(path: path) })
        #expect(error.location.file == path)
        #expect(error.location.line == nil)
        #expect(error.description.hasPrefix(path))
        #expect(error.description.contains("empty"))
    }

    @Test func commentsButNoHeader() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write("# format: poiar-log/1\n# pois: x\n\n", to: "noheader.csv", in: folder)
        expectInputError(path, line: 3, containing: ["no header", SensorLogReader.header])
    }

    @Test func wrongHeader() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write("# format: poiar-log/1\n# pois: x\nt,sensor,x,y,z\n0.0,gyro,1,2,3\n", to: "hdr.csv", in: folder)
        expectInputError(path, line: 3, containing: ["unknown column layout", "t,sensor,x,y,z", SensorLogReader.header])
        // Columns in another order are not the layout either.
        let swapped = try write("sensor,time,x,y,z,accuracy\n", to: "swapped.csv", in: folder)
        expectInputError(swapped, line: 1, containing: ["unknown column layout"])
    }

    @Test func dataRowBeforeHeader() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write("# format: poiar-log/1\n0.000,gyro,0.1,0.2,0.3,\ntime,sensor,x,y,z,accuracy\n",
                             to: "early.csv", in: folder)
        expectInputError(path, line: 2, containing: ["data row before the header", SensorLogReader.header])
    }

    @Test func unsupportedFormatVersion() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText([], metadata: ["# format: poiar-log/2"]), to: "v2.csv", in: folder)
        let error = try #require(inputError { _ = try SensorLogReader(path: path) })
        #expect(error.location.file == path)
        #expect(error.location.field == "format")
        #expect(error.description.contains("poiar-log/2"))
        #expect(error.description.contains("poiar-log/1"))
    }

    @Test func binaryGarbageIsAHeaderError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // Deterministic pseudo-random bytes without a line end (and not starting like gzip).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        while bytes.count < 20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let b = UInt8(truncatingIfNeeded: state >> 56)
            if b == 0x0A || b == 0x0D || b == UInt8(ascii: "#") { continue }
            bytes.append(b)
        }
        bytes[0] = 0x7F  // ELF-like, certainly not a header
        let path = try write(bytes: bytes, to: "garbage.csv", in: folder)
        expectInputError(path, line: 1, containing: ["unknown column layout", SensorLogReader.header])

        // Garbage after a gzip magic number: the file claims to be gzip and is not.
        let fakeGzip = try write(bytes: [0x1F, 0x8B, 0x08, 0x00] + bytes, to: "fake.csv.gz", in: folder)
        let error = try #require(inputError { _ = try readAll(fakeGzip) })
        #expect(error.location.file == fakeGzip)
        #expect(error.location.line == 1)
        #expect(error.description.hasPrefix("\(fakeGzip):1"))
    }

    @Test func aTwoMegabyteLineIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let huge = String(repeating: "1234567,", count: 2 * 1024 * 1024 / 8)
        // As a data row after the header, and as the very first line.
        let path = try write(logText(["0.0,gyro,0,0,0,", huge, "0.1,gyro,0,0,0,"]), to: "long.csv", in: folder)
        expectInputError(path, line: 4, containing: ["longer than"])
        let first = try write(huge + "\n" + SensorLogReader.header + "\n", to: "longfirst.csv", in: folder)
        let error = try #require(inputError { _ = try SensorLogReader(path: first) })
        #expect(error.location.line == 1)
        #expect(error.description.contains("longer than"))
        // The same without any line end at all.
        let noEnd = try write(huge, to: "noend.csv", in: folder)
        #expect(inputError { _ = try SensorLogReader(path: noEnd) }?.location.line == 1)
    }

    @Test func longButAcceptableLineIsJustABadRow() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // 300 kB: longer than the reader's first buffer, shorter than its limit.
        let long = "0.1,gyro,0,0,0," + String(repeating: "x", count: 300_000)
        let path = try write(logText(["0.0,gyro,0,0,0,", long]), to: "long.csv", in: folder)
        expectInputError(path, line: 4, field: "accuracy", containing: ["not a number"])
    }
}

@Suite("SensorLogReader: row errors")
struct RowErrorTests {
    /// A log whose bad row is line 7: metadata (1), header (2), three good rows (3–5),
    /// a blank line (6) — so the line count must include skipped lines.
    func check(_ badRow: String, field: String?, _ words: [String] = [],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = logText(["0.000,gyro,0.01,0.02,0.03,", "0.000,accel,0.1,9.8,0.2,", "0.000,mag,10,-20,-40,", "",
                            badRow, "0.100,gyro,0.01,0.02,0.03,"])
        let path = try write(text, to: "bad.csv", in: folder)
        expectInputError(path, line: 7, field: field, containing: words, sourceLocation: sourceLocation)
    }

    @Test func wrongColumnCounts() throws {
        try check("0.010,gyro,0.1,0.2,0.3", field: nil, ["expected 6 columns", "found 5"])
        try check("0.010,gyro,0.1,0.2,0.3,,", field: nil, ["expected 6 columns", "found 7"])
        try check("0.010", field: nil, ["found 1"])
    }

    @Test func nonNumericAndNonFiniteValues() throws {
        try check("0.010,gyro,abc,0.2,0.3,", field: "x", ["\"abc\"", "not a number"])
        try check("0.010,gyro,0.1,0.2,0x,", field: "z", ["not a number"])
        try check("0.010,gyro,nan,0.2,0.3,", field: "x", ["finite"])
        try check("0.010,accel,0.1,NaN,9.8,", field: "y", ["finite"])
        try check("0.010,mag,10,-20,inf,", field: "z", ["finite"])
        try check("0.010,accel,-infinity,0,9.8,", field: "x", ["finite"])
        try check("0.010,gyro,0.1,0.2,0.3,abc", field: "accuracy", ["not a number"])
    }

    @Test func badTimes() throws {
        try check("abc,gyro,0.1,0.2,0.3,", field: "time", ["not a number"])
        try check(",gyro,0.1,0.2,0.3,", field: "time")
        try check("nan,gyro,0.1,0.2,0.3,", field: "time", ["finite"])
        try check("inf,accel,0.1,0.2,9.8,", field: "time", ["finite"])
    }

    @Test func missingVectorComponent() throws {
        try check("0.010,gyro,0.1,,0.3,", field: "y", ["missing value", "gyro"])
        try check("0.010,accel,,9.8,0.3,", field: "x", ["missing value", "accel"])
        try check("0.010,mag,10,-20,,", field: "z", ["missing value", "mag"])
    }

    @Test func gpsRanges() throws {
        try check("0.010,gps,91,24.9,10,5", field: "x (latitude)", ["91", "latitude"])
        try check("0.010,gps,-90.5,24.9,10,5", field: "x (latitude)", ["latitude"])
        try check("0.010,gps,60.1,181,10,5", field: "y (longitude)", ["181", "longitude"])
        try check("0.010,gps,60.1,-180.01,10,5", field: "y (longitude)", ["longitude"])
        try check("0.010,gps,60.1,24.9,10,-1", field: "accuracy", ["≥ 0"])
        try check("0.010,gps,,24.9,10,5", field: "x (latitude)", ["missing value"])
        try check("0.010,gps,60.1,24.9,high,5", field: "z (altitude)", ["not a number"])
    }

    @Test func gpsAtTheEdgesIsFine() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,gps,90,180,,0", "0.1,gps,-90,-180,-30.5,"]), to: "edge.csv", in: folder)
        let records = try readAll(path)
        #expect(records.map(\.sample) == [
            .gps(GPSFix(time: 0, coordinate: GeoCoordinate(latitude: 90, longitude: 180), horizontalAccuracy: 0)),
            .gps(GPSFix(time: 0.1, coordinate: GeoCoordinate(latitude: -90, longitude: -180, altitude: -30.5),
                        horizontalAccuracy: nil)),
        ])
    }

    @Test func frameRowsHaveOnlyAPath() throws {
        try check("0.010,frame,stills/1.jpg,1,,", field: "y", ["frame"])
        try check("0.010,frame,stills/1.jpg,,2,", field: "z")
        try check("0.010,frame,,,,3", field: "accuracy")
    }

    @Test func emptySensorName() throws {
        try check("0.010,,0.1,0.2,0.3,", field: "sensor", ["missing sensor name"])
    }
}

@Suite("SensorLogReader: the byte-level fast path")
struct FastPathTests {
    /// Rows the fast path reads (plain decimals) give exactly what Swift's own Double(String)
    /// gives, and rows it hands on (exponents, spaces, long mantissas) the same as before.
    @Test func fastPathNumbersEqualDoubleParsing() throws {
        var rng = SplitMix64(seed: 7)
        var texts: [String] = ["0", "-0", "+1.5", "1.", ".5", "-.25", "0.000000000000000000001", "9.007199254740993",
                               "1.23456789012345678", "1.234567890123456789", "3.14159265358979323846", " 2.5", "2.5 ",
                               "1e-3", "-2.5E+1", "0.1000000000000000055511151231257827"]
        for _ in 0..<3000 {
            // Up to 20 digits, at most one before the point (values the unit checks accept).
            let digits = Int(rng.next() % 20) + 1, point = Int(rng.next() % UInt64(min(digits, 1) + 1))
            var s = rng.next() % 3 == 0 ? "-" : ""
            for k in 0..<digits {
                if k == point && k > 0 { s += "." }
                s += String(rng.next() % 10)
            }
            if point == 0 { s = (s.hasPrefix("-") ? "-." : ".") + s.drop(while: { $0 == "-" }) }
            texts.append(s)
        }
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        var rows: [String] = []
        for (i, t) in texts.enumerated() {
            rows.append("\(Double(i) * 0.01),gyro,\(t),0.25,-1,")
            rows.append("\(Double(i) * 0.01),mag,1,\(t),2,")
        }
        // Times near and past 2^53 (exact integers end there).
        let times = ["9007199254740991", "9007199254740992", "9007199254740993", "123456789012345678", "123456789012345678.5"]
        rows += times.map { "\($0),gyro,0,0,0," }
        var records = try readAll(try write(logText(rows), to: "numbers.csv", in: folder), maxTimeGap: .infinity)
        #expect(records.count == rows.count)
        for (t, r) in zip(times, records.suffix(times.count)) {
            #expect(r.sample.time.bitPattern == Double(t)!.bitPattern, "\(t)")
        }
        records.removeLast(times.count)
        for (k, r) in records.enumerated() {
            let text = texts[k / 2].trimmingCharacters(in: .whitespaces)
            let expected = Double(text)!
            switch r.sample {
            case .vector(.gyro, _, let v): #expect(v.x.bitPattern == expected.bitPattern, "\(text)")
            case .vector(.mag, _, let v): #expect(v.y.bitPattern == expected.bitPattern, "\(text)")
            default: Issue.record("unexpected sample \(r.sample)")
            }
        }
    }
}
