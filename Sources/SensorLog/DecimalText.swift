import Foundation
import POIARCore

/// Numbers read straight from a line's bytes, without making a String: the one number parser
/// of the log reader and of the phone importers.
///
/// The fast path reads plain decimals exactly (Clinger's fast path); anything it cannot decide
/// goes to C's `strtod`, which rounds correctly too (glibc). poiar never calls `setlocale`,
/// so `strtod` runs in the C locale and reads "." as the decimal point.
package enum DecimalText {
    /// 2⁵³: integers up to it are exact doubles.
    static let exactMantissaLimit: UInt64 = 1 << 53

    /// A plain decimal number at `b[i...]`: optional sign, digits, optional point (or, with
    /// `decimalComma`, a comma) and digits, optional exponent (`e`/`E`, sign, 1–3 digits); at
    /// least one digit. Read up to the first other byte, where `i` is left. Parsed exactly:
    /// with at most 19 significant digits the mantissa m is an exact integer. When m ≤ 2⁵³
    /// and the power of ten p has |p| ≤ 22, m and 10^|p| are both exact doubles, so one
    /// multiplication or division rounds correctly (Clinger's fast path); otherwise, for
    /// |p| ≤ 40, the Eisel–Lemire step (`eiselLemire`) rounds correctly too (the 17-digit
    /// floats Android apps write). Anything else returns nil and leaves `i` (the caller's
    /// general parser decides).
    @inline(__always)
    package static func scan(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, decimalComma: Bool = false) -> Double? {
        let n = b.count
        var j = i
        var negative = false
        if j < n, b[j] == 0x2D { negative = true; j += 1 } else if j < n, b[j] == 0x2B { j += 1 }
        var mantissa: UInt64 = 0
        var significant = 0, digits = 0
        var decimals = 0
        digits += digitRun(b, &j, into: &mantissa, significant: &significant)
        if j < n, b[j] == 0x2E || (decimalComma && b[j] == 0x2C) {
            j += 1
            let before = j
            digits += digitRun(b, &j, into: &mantissa, significant: &significant)
            decimals = j - before
        }
        guard digits > 0, significant <= 19 else { return nil }
        var power = -decimals
        if j < n, b[j] | 0x20 == 0x65 {  // e or E
            var k = j + 1
            var expNegative = false
            if k < n, b[k] == 0x2D { expNegative = true; k += 1 } else if k < n, b[k] == 0x2B { k += 1 }
            let start = k
            var e = 0
            while k < n, k - start < 4, b[k] &- 0x30 <= 9 {
                e = e * 10 + Int(b[k] &- 0x30)
                k += 1
            }
            guard k > start, k - start <= 3 else { return nil }
            power += expNegative ? -e : e
            j = k
        }
        let v: Double
        if mantissa == 0 {
            v = 0
        } else if mantissa <= exactMantissaLimit, power >= -22, power <= 22 {
            v = power < 0 ? Double(mantissa) / exactPowerOfTen(-power) : Double(mantissa) * exactPowerOfTen(power)
        } else if let e = eiselLemire(mantissa, power) {
            v = e
        } else {
            return nil
        }
        i = j
        return negative ? -v : v
    }

    /// The double nearest to w·10^q (w ≠ 0), correctly rounded, for |q| ≤ `DecimalPowers.maxPower`:
    /// the Eisel–Lemire algorithm as fast_float implements it for binary64 (D. Lemire, "Number
    /// Parsing at a Gigabyte per Second", 2021; N. Mushtak, D. Lemire, "Fast Number Parsing
    /// Without Fallback", 2023, shows that the 128-bit product always suffices). w·2^lz times a
    /// 128-bit approximation of 5^q gives the top 55 bits of the result, then it is rounded
    /// half to even. nil outside the table (the caller falls back to strtod).
    @inline(__always)
    static func eiselLemire(_ w: UInt64, _ q: Int) -> Double? {
        guard q >= -DecimalPowers.maxPower, q <= DecimalPowers.maxPower else { return nil }
        let five = DecimalPowers.fives[q + DecimalPowers.maxPower]
        let lz = w.leadingZeroBitCount
        let ws = w << UInt64(lz)
        // The product's top 64 bits and the next 64; the second word of 5^q only when the
        // first product leaves the 55 bits in doubt.
        var (high, low) = ws.multipliedFullWidth(by: five.high)
        let precisionMask: UInt64 = 0xFFFF_FFFF_FFFF_FFFF >> 55
        if high & precisionMask == precisionMask {
            let second = ws.multipliedFullWidth(by: five.low).high
            let (sum, carry) = low.addingReportingOverflow(second)
            low = sum
            if carry { high &+= 1 }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 64 - 52 - 3)
        var mantissa = high >> shift
        // floor(log2(10^q)) + 63, the exponent of the product, biased (minimum exponent −1023).
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - lz + 1023
        guard power2 > 0 else { return nil }  // subnormal: not within the table's range anyway
        // Exactly half-way (only possible for −4 ≤ q ≤ 23, when 5^q fits in 64 bits): to even.
        if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        guard power2 < 0x7FF else { return nil }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }

    /// Reads decimal digits at `j` into `mantissa` (×10 each; leading zeros, while the
    /// mantissa is still 0, are not counted as significant, and wrapping past 19 significant
    /// digits is harmless since the caller then refuses the number); returns how many digits.
    @inline(__always)
    static func digitRun(_ b: UnsafeBufferPointer<UInt8>, _ j: inout Int, into mantissa: inout UInt64, significant: inout Int) -> Int {
        let start = j
        if mantissa == 0 {
            while j < b.count, b[j] == 0x30 { j += 1 }
        }
        let first = j
        while j < b.count {
            let d = b[j] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            j += 1
        }
        significant += j - first
        return j - start
    }

    /// The whole of `field` as a number, or nil when it is not one (or is empty). The fast path
    /// first; otherwise C's `strtod` on a NUL-terminated copy (long mantissas such as Android's
    /// 17-digit floats, hexadecimal, `inf`, `nan`), which must use every byte. Leading
    /// whitespace is refused (fields are trimmed before). With `decimalComma` a comma is the
    /// decimal point too. The result may be infinite or NaN: callers check.
    package static func parse(_ field: UnsafeBufferPointer<UInt8>, decimalComma: Bool = false) -> Double? {
        guard let first = field.first, first > 0x20 else { return nil }
        var i = 0
        if let v = scan(field, &i, decimalComma: decimalComma), i == field.count { return v }
        // Longer than any number's spelling: not a number.
        guard field.count < 400 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: field.count + 1) { buffer -> Double? in
            for k in 0..<field.count {
                let c = field[k]
                if c == 0 { return nil }
                buffer[k] = CChar(bitPattern: decimalComma && c == 0x2C ? 0x2E : c)
            }
            buffer[field.count] = 0
            let start = buffer.baseAddress!
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(start, &end)
            guard let end, end - start == field.count else { return nil }
            return v
        }
    }

    /// An integer (optional sign, 1–19 digits) that fits in Int64, or nil.
    package static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        var j = 0
        let n = field.count
        var negative = false
        if j < n, field[j] == 0x2D { negative = true; j += 1 } else if j < n, field[j] == 0x2B { j += 1 }
        let digits = n - j
        guard digits > 0, digits <= 19 else { return nil }
        // Up to 18 digits cannot overflow (10^18 < 2^63); a 19th is added with checks.
        var v: UInt64 = 0
        while j < n {
            let d = field[j] &- 0x30
            guard d <= 9 else { return nil }
            v = v &* 10 &+ UInt64(d)
            j += 1
            if digits == 19 && j == n - 1 { break }
        }
        if j < n {
            let d = field[j] &- 0x30
            guard d <= 9 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(d))
            guard !o1, !o2 else { return nil }
            v = a
        }
        if negative { return v <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- v) : nil }
        return v <= UInt64(Int64.max) ? Int64(v) : nil
    }
}
