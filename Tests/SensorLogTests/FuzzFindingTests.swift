import Foundation
import POIARCore
import Testing
@testable import SensorLog

/// The limits added to the poiar-log/1 reader with the log fuzz target, which found nothing
/// itself (docs/robustness.md, "Fuzzing").
@Suite struct SensorLogFuzzFindingTests {
    /// The log target's corpus (tools/make_fuzz_corpora.py): records, or a one-line
    /// `InputError` naming the file.
    @Test func everyLogInputGivesRecordsOrAnError() throws {
        var refused = 0
        for url in try FuzzCorpus.files("log") {
            do {
                _ = try readAll(url.path, onNotice: { _ in })
            } catch let error as InputError {
                refused += 1
                #expect(!error.description.contains { $0.isNewline }, "\(error)")
                #expect(error.description.hasPrefix(url.path), "\(error)")
            } catch {
                Issue.record("\(url.lastPathComponent): not an InputError: \(error)")
            }
        }
        // They are broken logs: most are refused (some are read with notices).
        #expect(refused >= 10, "only \(refused) refused")
    }

    /// A log whose time column does not advance kept every row in the reorder window: memory
    /// grew with the file. The window now holds at most `maxRowsInWindow` rows.
    @Test func aTimeColumnThatDoesNotAdvanceIsRefusedBeforeMemoryFills() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let rows = (0..<50).map { i in "\(i < 3 ? "0.0" : "1.0"),gyro,0.01,0.02,0.03," }
        let path = try write(logText(rows), to: "stuck.csv", in: folder)
        let reader = try SensorLogReader(path: path, reorderWindow: 5, maxPending: 40)
        var read = 0
        let error = try #require(inputError { while try reader.nextRecord() != nil { read += 1 } })
        #expect(read == 0)
        #expect(error.description == "\(path):43 (time): more than 40 rows within 5.0 s (from time 0.0, line 3): the time column hardly advances; is it in seconds?")
        #expect(SensorLogReader.maxRowsInWindow == 1_000_000)

        // The same rows spread over time are read in full within the same bound.
        let spread = (0..<50).map { i in "\(Double(i) * 0.5),gyro,0.01,0.02,0.03," }
        let ok = try write(logText(spread), to: "spread.csv", in: folder)
        let fine = try SensorLogReader(path: ok, reorderWindow: 5, maxPending: 40)
        var n = 0
        while try fine.nextRecord() != nil { n += 1 }
        #expect(n == 50)
    }

    /// Metadata lines were kept without bound before the header.
    @Test func endlessMetadataIsRefused() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let meta = (0...SensorLogReader.maxMetadataEntries).map { "# key\($0): value" }
        let path = try write(logText(["0.0,gyro,0.01,0.02,0.03,"], metadata: meta), to: "meta.csv", in: folder)
        let error = try #require(inputError { _ = try SensorLogReader(path: path) })
        #expect(error.description == "\(path):10001: more than 10000 \"# key: value\" lines before the header \"time,sensor,x,y,z,accuracy\"")
        let fine = try write(logText(["0.0,gyro,0.01,0.02,0.03,"], metadata: Array(meta.dropLast())), to: "fine.csv", in: folder)
        #expect(try SensorLogReader(path: fine).metadata.entries.count == 10_000)
    }
}
