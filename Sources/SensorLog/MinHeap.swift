/// A binary min-heap.
package struct MinHeap<Element: Comparable> {
    private var items: [Element] = []

    package init() {}
    package var isEmpty: Bool { items.isEmpty }
    package var count: Int { items.count }
    package var min: Element? { items.first }

    package mutating func insert(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[i] < items[parent] { items.swapAt(i, parent); i = parent } else { break }
        }
    }

    package mutating func popMin() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && items[l] < items[m] { m = l }
            if r < items.count && items[r] < items[m] { m = r }
            if m == i { break }
            items.swapAt(i, m); i = m
        }
        return top
    }
}
