import Foundation
import POIARCore
import Testing
@testable import SensorLog

@Suite("SensorLogReader: time order")
struct OrderingTests {
    /// Time in centiseconds as the text of a log row ("12.34").
    static func timeText(_ cs: Int) -> String {
        let sign = cs < 0 ? "-" : ""
        let a = abs(cs)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }

    @Test func interleavedSensorsComeOutSortedAndStable() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        // 20 s of gyro (100 Hz), accel (50 Hz) and mag (25 Hz). In the file, accel rows come
        // 2.5 s late and mag rows 1.5 s early: rows are up to 4 s out of order, and rows with
        // equal times appear in the file as mag, gyro, accel.
        var rows: [(key: Int, time: Int, text: String)] = []
        for cs in 0...2000 {
            rows.append((cs * 10, cs, "\(Self.timeText(cs)),gyro,0.01,0.02,0.03,"))
            if cs % 2 == 0 { rows.append((cs * 10 + 2505, cs, "\(Self.timeText(cs)),accel,0.1,9.8,0.2,")) }
            if cs % 4 == 0 { rows.append((cs * 10 - 1495, cs, "\(Self.timeText(cs)),mag,10,-20,-40,")) }
        }
        let fileOrder = rows.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        let path = try write(logText(fileOrder.map(\.text)), to: "mixed.csv", in: folder)

        // Expected: stable sort of the file rows by time. Data rows start at line 3.
        let expected = fileOrder.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { (line: $0.offset + 3, time: Double($0.element.time) / 100) }
        let records = try readAll(path)
        #expect(records.count == fileOrder.count)
        #expect(records.map(\.line) == expected.map(\.line))
        #expect(zip(records, expected).allSatisfy { abs($0.sample.time - $1.time) < 1e-9 })
        // Spot-check the tie order at one time: mag, gyro, accel.
        let atOne = records.filter { abs($0.sample.time - 1.0) < 1e-9 }.map(\.sample.sensorName)
        #expect(atOne == ["mag", "gyro", "accel"])
        // The file really was out of order by ~4 s.
        var newest = -Double.infinity, worst = 0.0
        for r in fileOrder { let t = Double(r.time) / 100; worst = max(worst, newest - t); newest = max(newest, t) }
        #expect(worst > 3.9 && worst < 5)
    }

    @Test func equalTimesKeepFileOrder() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText([
            "1.0,frame,b.jpg,,,",
            "1.0,accel,0,0,9.8,",
            "0.5,gyro,0,0,0,",
            "1.0,gyro,0,0,0,",
            "1.0,frame,c.jpg,,,",
            "1.0,mag,1,2,3,",
        ]), to: "ties.csv", in: folder)
        #expect(try readAll(path).map(\.line) == [5, 3, 4, 6, 7, 8])
    }

    @Test func aRowTooFarBehindIsAnError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        var rows = (0...100).map { "\(Self.timeText($0 * 10)),gyro,0,0,0," }  // 0…10 s, lines 3…103
        // 4.9 s behind the newest row: still inside the window, accepted and sorted in.
        rows.append("5.1,accel,0,0,9.8,")                                    // line 104
        rows.append("2.0,mag,10,-20,-40,")                                   // line 105: 8 s behind
        let path = try write(logText(rows), to: "late.csv", in: folder)
        let error = expectInputError(path, line: 105, field: "time", containing: ["5.0 s"])

        // Without the late row, the accepted one is sorted in between the gyro rows.
        rows.removeLast()
        let ok = try write(logText(rows), to: "ok.csv", in: folder)
        let records = try readAll(ok)
        let accelIndex = try #require(records.firstIndex { $0.sample.sensorName == "accel" })
        #expect(records[accelIndex - 1].sample.time == 5.1)  // the gyro at 5.1 came first in the file
        #expect(records[accelIndex + 1].sample.time == 5.2)
        #expect(error != nil)
    }

    @Test func aStepBackWithinOneSensorIsAnError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText([
            "0.00,gyro,0,0,0,",
            "0.00,accel,0,0,9.8,",
            "0.10,gyro,0,0,0,",
            "0.20,gyro,0,0,0,",
            "0.05,accel,0,0,9.8,",   // fine: accel's own time goes forward
            "0.15,gyro,0,0,0,",      // line 8: gyro steps back from 0.2
            "0.30,gyro,0,0,0,",
        ]), to: "back.csv", in: folder)
        expectInputError(path, line: 8, field: "time", containing: ["gyro", "steps back", "0.2", "0.15", "line 6"])

        // Equal consecutive times within one sensor are not a step back.
        let equal = try write(logText(["0.1,gyro,0,0,0,", "0.1,gyro,1,1,1,"]), to: "equal.csv", in: folder)
        #expect(try readAll(equal).map(\.line) == [3, 4])
    }

    @Test func customReorderWindow() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,gyro,0,0,0,", "3.0,gyro,0,0,0,", "1.0,accel,0,0,9.8,"]), to: "w.csv", in: folder)
        // With a 1 s window, the gyro row at 0 is emitted once 3.0 is read: the accel at 1.0 is
        // still newer than anything emitted, so it is accepted.
        let reader = try SensorLogReader(path: path, reorderWindow: 1)
        var times: [Double] = []
        while let r = try reader.nextRecord() { times.append(r.sample.time) }
        #expect(times == [0, 1, 3])
    }

    /// Half a million rows (100 Hz gyro, accel and mag for 28 minutes, accel 1 s late): the
    /// reorder buffer must stay at one window's worth of samples. (Two million rows work the
    /// same but take ~20 s in a debug build.)
    @Test func memoryStaysBoundedOnALongLog() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = folder.appendingPathComponent("long.csv").path
        let seconds = 1_700
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(logText([]).utf8))
        var chunk = ""
        chunk.reserveCapacity(1 << 20)
        var rowCount = 0
        for second in 0..<seconds {
            for hundredth in 0..<100 {
                let cs = second * 100 + hundredth
                let t = Self.timeText(cs)
                chunk += t; chunk += ",gyro,0.0123,-0.0456,0.0078,\n"
                chunk += t; chunk += ",mag,12.5,-20.25,-41.0,\n"
                if cs >= 100 { chunk += Self.timeText(cs - 100); chunk += ",accel,0.15,9.78,0.31,\n" }
                rowCount += cs >= 100 ? 3 : 2
            }
            if second % 60 == 59 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
        try handle.close()
        #expect(rowCount > 500_000)

        let reader = try SensorLogReader(path: path)
        var count = 0, maxPending = 0
        var last = -Double.infinity
        var ordered = true
        while let r = try reader.nextRecord() {
            count += 1
            maxPending = max(maxPending, reader.pendingCount)
            if r.sample.time < last { ordered = false }
            last = r.sample.time
        }
        #expect(count == rowCount)
        #expect(ordered)
        // One 5 s window of 300 samples/s is 1500; anything near the log's size would be a leak.
        #expect(maxPending > 1_000)
        #expect(maxPending < 3_000, "reorder buffer reached \(maxPending) entries")
    }
}
