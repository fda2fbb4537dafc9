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
        guard v.isFinite, (0...15).contains(decimals) else { return printf(v, decimals) }
        let unit = exactPowerOfTen(decimals)
        let scaled = abs(v) * unit
        guard scaled < 9e15 else { return printf(v, decimals) }
        // Below 9e15 the conversion truncates to the floor, exactly, and the fraction is exact.
        let floor = Int64(scaled)
        let fraction = scaled - Double(floor)
        // The doubt is max(10⁻⁶, ulp); below 2³³ the ulp is under 10⁻⁶ (every pose column),
        // so it is only worked out above (this runs nine times per pose row).
        let doubt = scaled < 0x1p33 ? 1e-6 : Swift.max(1e-6, scaled.ulp)
        guard abs(fraction - 0.5) > doubt else { return printf(v, decimals) }
        // Not a half-way case (above): to nearest is up when the fraction is over a half.
        let n = UInt64(fraction > 0.5 ? floor + 1 : floor)
        let unitDigits = UInt64(Int64(unit))  // (10^decimals ≤ 10¹⁵ as an integer, exactly)
        let whole = n / unitDigits, part = n % unitDigits
        var wholeDigits = 1, next: UInt64 = 10
        while whole >= next { wholeDigits += 1; next &*= 10 }  // (whole < 9·10¹⁵)
        let negative = v.sign == .minus
        let length = (negative ? 1 : 0) + wholeDigits + (decimals > 0 ? decimals + 1 : 0)
        reserve(length)
        // Written from the last digit back.
        var i = count + length
        digits(part, decimals, endingAt: &i)
        if decimals > 0 { i -= 1; base[i] = 0x2E }
        digits(whole, wholeDigits, endingAt: &i)
        if negative { i -= 1; base[i] = 0x2D }
        count += length
    }

    /// The last `n` decimal digits of `value` (with leading zeros), ending before `base[end]`,
    /// two at a time from `digitPairs`; `end` is left at the first.
    @inline(__always)
    private func digits(_ value: UInt64, _ n: Int, endingAt end: inout Int) {
        var value = value, left = n
        while left >= 2 {
            end -= 2
            LineBytes.pair(value % 100, to: base + end)
            value /= 100
            left -= 2
        }
        if left == 1 { end -= 1; base[end] = 0x30 &+ UInt8(truncatingIfNeeded: value) }
    }

    /// What printf writes, for the cases the digits above cannot decide.
    private mutating func printf(_ v: Double, _ decimals: Int) {
        append(contentsOf: String(format: "%.\(decimals)f", v).utf8)
    }

    /// "00", "01", … "99": two digits at a time (a static string: no lazy global to check).
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    @inline(__always)
    private static func pair(_ k: UInt64, to p: UnsafeMutablePointer<UInt8>) {
        let d = digitPairs.utf8Start + 2 * Int(k)
        p[0] = d[0]; p[1] = d[1]
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
