import Foundation
import POIARCore
import POIStore

extension ReportData {
    /// How far around the frames' positions the page's map keeps streets and buildings, metres:
    /// what a reader pans to near the track, not a whole city's extract in the page.
    static let baseMapReach = 400.0

    /// The features with a point within `baseMapReach` of the frames' positions' box.
    func featuresNearFrames(_ features: [MapFeature]) -> [MapFeature] {
        let lats = frames.map(\.latitude), lons = frames.map(\.longitude)
        guard let lat0 = lats.min(), let lat1 = lats.max(), let lon0 = lons.min(), let lon1 = lons.max() else { return [] }
        let dLat = Self.baseMapReach / 111_320
        let dLon = Self.baseMapReach / (111_320 * max(0.01, cos((lat0 + lat1) / 2 * .pi / 180)))
        return features.filter { f in
            f.points.contains { p in
                p.latitude >= lat0 - dLat && p.latitude <= lat1 + dLat && p.longitude >= lon0 - dLon && p.longitude <= lon1 + dLon
            }
        }
    }

    /// `"basemap": [{"kind": "street", "rank": 2, "points": [lat, lon, lat, lon, …]}, …]`: the
    /// streets (by rank, 0 major … 3 footpath), railways, buildings, green, water and squares of
    /// the POI source within `baseMapReach` of the frames, coordinates to 6 decimals (0.1 m).
    func writeBaseMap(_ features: [MapFeature], into w: inout JSONWriter) {
        w.beginArray("basemap")
        for f in featuresNearFrames(features) {
            w.beginObject()
            switch f.kind {
            case let .street(rank): w.string("kind", "street"); w.int("rank", rank)
            case .railway: w.string("kind", "railway")
            case .building: w.string("kind", "building")
            case .green: w.string("kind", "green")
            case .water: w.string("kind", "water")
            case .plaza: w.string("kind", "plaza")
            }
            w.beginArray("points")
            for p in f.points { w.number(nil, p.latitude, decimals: 6); w.number(nil, p.longitude, decimals: 6) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }
}
