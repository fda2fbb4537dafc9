import POIARCore

/// The spatial key of poiar's POI index: the position of a point along a Hilbert curve over a
/// 2²⁴ × 2²⁴ grid of longitude × latitude.
///
/// Longitude −180…180 maps to x = 0…2²⁴−1 and latitude −90…90 to y (cells of 2.1 × 10⁻⁵° of
/// longitude by 1.1 × 10⁻⁵° of latitude: a few metres). The key is the Hilbert index of (x, y),
/// a 48-bit integer. Any aligned square of the grid at a coarser level L (2^L cells a side) is
/// one contiguous key range, so a search box is covered by a handful of key ranges, which a
/// B-tree scans in order (see `POIDatabase.query` and docs/pois-performance.md).
enum CellKey {
    /// Bits per axis.
    static let bits = 24
    static let side = 1 << bits

    /// The grid cell (x, y) of a position; inputs outside the range are clamped.
    @inline(__always)
    static func cell(latitude: Double, longitude: Double) -> (x: Int, y: Int) {
        (clampedIndex((longitude + 180) / 360), clampedIndex((latitude + 90) / 180))
    }

    @inline(__always)
    private static func clampedIndex(_ fraction: Double) -> Int {
        let v = fraction * Double(side)
        if !(v >= 0) { return 0 }  // also NaN
        if v >= Double(side - 1) { return side - 1 }
        return Int(v)
    }

    /// The indices of `places` in the order of their cells (ties in the given order): rows
    /// written so give nearby places nearby row ids, and a query's row lookups few pages.
    static func hilbertOrder(_ places: [GeoCoordinate]) -> [Int] {
        let keys = places.map { key(latitude: $0.latitude, longitude: $0.longitude) }
        return keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
    }

    /// The key of a position.
    @inline(__always)
    static func key(latitude: Double, longitude: Double) -> Int64 {
        let (x, y) = cell(latitude: latitude, longitude: longitude)
        return hilbert(x: x, y: y, order: bits)
    }

    /// The Hilbert index of (x, y) on a 2^order × 2^order grid (the classic iterative
    /// algorithm, e.g. Wikipedia "Hilbert curve": rotate the quadrant at each level).
    @inline(__always)
    static func hilbert(x: Int, y: Int, order: Int) -> Int64 {
        var x = x, y = y
        var d: Int64 = 0
        var s = order > 0 ? 1 << (order - 1) : 0
        let n = 1 << order
        while s > 0 {
            let rx = (x & s) != 0 ? 1 : 0
            let ry = (y & s) != 0 ? 1 : 0
            d += Int64(s) * Int64(s) * Int64((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = n - 1 - x; y = n - 1 - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    /// Key ranges (inclusive, sorted, merged) that together hold the key of every point of the
    /// box. The box is covered by aligned squares of one level, the finest level at which at
    /// most `maxCells` squares are needed.
    static func ranges(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double,
                       maxCells: Int = 12) -> [ClosedRange<Int64>] {
        let low = cell(latitude: minLat, longitude: minLon)
        let high = cell(latitude: maxLat, longitude: maxLon)
        var level = bits
        while level > 0 {
            let shift = bits - level
            let nx = (high.x >> shift) - (low.x >> shift) + 1
            let ny = (high.y >> shift) - (low.y >> shift) + 1
            if nx * ny <= maxCells { break }
            level -= 1
        }
        let shift = bits - level
        var ranges: [ClosedRange<Int64>] = []
        for cx in (low.x >> shift)...(high.x >> shift) {
            for cy in (low.y >> shift)...(high.y >> shift) {
                let h = hilbert(x: cx, y: cy, order: level)
                let width = Int64(1) << (2 * shift)
                ranges.append((h * width)...(h * width + width - 1))
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int64>] = []
        for r in ranges {
            if let last = merged.last, r.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }
}
