import ArgumentParser
import Foundation
import POIARCore

/// Comma-separated finite numbers, as `--at`, `--quat` or `--gyro-bias` take them; `what`
/// names the form expected ("LAT,LON", "W,X,Y,Z").
func commaNumbers(_ text: String, count: ClosedRange<Int>, what: String) throws(RefusedValue) -> [Double] {
    let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard count.contains(values.count), values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
        throw RefusedValue("expected \(what)")
    }
    return values.map { $0! }
}

extension GeoCoordinate {
    /// "LAT,LON", or "LAT,LON,ALT" when `altitude` is allowed: a valid WGS84 position.
    init(checking text: String, altitude: Bool) throws(RefusedValue) {
        let v = try commaNumbers(text, count: altitude ? 2...3 : 2...2, what: altitude ? "LAT,LON or LAT,LON,ALT" : "LAT,LON")
        self.init(latitude: v[0], longitude: v[1], altitude: v.count > 2 ? v[2] : nil)
        guard isValid else { throw RefusedValue("latitude must be in −90…90 and longitude in −180…180") }
    }
}

/// `--near LAT,LON`: a point on the map.
struct LatLon: CheckedArgument {
    let coordinate: GeoCoordinate
    init(checking text: String) throws(RefusedValue) { coordinate = try GeoCoordinate(checking: text, altitude: false) }
}

/// `--at LAT,LON[,ALT]`: degrees, and metres above the WGS84 ellipsoid.
struct Position: CheckedArgument {
    let coordinate: GeoCoordinate
    init(checking text: String) throws(RefusedValue) { coordinate = try GeoCoordinate(checking: text, altitude: true) }
}

/// `--waypoints "LAT,LON;LAT,LON;…"` (each may have ,ALT).
struct Waypoints: CheckedArgument {
    let points: [GeoCoordinate]
    init(checking text: String) throws(RefusedValue) {
        var points: [GeoCoordinate] = []
        for point in text.split(separator: ";") { points.append(try GeoCoordinate(checking: String(point), altitude: true)) }
        self.points = points
    }
}

/// `--quat W,X,Y,Z`: an attitude (device → ENU), normalised by `Pose`.
struct AttitudeQuaternion: CheckedArgument {
    let quaternion: Quaternion
    init(checking text: String) throws(RefusedValue) {
        let v = try commaNumbers(text, count: 4...4, what: "W,X,Y,Z")
        quaternion = Quaternion(w: v[0], x: v[1], y: v[2], z: v[3])
        guard quaternion.norm > 1e-6 else { throw RefusedValue("the quaternion has zero length") }
    }
}

/// `--gyro-bias X,Y,Z`, `--hard-iron X,Y,Z`: a vector in the device frame.
struct DeviceVector: CheckedArgument {
    let vector: Vector3
    init(checking text: String) throws(RefusedValue) {
        let v = try commaNumbers(text, count: 3...3, what: "X,Y,Z")
        vector = Vector3(v[0], v[1], v[2])
    }
}

/// `--gps-outage T0,T1`, `--gps-bad T0,T1`: seconds on the log's clock, T1 after T0.
struct TimeSpan: CheckedArgument {
    let start: Double, end: Double
    init(checking text: String) throws(RefusedValue) {
        let v = try commaNumbers(text, count: 2...2, what: "T0,T1 in s")
        try self.init(v[0], v[1])
    }
    init(_ start: Double, _ end: Double) throws(RefusedValue) {
        guard end > start else { throw RefusedValue("T1 must be after T0") }
        self.start = start; self.end = end
    }
}

/// `--mag-disturbance T0,T1,UT`: a span and the extra field's strength, µT.
struct FieldDisturbance: CheckedArgument {
    let span: TimeSpan, microtesla: Double
    init(checking text: String) throws(RefusedValue) {
        let v = try commaNumbers(text, count: 3...3, what: "T0,T1,µT")
        span = try TimeSpan(v[0], v[1])
        microtesla = v[2]
    }
}

/// `--intrinsics FX,FY,CX,CY`: a pinhole camera in pixels.
struct PinholeIntrinsics: CheckedArgument {
    let fx: Double, fy: Double, cx: Double, cy: Double
    init(checking text: String) throws(RefusedValue) {
        let v = try commaNumbers(text, count: 4...4, what: "FX,FY,CX,CY")
        guard v[0] > 0, v[1] > 0 else { throw RefusedValue("focal lengths must be > 0") }
        (fx, fy, cx, cy) = (v[0], v[1], v[2], v[3])
    }
}
