import Foundation
import POIARCore

/// A POI source file's bytes as they are read: plain, or decompressed on the way (gzip or
/// bzip2, told by the first bytes, not the name), handed out in chunks. The streaming readers
/// (OSM XML, the JSON forms) never hold the file, so their memory does not grow with its size.
final class SourceStream {
    /// The file as given, for messages.
    let file: String
    /// `gzip` or `bzip2` when the file is compressed.
    private(set) var compression: String?

    private let url: URL?
    private var descriptor: Int32 = -1
    private var memory: Data?
    private var memoryOffset = 0
    private var inflater: Decompression.Stream?
    /// Compressed bytes read from the file and not yet decompressed.
    private var raw = [UInt8](repeating: 0, count: 1 << 20)
    private var rawStart = 0, rawEnd = 0, rawAtEnd = false
    /// Bytes read ahead by `head(_:)`, handed out first.
    private var ahead: [UInt8] = []
    private var aheadStart = 0
    /// Nothing has been handed out yet (a plain file can then be mapped whole).
    private var untouched = true

    /// Opens `url`.
    /// - Throws: `InputError` naming the file when it is missing, a folder or unreadable.
    init(url: URL) throws {
        self.url = url
        file = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw InputError(file: file, "no such file")
        }
        if isDirectory.boolValue { throw InputError(file: file, "is a folder, expected a POI source file") }
        descriptor = open(file, O_RDONLY)
        SourceFileReads.record(file)
        guard descriptor >= 0 else {
            throw InputError(file: file, "cannot read: \(String(cString: strerror(errno)))")
        }
        try detectCompression()
    }

    /// Reads from `data` (a whole file already in memory).
    init(data: Data, file: String) throws {
        url = nil
        self.file = file
        memory = data
        try detectCompression()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private func detectCompression() throws {
        try fillRaw()
        let magic = raw[rawStart..<min(rawEnd, rawStart + 3)]
        if magic.starts(with: [0x1F, 0x8B]) {
            compression = "gzip"
            inflater = Decompression.Stream(.gzip)
        } else if magic.elementsEqual(Array("BZh".utf8)) {
            compression = "bzip2"
            inflater = Decompression.Stream(.bzip2)
        }
    }

    /// Reads more of the file into `raw` (after what is left there).
    private func fillRaw() throws {
        if rawStart > 0 {
            raw.withUnsafeMutableBytes { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + rawStart, rawEnd - rawStart)
            }
            rawEnd -= rawStart
            rawStart = 0
        }
        while rawEnd < raw.count && !rawAtEnd {
            let n = try readFile(into: raw.count - rawEnd, at: rawEnd)
            if n == 0 { rawAtEnd = true }
            rawEnd += n
            if n > 0 { break }
        }
    }

    private func readFile(into room: Int, at offset: Int) throws -> Int {
        if let memory {
            let n = min(room, memory.count - memoryOffset)
            _ = raw.withUnsafeMutableBytes { b in
                memory.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: b[offset..<offset + n]),
                                 from: (memory.startIndex + memoryOffset)..<(memory.startIndex + memoryOffset + n))
            }
            memoryOffset += n
            return n
        }
        while true {
            let n = raw.withUnsafeMutableBytes { b in Glibc.read(descriptor, b.baseAddress! + offset, room) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw InputError(file: file, "cannot read: \(String(cString: strerror(errno)))")
        }
    }

    /// Fills `buffer` with the next bytes of the (decompressed) content; 0 at its end.
    /// - Throws: `InputError` naming the file for a read error or corrupt or truncated
    ///   compressed data.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        untouched = false
        guard !buffer.isEmpty else { return 0 }
        if aheadStart < ahead.count {
            let n = min(buffer.count, ahead.count - aheadStart)
            ahead.withUnsafeBytes { a in
                buffer.baseAddress!.copyMemory(from: a.baseAddress! + aheadStart, byteCount: n)
            }
            aheadStart += n
            if aheadStart == ahead.count { ahead = []; aheadStart = 0 }
            return n
        }
        while true {
            if rawStart == rawEnd {
                if rawAtEnd {
                    if let inflater, !inflater.atMemberEnd {
                        throw InputError(file: file, "\(inflater.truncated)")
                    }
                    return 0
                }
                try fillRaw()
                continue
            }
            guard let inflater else {
                let n = min(buffer.count, rawEnd - rawStart)
                raw.withUnsafeBytes { r in buffer.baseAddress!.copyMemory(from: r.baseAddress! + rawStart, byteCount: n) }
                rawStart += n
                return n
            }
            let (used, written): (Int, Int)
            do {
                (used, written) = try raw.withUnsafeBytes { r in
                    try inflater.decompress(UnsafeRawBufferPointer(rebasing: r[rawStart..<rawEnd]), into: buffer)
                }
            } catch {
                throw InputError(file: file, "\(error)")
            }
            rawStart += used
            if written > 0 { return written }
            if used == 0 {
                // No progress with input in hand: more input is needed to go on.
                if rawAtEnd { throw InputError(file: file, "\(inflater.truncated)") }
                try fillRaw()
            }
        }
    }

    /// The first `count` bytes of the content (fewer when it is shorter), without consuming
    /// them: `read` hands them out again.
    func head(_ count: Int) throws -> Data {
        let wasUntouched = untouched
        defer { untouched = wasUntouched }  // what was read is handed out again
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var collected = Array(ahead[aheadStart...])
        ahead = []; aheadStart = 0
        while collected.count < count {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { break }
            collected += chunk[0..<n]
        }
        ahead = collected
        aheadStart = 0
        return Data(collected.prefix(count))
    }

    /// The whole content, for the readers that need it at once (OSM PBF, CSV): a plain file is
    /// mapped, not copied.
    func readAll() throws -> Data {
        if untouched, inflater == nil, let url {
            do {
                SourceFileReads.record(file)
                return try Data(contentsOf: url, options: .alwaysMapped)
            } catch {
                throw InputError(file: file, "cannot read: \(error.localizedDescription)")
            }
        }
        if untouched, inflater == nil, let memory { return memory }
        var all = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return all }
            all.append(contentsOf: chunk[0..<n])
            if all.count > Decompression.maxOutput {
                throw InputError(file: file, "decompresses to more than \(Decompression.maxOutput) bytes")
            }
        }
    }
}
