/// A WGS84 geodetic position: latitude and longitude in degrees, altitude in
/// metres above the ellipsoid (nil when unknown) — never above sea level: importers turn a
/// height above sea level (OSM `ele`, phyphox's height) into this one through the geoid
/// (Geodesy's `Geoid`, docs/altitude.md).
public struct GeoCoordinate: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
    }

    /// Latitude in [−90, 90], longitude in [−180, 180], all finite.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && (altitude?.isFinite ?? true)
    }

    public var description: String {
        if let a = altitude { return "\(latitude),\(longitude),\(a)" }
        return "\(latitude),\(longitude)"
    }
}

/// A GPS fix: position with horizontal accuracy (metres, nil when unknown) at a log time.
public struct GPSFix: Equatable, Sendable {
    public var time: Double
    public var coordinate: GeoCoordinate
    public var horizontalAccuracy: Double?
    public init(time: Double, coordinate: GeoCoordinate, horizontalAccuracy: Double?) {
        self.time = time; self.coordinate = coordinate; self.horizontalAccuracy = horizontalAccuracy
    }
}

/// The device's positions over a recording (a replay's `GPSTrack`), as the outputs drawn or
/// exported from it read them: the fixes in time order, and the position at any log time.
public protocol PositionTrack: Sendable {
    var fixes: [GPSFix] { get }
    /// The position at `time`, between the fixes around it; nil when there is none.
    func location(at time: Double) -> GPSFix?
}
