import Foundation
import Geodesy
import POIARCore
import POIStore
import Projection
import Rendering

/// `poiar map` and `replay --map`: a north-up map of a replay — the GPS track, a view cone every
/// few seconds, the POIs around it coloured by category — over the streets and buildings of an
/// OSM extract, or a plain grid without one. (The log read and fused for it: Replay's
/// `TrackMap.run`.)
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

    /// The map of a fused log: its poses (a cone every `coneInterval` seconds, facing where the
    /// camera looks) along its track.
    public static func drawing(poses: [(time: Double, pose: Pose)], track: any PositionTrack, db: POIDatabase?,
                               categories: [String]?, language: String?, baseMap: [MapFeature]?, camera: CameraIntrinsics, longestSide: Int, margin: Double,
                        coneInterval: Double) throws -> (drawing: MapDrawing, summary: MapSummary) {
        // A local east/north frame at the track's middle; the extent is the track's box plus the margin.
        let fixes = track.fixes
        let lats = fixes.map(\.coordinate.latitude), lons = fixes.map(\.coordinate.longitude)
        var origin = GeoCoordinate(latitude: (lats.min()! + lats.max()!) / 2, longitude: lons.min()! + wrap180(lons.max()! - lons.min()!) / 2)
        origin.altitude = 0
        let plane = LocalTangentPlane(origin: origin)
        func en(_ c: GeoCoordinate) -> (Double, Double) {
            var c = c
            c.altitude = 0
            let v = plane.enu(c)
            return (v.x, v.y)
        }
        let trackEN = fixes.map { en($0.coordinate) }
        let minE = trackEN.map(\.0).min()! - margin, maxE = trackEN.map(\.0).max()! + margin
        let minN = trackEN.map(\.1).min()! - margin, maxN = trackEN.map(\.1).max()! + margin
        let spanE = max(1, maxE - minE), spanN = max(1, maxN - minN)
        let metresPerPixel = max(spanE, spanN) / Double(longestSide)
        let width = max(64, Int((spanE / metresPerPixel).rounded())), height = max(64, Int((spanN / metresPerPixel).rounded()))
        func pixel(_ p: (Double, Double)) -> Point2 {
            Point2((p.0 - minE) / metresPerPixel, (maxN - p.1) / metresPerPixel)
        }
        func inside(_ p: Point2, pad: Double = 0) -> Bool {
            p.x >= -pad && p.y >= -pad && p.x <= Double(width) + pad && p.y <= Double(height) + pad
        }

        var drawing = MapDrawing(width: width, height: height, metresPerPixel: metresPerPixel, hasBaseMap: baseMap != nil)
        var featureCount = 0
        for feature in baseMap ?? [] {
            let points = feature.points.map { pixel(en($0)) }
            let xs = points.map(\.x), ys = points.map(\.y)
            guard xs.max()! >= 0, ys.max()! >= 0, xs.min()! <= Double(width), ys.min()! <= Double(height) else { continue }
            featureCount += 1
            drawing.add(feature.kind, points: points)
        }
        drawing.hasBaseMap = featureCount > 0  // else a grid, and the map says "No map data"
        // A smoothed track is drawn with its uncertainty over its raw fixes; a raw one alone.
        let path = track.path
        if path.contains(where: { $0.sigma != nil }) {
            drawing.track = path.map { pixel(en($0.location.coordinate)) }
            drawing.trackSigma = path.map { ($0.sigma ?? 0) / metresPerPixel }
            drawing.rawFixes = trackEN.map(pixel)
        } else {
            drawing.track = trackEN.map(pixel)
        }

        // A cone every `coneInterval` seconds of frames, the camera's horizontal field of view,
        // a sixth of the map's shorter side long.
        let halfFOV = camera.halfHorizontalFOVDeg
        var nextTime = -Double.infinity
        for (time, pose) in poses where time >= nextTime {
            nextTime = time + coneInterval * 0.999
            guard let location = track.location(at: time) else { continue }
            let facing = pose.facingAzimuth(imageUp: camera.orientation.imageUpInDevice) ?? pose.angles.heading
            drawing.cones.append(.init(apex: pixel(en(location.coordinate)), heading: facing,
                                       halfAngle: halfFOV, length: Double(min(width, height)) / 6))
        }

        // POIs within the map, nearest the middle drawn last (on top).
        let halfDiagonal = (spanE * spanE + spanN * spanN).squareRoot() / 2 + 1
        let hits = try db?.query(near: origin, radius: halfDiagonal, categories: categories, language: language) ?? []
        var osm = baseMap != nil
        for hit in hits.reversed() {
            let p = pixel(en(hit.poi.coordinate))
            guard inside(p) else { continue }
            drawing.places.append(.init(point: p, category: hit.poi.category))
            if hit.poi.id.hasPrefix("osm:") { osm = true }
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
