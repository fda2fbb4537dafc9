import Foundation
import POIARCore
import POIStore
import FuzzSupport

/// Any POI source file as `poiar pois import` reads it: gzip and bzip2 undone, the format
/// told from the content (`POIImport`), then the reader for it — the CSV importer too, which
/// no other target reaches.
func fuzzSource(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = Fuzz.scratchFile(Fuzz.data(start, count), suffix: ".source")
    Fuzz.expectResultOrInputError(file: path) {
        let (_, parsed) = try POIImport.parse(URL(fileURLWithPath: path))
        for poi in parsed.pois where !poi.coordinate.isValid { fatalError("invalid coordinate for \(poi.id)") }
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzSource(data, size) })
