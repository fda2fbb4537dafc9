import CBZip2
import CZlib
import Foundation

/// zlib decompression of whole buffers (PBF blobs), and gzip and bzip2 decompression of POI
/// sources as they are read (`Stream`, used by `SourceStream`).
///
/// Errors are plain messages (`DecompressionError`); callers add the file and position.
enum Decompression {
    /// Refuse to inflate past this many bytes into memory (a "zip bomb" or a corrupt length).
    static let maxOutput = 4 << 30

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Inflates a zlib stream (RFC 1950) whose uncompressed size is known to be `size` bytes,
    /// as in an OSM PBF blob's `zlib_data` / `raw_size`.
    static func zlib(_ input: UnsafeRawBufferPointer, size: Int) throws(Failure) -> [UInt8] {
        guard size >= 0, size <= maxOutput else { throw Failure("raw_size \(size) is out of range") }
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var outLength = uLongf(size)
        let status = output.withUnsafeMutableBytes { out in
            uncompress(out.baseAddress!.assumingMemoryBound(to: Bytef.self), &outLength,
                       input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(input.count))
        }
        switch status {
        case Z_OK:
            guard Int(outLength) == size else {
                throw Failure("zlib data inflates to \(outLength) bytes, but raw_size says \(size)")
            }
            output.removeSubrange(size...)
            return output
        case Z_BUF_ERROR:
            // Either the data needs more room than raw_size, or the stream is cut short.
            throw Failure("zlib data is truncated or larger than raw_size \(size)")
        case Z_MEM_ERROR:
            throw Failure("out of memory inflating \(size) bytes")
        default:
            throw Failure("zlib data is corrupt")
        }
    }

    /// A gzip (RFC 1952; several members one after the other) or bzip2 (several concatenated
    /// streams, as pbzip2 writes) decoder fed compressed bytes and draining decompressed ones
    /// in chunks, so a source is never held whole. The library's stream state lives at a fixed
    /// address (zlib and libbz2 both check that it has not moved).
    final class Stream {
        enum Kind { case gzip, bzip2 }
        let kind: Kind
        private let z: UnsafeMutablePointer<z_stream>
        private let bz: UnsafeMutablePointer<bz_stream>
        private var started = false
        /// True between the end of one member/stream and the start of the next.
        private(set) var atMemberEnd = false
        /// Compressed bytes consumed so far (for messages).
        private(set) var consumed = 0

        init(_ kind: Kind) {
            self.kind = kind
            z = .allocate(capacity: 1); z.initialize(to: z_stream())
            bz = .allocate(capacity: 1); bz.initialize(to: bz_stream())
        }

        deinit {
            end()
            z.deinitialize(count: 1); z.deallocate()
            bz.deinitialize(count: 1); bz.deallocate()
        }

        private func end() {
            guard started else { return }
            switch kind {
            case .gzip: inflateEnd(z)
            case .bzip2: BZ2_bzDecompressEnd(bz)
            }
            started = false
        }

        private func start() throws(Failure) {
            switch kind {
            case .gzip:
                // 15 + 32: a zlib or gzip header, detected automatically.
                guard inflateInit2_(z, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                    throw Failure("cannot start zlib")
                }
            case .bzip2:
                guard BZ2_bzDecompressInit(bz, 0, 0) == BZ_OK else { throw Failure("cannot start bzip2") }
            }
            started = true
        }

        /// Decompresses from `input` into `output`; returns (compressed bytes used, bytes
        /// written). Call again with the rest of the input while it writes or uses anything.
        func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(Failure) -> (used: Int, written: Int) {
            guard !input.isEmpty, let inBase = input.baseAddress, let outBase = output.baseAddress else { return (0, 0) }
            if !started { try start(); atMemberEnd = false }
            let inCount = min(input.count, Int(UInt32.max)), outCount = min(output.count, Int(UInt32.max))
            let (ended, inLeft, outLeft, error) = kind == .gzip
                ? inflateStep(UnsafeMutableRawPointer(mutating: inBase), inCount, outBase, outCount)
                : bunzipStep(UnsafeMutableRawPointer(mutating: inBase), inCount, outBase, outCount)
            let used = inCount - inLeft
            consumed += used
            if let error { throw Failure("\(error), at compressed byte \(consumed))") }
            if ended { end(); atMemberEnd = true }
            return (used, outCount - outLeft)
        }

        /// One `inflate` call: (stream ended, input left, output room left, error).
        private func inflateStep(_ from: UnsafeMutableRawPointer, _ count: Int, _ to: UnsafeMutableRawPointer,
                                 _ room: Int) -> (Bool, Int, Int, String?) {
            z.pointee.next_in = from.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_in = uInt(count)
            z.pointee.next_out = to.assumingMemoryBound(to: Bytef.self)
            z.pointee.avail_out = uInt(room)
            let status = inflate(z, Z_NO_FLUSH)
            // Z_BUF_ERROR: no progress possible without more input, not an error.
            let error = [Z_OK, Z_BUF_ERROR, Z_STREAM_END].contains(status) ? nil
                : "gzip data is corrupt (\(z.pointee.msg.map { String(cString: $0) } ?? "corrupt data")"
            return (status == Z_STREAM_END, Int(z.pointee.avail_in), Int(z.pointee.avail_out), error)
        }

        /// One `BZ2_bzDecompress` call, as `inflateStep`.
        private func bunzipStep(_ from: UnsafeMutableRawPointer, _ count: Int, _ to: UnsafeMutableRawPointer,
                                _ room: Int) -> (Bool, Int, Int, String?) {
            bz.pointee.next_in = from.assumingMemoryBound(to: CChar.self)
            bz.pointee.next_out = to.assumingMemoryBound(to: CChar.self)
            (bz.pointee.avail_in, bz.pointee.avail_out) = (UInt32(count), UInt32(room))
            let status = BZ2_bzDecompress(bz)
            let error = status == BZ_OK || status == BZ_STREAM_END ? nil : "bzip2 data is corrupt (error \(status)"
            return (status == BZ_STREAM_END, Int(bz.pointee.avail_in), Int(bz.pointee.avail_out), error)
        }

        /// The error for input that ends inside a member/stream.
        var truncated: Failure {
            switch kind {
            case .gzip: Failure("gzip data is truncated (at compressed byte \(consumed))")
            case .bzip2: Failure("bzip2 data is truncated (after compressed byte \(consumed))")
            }
        }
    }
}
