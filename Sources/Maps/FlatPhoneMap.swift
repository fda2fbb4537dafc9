import Foundation
import Geodesy
import POIARCore
import POIStore
import Rendering

/// What a frame shows while the phone points at the ground (`FlatViewSwitch`): a north-up map
/// centred on the device, `metresAcross` across the frame's shorter side, with the base map
/// of the POI source (streets, buildings; a grid for other sources), the track walked so
/// far (a smoothed track over its 68 % band, the raw fixes faintly), the device as a blue dot with a cone toward where the user faces (`facingAzimuth`),
/// and the frame's POIs as category badges, the nearest `labelledPlaces` named.
///
/// Built once per replay: the base map is kept only near the track and in a fixed local
/// east/north frame, so a frame costs a shift and a scale of the features in view.
public struct FlatPhoneMap: Sendable {
    /// Ground metres across the frame's shorter side (±150 m around the device: a few
    /// blocks, the distance a pedestrian judges by eye).
    public static let metresAcross = 300.0
    /// How many of the nearest POIs on the map are named.
    public static let labelledPlaces = 8

    struct Feature: Sendable {
        var kind: MapFeature.Kind
        var points: [(e: Double, n: Double)]
        var minE: Double, maxE: Double, minN: Double, maxN: Double
    }

    private let plane: LocalTangentPlane
    private let features: [Feature]
    private let hasBaseMap: Bool
    /// The path walked (a smoothed track's own, else the fixes) and the raw fixes when smoothed.
    private let fixes: [(time: Double, e: Double, n: Double, sigma: Double?)]
    private let rawFixes: [(time: Double, e: Double, n: Double)]

