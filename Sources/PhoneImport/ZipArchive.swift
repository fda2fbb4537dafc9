import CZlib
import Foundation
import POIARCore
import SensorLog

/// How much compressed input a deflated entry reads at a time.
private let chunkSize = 1 << 16

/// An open file read with `pread`, shared by the entries of one zip archive.
final class RandomAccessFile {
    let path: String
    let size: UInt64
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw InputError(file: path, "cannot read: \(String(cString: strerror(errno)))")
        }
        size = UInt64(st.st_size)
    }

    deinit { close(fd) }

    /// Exactly `count` bytes at `offset` (fewer only at the end of the file; none past it, where
    /// a corrupt archive's offsets may point).
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size else { return [] }
        let count = Int(min(UInt64(max(count, 0)), size - offset))
        var out = [UInt8](repeating: 0, count: count)
        let done = try out.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        if done < count { out.removeLast(count - done) }
        return out
    }

    /// Fills `buffer` from `offset` (less only at the end of the file); returns the bytes read.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size else { return 0 }
        let count = Int(min(UInt64(buffer.count), size - offset))
        var done = 0
        while done < count {
            let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// A whole plain file, read straight into the line reader's buffer.
final class FileByteStream: ByteStream {
    private let file: RandomAccessFile
    private var offset: UInt64 = 0

    init(path: String) throws { file = try RandomAccessFile(path: path) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = try file.read(at: offset, into: buffer)
        offset += UInt64(n)
        return n
    }
}

/// A minimal zip reader: the central directory (with ZIP64 sizes and offsets), and entries
/// stored or deflated (raw inflate through zlib), checked against their CRC-32. Enough for
/// the archives phones export; encrypted entries and other methods are refused.
final class ZipArchive {
    struct Entry {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        var isDirectory: Bool { name.hasSuffix("/") }
    }

    let path: String
    let entries: [Entry]
    private let file: RandomAccessFile

    /// True when the file starts like a zip archive ("PK\u{3}\u{4}", or an empty archive).
    static func looksLikeZip(path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return isZipSignature([UInt8]((try? h.read(upToCount: 4)) ?? Data()))
    }

    /// Whether a file's first bytes are a zip archive's (a local file header, or the end of an
    /// empty archive's central directory).
    static func isZipSignature(_ head: [UInt8]) -> Bool {
        let four = Array(head.prefix(4))
        return four == [0x50, 0x4B, 0x03, 0x04] || four == [0x50, 0x4B, 0x05, 0x06]
    }

    init(path: String) throws {
        self.path = path
        file = try RandomAccessFile(path: path)
        entries = try ZipArchive.readCentralDirectory(file)
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    private static func readCentralDirectory(_ file: RandomAccessFile) throws -> [Entry] {
        func corrupt(_ what: String) -> InputError { InputError(file: file.path, "not a readable zip archive: \(what)") }
        // End of central directory: 22 bytes plus a comment of up to 65535 bytes, at the end.
        let tailLength = Int(min(file.size, 22 + 65535))
        guard tailLength >= 22 else { throw corrupt("too short") }
        let tailStart = file.size - UInt64(tailLength)
        let tail = try file.read(at: tailStart, count: tailLength)
        var eocd = -1
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw corrupt("no end-of-central-directory record") }
        var count = UInt64(u16(tail, eocd + 10))
        var cdSize = UInt64(u32(tail, eocd + 12))
        var cdOffset = UInt64(u32(tail, eocd + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            // ZIP64: the locator sits right before the end-of-central-directory record.
            guard tailStart + UInt64(eocd) >= 20 else { throw corrupt("no ZIP64 locator") }
            let locatorPos = tailStart + UInt64(eocd) - 20
            let locator = try file.read(at: locatorPos, count: 20)
            guard locator.count == 20, u32(locator, 0) == 0x0706_4B50 else { throw corrupt("no ZIP64 locator") }
            let z = try file.read(at: u64(locator, 8), count: 56)
            guard z.count == 56, u32(z, 0) == 0x0606_4B50 else { throw corrupt("no ZIP64 end-of-central-directory record") }
            count = u64(z, 32); cdSize = u64(z, 40); cdOffset = u64(z, 48)
        }
        guard cdOffset <= file.size, cdSize <= file.size - cdOffset, cdSize < 1 << 30 else {
            throw corrupt("central directory out of range")
        }
        let cd = try file.read(at: cdOffset, count: Int(cdSize))
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= cd.count, u32(cd, p) == 0x0201_4B50 else { throw corrupt("bad central directory entry") }
            let nameLength = Int(u16(cd, p + 28)), extraLength = Int(u16(cd, p + 30)), commentLength = Int(u16(cd, p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= cd.count else { throw corrupt("bad central directory entry") }
            let name = String(decoding: cd[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            var entry = Entry(name: name, method: u16(cd, p + 10), flags: u16(cd, p + 8), crc32: u32(cd, p + 16),
                              compressedSize: UInt64(u32(cd, p + 20)), uncompressedSize: UInt64(u32(cd, p + 24)),
                              localHeaderOffset: UInt64(u32(cd, p + 42)))
            // ZIP64 extra field: the 64-bit values of the fields that read 0xFFFFFFFF, in order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = u16(cd, e), size = Int(u16(cd, e + 2))
                if id == 0x0001 {
                    var q = e + 4
                    if entry.uncompressedSize == 0xFFFF_FFFF, q + 8 <= e + 4 + size { entry.uncompressedSize = u64(cd, q); q += 8 }
                    if entry.compressedSize == 0xFFFF_FFFF, q + 8 <= e + 4 + size { entry.compressedSize = u64(cd, q); q += 8 }
                    if entry.localHeaderOffset == 0xFFFF_FFFF, q + 8 <= e + 4 + size { entry.localHeaderOffset = u64(cd, q) }
                }
                e += 4 + size
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// A reader of one entry's uncompressed bytes; the CRC-32 and size are checked at its end.
    func open(_ entry: Entry) throws -> ByteStream {
        let display = "\(path)/\(entry.name)"
        if entry.flags & 1 != 0 { throw InputError(file: display, "is encrypted: poiar cannot read encrypted zip entries") }
        let header = try file.read(at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, ZipArchive.u32(header, 0) == 0x0403_4B50 else {
            throw InputError(file: display, "not a readable zip entry: bad local header")
        }
        // The header was read whole, so localHeaderOffset + 30 ≤ size: no overflow here.
        let dataStart = entry.localHeaderOffset + 30 + UInt64(ZipArchive.u16(header, 26)) + UInt64(ZipArchive.u16(header, 28))
        guard dataStart <= file.size, entry.compressedSize <= file.size - dataStart else {
            throw InputError(file: display, "the zip archive is truncated")
        }
        switch entry.method {
        case 0: return try ZipEntrySource(file: file, entry: entry, dataStart: dataStart, display: display, inflating: false)
        case 8: return try ZipEntrySource(file: file, entry: entry, dataStart: dataStart, display: display, inflating: true)
        default:
            throw InputError(file: display, "zip compression method \(entry.method) is not supported (only stored and deflate)")
        }
    }
}

/// One zip entry's bytes: stored ones read, deflated ones inflated, straight into the line
/// reader's buffer.
private final class ZipEntrySource: ByteStream {
    private let file: RandomAccessFile
    private let entry: ZipArchive.Entry
    private let display: String
    private var offset: UInt64
    private let end: UInt64
    private var crc: UInt = 0
    private var produced: UInt64 = 0
    private var finished = false
    private let stream: UnsafeMutablePointer<z_stream>?
    /// Compressed bytes read but not yet inflated: `input[inputStart...]`.
    private var input: [UInt8] = []
    private var inputStart = 0

    init(file: RandomAccessFile, entry: ZipArchive.Entry, dataStart: UInt64, display: String, inflating: Bool) throws {
        self.file = file; self.entry = entry; self.display = display
        offset = dataStart
        end = dataStart + entry.compressedSize
        crc = crc32(0, nil, 0)
        if inflating {
            let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            s.initialize(to: z_stream())
            // Raw deflate data (no zlib header): negative window bits.
            guard inflateInit2_(s, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                s.deinitialize(count: 1); s.deallocate()
                throw InputError(file: display, "cannot start zlib's inflate")
            }
            stream = s
        } else {
            stream = nil
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
    }

    private func readInput() throws -> [UInt8] {
        guard offset < end else { return [] }
        let chunk = try file.read(at: offset, count: Int(min(UInt64(chunkSize), end - offset)))
        if chunk.isEmpty { throw InputError(file: display, "the zip archive is truncated") }
        offset += UInt64(chunk.count)
        return chunk
    }

    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        if finished || out.count == 0 { return 0 }
        var have = 0
        if let stream {
            while have == 0 {
                if inputStart == input.count {
                    input = try readInput()
                    inputStart = 0
                }
                let available = input.count - inputStart
                var status: Int32 = Z_OK
                input.withUnsafeMutableBufferPointer { inb in
                    stream.pointee.next_in = inb.baseAddress.map { $0 + inputStart }
                    stream.pointee.avail_in = UInt32(available)
                    stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    stream.pointee.avail_out = UInt32(min(out.count, Int(UInt32.max)))
                    status = inflate(stream, Z_NO_FLUSH)
                    inputStart += available - Int(stream.pointee.avail_in)
                    have = min(out.count, Int(UInt32.max)) - Int(stream.pointee.avail_out)
                }
                if status == Z_STREAM_END { finished = true; break }
                if status == Z_BUF_ERROR && available == 0 {
                    throw InputError(file: display, "compressed data is truncated")
                }
                if status != Z_OK && status != Z_BUF_ERROR {
                    throw InputError(file: display, "compressed data is corrupt (zlib error \(status))")
                }
            }
        } else {
            guard offset < end else { finished = true; return try checked(0, out) }
            let want = UnsafeMutableRawBufferPointer(rebasing: out[0..<Int(min(UInt64(out.count), end - offset))])
            have = try file.read(at: offset, into: want)
            if have == 0 { throw InputError(file: display, "the zip archive is truncated") }
            offset += UInt64(have)
            if offset >= end { finished = true }
        }
        return try checked(have, out)
    }

    /// Adds the `count` bytes just produced to the CRC and size, checked at the end.
    private func checked(_ count: Int, _ out: UnsafeMutableRawBufferPointer) throws -> Int {
        produced += UInt64(count)
        if count > 0 {
            crc = crc32(crc, out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count))
        }
        if finished {
            guard produced == entry.uncompressedSize, UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
                throw InputError(file: display, "damaged zip entry: its CRC-32 or size does not match")
            }
        }
        return count
    }
}
