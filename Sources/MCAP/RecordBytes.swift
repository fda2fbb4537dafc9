import CZlib

/// MCAP's primitive encodings (https://mcap.dev/spec, "Serialization"): little-endian integers,
/// strings and byte arrays prefixed with their uint32 byte length, maps prefixed with the
/// uint32 byte length of their entries.
struct RecordBytes {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// `bytes` with a uint32 length (a Schema's data).
    mutating func byteArray(_ data: [UInt8]) {
        u32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    /// `map<string, string>`, keys sorted so the bytes do not depend on a dictionary's order.
    mutating func stringMap(_ map: [String: String]) {
        self.map(map) { $0.string($1) } value: { $0.string($1) }
    }

    /// `map<uint16, uint64>` (channel ids to offsets or counts), in key order.
    mutating func channelMap(_ map: [UInt16: UInt64]) {
        self.map(map) { $0.u16($1) } value: { $0.u64($1) }
    }

    /// A map: its byte length, then key and value after key and value, in key order.
    private mutating func map<Key: Comparable, Value>(_ map: [Key: Value], key: (inout RecordBytes, Key) -> Void,
                                                      value: (inout RecordBytes, Value) -> Void) {
        var entries = RecordBytes()
        for k in map.keys.sorted() {
            key(&entries, k)
            value(&entries, map[k]!)
        }
        byteArray(entries.bytes)
    }

    /// A whole record: opcode, uint64 content length, content.
    static func record(_ opcode: MCAPOpcode, _ content: [UInt8]) -> [UInt8] {
        var r = RecordBytes(capacity: content.count + 9)
        r.u8(opcode.rawValue)
        r.u64(UInt64(content.count))
        r.bytes.append(contentsOf: content)
        return r.bytes
    }
}

/// The record types poiar writes.
enum MCAPOpcode: UInt8 {
    case header = 0x01, footer = 0x02, schema = 0x03, channel = 0x04, message = 0x05, chunk = 0x06
    case messageIndex = 0x07, chunkIndex = 0x08, statistics = 0x0B, metadata = 0x0C, metadataIndex = 0x0D
    case summaryOffset = 0x0E, dataEnd = 0x0F
}

/// CRC-32 (ISO-HDLC, the one MCAP specifies), by zlib, continued from `crc`.
func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
    var value = UInt(crc)
    var offset = 0
    while offset < bytes.count {  // zlib takes a uInt length
        let n = min(bytes.count - offset, 1 << 30)
        value = CZlib.crc32(value, base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), uInt(n))
        offset += n
    }
    return UInt32(truncatingIfNeeded: value)
}

func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { crc32($0, continuing: crc) }
}
