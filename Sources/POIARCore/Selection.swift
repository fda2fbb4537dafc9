/// The element at index `values.count / 2` of `values` sorted ascending (for an even count the
/// upper of the two middle ones), found by selection (Wirth's FIND: partition around the
/// element at that index until it is in place) instead of by sorting: O(n) on average against
/// sorting's O(n log n), and the same value. `values` must hold no NaN; nil when empty.
public func upperMedian(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    var a = values
    let k = a.count / 2
    return a.withUnsafeMutableBufferPointer { b -> Double in
        var l = 0, r = b.count - 1
        while l < r {
            let x = b[k]
            var i = l, j = r
            repeat {
                while b[i] < x { i += 1 }
                while x < b[j] { j -= 1 }
                if i <= j { b.swapAt(i, j); i += 1; j -= 1 }
            } while i <= j
            if j < k { l = i }
            if k < i { r = j }
        }
        return b[k]
    }
}
