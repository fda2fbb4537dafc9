import Foundation
import POIARCore

/// A vector sensor's or an orientation row parsed straight from the line's bytes, for the
/// reader's fast path (`SensorLogReader.parseFast`); nil when the row needs the general parser.
struct FastRow {
    /// The row's vector sensor; nil for an `orientation` row.
    var sensor: VectorSensor?
    var time: Double
    var vector: Vector3

    /// A sensor field the fast path knows, with its comma (`gyro,`): its first (up to) eight
    /// bytes as a little-endian word and the mask of the bytes that count, compared in one step
    /// (this runs for every row of a log), and the bytes past the eighth (`orientation,`).
    struct Name {
        var word: UInt64, mask: UInt64, length: Int, tail: [UInt8]
        /// The row's vector sensor; nil for `orientation`.
        var sensor: VectorSensor?

        init(_ text: String, _ sensor: VectorSensor?) {
            let bytes = Array(text.utf8)
            word = 0; mask = 0
            for (k, byte) in bytes.prefix(8).enumerated() {
                word |= UInt64(byte) << (8 * k); mask |= 0xFF << (8 * k)
            }
            length = bytes.count; tail = Array(bytes.dropFirst(8)); self.sensor = sensor
        }
    }

    /// Every vector sensor's field, then `orientation,`.
    static let names: [Name] = VectorSensor.allCases.map { Name("\($0.name),", $0) } + [Name("orientation,", nil)]

    /// `time,sensor,x,y,z,` with plain decimal numbers and an empty accuracy, read front to
    /// back; anything else (spaces, long mantissas, other sensors, another column count) is nil.
    /// `names` is `FastRow.names`, held by the reader.
    @inline(__always)
    init?(bytes b: UnsafeBufferPointer<UInt8>, names: [Name]) {
        var i = 0
        guard let t = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        // Every row the fast path takes has at least eight bytes after the time ("mag,0,0,0,").
        guard b.count - i >= 8 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
        guard let name = names.first(where: { word & $0.mask == $0.word }), b.count - i > name.length else { return nil }
        if !name.tail.isEmpty {
            guard name.tail.withUnsafeBufferPointer({ memcmp(b.baseAddress! + i + 8, $0.baseAddress!, $0.count) }) == 0 else { return nil }
        }
        i += name.length
        sensor = name.sensor
        guard let x = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        guard let y = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        guard let z = DecimalText.scan(b, &i), i + 1 == b.count, b[i] == 0x2C else { return nil }  // accuracy empty
        time = t
        vector = Vector3(x, y, z)
    }
}
