import Foundation
import POIARCore
import Testing
@testable import SensorLog

/// libdeflate's whole-file inflation (`GzipWhole`) gives the bytes zlib gives, and leaves
/// every file it does not fully understand to zlib, whose errors stay as they were.
@Suite("SensorLogReader: gzip inflated whole")
struct GzipWholeTests {
    let gzipTests = GzipTests()

    /// The inflated bytes of `path` by libdeflate, or nil when it leaves the file to zlib.
    func inflated(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        guard let bytes = GzipWhole.inflate(fd: fd) else { return nil }
        defer { bytes.deallocate() }
        return Array(bytes)
    }

    @Test func aGzippedLogIsInflatedWholeToItsBytes() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = gzipTests.variedLog(rows: 30_000)
        let plain = try write(text, to: "big.csv", in: folder)
        let gz = try gzipTests.gzip(plain)
        #expect(try inflated(gz) == Array(text.utf8))
        #expect(try inflated(plain) == nil)  // not gzip: zlib passes it through
        #expect(try readAll(gz) == readAll(plain))
    }

    @Test func membersOneAfterAnotherReadAsOneFile() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = gzipTests.variedLog(rows: 9_000)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Three members: the last one's ISIZE is far smaller than the whole.
        let cuts = [0, lines.count / 2, lines.count - 10, lines.count - 1]
        var members: [UInt8] = []
        for k in 0..<3 {
            let part = lines[cuts[k]..<cuts[k + 1]].joined(separator: "\n") + "\n"
            let gz = try gzipTests.gzip(try write(part, to: "part\(k).csv", in: folder))
            members += try [UInt8](Data(contentsOf: URL(fileURLWithPath: gz)))
        }
        let joined = try write(bytes: members, to: "joined.csv.gz", in: folder)
        #expect(try inflated(joined) == Array(text.utf8))
        #expect(try readAll(joined) == readAll(try write(text, to: "whole.csv", in: folder)))
    }

    @Test func whatLibdeflateDoesNotFullyReadGoesToZlib() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = gzipTests.variedLog(rows: 30_000)
        let plain = try write(text, to: "big.csv", in: folder)
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try gzipTests.gzip(plain))))

        // Bytes after the member: zlib ignores them, so the rows are the file's.
        let trailing = try write(bytes: data + Array("not gzip\n".utf8), to: "trailing.csv.gz", in: folder)
        #expect(try inflated(trailing) == nil)
        #expect(try readAll(trailing) == readAll(plain))

        // A damaged byte in the middle: zlib reads the rows before it and then says so.
        var damaged = data
        damaged[data.count / 2] ^= 0x55
        let bad = try write(bytes: damaged, to: "bad.csv.gz", in: folder)
        #expect(try inflated(bad) == nil)
        let e = try #require(inputError { _ = try readAll(bad) })
        #expect(e.location.file == bad)
        let line = try #require(e.location.line)
        #expect(line > 1_000, "\(e.description)")

        // Cut short: truncated, as `GzipTests` checks for the line.
        let cut = try write(bytes: Array(data.prefix(data.count - 3)), to: "cut.csv.gz", in: folder)
        #expect(try inflated(cut) == nil)
        let c = try #require(inputError { _ = try readAll(cut) })
        #expect(c.description.contains("truncated"), "\(c.description)")
    }

    @Test func anOverlongLineInAnInflatedFileIsRefusedAsBefore() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = "# format: poiar-log/1\n\(SensorLogReader.header)\n" + String(repeating: "7", count: LineReader.maxLineLength + 5) + "\n"
        let gz = try gzipTests.gzip(try write(text, to: "long.csv", in: folder))
        #expect(try inflated(gz) != nil)
        let e = try #require(inputError { _ = try readAll(gz) })
        #expect(e.location.line == 3)
        #expect(e.description.contains("line longer than"), "\(e.description)")
    }
}
