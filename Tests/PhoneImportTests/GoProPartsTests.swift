import Foundation
import Geodesy
import POIARCore
import Testing
@testable import PhoneImport

/// The GoPro import's parts on made-up streams: axes, timing, GPS.
@Suite struct GoProPartsTests {
    func stream(_ key: String, _ properties: [String: GPMFItem] = [:], samples: [[Double]] = []) -> GPMFStreamPayload {
        GPMFStreamPayload(key: key, device: "Test", samples: samples, properties: properties, offset: 0)
    }
    func text(_ key: String, _ s: String) -> GPMFItem {
        GPMFItem(key: key, type: UInt8(ascii: "c"), structSize: 1, repeatCount: s.utf8.count, offset: 0, data: Array(s.utf8), children: [])
    }
    func numbers(_ key: String, _ type: Character, _ values: [Double]) -> GPMFItem {
        let bytes: [UInt8]
        switch type {
        case "f": bytes = values.flatMap { KLV.f32(Float($0)) }
        case "L": bytes = values.flatMap { KLV.be32(Int($0)) }
        default: bytes = values.flatMap { KLV.be16(Int($0)) }
        }
        return GPMFItem(key: key, type: UInt8(type.asciiValue!), structSize: bytes.count / values.count, repeatCount: values.count,
                        offset: 0, data: bytes, children: [])
    }
    func axes(_ s: GPMFStreamPayload, model: String? = nil) throws -> GoProAxes {
        try GoProAxes.of(s, model: model, file: "clip.mp4", payload: "GPMF payload 1")
    }

    /// ORIN names each stored channel's camera axis, lower case negative: the MAX's "XzY".
    @Test func orinMapsStoredChannelsToTheCameraAxes() throws {
        let a = try axes(stream("ACCL", ["ORIN": text("ORIN", "XzY"), "ORIO": text("ORIO", "ZXY")]))
        #expect(a.toCamera * Vector3(1, 2, 3) == Vector3(1, 3, -2))
        #expect(a.source == "ORIN \"XzY\"")
        #expect(!a.assumed)
        // HERO7's "YxZ": channel 0 is +Y, 1 is −X, 2 is +Z (gpmf-parser issue #56).
        #expect(try axes(stream("ACCL", ["ORIN": text("ORIN", "YxZ")])).toCamera * Vector3(1, 2, 3) == Vector3(-2, 1, 3))
        let e = try #require(throws: (any Error).self) { try axes(stream("GYRO", ["ORIN": text("ORIN", "XXY")])) }
        #expect("\(e)" == "clip.mp4: GPMF payload 1: GYRO's ORIN \"XXY\" is not an axis order (X, Y and Z once each, lower case negative)")
    }

    /// MTRX is used only when it is a calibration (not just 0 and ±1), its output in ORIO's order.
    @Test func aCalibrationMatrixWinsOverORIN() throws {
        let permutation = numbers("MTRX", "f", [0, -1, 0, 1, 0, 0, 0, 0, 1])
        let orin = ["ORIN": text("ORIN", "XzY"), "ORIO": text("ORIO", "ZXY")]
        var props = orin
        props["MTRX"] = permutation
        #expect(try axes(stream("ACCL", props)).source == "ORIN \"XzY\"")
        props["MTRX"] = numbers("MTRX", "f", [0, -1, 0, 1, 0, 0, 0, 0, 2])
        let a = try axes(stream("ACCL", props))
        #expect(a.source == "MTRX (a calibration) in ORIO \"ZXY\"")
        // outputs (Z, X, Y) = (−c1, c0, 2·c2) → camera (X, Y, Z) = (c0, 2·c2, −c1).
        #expect(a.toCamera * Vector3(1, 2, 3) == Vector3(1, 6, -2))
    }

    /// Without ORIN, the order GoPro documents for the model.
    @Test func modelsWithoutORINGetTheirDocumentedOrder() throws {
        #expect(try axes(stream("ACCL"), model: "Camera").toCamera * Vector3(1, 2, 3) == Vector3(2, 3, 1))  // HERO5: Z, X, Y
        #expect(try axes(stream("ACCL"), model: "HERO6 Black").toCamera * Vector3(1, 2, 3) == Vector3(-2, 1, 3))  // Y, −X, Z
        #expect(try axes(stream("ACCL"), model: "Fusion").toCamera * Vector3(1, 2, 3) == Vector3(2, -1, 3))  // −Y, X, Z
        let unknown = try axes(stream("ACCL"), model: "HERO99")
        #expect(unknown.assumed)
        #expect(unknown.source.contains("HERO5's order"), "\(unknown.source)")
    }

