import Foundation
import POIARCore
import POIStore
import FuzzSupport

/// The JSON importers: every input through Overpass JSON (with the base map), GeoJSON and
/// Google Places JSON, each of which must return POIs or an `InputError`.
func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    func check(_ parsed: ParsedPOIs) {
        for poi in parsed.pois where !poi.coordinate.isValid { fatalError("invalid coordinate for \(poi.id)") }
    }
    Fuzz.expectResultOrInputError(file: "fuzz.overpass.json") {
        check(try OverpassJSONImporter.parse(data, file: "fuzz.overpass.json", baseMap: true))
    }
    Fuzz.expectResultOrInputError(file: "fuzz.geojson") {
        check(try GeoJSONImporter.parse(data, file: "fuzz.geojson"))
    }
    Fuzz.expectResultOrInputError(file: "fuzz.places.json") {
        check(try GooglePlacesImporter.parse(data, file: "fuzz.places.json"))
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzJSON(data, size) })
