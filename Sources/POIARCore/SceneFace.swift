/// One face of a building as the camera sees it, for the map scene and the building outlines:
/// made in camera space (`BuildingScene`, in Projection), drawn with Cairo (Rendering).
public struct SceneFace: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A wall facing the camera.
        case wall
        /// The top of a building lower than the eye.
        case roof
        /// The bottom of a building part raised above the eye (`min_height`: a bridge, an overhang).
        case underside
    }

    public var kind: Kind
    /// The face's outline in image pixels, each ring closed implicitly; a roof or underside has
    /// one ring per footprint ring (courtyards too), filled even-odd. Already clipped to what is
    /// in front of the camera.
    public var rings: [[Point2]]
    /// Sunlight on the face: the cosine between its outward normal and the direction of the sun,
    /// 0 when it faces away (0…1).
    public var sunlight: Double
    /// Metres from the camera to the face (its middle), for the haze of distance.
    public var distance: Double
    /// The building's height was tagged (`height` or levels), not OSM's two-storey guess.
    public var heightKnown: Bool
    /// A wall's floors: a line across it at each storey (polylines in image pixels), on walls
    /// near enough for them to be apart.
    public var storeys: [[Point2]] = []

    public init(kind: Kind, rings: [[Point2]], sunlight: Double, distance: Double, heightKnown: Bool) {
        self.kind = kind; self.rings = rings; self.sunlight = sunlight; self.distance = distance; self.heightKnown = heightKnown
    }
}