    /// The camera's axes (X left, Y back, Z up) into poiar's device frame: gravity up the
    /// image, the lens along −z; a camera mounted upside down (image turned) the same way.
    @Test func cameraAxesToTheDeviceFrame() {
        let upright = GoProMount.upright.toDevice
        #expect(upright * Vector3(0, 0, 9.8) == Vector3(0, 9.8, 0))  // up → +y
        #expect(upright * Vector3(0, -1, 0) == Vector3(0, 0, -1))    // the lens (−Y) → −z
        #expect(upright * Vector3(-1, 0, 0) == Vector3(1, 0, 0))     // the camera's right → +x
        let upsideDown = GoProMount.upsideDown.toDevice
        #expect(upsideDown * Vector3(0, 0, -9.8) == Vector3(0, 9.8, 0))
        #expect(upsideDown * Vector3(0, -1, 0) == Vector3(0, 0, -1))
        for m in [upright, upsideDown] {  // proper rotations
            #expect(m.row0.cross(m.row1) == m.row2)
        }
        #expect(GoProMount.from(upInCamera: [Vector3(0, 1, 9), Vector3(0, 0, 9.8)]).mount == .upright)
        #expect(GoProMount.from(upInCamera: [Vector3(0, 1, -9), Vector3(0, 0, -9.8), Vector3(0, 0, 9.8)]).mount == .upsideDown)
    }

    /// Each payload's samples spread evenly to the next payload's time; the last payload's
    /// by the rate so far, or over the rest of the clip.
    @Test func samplesAreSpreadOverTheirPayloads() {
        let (times, how) = GoProTimeline.sampleTimes(starts: [0, 1.001, 2.002], counts: [4, 4, 2], clipEnd: 10)
        #expect(how == .rate)
        for (k, t) in [0, 0.25025, 0.5005, 0.75075].enumerated() { #expect(abs(times[0][k] - t) <= 1e-12) }
        #expect(abs(times[1][1] - (1.001 + 0.25025)) <= 1e-12)
        #expect(abs(times[2][1] - (2.002 + 0.25025)) <= 1e-12)  // 8 samples in 2.002 s
        let one = GoProTimeline.sampleTimes(starts: [0.5], counts: [3], clipEnd: 2)
        #expect(one.lastSpan == .clipEnd)
        #expect(one.times[0] == [0.5, 1, 1.5])
        #expect(GoProTimeline.sampleTimes(starts: [0], counts: [2], clipEnd: nil).lastSpan == .nominal)
        // A stream absent from a payload has no samples there; the others keep their times (the
        // last payload's rate counts the empty one: 2 samples in 2 s).
        let gap = GoProTimeline.sampleTimes(starts: [0, 1, 2], counts: [2, 0, 2], clipEnd: nil).times
        #expect(gap == [[0, 0.5], [], [2, 3]])
    }

    @Test func gpsuIsUTC() throws {
        let d = try #require(GoProGPS.parseGPSU("191118234514.470"))
        #expect(abs(d.timeIntervalSince1970 - 1_574_120_714.47) <= 1e-6)
        #expect(GoProGPS.parseGPSU("000000000000.000") == nil)  // before the GPS had the time
        #expect(GoProGPS.parseGPSU("19111823451") == nil)
        #expect(GoProGPS.parseGPSU("191318234514.000") == nil)
    }

    /// GPS5: the payload's GPSF decides for all its samples; DOP × UERE is the accuracy.
    @Test func fixesWithoutA2DOr3DFixAreCountedNotUsed() {
        var gps = GoProGPS()
        let fix = { (f: Double) in self.numbers("GPSF", "L", [f]) }
        let sample = [33.1267, -117.3273, -23.0, 1.0, 1.0]
        gps.add(stream("GPS5", ["GPSF": fix(0), "GPSP": numbers("GPSP", "S", [9999]), "GPSU": text("GPSU", "191118234514.000")],
                       samples: [sample, sample]), times: [0, 0.5], payloadStart: 0)
        gps.add(stream("GPS5", ["GPSF": fix(3), "GPSP": numbers("GPSP", "S", [154]), "GPSU": text("GPSU", "191118234516.000")],
                       samples: [sample, [0, 0, 0, 0, 0]]), times: [1, 1.5], payloadStart: 1)
        gps.settleStart()
        #expect(gps.withoutFix == 2)
        #expect(gps.withoutPosition == 1)
        #expect(gps.fixes.count == 1)
        #expect(gps.fixes[0].time == 1)
        #expect(abs((gps.fixes[0].horizontalAccuracy ?? 0) - (1.54 * GoProGPS.rangeErrorMetres)) <= 1e-9)
        // start_utc from the payload with a fix: 23:45:16 at 1 s.
        #expect(abs((gps.startUTC?.timeIntervalSince1970 ?? 0) - 1_574_120_715) <= 1e-6)
        #expect(gps.key == "GPS5")
    }

    /// GPS9: fix, DOP and time per sample.
    @Test func gps9CarriesItsOwnFixAndTime() {
        var gps = GoProGPS()
        // 2019-11-18 is day 7261 since 2000-01-01; 23:45:14.5 is 85514.5 s after midnight.
        let good = [33.1267, -117.3273, -23, 1, 1, 7261, 85514.5, 1.2, 3]
        let none = [33.1267, -117.3273, -23, 1, 1, 7261, 85515.0, 99, 0]
        gps.add(stream("GPS9", samples: [good, none]), times: [2, 2.5], payloadStart: 2)
        gps.settleStart()
        #expect(gps.fixes.count == 1)
        #expect(gps.withoutFix == 1)
        #expect(abs((gps.fixes[0].horizontalAccuracy ?? 0) - 3.6) <= 1e-9)
        #expect(abs((gps.startUTC?.timeIntervalSince1970 ?? 0) - (1_574_120_714.5 - 2)) <= 1e-6)
        #expect(gps.startUTCSource == "GPS9's time of each fix")
    }
}

/// The magnetometer's checks on a made-up clip: an upright camera turning 115° about up in
/// Helsinki, its field the Earth's (WMM2025), then 11 times too strong, then stuck.
@Suite struct GoProMagnetometerTests {
    let place = GeoCoordinate(latitude: 60.17, longitude: 24.95, altitude: 20)
    let date = Date(timeIntervalSince1970: 1_749_895_331)  // 2025-06-14

