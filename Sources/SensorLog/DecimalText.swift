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
    /// with at most 19 significant digits the mantissa m is an exact integer, and when
    /// m ≤ 2⁵³ and the power of ten p has |p| ≤ 22, m and 10^|p| are both exact doubles, so one
    /// multiplication or division rounds correctly. Anything else returns nil and leaves `i`
    /// (the caller's general parser decides).
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
        } else {
            guard mantissa <= exactMantissaLimit, power >= -22, power <= 22 else { return nil }
            v = power < 0 ? Double(mantissa) / exactPowerOfTen(-power) : Double(mantissa) * exactPowerOfTen(power)
        }
        i = j
        return negative ? -v : v
    }

    /// Reads decimal digits at `j` into `mantissa` (×10 each; leading zeros are not counted as
    /// significant, and wrapping past 19 significant digits is harmless since the caller then
    /// refuses the number); returns how many digits.
    @inline(__always)
    static func digitRun(_ b: UnsafeBufferPointer<UInt8>, _ j: inout Int, into mantissa: inout UInt64, significant: inout Int) -> Int {
        let start = j
        while j < b.count {
            let d = b[j] &- 0x30
            if d > 9 { break }
            if mantissa != 0 || d != 0 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                significant += 1
            }
            j += 1
        }
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
        guard j < n, n - j <= 19 else { return nil }
        var v: Int64 = 0
        while j < n {
            let d = field[j] &- 0x30
            guard d <= 9 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            v = s
            j += 1
        }
        return v
    }
}
