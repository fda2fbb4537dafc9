// The protobuf wire format (https://protobuf.dev/programming-guides/encoding/), as much of it
// as OSM PBF needs: varints, zigzag-encoded signed integers, length-delimited fields, packed
// repeated varints, and skipping what a reader does not know. No schema: the caller switches
// on field numbers.

/// A protobuf decoding problem (the caller adds the file and blob).
struct ProtoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A minimal protobuf wire-format reader over a byte buffer that outlives it.
struct ProtoReader {
    enum WireType: UInt64 { case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5 }

    private let base: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { base = bytes }

    /// True when every byte has been read.
    var isAtEnd: Bool { position >= base.count }

    /// The next field's number and wire type, or nil at the end.
    mutating func nextField() throws(ProtoError) -> (Int, WireType)? {
        guard position < base.count else { return nil }
        let key = try varint()
        guard let wire = WireType(rawValue: key & 7) else {
            throw ProtoError("invalid wire type \(key & 7) at byte \(position)")
        }
        let field = Int(truncatingIfNeeded: key >> 3)
        guard field > 0 else { throw ProtoError("invalid field number 0 at byte \(position)") }
        return (field, wire)
    }

    @inline(__always)
    mutating func varint() throws(ProtoError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < base.count {
            let byte = base[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift >= 64 { throw ProtoError("varint longer than 10 bytes at byte \(position)") }
        }
        throw ProtoError("truncated varint at byte \(position)")
    }

    mutating func bytes() throws(ProtoError) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(base.count - position) else {
            throw ProtoError("a field of \(length) bytes runs past the end (\(base.count - position) left) at byte \(position)")
        }
        let start = position
        position += Int(length)
        return UnsafeRawBufferPointer(rebasing: base[start..<position])
    }

    /// A repeated varint field, packed (length-delimited) or not.
    mutating func repeatedVarints(_ wire: WireType, into values: inout [UInt64]) throws(ProtoError) {
        switch wire {
        case .varint:
            values.append(try varint())
        case .lengthDelimited:
            var inner = ProtoReader(try bytes())
            while inner.position < inner.base.count { values.append(try inner.varint()) }
        default:
            throw ProtoError("expected varints, got wire type \(wire.rawValue) at byte \(position)")
        }
    }

    mutating func skip(_ wire: WireType) throws(ProtoError) {
        switch wire {
        case .varint: _ = try varint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try bytes()
        case .startGroup, .endGroup: throw ProtoError("groups are not supported (byte \(position))")
        }
    }

    /// A `sint64` from its zigzag encoding (0, −1, 1, −2, … as 0, 1, 2, 3, …).
    @inline(__always) static func zigzag(_ v: UInt64) -> Int64 {
        Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    private mutating func advance(_ n: Int) throws(ProtoError) {
        guard base.count - position >= n else { throw ProtoError("truncated field at byte \(position)") }
        position += n
    }
}
