import Foundation
import Testing
@testable import MCAP

/// The writer's file read back by hand, following the spec (https://mcap.dev/spec): the tests
/// that need no PyPI. The reference reader reads whole replays in MCAPCLITests.
@Suite struct MCAPWriterTests {
    /// A little-endian reader over the file.
    struct Bytes {
        var data: [UInt8]
        func u8(_ o: Int) -> UInt8 { data[o] }
        func u16(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(data[o + $1]) << (8 * $1) } }
        func u64(_ o: Int) -> Int { (0..<8).reduce(0) { $0 | Int(data[o + $1]) << (8 * $1) } }
        /// The record at `o`: opcode, content start, content length.
        func record(_ o: Int) -> (opcode: UInt8, content: Int, length: Int) { (u8(o), o + 9, u64(o + 1)) }
    }

    func writeFile(chunkSize: Int, messages: Int) throws -> (url: URL, bytes: Bytes) {
        let dir = try makeTempDir("poiar-mcap-writer")
        let url = dir.appendingPathComponent("t.mcap")
        let w = try MCAPWriter(url: url, library: "test", chunkSize: chunkSize)
        let schema = try w.addSchema(name: "test.Sample", encoding: "jsonschema", data: Array(#"{"type": "object"}"#.utf8))
        let a = try w.addChannel(topic: "/a", schema: schema, messageEncoding: "json", metadata: ["unit": "m"])
        let b = try w.addChannel(topic: "/b", schema: schema, messageEncoding: "json")
        try w.addMetadata(name: "made-by", ["who": "test"])
        for i in 0..<messages {
            try w.write(channel: i % 3 == 0 ? b : a, logTime: UInt64(1_000 + i * 10), data: Array(#"{"i": \#(i)}"#.utf8))
        }
        let size = try w.finish()
        let data = try [UInt8](Data(contentsOf: url))
        #expect(UInt64(data.count) == size)
        return (url, Bytes(data: data))
    }

    @Test func fileHasMagicSummaryAndValidCRCs() throws {
        let (url, f) = try writeFile(chunkSize: 200, messages: 40)
        defer { cleanUp(url.deletingLastPathComponent()) }
        let d = f.data
        #expect(Array(d.prefix(8)) == MCAPWriter.magic && Array(d.suffix(8)) == MCAPWriter.magic)
        #expect(f.u8(8) == 0x01)  // header first

        // Footer: the last record before the trailing magic.
        let footer = d.count - 8 - 29
        #expect(f.u8(footer) == 0x02 && f.u64(footer + 1) == 20)
        let summaryStart = f.u64(footer + 9), offsetStart = f.u64(footer + 17)
        #expect(crc32(Array(d[summaryStart..<(footer + 25)])) == f.u32(footer + 25), "summary CRC")

        // Data end just before the summary, with the CRC of everything before it.
        let dataEnd = summaryStart - 13
        #expect(f.u8(dataEnd) == 0x0F)
        #expect(crc32(Array(d[0..<dataEnd])) == f.u32(dataEnd + 9), "data section CRC")

        // Summary offsets name groups of records of their opcode.
        var o = offsetStart, groups: [UInt8: (Int, Int)] = [:]
        while o < footer {
            let r = f.record(o)
            #expect(r.opcode == 0x0E)
            groups[f.u8(r.content)] = (f.u64(r.content + 1), f.u64(r.content + 9))
            o = r.content + r.length
        }
        #expect(Set(groups.keys) == [0x03, 0x04, 0x08, 0x0B, 0x0D])
        for (opcode, (start, length)) in groups {
            var p = start
            while p < start + length { let r = f.record(p); #expect(r.opcode == opcode); p = r.content + r.length }
            #expect(p == start + length)
        }

        // Statistics: 40 messages in several chunks, two channels (14 on /b, 26 on /a).
        let stats = f.record(groups[0x0B]!.0).content
        #expect(f.u64(stats) == 40 && f.u16(stats + 8) == 1 && f.u32(stats + 10) == 2)
        let chunks = Int(f.u32(stats + 22))
        #expect(chunks > 2)
        #expect(f.u64(stats + 26) == 1_000 && f.u64(stats + 34) == 1_390)

        // Each chunk index points at a chunk whose records' CRC holds, and at message indexes
        // whose offsets land on message records of their channel.
        var p = groups[0x08]!.0, seen = 0
        while p < groups[0x08]!.0 + groups[0x08]!.1 {
            let index = f.record(p)
            let chunkOffset = f.u64(index.content + 16)
            let chunk = f.record(chunkOffset)
            #expect(chunk.opcode == 0x06)
            let size = f.u64(chunk.content + 16), crc = f.u32(chunk.content + 24)
            let compressionLength = Int(f.u32(chunk.content + 28))
            let recordsStart = chunk.content + 32 + compressionLength + 8
            let records = Array(d[recordsStart..<(recordsStart + size)])
            #expect(crc32(records) == crc)
            let mapLength = Int(f.u32(index.content + 32))
            var m = index.content + 36
            while m < index.content + 36 + mapLength {
                let channel = f.u16(m), at = f.u64(m + 2)
                let messageIndex = f.record(at)
                #expect(messageIndex.opcode == 0x07 && f.u16(messageIndex.content) == channel)
                let entries = Int(f.u32(messageIndex.content + 2)) / 16
                for e in 0..<entries {
                    let offset = f.u64(messageIndex.content + 6 + e * 16 + 8)
                    #expect(records[offset] == 0x05)
                    #expect(Int(records[offset + 9]) | Int(records[offset + 10]) << 8 == channel)
                    seen += 1
                }
                m += 10
            }
            p = index.content + index.length
        }
        #expect(seen == 40)
    }

    @Test func emptyFileIsComplete() throws {
        let (url, f) = try writeFile(chunkSize: 1 << 20, messages: 0)
        defer { cleanUp(url.deletingLastPathComponent()) }
        #expect(Array(f.data.suffix(8)) == MCAPWriter.magic)
        let footer = f.data.count - 8 - 29
        #expect(f.u8(footer) == 0x02)
    }
}
