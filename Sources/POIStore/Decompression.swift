import CBZip2
import CZlib
import Foundation

/// zlib, gzip and bzip2 decompression of whole buffers (POI sources and PBF blobs).
///
/// Errors are plain messages (`DecompressionError`); callers add the file and position.
enum Decompression {
    /// Refuse to inflate past this many bytes (a "zip bomb" or a corrupt length).
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

    /// Inflates a gzip file (RFC 1952; several members are read one after the other).
    static func gzip(_ input: Data) throws(Failure) -> Data {
        var stream = z_stream()
        // 15 + 32: a zlib or gzip header, detected automatically.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure("cannot start zlib")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var failure: Failure?
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress, raw.count > 0 else { failure = Failure("empty gzip file"); return }
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(raw.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBytes { out in
                    stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if output.count > maxOutput { failure = Failure("decompresses to more than \(maxOutput) bytes"); return }
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    if stream.avail_in == 0 { return }
                    // Another gzip member follows.
                    guard inflateReset(&stream) == Z_OK else { failure = Failure("cannot restart zlib"); return }
                case Z_BUF_ERROR:
                    failure = Failure("gzip data is truncated (at compressed byte \(stream.total_in))")
                    return
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "corrupt data"
                    failure = Failure("gzip data is corrupt (\(message), at compressed byte \(stream.total_in))")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Decompresses a bzip2 file (several concatenated streams, as pbzip2 writes, included).
    static func bzip2(_ input: Data) throws(Failure) -> Data {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var failure: Failure?
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress, raw.count > 0 else { failure = Failure("empty bzip2 file"); return }
            var offset = 0
            while offset < raw.count {
                var stream = bz_stream()
                guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { failure = Failure("cannot start bzip2"); return }
                defer { BZ2_bzDecompressEnd(&stream) }
                stream.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: CChar.self))
                stream.avail_in = UInt32(min(raw.count - offset, Int(UInt32.max)))
                let availableAtStart = Int(stream.avail_in)
                while true {
                    let status: Int32 = chunk.withUnsafeMutableBytes { out in
                        stream.next_out = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                        stream.avail_out = UInt32(out.count)
                        return BZ2_bzDecompress(&stream)
                    }
                    output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                    if output.count > maxOutput { failure = Failure("decompresses to more than \(maxOutput) bytes"); return }
                    let consumed = offset + availableAtStart - Int(stream.avail_in)
                    if status == BZ_STREAM_END { offset = consumed; break }
                    if status != BZ_OK {
                        failure = Failure("bzip2 data is corrupt (error \(status), near compressed byte \(consumed))")
                        return
                    }
                    if stream.avail_in == 0 && stream.avail_out != 0 {
                        failure = Failure("bzip2 data is truncated (after compressed byte \(consumed))")
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