    /// - Parameters:
    ///   - baseMap: the POI source's streets and buildings (nil: a grid); only those within
    ///     `metresAcross` of the track are kept.
    ///   - track: the replay's GPS track.
    public init(baseMap: [MapFeature]?, track: any PositionTrack) {
        let first = track.fixes.first?.coordinate ?? GeoCoordinate(latitude: 0, longitude: 0)
        let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: first.latitude, longitude: first.longitude, altitude: 0))
        func en(_ c: GeoCoordinate) -> (e: Double, n: Double) {
            let v = plane.enu(GeoCoordinate(latitude: c.latitude, longitude: c.longitude, altitude: 0))
            return (v.x, v.y)
        }
        let path = track.path
        let fixes = path.map { f -> (time: Double, e: Double, n: Double, sigma: Double?) in
            let p = en(f.location.coordinate)
            return (f.location.time, p.e, p.n, f.sigma)
        }
        rawFixes = path.contains { $0.sigma != nil }
            ? track.fixes.map { f in let p = en(f.coordinate); return (f.time, p.e, p.n) } : []
        let reach = Self.metresAcross
        let minE = (fixes.map(\.e).min() ?? 0) - reach, maxE = (fixes.map(\.e).max() ?? 0) + reach
        let minN = (fixes.map(\.n).min() ?? 0) - reach, maxN = (fixes.map(\.n).max() ?? 0) + reach
        var kept: [Feature] = []
        for feature in baseMap ?? [] {
            let points = feature.points.map(en)
            let es = points.map(\.e), ns = points.map(\.n)
            guard let e0 = es.min(), let e1 = es.max(), let n0 = ns.min(), let n1 = ns.max(),
                  e1 >= minE, e0 <= maxE, n1 >= minN, n0 <= maxN else { continue }
            kept.append(Feature(kind: feature.kind, points: points, minE: e0, maxE: e1, minN: n0, maxN: n1))
        }
        self.plane = plane
        self.features = kept
        self.hasBaseMap = baseMap != nil
        self.fixes = fixes
    }

    /// The map at log time `time` and `position`, with `places` (the frame's POIs and their
    /// distances, nearest first), drawn `width` × `height`, the cone `halfAngleDeg` either side
    /// of `facing` (degrees from north; nil: no cone).
    /// `clock`: the time as the HUD shows it ("10:02:41 UTC"), said in the caption with the speed.
    public func drawing(at time: Double, position: GeoCoordinate, places: [(poi: POI, distance: Double)], facing: Double?,
                        halfAngleDeg: Double, width: Int, height: Int, clock: String? = nil) -> MapDrawing {
        let metresPerPixel = Self.metresAcross / Double(min(width, height))
        let here = plane.enu(GeoCoordinate(latitude: position.latitude, longitude: position.longitude, altitude: 0))
        let halfE = Double(width) / 2 * metresPerPixel, halfN = Double(height) / 2 * metresPerPixel
        func pixel(_ e: Double, _ n: Double) -> Point2 {
            Point2(Double(width) / 2 + (e - here.x) / metresPerPixel, Double(height) / 2 - (n - here.y) / metresPerPixel)
        }
        var map = MapDrawing(width: width, height: height, metresPerPixel: metresPerPixel, hasBaseMap: hasBaseMap)
        for f in features where f.maxE >= here.x - halfE && f.minE <= here.x + halfE && f.maxN >= here.y - halfN && f.minN <= here.y + halfN {
            map.add(f.kind, points: f.points.map { pixel($0.e, $0.n) })
        }
        let walked = fixes.prefix { $0.time <= time }
        map.track = walked.map { pixel($0.e, $0.n) } + [pixel(here.x, here.y)]
        if !rawFixes.isEmpty {
            // The band's last circle is the current position's, at the last estimate's radius.
            map.trackSigma = walked.map { ($0.sigma ?? 0) / metresPerPixel } + [(walked.last?.sigma ?? 0) / metresPerPixel]
            map.rawFixes = rawFixes.prefix { $0.time <= time }.map { pixel($0.e, $0.n) }
        }
        let centre = pixel(here.x, here.y)
        if let facing {
            map.cones = [.init(apex: centre, heading: facing, halfAngle: halfAngleDeg, length: Double(min(width, height)) / 5)]
        }
        map.position = centre
        // POIs on the map, the nearest drawn last (on top) and named first.
        let onMap = places.compactMap { a -> ((poi: POI, distance: Double), Point2)? in
            let v = plane.enu(GeoCoordinate(latitude: a.poi.coordinate.latitude, longitude: a.poi.coordinate.longitude, altitude: 0))
            let p = pixel(v.x, v.y)
            guard p.x >= 0, p.y >= 0, p.x <= Double(width), p.y <= Double(height) else { return nil }
            return (a, p)
        }  // nearest first, as the places are
        let named = Set(onMap.prefix(Self.labelledPlaces).map(\.0.poi.id))
        map.places = onMap.reversed().map { a, p in
            MapDrawing.Place(point: p, category: a.poi.category,
                             label: named.contains(a.poi.id) ? "\(a.poi.labelText) · \(formatDistance(a.distance))" : nil)
        }
        // No street or building in view: the map says "No map data" over its grid.
        map.hasBaseMap = !map.areas.isEmpty || !map.lines.isEmpty
        let osm = map.hasBaseMap || places.contains { $0.poi.id.hasPrefix("osm:") }
        map.attribution = osm ? "© OpenStreetMap contributors" : nil
        // The camera view's HUD is not drawn over a map: the caption carries speed and time.
        map.caption = (["Phone pointing down: map view"] + [speed(at: time).map { String(format: "%.1f km/h", $0 * 3.6) }, clock]
            .compactMap { $0 }).filter { !$0.isEmpty }.joined(separator: " · ")
        return map
    }

    /// Ground speed, m/s, over the GPS fixes within `window` seconds either side of `time`
    /// (nil with fewer than two).
    func speed(at time: Double, window: Double = 2) -> Double? {
        let near = fixes.filter { abs($0.time - time) <= window }
        guard let a = near.first, let b = near.last, b.time - a.time > 0.5 else { return nil }
        var metres = 0.0
        for (p, q) in zip(near, near.dropFirst()) { metres += hypot(q.e - p.e, q.n - p.n) }
        return metres / (b.time - a.time)
    }
}
