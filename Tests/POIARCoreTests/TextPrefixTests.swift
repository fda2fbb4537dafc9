import POIARCore
import Testing

/// `boundedPrefix`: whole characters while both bounds allow, never cut inside.
@Suite struct TextPrefixTests {
    @Test func aShortTextIsWhole() {
        let r = boundedPrefix("Kappeli", characters: 10, scalars: 40)
        #expect(r.text == "Kappeli" && r.isWhole)
    }

    @Test func charactersBound() {
        let r = boundedPrefix("Kappeli", characters: 3, scalars: 40)
        #expect(r.text == "Kap" && !r.isWhole)
    }

    /// A flag (two scalars) is kept whole or not at all when a whole one fits no more.
    @Test func scalarsBoundBetweenCharacters() {
        let r = boundedPrefix("ab🇫🇮🇫🇮", characters: 10, scalars: 5)
        #expect(r.text == "ab🇫🇮" && !r.isWhole)
        let whole = boundedPrefix("ab🇫🇮", characters: 3, scalars: 4)
        #expect(whole.text == "ab🇫🇮" && whole.isWhole)
    }

    /// One character of a million combining accents does not fit: it ends the prefix.
    @Test func aHugeCharacterEndsThePrefix() {
        let huge = "Kappeli a" + String(repeating: "\u{0301}", count: 1_000_000)
        #expect(huge.count == 9)
        let r = boundedPrefix(huge, characters: 1000, scalars: 4000)
        #expect(r.text == "Kappeli " && !r.isWhole)
    }
}
