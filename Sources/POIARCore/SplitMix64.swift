import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast, well-mixed 64-bit generator. The
/// source of randomness of the simulator, tests and benchmarks: a seed gives the same
/// sequence on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    private var spareGaussian: Double?

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal, by the Box–Muller transform (the second value kept for the next call).
    public mutating func gaussian() -> Double {
        if let g = spareGaussian { spareGaussian = nil; return g }
        var u1 = uniform()
        while u1 <= 0 { u1 = uniform() }
        let u2 = uniform()
        let r = (-2 * log(u1)).squareRoot()
        spareGaussian = r * sin(2 * .pi * u2)
        return r * cos(2 * .pi * u2)
    }
}
