import Foundation

/// FNV-1a, 64 bits (Fowler, Noll & Vo): a fast hash of text (the render journal and the shards'
/// fingerprint, POI cache names). Not cryptographic: it tells runs apart, it does not defend against
/// anyone.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    public init() {}
    public mutating func add(_ s: String) {
        for b in s.utf8 { value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    }
    public mutating func add(_ n: Int) { add(String(n)); add("\n") }
    public var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
    public static func hex(_ parts: String...) -> String {
        var h = FNV1a64()
        for p in parts { h.add(p); h.add("\u{1F}") }
        return h.hex
    }
}