    func clip(field: (Quaternion, Vector3) -> Vector3) -> (field: [(time: Double, v: Vector3)], up: [(time: Double, v: Vector3)], gyro: GyroIntegration) {
        let model = WorldMagneticModel.wmm2025.field(latitude: place.latitude, longitude: place.longitude, heightKm: 0.02,
                                                    year: WorldMagneticModel.decimalYear(date))
        let rate = 0.5  // rad/s about up: counter-clockwise, so the heading falls
        var f: [(time: Double, v: Vector3)] = [], up: [(time: Double, v: Vector3)] = [], times: [Double] = [], rates: [Vector3] = []
        for k in 0..<800 {
            let t = Double(k) / 200
            times.append(t)
            rates.append(Vector3(0, rate, 0))
            let attitude = Pose(headingDeg: 30 - rate * t * 180 / .pi, pitchDeg: 0, rollDeg: 0).orientation
            up.append((t, attitude.conjugate.rotate(Vector3(0, 0, 9.81))))
            if k % 8 == 0 { f.append((t, field(attitude, model.enuMicrotesla))) }
        }
        return (f, up, GyroIntegration(times: times, rates: rates))
    }

    @Test func theEarthsFieldPasses() {
        let c = clip { q, b in q.conjugate.rotate(b) }
        guard case .usable(let said) = GoProMagnetometer.check(field: c.field, up: c.up, gyro: c.gyro, place: place, date: date) else {
            Issue.record("\(GoProMagnetometer.check(field: c.field, up: c.up, gyro: c.gyro, place: place, date: date))")
            return
        }
        #expect(said.contains("turns with the camera (its horizontal part within 0°)"), "\(said)")
    }

    @Test func aFieldOfAnotherScaleOrOneThatDoesNotTurnFails() {
        let strong = clip { q, b in q.conjugate.rotate(b) * 11 }
        guard case .unusable(let why) = GoProMagnetometer.check(field: strong.field, up: strong.up, gyro: strong.gyro, place: place, date: date) else {
            Issue.record("11× the Earth's field passed")
            return
        }
        #expect(why.contains("11.0× the 53 µT the Earth's field has here (WMM2025)"), "\(why)")
        // The field of the first instant, fixed in the camera: the right strength and dip, but it does not turn.
        let first = clip { _, b in Pose(headingDeg: 30, pitchDeg: 0, rollDeg: 0).orientation.conjugate.rotate(b) }
        guard case .unusable(let stuck) = GoProMagnetometer.check(field: first.field, up: first.up, gyro: first.gyro, place: place, date: date) else {
            Issue.record("a field that does not turn passed")
            return
        }
        #expect(stuck.hasPrefix("it does not turn with the camera (the camera turned 11"), "\(stuck)")
        #expect(GoProMagnetometer.check(field: first.field, up: first.up, gyro: first.gyro, place: nil, date: date) == .unusable("the clip has no GPS fix to check it against the Earth's field (WMM2025)"))
    }
}
