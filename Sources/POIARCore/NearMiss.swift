/// The word a user most likely meant when they typed one poiar does not know: a category
/// (`cafes` → `cafe`), a subcommand (`replya` → `replay`), an option's value (`hid` → `hide`).
/// One rule for all of them, so every "did you mean" is found the same way.
public enum NearMiss {
    /// The candidate closest to `typed` by edit distance (a swap of two neighbouring letters
    /// counts as one edit), case ignored, when it is close enough to be a slip: at most one edit
    /// for words up to four letters, two up to eight, three beyond; or when one is the other
    /// with a plural or a prefix left off (`restaurants`, `rest`) and nothing else is as close.
    /// nil when nothing is near, or two candidates are equally near.
    public static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let word = typed.lowercased()
        guard !word.isEmpty else { return nil }
        let allowed = word.count <= 4 ? 1 : word.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let lower = candidate.lowercased()
            guard lower != word else { return candidate }
            var d = editDistance(word, lower)
            // A word typed in part ("rest" for "restaurant") is as good as one slip.
            if word.count >= 3 && lower.hasPrefix(word) { d = min(d, 1) }
            guard d <= allowed else { continue }
            if let b = best, d > b.distance { continue }
            tied = best?.distance == d
            best = (candidate, d)
        }
        return tied ? nil : best?.name
    }

    /// Edits that turn `a` into `b`: insertions, deletions, substitutions, and swaps of two
    /// neighbouring characters (optimal string alignment).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
