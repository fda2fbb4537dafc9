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

/// A GPS fix: position with horizontal accuracy (metres, nil when unknown) at a log time, and
/// the receiver's own ground speed and course when the source gives them (Sensor Logger's
/// `speed`/`bearing`, GoPro's GPS5 2-D speed, a log's `gps_velocity` row): measured from the
/// carrier's Doppler shift, not from the positions, so they hold where the positions wander
/// (the position smoother's vehicle term, docs/position.md).
public struct GPSFix: Equatable, Sendable {
    public var time: Double
    public var coordinate: GeoCoordinate
    public var horizontalAccuracy: Double?
    /// Ground speed, m/s; nil when unknown.
    public var speed: Double?
    /// The speed's 68 % accuracy, m/s; nil when unknown.
    public var speedAccuracy: Double?
    /// Course over ground, degrees clockwise from true north; nil when unknown (or meaningless:
    /// a receiver standing still).
    public var course: Double?
    public init(time: Double, coordinate: GeoCoordinate, horizontalAccuracy: Double?,
                speed: Double? = nil, speedAccuracy: Double? = nil, course: Double? = nil) {
        self.time = time; self.coordinate = coordinate; self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed; self.speedAccuracy = speedAccuracy; self.course = course
    }
}

/// The device's positions over a recording (a replay's `GPSTrack`), as the outputs drawn or
/// exported from it read them: the fixes in time order, and the position at any log time.
public protocol PositionTrack: Sendable {
    var fixes: [GPSFix] { get }
    /// The position at `time`, between the fixes around it; nil when there is none.
    func location(at time: Double) -> GPSFix?
    /// The position at `time` with its uncertainty and the raw fix beside it, when the track
    /// is smoothed (default: `location(at:)` alone).
    func estimate(at time: Double) -> PositionEstimate?
    /// The positions the track passes through, in time order: a smoothed track's own, else
    /// the fixes (each with `sigma` nil).
    var path: [PositionEstimate] { get }
}

extension PositionTrack {
    public func estimate(at time: Double) -> PositionEstimate? { location(at: time).map { PositionEstimate(location: $0) } }
    public var path: [PositionEstimate] { fixes.map { PositionEstimate(location: $0) } }
}

/// Where a smoothed track puts the device at one time: the position (its `horizontalAccuracy`
/// the fixes' stated one there), the radius that holds its error 68 % of the time, and the raw
/// GPS fix at that time (interpolated), kept beside it.
public struct PositionEstimate: Equatable, Sendable {
    public var location: GPSFix
    /// The 68 % horizontal radius of the position's error, m; nil when not estimated.
    public var sigma: Double?
    public var gps: GPSFix?
    public init(location: GPSFix, sigma: Double? = nil, gps: GPSFix? = nil) {
        self.location = location; self.sigma = sigma; self.gps = gps
    }
}
