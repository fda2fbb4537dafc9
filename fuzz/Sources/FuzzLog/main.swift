import Foundation
import POIARCore
import SensorLog
import FuzzSupport

/// poiar-log/1: the whole input as a log file (`.csv`; gzip data is read too, as by
/// `poiar replay`), every record read through `SensorLogReader`.
func fuzzLog(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = Fuzz.scratchFile(Fuzz.data(start, count), suffix: ".csv")
    Fuzz.expectResultOrInputError(file: path) {
        let reader = try SensorLogReader(path: path)
        reader.onNotice = { _ in }
        _ = reader.metadata.entries.count
        while try reader.nextRecord() != nil {}
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzLog(data, size) })
