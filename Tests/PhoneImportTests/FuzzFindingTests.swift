import CZlib
import Foundation
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// Phone recordings that crashed the importers (Int64 and UInt64 arithmetic that trapped),
/// found by reading the code the phone fuzz target drives (the target itself found nothing:
/// docs/robustness.md, "Fuzzing"). Each must now give samples or a one-line `InputError`.
@Suite struct PhoneImportFuzzFindingTests {
    /// Reads the recording at `path` to the end: samples, or an `InputError` on one line naming it.
    static func expectResultOrOneLineError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try readAll(openLogSource(path: path))
        } catch let error as InputError {
            #expect(!error.description.contains { $0.isNewline }, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix(path), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("not an InputError: \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The phone target's corpus (tools/make_fuzz_corpora.py): damaged exports as zips, and the
    /// crashes below as whole exports (named by their number in docs/robustness.md), which must
    /// be refused, not read.
    @Test func everyPhoneInputGivesSamplesOrAnError() throws {
        for url in try FuzzCorpus.files("phone") {
            Self.expectResultOrOneLineError(url.path)
            if url.lastPathComponent.first?.isNumber == true {
                #expect(throws: InputError.self, "\(url.lastPathComponent)") { _ = try readAll(openLogSource(path: url.path)) }
            }
        }
    }

    // MARK: Sensor Logger times (integer nanoseconds since 1970)

    /// The first time was rounded down to a whole second by subtracting in Int64: a time near
    /// Int64.min overflowed and trapped.
    @Test func aFirstTimeNearInt64MinIsAnError() throws {
        let dir = try makeFolder([
            "Gyroscope.csv": "time,seconds_elapsed,z,y,x\n-9223372036854775807,0,0.01,0.02,0.03\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(inputError { _ = try readAll(openLogSource(path: dir.path)) })
        #expect(error.description == "\(dir.path)/Gyroscope.csv:2 (time): time -9223372036854775807 ns is not a time since 1970 in nanoseconds")
    }

    /// A time far from the first one overflowed `ns − origin` and trapped.
    @Test func aTimeFarFromTheFirstIsAnError() throws {
        let dir = try makeFolder([
            "Gyroscope.csv": "time,seconds_elapsed,z,y,x\n1698501144401773000,0,0.01,0.02,0.03\n-9223372036854775000,0,0.01,0.02,0.03\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(inputError { _ = try readAll(openLogSource(path: dir.path)) })
        #expect(error.location == InputLocation(file: "\(dir.path)/Gyroscope.csv", line: 3, field: "time"))
        #expect(error.message.contains("too far from the recording's first sample"))
    }

    // MARK: phyphox start time

    /// meta/time.csv's system time became the log's `start_utc` through Int64(Double), which
    /// trapped for a time beyond Int64 (1e300 s).
    @Test func aPhyphoxStartTimeThatIsNoDateIsAnError() throws {
        let dir = try makeFolder([
            "Gyroscope.csv": "\"Time (s)\",\"Gyroscope x (rad/s)\",\"Gyroscope y (rad/s)\",\"Gyroscope z (rad/s)\"\n0.01,0.1,0.2,0.3\n",
            "meta/time.csv": "\"event\",\"experiment time\",\"system time\",\"system time text\"\n\"START\",0.0,1e300,\"x\"\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(inputError { _ = try readAll(openLogSource(path: dir.path)) })
        #expect(error.location == InputLocation(file: "\(dir.path)/meta/time.csv", line: 2, field: "system time"))
        #expect(error.message.contains("is not a Unix time in seconds"))
    }

    // MARK: zip structure (offsets and sizes from the archive are untrusted)

    /// An end-of-central-directory record that announces ZIP64 (0xFFFF entries) at the very
    /// start of the file: the ZIP64 locator's position, 20 bytes before it, went below zero.
    @Test func aZip64MarkerAtTheStartIsAnError() throws {
        let bytes = ZipBytes.eocd(count: 0xFFFF, cdSize: 0, cdOffset: 0)
        let path = try Self.write(bytes, "zip64-at-start.zip")
        let error = try #require(inputError { _ = try openLogSource(path: path) })
        #expect(error.description == "\(path): not a readable zip archive: no ZIP64 locator")
    }

    /// ZIP64 sizes near 2⁶⁴: `cdOffset + cdSize` overflowed.
    @Test func aZip64CentralDirectoryPastTheEndIsAnError() throws {
        var bytes: [UInt8] = []
        let zip64At = UInt64(bytes.count)
        bytes += ZipBytes.zip64EOCD(count: 1, cdSize: 46, cdOffset: UInt64.max - 10)
        bytes += ZipBytes.zip64Locator(at: zip64At)
        bytes += ZipBytes.eocd(count: 0xFFFF, cdSize: 0xFFFF_FFFF, cdOffset: 0xFFFF_FFFF)
        let path = try Self.write(bytes, "zip64-cd-past-end.zip")
        let error = try #require(inputError { _ = try ZipArchive(path: path) })
        #expect(error.description == "\(path): not a readable zip archive: central directory out of range")
    }

    /// A ZIP64 local-header offset beyond Int64: reading there converted it to `off_t` and trapped.
    @Test func aZip64LocalHeaderOffsetPastTheEndIsAnError() throws {
        let path = try Self.write(ZipBytes.archive(name: "Gyroscope.csv", data: Array("time,seconds_elapsed,z,y,x\n".utf8),
                                                   zip64: (offset: UInt64.max - 5, compressedSize: nil)), "offset-past-end.zip")
        let error = try #require(inputError { _ = try openLogSource(path: path) })
        #expect(error.message.contains("bad local header") || error.message.contains("unknown recording layout"), "\(error)")
        Self.expectResultOrOneLineError(path)
    }

    /// A ZIP64 compressed size near 2⁶⁴: `dataStart + compressedSize` overflowed.
    @Test func aZip64CompressedSizePastTheEndIsAnError() throws {
        let path = try Self.write(ZipBytes.archive(name: "Gyroscope.csv", data: Array("time,seconds_elapsed,z,y,x\n".utf8),
                                                   zip64: (offset: nil, compressedSize: UInt64.max - 5)), "size-past-end.zip")
        let archive = try ZipArchive(path: path)
        let entry = try #require(archive.entries.first)
        #expect(entry.compressedSize == UInt64.max - 5)
        let error = try #require(inputError { _ = try archive.open(entry) })
        #expect(error.description == "\(path)/Gyroscope.csv: the zip archive is truncated")
        Self.expectResultOrOneLineError(path)
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let dir = try makeTempDir("phone-fuzz")
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}

/// Zip archives written byte by byte (PKWARE APPNOTE 4.3), with the fields a test wants wrong.
private enum ZipBytes {
    static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { u16(Int(v & 0xFFFF)) + u16(Int(v >> 16)) }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v & 0xFFFF_FFFF)) + u32(UInt32(v >> 32)) }

    static func eocd(count: Int, cdSize: UInt32, cdOffset: UInt32) -> [UInt8] {
        u32(0x0605_4B50) + u16(0) + u16(0) + u16(count) + u16(count) + u32(cdSize) + u32(cdOffset) + u16(0)
    }

    static func zip64EOCD(count: UInt64, cdSize: UInt64, cdOffset: UInt64) -> [UInt8] {
        u32(0x0606_4B50) + u64(44) + u16(45) + u16(45) + u32(0) + u32(0) + u64(count) + u64(count) + u64(cdSize) + u64(cdOffset)
    }

    static func zip64Locator(at offset: UInt64) -> [UInt8] { u32(0x0706_4B50) + u32(0) + u64(offset) + u32(1) }

    /// One stored entry; a ZIP64 extra field replaces the local-header offset and/or the
    /// compressed size (whose 32-bit fields then read 0xFFFFFFFF).
    static func archive(name: String, data: [UInt8], zip64: (offset: UInt64?, compressedSize: UInt64?)) -> [UInt8] {
        let crc = UInt32(data.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        let nameBytes = Array(name.utf8)
        let local = u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
            + u32(UInt32(data.count)) + u32(UInt32(data.count)) + u16(nameBytes.count) + u16(0) + nameBytes + data
        var extra: [UInt8] = []
        if let size = zip64.compressedSize { extra += u64(size) }
        if let offset = zip64.offset { extra += u64(offset) }
        let extraField = extra.isEmpty ? [] : u16(1) + u16(extra.count) + extra
        let central = u32(0x0201_4B50) + u16(45) + u16(45) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
            + u32(zip64.compressedSize == nil ? UInt32(data.count) : 0xFFFF_FFFF) + u32(UInt32(data.count))
            + u16(nameBytes.count) + u16(extraField.count) + u16(0) + u16(0) + u16(0) + u32(0)
            + u32(zip64.offset == nil ? 0 : 0xFFFF_FFFF) + nameBytes + extraField
        return local + central + eocd(count: 1, cdSize: UInt32(central.count), cdOffset: UInt32(local.count))
    }
}
