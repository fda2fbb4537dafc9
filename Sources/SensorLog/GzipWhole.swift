import CDeflate
import Foundation

/// A gzip file of modest size inflated at once by libdeflate, which has no streaming interface
/// but inflates about twice as fast as zlib and checks the CRC-32 several times as fast (on a
/// gzipped BROAD trial, zlib's inflate and CRC were a quarter of `poiar pose --causal`;
/// docs/fusion-performance.md). `LineReader` then hands out the lines from memory.
///
/// Only a file that is wholly a sequence of complete, intact gzip members is taken; anything
/// else (a truncated or corrupt member, bytes after the last member, a file too large to hold)
/// returns nil and is read through zlib's gzread as before, which says what is wrong and on
/// which line, and reads the lines before it. So this is a faster way to the same bytes,
/// never a second judge of the file.
enum GzipWhole {
    /// Compressed files larger than this are streamed through zlib (constant memory).
    static let maxCompressedBytes = 16 << 20
    /// Nor is more than this held inflated (a log of an hour or more is streamed).
    static let maxInflatedBytes = 128 << 20

    /// The inflated bytes of the regular file open at `fd` (read from its start), or nil (see
    /// above). The file's offset is left where it was found only when nil is returned without
    /// reading; callers seek back to 0 before reading it again.
    static func inflate(fd: Int32) -> UnsafeMutableRawBufferPointer? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size >= 18, size <= maxCompressedBytes else { return nil }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { input.deallocate() }
        var got = 0
        while got < size {
            let n = pread(fd, input.baseAddress! + got, size - got, off_t(got))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        guard input[0] == 0x1F, input[1] == 0x8B else { return nil }
        // The last member's ISIZE (its length mod 2³²): the whole length of a one-member file.
        let tail = Int(input.loadUnaligned(fromByteOffset: size - 4, as: UInt32.self).littleEndian)
        var capacity = max(tail, 1 << 16)
        guard capacity <= maxInflatedBytes, let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        var inPos = 0, outPos = 0
        while inPos < size {
            guard size - inPos >= 18, input[inPos] == 0x1F, input[inPos + 1] == 0x8B else { break }
            var usedIn = 0, madeOut = 0
            let status = libdeflate_gzip_decompress_ex(decompressor, input.baseAddress! + inPos, size - inPos,
                                                       output.baseAddress! + outPos, capacity - outPos, &usedIn, &madeOut)
            if status == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < maxInflatedBytes {
                // More members than the last one's size told, or a member over 4 GiB mod 2³².
                capacity = min(capacity * 2, maxInflatedBytes)
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
                bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: output[0..<outPos]))
                output.deallocate()
                output = bigger
                continue
            }
            guard status == LIBDEFLATE_SUCCESS else { break }
            inPos += usedIn
            outPos += madeOut
        }
        guard inPos == size else {
            output.deallocate()
            return nil
        }
        return UnsafeMutableRawBufferPointer(rebasing: output[0..<outPos])
    }
}
