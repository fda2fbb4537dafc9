import Foundation
import POIARCore

/// A gyro/accel/mag/orientation row parsed straight from the line's bytes, for the reader's
/// fast path (`SensorLogReader.parseFast`); nil when the row needs the general parser.
struct FastRow {
    enum Kind { case gyro, accel, mag, orientation }
    var kind: Kind
    var time: Double
    var vector: Vector3

    /// `time,sensor,x,y,z,` with plain decimal numbers and an empty accuracy, read front to
    /// back; anything else (spaces, long mantissas, other sensors, another column count) is nil.
    @inline(__always)
    init?(bytes b: UnsafeBufferPointer<UInt8>) {
        var i = 0
        guard let t = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        let rest = b.count - i
        if rest > 5, b[i] == 0x67, b[i + 1] == 0x79, b[i + 2] == 0x72, b[i + 3] == 0x6F, b[i + 4] == 0x2C {
            kind = .gyro; i += 5
        } else if rest > 6, b[i] == 0x61, b[i + 1] == 0x63, b[i + 2] == 0x63, b[i + 3] == 0x65, b[i + 4] == 0x6C, b[i + 5] == 0x2C {
            kind = .accel; i += 6
        } else if rest > 4, b[i] == 0x6D, b[i + 1] == 0x61, b[i + 2] == 0x67, b[i + 3] == 0x2C {
            kind = .mag; i += 4
        } else if rest > 12, b[i] == 0x6F, memcmp(b.baseAddress! + i, "orientation,", 12) == 0 {
            kind = .orientation; i += 12
        } else {
            return nil
        }
        guard let x = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        guard let y = DecimalText.scan(b, &i), i < b.count, b[i] == 0x2C else { return nil }
        i += 1
        guard let z = DecimalText.scan(b, &i), i + 1 == b.count, b[i] == 0x2C else { return nil }  // accuracy empty
        time = t
        vector = Vector3(x, y, z)
    }
}
