import Foundation
import Geodesy
import POIARCore
import POIStore
import Projection
import Rendering

/// `poiar map`, `replay --map` and `merge --map`: a north-up map of a replay — the GPS track, a view cone every
/// few seconds, the POIs around it coloured by category — over the streets and buildings of an
/// OSM extract, or a plain grid without one. (The log read and fused for it: Replay's
/// `TrackMap.run`; a finished folder's frames.jsonl read for it: `TrackMap.writeForFolder`.)
public enum TrackMap {
    /// What a map shows, for the command's report.
    public struct MapSummary: Sendable, CustomStringConvertible {
        public var widthPixels: Int, heightPixels: Int
        public var metresPerPixel: Double
        public var pois: Int, cones: Int, baseMapFeatures: Int?
        public var description: String {
            "\(widthPixels)×\(heightPixels) px, \(String(format: "%.2f", metresPerPixel)) m/px, \(pois) POIs, \(cones) view cones, "
                + (baseMapFeatures.map { "\($0) streets/buildings/areas" } ?? "no base map (grid)")
        }
    }

    /// The features of an OSM extract; nil for other sources (a grid is drawn).
    public static func baseMapFeatures(_ path: String) throws -> [MapFeature]? {
        try BaseMap.read(URL(fileURLWithPath: path))
    }

    /// `--basemap FILE` of `report` and `merge`: the streets and buildings of an OSM extract;
    /// any other file is refused (it would draw nothing under the track without saying why).
    public static func osmBaseMap(_ path: String) throws -> [MapFeature] {
        guard let features = try baseMapFeatures(path) else {
            throw InputError(file: path, "is not an OSM extract (a poiar database, CSV, GeoJSON and Places answers have no streets): --basemap takes OSM PBF, OSM XML or Overpass JSON")
        }
        return features
    }

    /// Where a map lies: a north-up local east/north frame at the middle of a track's fixes,
    /// the fixes' box plus `margin` metres, `longestSide` pixels along its longer side.
    public struct Area: Sendable {
        /// The map's middle, and the metres from it to a corner (and one more): the POIs a map
        /// may show are within that radius.
        public let middle: GeoCoordinate
        public let reach: Double
        public let width: Int, height: Int
        public let metresPerPixel: Double
        let plane: LocalTangentPlane
        let minE: Double, maxN: Double

        /// `fixes` must not be empty.
        public init(fixes: [GPSFix], longestSide: Int, margin: Double) {
            let lats = fixes.map(\.coordinate.latitude), lons = fixes.map(\.coordinate.longitude)
            var origin = GeoCoordinate(latitude: (lats.min()! + lats.max()!) / 2, longitude: lons.min()! + wrap180(lons.max()! - lons.min()!) / 2)
            origin.altitude = 0
            let plane = LocalTangentPlane(origin: origin)
            let trackEN = fixes.map { Area.en($0.coordinate, plane) }
            let minE = trackEN.map(\.0).min()! - margin, maxE = trackEN.map(\.0).max()! + margin
            let minN = trackEN.map(\.1).min()! - margin, maxN = trackEN.map(\.1).max()! + margin
            let spanE = max(1, maxE - minE), spanN = max(1, maxN - minN)
            metresPerPixel = max(spanE, spanN) / Double(longestSide)
            width = max(64, Int((spanE / metresPerPixel).rounded()))
            height = max(64, Int((spanN / metresPerPixel).rounded()))
            (middle, reach, self.plane, self.minE, self.maxN) = (origin, (spanE * spanE + spanN * spanN).squareRoot() / 2 + 1, plane, minE, maxN)
        }

        static func en(_ c: GeoCoordinate, _ plane: LocalTangentPlane) -> (Double, Double) {
            var c = c
            c.altitude = 0
            let v = plane.enu(c)
            return (v.x, v.y)
        }

        /// Where `c` is on the map, pixels from its top-left corner.
        func pixel(_ c: GeoCoordinate) -> Point2 {
            let p = Area.en(c, plane)
            return Point2((p.0 - minE) / metresPerPixel, (maxN - p.1) / metresPerPixel)
        }

