import Testing
@testable import POIARCore

@Suite struct InputErrorTests {
    @Test func plainMessagesAreUnchanged() {
        let e = InputError(file: "log.csv", line: 12, field: "x", "\"1,5\" is not a number\t(tab kept)")
        #expect(e.description == "log.csv:12 (x): \"1,5\" is not a number\t(tab kept)")
    }

    /// Messages quote input, and input may hold line breaks (found by the PBF fuzz target):
    /// the line printed stays one line.
    @Test func lineBreaksAndControlCharactersAreEscaped() {
        let e = InputError(file: "a\nb.osm.pbf", field: "blob 1", "feature \"x\r\ny\u{0}\u{85}\u{2028}z\"")
        #expect(e.description == #"a\nb.osm.pbf (blob 1): feature "x\r\ny\0\u{0085}\u{2028}z""#)
        #expect(!e.description.contains { $0.isNewline })
    }
}
