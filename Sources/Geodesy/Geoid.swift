import Foundation

/// The geoid poiar turns heights above sea level into heights above the WGS84 ellipsoid
/// with: h = H + N, N the geoid's undulation (`GeoidGrid`). poiar's positions are ellipsoidal
/// (`GeoCoordinate.altitude`, poiar-log/1's `gps` z); heights above sea level — OSM's `ele`,
/// phyphox's height, a GoPro's altitude when it says `GPSA` "MSLV" — go through
/// `ellipsoidalHeight(aboveSeaLevel:latitude:longitude:)`, the one conversion
/// (docs/altitude.md).
///
/// The grid is loaded on first use, at most once, by the closure given (GeodesyData's
/// `Geoid.system` reads `egm96_15.gtx`; Geodesy itself reads no file). Without a grid the
/// conversion leaves heights as they are — a height above sea level taken as ellipsoidal,
/// off by N (−107…+85 m with EGM96) — and `takeNotice()` says so once.
public final class Geoid: @unchecked Sendable {
    /// What loading gave: a grid, or why there is none.
    public enum Availability: Sendable {
        case grid(GeoidGrid)
        case unavailable(reason: String)
    }

    private let lock = NSLock()
    private let load: @Sendable () -> Availability
    private var loaded: Availability?
    /// Heights left unconverted (no grid, or a point outside it), and the first one's reason.
    private var fallbacks = 0
    private var fallbackReason: String?
    private var noticeTaken = false

    /// A geoid whose grid `load` gives on first use (called at most once).
    public init(load: @escaping @Sendable () -> Availability) { self.load = load }

    /// A geoid with its grid at hand.
    public convenience init(grid: GeoidGrid) { self.init(load: { .grid(grid) }) }

    /// No geoid: heights above sea level are used as they are, for `reason`.
    public static func unavailable(_ reason: String) -> Geoid { Geoid(load: { .unavailable(reason: reason) }) }

    /// The grid, loaded now if it was not yet.
    public var availability: Availability {
        lock.lock(); defer { lock.unlock() }
        return loadedLocked()
    }

    private func loadedLocked() -> Availability {
        if let loaded { return loaded }
        let a = load()
        loaded = a
        return a
    }

    public var grid: GeoidGrid? {
        if case .grid(let g) = availability { return g }
        return nil
    }

    /// What converts heights, in a few stable words for cache keys and metadata: the grid's
    /// file and size (`/usr/share/proj/egm96_15.gtx 721x1440`), or `none`.
    public var identity: String {
        guard let g = grid else { return "none" }
        return "\(g.name) \(g.rows)x\(g.columns)"
    }

    /// The height above the WGS84 ellipsoid of a point `height` metres above sea level (the
    /// geoid) at `latitude`, `longitude`: H + N. Without a grid, or outside it, `height` itself
    /// (taken as ellipsoidal), counted for `takeNotice()`.
    public func ellipsoidalHeight(aboveSeaLevel height: Double, latitude: Double, longitude: Double) -> Double {
        lock.lock(); defer { lock.unlock() }
        switch loadedLocked() {
        case .grid(let g):
            if let n = g.undulation(latitude: latitude, longitude: longitude) { return height + n }
            fellBack("\(g.name) has no geoid height at \(latitude)°, \(longitude)°")
        case .unavailable(let reason):
            fellBack(reason)
        }
        return height
    }

    /// As `ellipsoidalHeight(aboveSeaLevel:latitude:longitude:)`, saying through `notice`
    /// (once for this geoid) when a height is left unconverted.
    public func ellipsoidalHeight(aboveSeaLevel height: Double, latitude: Double, longitude: Double,
                                  notice: (String) -> Void) -> Double {
        let h = ellipsoidalHeight(aboveSeaLevel: height, latitude: latitude, longitude: longitude)
        if let n = takeNotice() { notice(n) }
        return h
    }

    /// How many heights were left unconverted so far (no grid, or a point outside it).
    public var unconvertedHeights: Int {
        lock.lock(); defer { lock.unlock() }
        return fallbacks
    }

    private func fellBack(_ reason: String) {
        fallbacks += 1
        if fallbackReason == nil { fallbackReason = reason }
    }

    /// The notice that heights above sea level were used as ellipsoidal heights, the first time
    /// it is asked after that happened; nil before, and after it was given once.
    public func takeNotice() -> String? {
        lock.lock(); defer { lock.unlock() }
        guard fallbacks > 0, !noticeTaken, let reason = fallbackReason else { return nil }
        noticeTaken = true
        return "no geoid model: \(reason); heights above sea level (OSM ele, phyphox heights, …) are used as heights above the WGS84 ellipsoid, off by the geoid's height there (tens of metres in places; docs/altitude.md)"
    }
}
