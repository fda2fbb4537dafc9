import Foundation
import POIARCore
import Testing
@testable import SensorLog

/// The optional `orientation` row (the phone's own attitude): x, y, z = the unit quaternion's
/// vector part with w ≥ 0.
@Suite("SensorLogReader: orientation rows")
struct OrientationRowTests {
    static let q = Quaternion(w: 0.614154455, x: 0.783902980, y: 0.075307448, z: 0.051373250).normalized

    /// Written by `SensorLogFormat` and read back (fast path, and the general one with spaces):
    /// the same rotation, within the 9 decimals written.
    @Test func aWrittenRowReadsBack() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let negative = Quaternion(w: -Self.q.w, x: -Self.q.x, y: -Self.q.y, z: -Self.q.z)  // the same rotation, w < 0
        let row = SensorLogFormat.row(.orientation(time: 0.01, attitude: negative))
        #expect(row == "0.010000,orientation,0.783902980,0.075307448,0.051373250,")
        let nearHalfTurn = Quaternion(w: 1e-7, x: 0.6, y: 0.8, z: 0).normalized
        let rows = [row, " 0.02 , orientation , 0.783902980 , 0.075307448 , 0.051373250 , 3",
                    SensorLogFormat.row(.orientation(time: 0.03, attitude: nearHalfTurn))]
        let records = try readAll(try write(logText(rows), to: "o.csv", in: folder))
        #expect(records.count == 3)
        for (r, expected) in zip(records, [Self.q, Self.q, nearHalfTurn]) {
            guard case .orientation(_, let a) = r.sample else { Issue.record("not an orientation: \(r)"); continue }
            let e = (a * expected.conjugate).normalized
            #expect(2 * acos(min(1, abs(e.w))) < 1e-4, "\(a) vs \(expected)")
            #expect(a.w >= 0 && abs(a.norm - 1) < 1e-12)
        }
        #expect(records.map(\.sample.sensorName) == ["orientation", "orientation", "orientation"])
    }

    /// A vector part longer than 1 is no unit quaternion's: an error naming line and field.
    @Test func aVectorPartLongerThanOneIsAnError() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.0,gyro,0,0,0,", "0.01,orientation,0.8,0.7,0,"]), to: "o.csv", in: folder)
        _ = expectInputError(path, line: 4, field: "x", containing: ["unit quaternion's vector part", "length"])
        let nan = try write(logText(["0.01,orientation,nan,0,0,"]), to: "n.csv", in: folder)
        _ = expectInputError(nan, line: 3, field: "x", containing: ["finite"])
    }

    /// Within one sensor, time may not step back, as for the others.
    @Test func orientationTimeMayNotStepBack() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let path = try write(logText(["0.02,orientation,0,0,0,", "0.01,orientation,0,0,0,"]), to: "o.csv", in: folder)
        _ = expectInputError(path, line: 4, field: "time", containing: ["orientation time steps back"])
    }
}

@Suite("DecimalText")
struct DecimalTextTests {
    /// Whole fields: the exact fast path and strtod agree with Swift's own parsing, and what is
    /// not a number is nil.
    @Test func fieldsParseLikeDouble() {
        func parse(_ s: String, comma: Bool = false) -> Double? {
            Array(s.utf8).withUnsafeBufferPointer { DecimalText.parse($0, decimalComma: comma) }
        }
        for s in ["0", "-0", "1.5", "-2.4327874183654785", "0.0017102050781261369", "1.234567890E-1", "9.807E0", "1e22",
                  "1e23", "123456789012345678901234", "0x1p3", "4.9e-324", "1.7976931348623157e308", "000123.4500"] {
            #expect(parse(s)?.bitPattern == Double(s)!.bitPattern, "\(s)")
        }
        for s in ["", " 1", "1 ", "abc", "1e", "1.2.3", "--1", "1,5", "\u{0}1"] { #expect(parse(s) == nil, "\(s)") }
        #expect(parse("1,5", comma: true) == 1.5)
        #expect(parse("-1,25E1", comma: true) == -12.5)
        #expect(parse("inf")?.isInfinite == true && parse("nan")?.isNaN == true)
    }

    /// Many random decimals (1–19 significant digits, the point anywhere, exponents to ±45):
    /// the fast path (Clinger's, then Eisel–Lemire's) rounds exactly as Swift's parser does.
    @Test func randomDecimalsParseExactly() {
        var rng = SplitMix64(seed: 42)
        var texts = ["9007199254740993", "9007199254740995", "9007199254740993e-5", "2.2250738585072014e-308",
                     "123456789012345678e-30", "9999999999999999999", "0.30000000000000004", "-2.4327874183654785",
                     "8.4e-41", "1.7976931348623157e308", "5e-324", "1e-40", "1e40", "9999999999999999999e40",
                     // Leading zeros are not significant digits; zeros after the first digit are.
                     "00000000000000000000001.5", "0.0000000000000000000000001234567890123456789", "0000.0000", "-000",
                     "100000000000000000000", "0.0031957", "-0.0000000", "10000000000000000000.5"]
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 19) + 1
            var d = (0..<digits).map { _ in String(rng.next() % 10) }.joined()
            if rng.next() % 2 == 0 { let at = Int(rng.next() % UInt64(digits + 1)); d.insert(".", at: d.index(d.startIndex, offsetBy: at)) }
            if rng.next() % 3 == 0 { d += "e\(Int(rng.next() % 91) - 45)" }
            texts.append((rng.next() % 2 == 0 ? "-" : "") + d)
        }
        var mismatches: [String] = []
        for t in texts where t != "." && t != "-." && !t.hasPrefix(".e") && !t.hasPrefix("-.e") {
            let mine = Array(t.utf8).withUnsafeBufferPointer { b -> Double? in
                var i = 0
                return DecimalText.scan(b, &i).flatMap { i == b.count ? $0 : nil } ?? DecimalText.parse(b)
            }
            if mine?.bitPattern != Double(t)?.bitPattern { mismatches.append("\(t): \(String(describing: mine)) vs \(String(describing: Double(t)))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func integers() {
        func int(_ s: String) -> Int64? { Array(s.utf8).withUnsafeBufferPointer { DecimalText.integer($0) } }
        #expect(int("1749895331000000000") == 1_749_895_331_000_000_000)
        #expect(int("-9223372036854775808") == Int64.min && int("9223372036854775807") == Int64.max)
        #expect(int("9223372036854775808") == nil && int("1.5") == nil && int("") == nil && int("-") == nil)
    }
}
