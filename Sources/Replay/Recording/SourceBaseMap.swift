import Foundation
import POIStore

/// The streets and buildings of a run's POI source (`BaseMap`), for the flat-phone map,
/// `--map` and the report: read when one of them first needs it, then shared, so an OSM extract
/// is parsed at most once per run (it takes seconds), and never when none of them draws a map.
public final class SourceBaseMap: @unchecked Sendable {  // `read` is guarded by `lock`
    private let url: URL?
    private let format: POISourceFormat?
    private let lock = NSLock()
    private var read: [MapFeature]??

    /// - Parameters:
    ///   - path: the POI source; nil: none (no base map).
    ///   - database: what `openPOISource` opened for it, which knows its format.
    init(path: String?, database: POIDatabase?) throws {
        url = path.map { URL(fileURLWithPath: $0) }
        format = try url.flatMap { url in try database?.format(ofSource: url) }
    }

    /// The features; nil: the source is no OSM data (or there is none), a grid is drawn.
    public func features() throws -> [MapFeature]? {
        lock.lock()
        defer { lock.unlock() }
        if let read { return read }
        let features = try url.flatMap { try BaseMap.read($0, format: format) }
        read = .some(features)
        return features
    }
}
