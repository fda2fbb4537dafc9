import Foundation
import POIARCore

/// A row being formatted straight into an output buffer: bytes and fixed-point numbers
/// appended without building Strings. `AtomicTextWriter.writeLine` and `PoseExport` hand one
/// out; it owns the buffer for the duration of the call (and may grow it).
public struct LineBytes {
    fileprivate(set) var base: UnsafeMutablePointer<UInt8>
    fileprivate(set) var count: Int
    fileprivate(set) var capacity: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) {
        self.base = base; self.count = count; self.capacity = capacity
    }

    /// An empty buffer of its own (free it with `deallocate()`).
    static func allocate(capacity: Int) -> LineBytes {
        LineBytes(base: .allocate(capacity: capacity), count: 0, capacity: capacity)
    }

    func deallocate() { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func removeAll() { count = 0 }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = Swift.max(capacity * 2, 64)
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    @inline(__always)
    public mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    public mutating func comma() { byte(0x2C) }

    public mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        for b in bytes { byte(b) }
    }

    /// `v` with `decimals` digits after the point, exactly as printf's `%.<decimals>f` writes
    /// it (sign of negative values and of −0 kept, half-way cases rounded as printf does).
    /// The digits come from the value scaled by 10^decimals (an exact power, so the product
    /// is off the exact one by at most half an ulp) and rounded; when that product lies within
    /// an ulp (or 10⁻⁶) of a half-way point, where its rounding could differ from printf's
    /// exact decimal rounding, printf is asked.
    public mutating func fixed(_ v: Double, _ decimals: Int) {
        let scaled = abs(v) * exactPowerOfTen(Swift.min(Swift.max(decimals, 0), 15))
        let floor = scaled.rounded(.down)
        guard v.isFinite, (0...15).contains(decimals), scaled < 9e15, abs(scaled - floor - 0.5) > Swift.max(1e-6, scaled.ulp) else {
            append(contentsOf: String(format: "%.\(decimals)f", v).utf8)
            return
        }
        var n = UInt64(scaled.rounded(.toNearestOrEven))
        // Digits from the last one back into a scratch of 32 bytes (at most 16 digits, the
        // point and the sign), then copied out.
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let negative = v.sign == .minus
        let length = withUnsafeMutableBytes(of: &scratch) { s -> Int in
            var i = 32
            for _ in 0..<decimals {
                i -= 1
                s[i] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            }
            if decimals > 0 { i -= 1; s[i] = 0x2E }
            repeat {
                i -= 1
                s[i] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            } while n > 0
            if negative { i -= 1; s[i] = 0x2D }
            reserve(32 - i)
            (base + count).update(from: s.baseAddress!.advanced(by: i).assumingMemoryBound(to: UInt8.self), count: 32 - i)
            return 32 - i
        }
        count += length
    }

}

extension LineBytes {
    /// What `fill` writes, as a String (for single rows and tests).
    static func string(_ fill: (inout LineBytes) -> Void) -> String {
        var line = LineBytes.allocate(capacity: 128)
        defer { line.deallocate() }
        fill(&line)
        return String(decoding: line.bytes, as: UTF8.self)
    }
}
