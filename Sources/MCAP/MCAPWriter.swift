import Foundation
import POIARCore

/// Writes an MCAP file (https://mcap.dev/spec, major version 0), the container Foxglove and
/// ROS 2 read: magic, header, the data section (schemas, channels and metadata as they are
/// added; messages in chunks, each chunk followed by its message indexes), data end, the
/// summary section (schemas, channels, statistics, chunk and metadata indexes), summary
/// offsets, footer, magic. Readers seek through the summary; CRCs cover each chunk's records,
/// the data section and the summary.
///
/// Hand-written: no Swift MCAP library is in this project's package mirror, and the format's
/// writer side is small. Chunks are not compressed (compression "" is the spec's "none"):
/// poiar's largest messages are PNG or JPEG frames, which do not compress further.
///
/// Messages should be written in log-time order for readers that do not sort (each chunk's
/// start and end times are kept either way). Call `finish()` to complete the file; a writer
/// dropped before that leaves a file without its summary, which the caller removes.
public final class MCAPWriter {
    public static let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]  // \x89MCAP0\r\n

    /// A chunk is closed once its records pass this many bytes.
    public let chunkSize: Int

    private let url: URL
    private let handle: FileHandle
    private var out: [UInt8] = []
    /// Bytes written to the file so far (flushed or not): the offset of the next byte.
    private var position: UInt64 = 0
    /// CRC of the data section so far (from the leading magic on).
    private var dataCRC: UInt32 = 0

    private var schemaRecords: [[UInt8]] = []
    private var channelRecords: [[UInt8]] = []
    private var chunkIndexRecords: [[UInt8]] = []
    private var metadataIndexRecords: [[UInt8]] = []
    private var nextSequence: [UInt16: UInt32] = [:]
    private var channelCounts: [UInt16: UInt64] = [:]
    private var messageCount: UInt64 = 0
    private var firstTime: UInt64?
    private var lastTime: UInt64 = 0

    // The open chunk.
    private var chunk: [UInt8] = []
    private var chunkStart: UInt64 = 0, chunkEnd: UInt64 = 0
    private var chunkIndexEntries: [UInt16: [(time: UInt64, offset: UInt64)]] = [:]
    private var chunkCount = 0
    private var finished = false

    /// Starts the file at `url` (created or truncated).
    public init(url: URL, profile: String = "", library: String, chunkSize: Int = 4 << 20) throws {
        self.url = url
        self.chunkSize = chunkSize
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: url.path) else {
            throw InputError(file: url.path, "cannot create the file: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        out.reserveCapacity(1 << 20)
        try emit(Self.magic, data: true)
        var header = RecordBytes()
        header.string(profile)
        header.string(library)
        try emit(RecordBytes.record(.header, header.bytes), data: true)
    }

    deinit { try? handle.close() }

    /// Adds a schema (ids from 1; 0 means "no schema"). `encoding` is e.g. `jsonschema`.
    public func addSchema(name: String, encoding: String, data: [UInt8]) throws -> UInt16 {
        let id = UInt16(schemaRecords.count + 1)
        var r = RecordBytes(capacity: data.count + 64)
        r.u16(id)
        r.string(name)
        r.string(encoding)
        r.byteArray(data)
        let record = RecordBytes.record(.schema, r.bytes)
        schemaRecords.append(record)
        try emit(record, data: true)
        return id
    }

    /// Adds a channel (ids from 0) whose messages are encoded as `messageEncoding` (e.g. `json`).
    public func addChannel(topic: String, schema: UInt16, messageEncoding: String,
                           metadata: [String: String] = [:]) throws -> UInt16 {
        let id = UInt16(channelRecords.count)
        var r = RecordBytes()
        r.u16(id)
        r.u16(schema)
        r.string(topic)
        r.string(messageEncoding)
        r.stringMap(metadata)
        let record = RecordBytes.record(.channel, r.bytes)
        channelRecords.append(record)
        nextSequence[id] = 0
        channelCounts[id] = 0
        try emit(record, data: true)
        return id
    }

    /// A named set of key-value pairs (e.g. how the file was made), indexed in the summary.
    public func addMetadata(name: String, _ entries: [String: String]) throws {
        try closeChunk()  // keeps the data section in order: the metadata follows earlier messages
        var r = RecordBytes()
        r.string(name)
        r.stringMap(entries)
        let record = RecordBytes.record(.metadata, r.bytes)
        let offset = position
        try emit(record, data: true)
        var index = RecordBytes()
        index.u64(offset)
        index.u64(UInt64(record.count))
        index.string(name)
        metadataIndexRecords.append(RecordBytes.record(.metadataIndex, index.bytes))
    }

    /// Adds a message on `channel` at `logTime` (nanoseconds; publish time the same).
    public func write(channel: UInt16, logTime: UInt64, data: some Collection<UInt8>) throws {
        precondition(!finished, "MCAPWriter: write after finish")
        guard let sequence = nextSequence[channel] else { preconditionFailure("MCAPWriter: unknown channel \(channel)") }
        nextSequence[channel] = sequence &+ 1
        channelCounts[channel, default: 0] += 1
        messageCount += 1
        firstTime = min(firstTime ?? logTime, logTime)
        lastTime = max(lastTime, logTime)
        if chunk.isEmpty { chunkStart = logTime; chunkEnd = logTime }
        chunkStart = min(chunkStart, logTime)
        chunkEnd = max(chunkEnd, logTime)
        chunkIndexEntries[channel, default: []].append((logTime, UInt64(chunk.count)))
        var r = RecordBytes(capacity: 31)
        r.u8(MCAPOpcode.message.rawValue)
        r.u64(UInt64(22 + data.count))
        r.u16(channel)
        r.u32(sequence)
        r.u64(logTime)
        r.u64(logTime)
        chunk.append(contentsOf: r.bytes)
        chunk.append(contentsOf: data)
        if chunk.count >= chunkSize { try closeChunk() }
    }

    /// Completes the file: the last chunk, data end, summary, summary offsets, footer, magic.
    /// Returns the file's size in bytes.
    @discardableResult
    public func finish() throws -> UInt64 {
        try closeChunk()
        finished = true
        var dataEnd = RecordBytes()
        dataEnd.u32(dataCRC)
        try emit(RecordBytes.record(.dataEnd, dataEnd.bytes), data: false)

        let summaryStart = position
        var summaryCRC: UInt32 = 0
        var offsets: [[UInt8]] = []
        func group(_ opcode: MCAPOpcode, _ records: [[UInt8]]) throws {
            guard !records.isEmpty else { return }
            let start = position
            for record in records {
                summaryCRC = crc32(record, continuing: summaryCRC)
                try emit(record, data: false)
            }
            var o = RecordBytes()
            o.u8(opcode.rawValue)
            o.u64(start)
            o.u64(position - start)
            offsets.append(RecordBytes.record(.summaryOffset, o.bytes))
        }
        try group(.schema, schemaRecords)
        try group(.channel, channelRecords)
        try group(.statistics, [statisticsRecord()])
        try group(.chunkIndex, chunkIndexRecords)
        try group(.metadataIndex, metadataIndexRecords)
        let summaryOffsetStart = position
        for record in offsets {
            summaryCRC = crc32(record, continuing: summaryCRC)
            try emit(record, data: false)
        }
        // The footer's CRC covers the summary and summary offsets and the footer up to itself.
        var footer = RecordBytes()
        footer.u8(MCAPOpcode.footer.rawValue)
        footer.u64(20)
        footer.u64(summaryStart)
        footer.u64(summaryOffsetStart)
        summaryCRC = crc32(footer.bytes, continuing: summaryCRC)
        footer.u32(summaryCRC)
        try emit(footer.bytes, data: false)
        try emit(Self.magic, data: false)
        try flush()
        do { try handle.close() } catch { throw InputError(file: url.path, "cannot write: \(error.localizedDescription)") }
        return position
    }

    // MARK: - Inside

    private func statisticsRecord() -> [UInt8] {
        var r = RecordBytes()
        r.u64(messageCount)
        r.u16(UInt16(schemaRecords.count))
        r.u32(UInt32(channelRecords.count))
        r.u32(0)  // attachments
        r.u32(UInt32(metadataIndexRecords.count))
        r.u32(UInt32(chunkCount))
        r.u64(firstTime ?? 0)
        r.u64(lastTime)
        r.channelMap(channelCounts)
        return RecordBytes.record(.statistics, r.bytes)
    }

    /// Writes the open chunk and its message indexes, and keeps its chunk index.
    private func closeChunk() throws {
        guard !chunk.isEmpty else { return }
        let chunkOffset = position
        var r = RecordBytes(capacity: 48)
        r.u64(chunkStart)
        r.u64(chunkEnd)
        r.u64(UInt64(chunk.count))  // uncompressed size
        r.u32(crc32(chunk))
        r.string("")  // compression: none
        r.u64(UInt64(chunk.count))
        var head = RecordBytes(capacity: 9 + r.bytes.count)
        head.u8(MCAPOpcode.chunk.rawValue)
        head.u64(UInt64(r.bytes.count + chunk.count))
        head.bytes.append(contentsOf: r.bytes)
        try emit(head.bytes, data: true)
        try emit(chunk, data: true)
        let chunkLength = position - chunkOffset

        let indexStart = position
        var indexOffsets: [UInt16: UInt64] = [:]
        for channel in chunkIndexEntries.keys.sorted() {
            indexOffsets[channel] = position
            var m = RecordBytes()
            m.u16(channel)
            var entries = RecordBytes(capacity: chunkIndexEntries[channel]!.count * 16)
            for (time, offset) in chunkIndexEntries[channel]! { entries.u64(time); entries.u64(offset) }
            m.byteArray(entries.bytes)
            try emit(RecordBytes.record(.messageIndex, m.bytes), data: true)
        }
        var index = RecordBytes()
        index.u64(chunkStart)
        index.u64(chunkEnd)
        index.u64(chunkOffset)
        index.u64(chunkLength)
        index.channelMap(indexOffsets)
        index.u64(position - indexStart)
        index.string("")
        index.u64(UInt64(chunk.count))  // compressed size
        index.u64(UInt64(chunk.count))  // uncompressed size
        chunkIndexRecords.append(RecordBytes.record(.chunkIndex, index.bytes))
        chunkCount += 1
        chunk.removeAll(keepingCapacity: true)
        chunkIndexEntries.removeAll(keepingCapacity: true)
    }

    private func emit(_ bytes: [UInt8], data: Bool) throws {
        if data { dataCRC = crc32(bytes, continuing: dataCRC) }
        position += UInt64(bytes.count)
        if bytes.count >= 1 << 20 {
            try flush()
            try writeOut(bytes)
        } else {
            out.append(contentsOf: bytes)
            if out.count >= 1 << 20 { try flush() }
        }
    }

    private func flush() throws {
        guard !out.isEmpty else { return }
        try writeOut(out)
        out.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ bytes: [UInt8]) throws {
        do { try bytes.withUnsafeBytes { try handle.write(contentsOf: $0) } } catch {
            throw InputError(file: url.path, "cannot write: \(error.localizedDescription)")
        }
    }
}
