import Foundation
import Geodesy
import POIARCore

/// A GoPro's GPS fixes, from `GPS5` (HERO5 to HERO10, MAX, and HERO11 beside GPS9) or `GPS9`
/// (HERO11 and later), as the gpmf-parser README documents them:
///
/// - `GPS5`: latitude, longitude (°), altitude (m, WGS84), 2-D and 3-D speed (m/s), divided by
///   `SCAL`; about 18 per second, spread over the payload like any stream. The payload's
///   `GPSF` (fix: 0 none, 2 2-D, 3 3-D), `GPSP` (dilution of precision × 100) and `GPSU` (UTC,
///   "yymmddhhmmss.sss") apply to all of its samples.
/// - `GPS9`: the same five, then days since 2000-01-01, seconds since midnight (UTC), DOP and
///   fix, per sample (`TYPE` "lllllllSS"); poiar prefers it to GPS5 when a camera has both.
/// - `GPSA` "MSLV": the altitude is above mean sea level, not the ellipsoid (newer cameras);
///   turned into the ellipsoidal height poiar's `gps` z is through the geoid
///   (`convertSeaLevelAltitudes`), and said in the import's notes. Without `GPSA`, or with
///   "WGS8", it is the WGS84 ellipsoidal height GoPro documents for GPS5 (gpmf-parser README,
///   and its issue 4: "the height above the ellipsoid WGS84"), used as it is.
///
/// **Accuracy.** GoPro gives a dilution of precision, not an accuracy. poiar writes
/// horizontal accuracy = DOP × `rangeErrorMetres` (the user equivalent range error, UERE: the
/// 1-σ error of one satellite's range, which the DOP scales into a position error), comparable
/// to a phone's 68 % radius. Fixes without a 2-D or 3-D fix, or with no position, are not
/// used, and counted.
public struct GoProGPS: Sendable {
    /// The UERE poiar assumes, m: of the order of a modern single-frequency receiver's range
    /// error under open sky (GoPro states none).
    public static let rangeErrorMetres = 3.0
    /// GPS time of day counts from 2000-01-01 00:00:00 UTC in GPS9.
    static let gps9Epoch = Date(timeIntervalSince1970: 946_684_800)

    /// The fixes used, in time order.
    public var fixes: [GPSFix] = []
    /// Samples without a 2-D or 3-D fix (GPSF or GPS9's fix below 2), not used.
    public var withoutFix = 0
    /// Samples with a fix but no valid position (latitude 0 and longitude 0, or out of range).
    public var withoutPosition = 0
    /// The stream read (`GPS9` or `GPS5`), nil when the clip has none.
    public var key: String?
    /// The clip's time 0 in UTC, from GPS9's sample times or the payloads' GPSU.
    public var startUTC: Date?
    /// How `startUTC` was found, for the notes.
    public var startUTCSource: String?
    /// The range of the DOPs of the fixes used.
    public var dopRange: ClosedRange<Double>?
    /// The altitude's reference when it is not the ellipsoid (`GPSA`).
    public var altitudeReference: String?
    /// True when `GPSA` says "MSLV": the altitudes read are above mean sea level.
    public var altitudeAboveSeaLevel = false
    /// The geoid that made the altitudes ellipsoidal (`convertSeaLevelAltitudes`), if it did.
    public var altitudeConversion: String?

    public init() {}

