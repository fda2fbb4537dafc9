/// Binary searches over a collection sorted ascending by a key (times, mostly): the one
/// implementation of each, so the boundary cases (before the first, after the last, equal keys)
/// are decided once.
extension RandomAccessCollection where Index == Int {
    /// The first index whose key is not less than `value` (`endIndex` when every key is): C++'s
    /// `lower_bound`, numpy's `searchsorted(side="left")`.
    @inlinable
    public func lowerBound<Key: Comparable>(of value: Key, by key: (Element) -> Key) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(self[mid]) < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first index whose key is greater than `value` (`endIndex` when none is): C++'s
    /// `upper_bound`, numpy's `searchsorted(side="right")`.
    @inlinable
    public func upperBound<Key: Comparable>(of value: Key, by key: (Element) -> Key) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(self[mid]) <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The interval from element i to i + 1 to interpolate `value` in: the last i whose key is
    /// at most `value`, kept within the first and the last interval (before the first key: 0;
    /// at or after the last: the last interval). A collection of one element gives its index.
    @inlinable
    public func interpolationInterval<Key: Comparable>(for value: Key, by key: (Element) -> Key) -> Int {
        startIndex + Swift.max(0, Swift.min(upperBound(of: value, by: key) - startIndex - 1, count - 2))
    }

    /// The index of the element whose key is nearest `value`, the earlier of two as near; nil
    /// when the collection is empty.
    @inlinable
    public func nearestIndex(to value: Double, by key: (Element) -> Double) -> Int? {
        let i = lowerBound(of: value, by: key)
        if i == startIndex { return isEmpty ? nil : i }
        if i == endIndex { return i - 1 }
        return Swift.abs(key(self[i]) - value) < Swift.abs(key(self[i - 1]) - value) ? i : i - 1
    }
}

extension RandomAccessCollection where Index == Int, Element: Comparable {
    /// `lowerBound(of:by:)` of the elements themselves.
    @inlinable
    public func lowerBound(of value: Element) -> Int { lowerBound(of: value, by: { $0 }) }

    /// `interpolationInterval(for:by:)` of the elements themselves.
    @inlinable
    public func interpolationInterval(for value: Element) -> Int { interpolationInterval(for: value, by: { $0 }) }
}

extension RandomAccessCollection where Index == Int, Element == Double {
    /// `nearestIndex(to:by:)` of the elements themselves.
    @inlinable
    public func nearestIndex(to value: Double) -> Int? { nearestIndex(to: value, by: { $0 }) }
}
