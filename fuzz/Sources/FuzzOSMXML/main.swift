import Foundation
import POIARCore
import POIStore
import FuzzSupport

/// OSM XML: the input through `OSMXMLImporter` (Foundation's XMLParser) with the base map on.
func fuzzOSMXML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)
    Fuzz.expectResultOrInputError(file: "fuzz.osm") {
        let parsed = try OSMXMLImporter.parse(data, file: "fuzz.osm", baseMap: true)
        for poi in parsed.pois where !poi.coordinate.isValid { fatalError("invalid coordinate for \(poi.id)") }
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzOSMXML(data, size) })
