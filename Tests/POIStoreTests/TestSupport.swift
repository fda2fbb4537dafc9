import Foundation
import POIARCore
@_exported import PoiarTestSupport
@testable import POIStore

/// Tests/Fixtures/osm: excerpts of ../shared/data/osm (see Tests/Fixtures/README.md).
let sharedOSMData: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()        // POIStoreTests
    .deletingLastPathComponent()        // Tests
    .appendingPathComponent("Fixtures/osm")

/// Writes `text` to `name` in `folder` and returns its URL.
@discardableResult
func write(_ text: String, to name: String, in folder: URL) throws -> URL { try writeFile(text, to: name, in: folder) }

/// A minimal POI for store tests.
func makePOI(_ id: String, _ category: String = "cafe", lat: Double, lon: Double, name: String? = nil) -> POI {
    POI(id: id, name: name ?? id, category: category, coordinate: GeoCoordinate(latitude: lat, longitude: lon))
}
