/// A building as an obstacle to sight: its footprint extruded from `minHeight` to `height`
/// metres above the ground (OSM `building=*` ways and multipolygon relations).
///
/// Heights are above the local ground, not above sea level or the ellipsoid: OSM's
/// `height` and `min_height` are measured from the ground at the building's foot.
public struct Building: Equatable, Sendable {
    /// Where the height came from, so that users can tell measured from guessed.
    public enum HeightSource: String, Equatable, Sendable {
        /// `height` or `building:height`.
        case height
        /// `building:levels` × the storey height (plus roof levels).
        case levels
        /// Neither was tagged: the documented default.
        case assumed
    }

    /// Stable id of the source element: `osm:way/<id>` or `osm:relation/<id>`.
    public var id: String
    /// Outer rings, each in order without repeating the first vertex at the end.
    public var outer: [[GeoCoordinate]]
    /// Inner rings (courtyards): not part of the building.
    public var inner: [[GeoCoordinate]]
    /// Bottom of the building's volume above the ground, metres (`min_height`; 0 for most).
    public var minHeight: Double
    /// Top of the building above the ground, metres.
    public var height: Double
    public var heightSource: HeightSource

    public init(id: String, outer: [[GeoCoordinate]], inner: [[GeoCoordinate]] = [], minHeight: Double = 0,
                height: Double, heightSource: HeightSource) {
        self.id = id; self.outer = outer; self.inner = inner
        self.minHeight = minHeight; self.height = height; self.heightSource = heightSource
    }
}