    /// Adds one payload's samples of `stream` (GPS5 or GPS9) taken at `times`, the payload
    /// starting at `payloadStart`.
    mutating func add(_ stream: GPMFStreamPayload, times: [Double], payloadStart: Double) {
        key = stream.key
        if let gpsa = stream.properties["GPSA"].map({ String(decoding: $0.data.prefix(4), as: UTF8.self) }), gpsa != "WGS8" {
            altitudeReference = gpsa == "MSLV" ? "mean sea level (GPSA MSLV)" : "GPSA \"\(gpsa)\""
            altitudeAboveSeaLevel = gpsa == "MSLV"
        }
        let isGPS9 = stream.key == "GPS9"
        // GPS5: one fix and DOP for the payload; GPSU dates it.
        let payloadFix = stream.number("GPSF")
        let payloadDOP = stream.number("GPSP").map { $0 / 100 }
        if !isGPS9, let gpsu = stream.text("GPSU"), let utc = Self.parseGPSU(gpsu) {
            payloadTimes.append((utc.timeIntervalSince1970 - payloadStart, (payloadFix ?? 3) >= 2))
        }
        for (k, s) in stream.samples.enumerated() where k < times.count {
            guard s.count >= (isGPS9 ? 9 : 3) else { withoutPosition += 1; continue }
            let fix = isGPS9 ? s[8] : payloadFix
            let dop = isGPS9 ? s[7] : payloadDOP
            if let fix, fix < 2 { withoutFix += 1; continue }
            let c = GeoCoordinate(latitude: s[0], longitude: s[1], altitude: s[2].isFinite ? s[2] : nil)
            guard c.isValid, !(c.latitude == 0 && c.longitude == 0) else { withoutPosition += 1; continue }
            if isGPS9, s[5] > 0 {
                let utc = Self.gps9Epoch.addingTimeInterval(s[5] * 86_400 + s[6])
                sampleStarts.append(utc.timeIntervalSince1970 - times[k])
            }
            let accuracy = dop.flatMap { $0 > 0 ? $0 * Self.rangeErrorMetres : nil }
            if let dop, dop > 0 { dopRange = dopRange.map { min($0.lowerBound, dop)...max($0.upperBound, dop) } ?? dop...dop }
            // GPS5 and GPS9 both carry the 2-D ground speed (m/s) fourth; no course.
            let speed = s.count > 3 && s[3].isFinite && s[3] >= 0 ? s[3] : nil
            fixes.append(GPSFix(time: times[k], coordinate: c, horizontalAccuracy: accuracy, speed: speed))
        }
    }

    /// Makes the fixes' altitudes above sea level (`GPSA` "MSLV") ellipsoidal: + N from
    /// `geoid`; without its grid they stay as they are and `notice` says so.
    mutating func convertSeaLevelAltitudes(geoid: Geoid, notice: (String) -> Void) {
        guard altitudeAboveSeaLevel else { return }
        for i in fixes.indices {
            let c = fixes[i].coordinate
            guard let h = c.altitude else { continue }
            fixes[i].coordinate.altitude = geoid.ellipsoidalHeight(aboveSeaLevel: h, latitude: c.latitude, longitude: c.longitude,
                                                                   notice: notice)
        }
        altitudeConversion = geoid.grid.map { "+ the geoid's height (\(URL(fileURLWithPath: $0.name).lastPathComponent))" }
            ?? "taken as ellipsoidal: no geoid model"
    }

    /// Each GPS5 payload's GPSU minus its start time, and whether it had a fix.
    private var payloadTimes: [(start: Double, fixed: Bool)] = []
    /// Each GPS9 fix's UTC minus its log time.
    private var sampleStarts: [Double] = []

    /// Settles `startUTC`: the median over GPS9's fixes, else over the GPS5 payloads with a
    /// fix (else all with a GPSU) of UTC minus log time. GoPro does not say which instant of
    /// the payload GPSU is; the median over payloads keeps one odd GPSU out (the sample clip's
    /// first is 1.4 s before the others').
    mutating func settleStart() {
        func median(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.sorted()[v.count / 2] }
        if let m = median(sampleStarts) {
            startUTC = Date(timeIntervalSince1970: m)
            startUTCSource = "GPS9's time of each fix"
        } else if let m = median(payloadTimes.filter(\.fixed).map(\.start)) {
            startUTC = Date(timeIntervalSince1970: m)
            startUTCSource = "GPSU of the payloads with a fix (median)"
        } else if let m = median(payloadTimes.map(\.start)) {
            startUTC = Date(timeIntervalSince1970: m)
            startUTCSource = "GPSU without a fix (the camera's clock)"
        }
    }

    /// GPSU's "yymmddhhmmss.sss" (UTC, years 2000–2099) as a date; nil when malformed or
    /// before 2016 (the first GPMF camera), as a GPSU written before the GPS had the time is.
    static func parseGPSU(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.count >= 12, t.prefix(12).allSatisfy(\.isNumber) else { return nil }
        let digits = Array(t)
        func field(_ i: Int) -> Int { Int(String(digits[i..<i + 2]))! }
        var parts = DateComponents()
        parts.year = 2000 + field(0); parts.month = field(2); parts.day = field(4)
        parts.hour = field(6); parts.minute = field(8); parts.second = field(10)
        guard parts.year! >= 2016, (1...12).contains(parts.month!), (1...31).contains(parts.day!),
              parts.hour! < 24, parts.minute! < 60, parts.second! < 61 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let whole = calendar.date(from: parts) else { return nil }
        let fraction = t.count > 12 ? Double("0" + t.dropFirst(12)) ?? 0 : 0
        return whole.addingTimeInterval(fraction)
    }
}
