import Foundation
import POIARCore
import POIStore
import Recordings

extension POIFetchRequest {
    /// How far beyond the replay's radius `replay --fetch` fetches, metres: the walk moves
    /// away from its first fix.
    public static let replayMargin = 1000.0

    /// `replay --fetch`: the POIs within `radius` + `replayMargin` of `at` (`--at`), else of
    /// the log's first usable GPS fix.
    public func run(around recording: Recording, at: GeoCoordinate?, radius: Double, categories: [String]?,
                    notice: @escaping @Sendable (String) -> Void) throws {
        if FileManager.default.fileExists(atPath: database), !((try? hasSQLiteHeader(URL(fileURLWithPath: database))) ?? false) {
            throw InputError(file: database, field: "--pois", "with --fetch, --pois names a poiar database to fetch into, not a POI source file")
        }
        guard let center = try at ?? recording.firstUsableFix()?.coordinate else {
            throw InputError(file: recording.path, "--fetch: the log has no usable GPS fix to fetch POIs around (--at gives a position)")
        }
        try run(center: GeoCoordinate(latitude: center.latitude, longitude: center.longitude),
                radius: radius + Self.replayMargin, categories: categories, notice: notice)
    }
}
