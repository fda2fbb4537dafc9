import Foundation
import POIARCore
import POIStore
import FuzzSupport

/// OSM PBF: the input through `PBFImporter` with the base map on (POIs and map ways).
func fuzzPBF(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    Fuzz.expectResultOrInputError(file: "fuzz.osm.pbf") {
        let parsed = try PBFImporter.parse(data, file: "fuzz.osm.pbf", baseMap: true)
        for poi in parsed.pois where !poi.coordinate.isValid { fatalError("invalid coordinate for \(poi.id)") }
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzPBF(data, size) })
