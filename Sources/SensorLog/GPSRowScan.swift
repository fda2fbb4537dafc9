import Foundation

/// A quick look through a poiar-log/1 file for a `gps` row, without parsing any number: a
/// log without GPS is told before it is fused, and not parsed twice to find out.
extension SensorLogReader {
    /// Whether any line's sensor field (between its first and second comma) is `gps`.
    public static func hasGPSRow(path: String) throws -> Bool {
        let lines = try LineReader(path: path)
        while let found = try lines.withNextLine({ isGPSRow($0) }) {
            if found { return true }
        }
        return false
    }

    /// Whether the sensor field of a row's bytes (between its first and second comma,
    /// spaces and tabs around it ignored) is `gps`.
    @inline(__always)
    static func isGPSRow(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Find the first comma, but give up quickly on data rows of other sensors: their
        // sensor field starts right after the time.
        var i = 0
        while i < b.count && b[i] != 0x2C { i += 1 }
        i += 1
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        guard i + 3 <= b.count, b[i] == 0x67, b[i + 1] == 0x70, b[i + 2] == 0x73 else { return false }
        i += 3
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        return i < b.count && b[i] == 0x2C
    }
}
