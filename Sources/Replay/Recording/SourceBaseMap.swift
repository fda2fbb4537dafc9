import Foundation
import POIStore

/// The streets and buildings of a run's POI source (`BaseMap`), for the flat-phone map and
/// `--map`: read when one of them first needs it, then shared, so an OSM extract is parsed at
/// most once per run (it takes seconds), and never when neither draws a map.
final class SourceBaseMap {
    private let url: URL?
    private let format: POISourceFormat?
    private var read: [MapFeature]??

    /// - Parameters:
    ///   - path: the POI source; nil: none (no base map).
    ///   - database: what `openPOISource` opened for it, which knows its format.
    init(path: String?, database: POIDatabase?) throws {
        url = path.map { URL(fileURLWithPath: $0) }
        format = try url.flatMap { url in try database?.format(ofSource: url) }
    }

    /// The features; nil: the source is no OSM data (or there is none), a grid is drawn.
    func features() throws -> [MapFeature]? {
        if let read { return read }
        let features = try url.flatMap { try BaseMap.read($0, format: format) }
        read = .some(features)
        return features
    }
}
