import Foundation
import PhoneImport
import FuzzSupport

/// Phone recordings: the whole input as a zip archive (Sensor Logger or phyphox export),
/// opened with `openLogSource` as `poiar replay rec.zip` does and read to the end.
func fuzzPhone(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = Fuzz.scratchFile(Fuzz.data(start, count), suffix: ".zip")
    Fuzz.expectResultOrInputError(file: path) {
        let source = try PhoneRecording(path: path)
        source.onNotice = { _ in }
        while try source.nextRecord() != nil {}
    }
    return 0
}

exit(Fuzz.run { data, size in fuzzPhone(data, size) })
