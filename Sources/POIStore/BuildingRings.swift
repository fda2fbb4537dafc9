import Foundation
import POIARCore

/// A building's rings as the compact blob of `building.rings` (docs/formats.md):
///
/// ```
/// varint outer ring count, varint inner ring count,
/// then each ring, outer ones first: varint vertex count,
///   then per vertex: zigzag varint Δlatitude, zigzag varint Δlongitude,
///   in units of 1e-7° from the vertex before (the blob's first vertex from 0, 0)
/// ```
///
/// Varints are protobuf's (7 bits a byte, least significant first). 1e-7° is OSM's own
/// precision (about 1 cm), so OSM positions come back exactly as read; neighbouring vertices
/// a few metres apart take 2–3 bytes per coordinate.
enum BuildingRings {
    static let unitsPerDegree = 1e7

    static func encode(outer: [[GeoCoordinate]], inner: [[GeoCoordinate]]) -> Data {
        var bytes: [UInt8] = []
        func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }
        func zigzag(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        varint(UInt64(outer.count))
        varint(UInt64(inner.count))
        var lat: Int64 = 0, lon: Int64 = 0
        for ring in outer + inner {
            varint(UInt64(ring.count))
            for c in ring {
                let la = Int64((c.latitude * unitsPerDegree).rounded()), lo = Int64((c.longitude * unitsPerDegree).rounded())
                zigzag(la - lat)
                zigzag(lo - lon)
                lat = la; lon = lo
            }
        }
        return Data(bytes)
    }

    /// The rings of a blob; nil when it is not one (truncated, trailing bytes, a position out
    /// of range).
    static func decode(_ data: Data) -> (outer: [[GeoCoordinate]], inner: [[GeoCoordinate]])? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (outer: [[GeoCoordinate]], inner: [[GeoCoordinate]])? in
            var reader = ProtoReader(raw)
            do {
                let outerCount = try reader.varint(), innerCount = try reader.varint()
                // Each ring takes at least 1 byte, each vertex at least 2: counts past that are corrupt.
                guard outerCount <= UInt64(raw.count), innerCount <= UInt64(raw.count) - outerCount else { return nil }
                var rings: [[GeoCoordinate]] = []
                var lat: Int64 = 0, lon: Int64 = 0
                for _ in 0..<(outerCount + innerCount) {
                    let n = try reader.varint()
                    guard n <= UInt64(raw.count / 2) else { return nil }
                    var ring: [GeoCoordinate] = []
                    ring.reserveCapacity(Int(n))
                    for _ in 0..<n {
                        lat &+= ProtoReader.zigzag(try reader.varint())
                        lon &+= ProtoReader.zigzag(try reader.varint())
                        let c = GeoCoordinate(latitude: Double(lat) / unitsPerDegree, longitude: Double(lon) / unitsPerDegree)
                        guard c.isValid else { return nil }
                        ring.append(c)
                    }
                    rings.append(ring)
                }
                guard reader.isAtEnd else { return nil }
                return (Array(rings.prefix(Int(outerCount))), Array(rings.dropFirst(Int(outerCount))))
            } catch {
                return nil
            }
        }
    }
}
