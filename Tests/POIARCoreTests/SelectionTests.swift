import Testing
@testable import POIARCore

@Suite struct SelectionTests {
    /// The same value as sorting and taking the middle, on sizes odd and even, with many ties,
    /// sorted and reversed runs, and signed zeros.
    @Test func upperMedianIsTheSortedMiddle() {
        var rng = SystemRandomNumberGenerator()
        for n in [1, 2, 3, 4, 5, 8, 17, 100, 1001, 4096] {
            for kind in 0..<4 {
                var v: [Double] = (0..<n).map { _ in
                    kind == 0 ? Double.random(in: -1...1, using: &rng) : Double(Int.random(in: 0...3, using: &rng))
                }
                if kind == 2 { v.sort() }
                if kind == 3 { v.sort(by: >); v[0] = -0.0 }
                #expect(upperMedian(v) == v.sorted()[n / 2], "n \(n), kind \(kind)")
            }
        }
        #expect(upperMedian([]) == nil)
    }
}