        func inside(_ p: Point2) -> Bool {
            p.x >= 0 && p.y >= 0 && p.x <= Double(width) && p.y <= Double(height)
        }
    }

    /// The map of a track over `area` (made from its fixes): the track, a cone every
    /// `coneInterval` seconds of `facings` (the frames' times and where the user faced, degrees
    /// from north; nil: not known), `halfAngleDeg` either side, and `pois`, drawn in their order
    /// (each over those before it: the nearest last). The one drawing of `poiar map`,
    /// `replay --map` and `merge --map`, whose tracks, facings and POIs come from a fused log or
    /// from a finished folder's frames.jsonl.
    public static func drawing(area: Area, track: any PositionTrack, facings: [(time: Double, facing: Double?)], halfAngleDeg: Double,
                               pois: [POI], baseMap: [MapFeature]?, coneInterval: Double) -> (drawing: MapDrawing, summary: MapSummary) {
        let width = area.width, height = area.height, metresPerPixel = area.metresPerPixel
        var drawing = MapDrawing(width: width, height: height, metresPerPixel: metresPerPixel, hasBaseMap: baseMap != nil)
        var featureCount = 0
        for feature in baseMap ?? [] {
            let points = feature.points.map(area.pixel)
            let xs = points.map(\.x), ys = points.map(\.y)
            guard xs.max()! >= 0, ys.max()! >= 0, xs.min()! <= Double(width), ys.min()! <= Double(height) else { continue }
            featureCount += 1
            drawing.add(feature.kind, points: points)
        }
        drawing.hasBaseMap = featureCount > 0  // else a grid, and the map says "No map data"
        // A smoothed track is drawn with its uncertainty over its raw fixes; a raw one alone.
        let path = track.path
        let fixes = track.fixes.map { area.pixel($0.coordinate) }
        if path.contains(where: { $0.sigma != nil }) {
            drawing.track = path.map { area.pixel($0.location.coordinate) }
            drawing.trackSigma = path.map { ($0.sigma ?? 0) / metresPerPixel }
            drawing.rawFixes = fixes
        } else {
            drawing.track = fixes
        }

        // A cone every `coneInterval` seconds of frames, the camera's horizontal field of view,
        // a sixth of the map's shorter side long.
        var nextTime = -Double.infinity
        for (time, facing) in facings where time >= nextTime {
            nextTime = time + coneInterval * 0.999
            guard let location = track.location(at: time), let facing else { continue }
            drawing.cones.append(.init(apex: area.pixel(location.coordinate), heading: facing,
                                       halfAngle: halfAngleDeg, length: Double(min(width, height)) / 6))
        }

        var osm = baseMap != nil
        for poi in pois {
            let p = area.pixel(poi.coordinate)
            guard area.inside(p) else { continue }
            drawing.places.append(.init(point: p, category: poi.category))
            if poi.id.hasPrefix("osm:") { osm = true }
        }
        drawing.attribution = osm ? "© OpenStreetMap contributors" : nil
        return (drawing, MapSummary(widthPixels: width, heightPixels: height, metresPerPixel: metresPerPixel,
                                    pois: drawing.places.count, cones: drawing.cones.count,
                                    baseMapFeatures: featureCount > 0 ? featureCount : nil))
    }
}

extension MapDrawing {
    /// Adds a base-map feature, its points already in map pixels.
    mutating func add(_ kind: MapFeature.Kind, points: [Point2]) {
        switch kind {
        case .building: areas.append(.init(kind: .building, points: points))
        case .green: areas.append(.init(kind: .green, points: points))
        case .water: areas.append(.init(kind: .water, points: points))
        case .plaza: areas.append(.init(kind: .plaza, points: points))
        case let .street(rank): lines.append(.init(rank: rank, points: points))
        case .railway: lines.append(.init(rank: 4, points: points))
        }
    }
}
