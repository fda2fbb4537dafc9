/// 10^k for k in 0...22: the powers of ten that are exact doubles (the number parsers' and
/// formatters' fast paths rely on that).
@inlinable @inline(__always)
public func exactPowerOfTen(_ k: Int) -> Double {
    switch k {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    case 22: return 1e22
    default: preconditionFailure("10^\(k) is not an exact double")
    }
}
