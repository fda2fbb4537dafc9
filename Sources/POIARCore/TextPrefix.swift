/// The start of a text, bounded in characters (grapheme clusters) and in Unicode scalars. A
/// character may hold any number of scalars: "a" followed by three million combining accents
/// is one character of 6 MB, so a bound in characters alone bounds nothing (a POI name like
/// that was kept whole and drawn at seconds a frame). Whole characters are kept while both
/// bounds allow; the first that does not fit ends the prefix (never cut inside: a flag or an
/// accented letter stays whole or goes).
public func boundedPrefix<S: StringProtocol>(_ text: S, characters: Int, scalars: Int) -> (text: String, isWhole: Bool) {
    var kept = 0, keptScalars = 0
    var end = text.startIndex
    for character in text {
        keptScalars += character.unicodeScalars.count
        guard kept < characters, keptScalars <= scalars else { return (String(text[..<end]), false) }
        kept += 1
        end = text.index(after: end)
    }
    return (String(text), true)
}
