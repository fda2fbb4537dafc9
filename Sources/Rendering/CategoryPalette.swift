/// The colour of each POI category on cards: the stripe on a card's left edge and the
/// dot at its anchor. Material Design hues (material.io, 2014 palette, shades 600–900)
/// chosen to stay apart from each other and from sky, ground and foliage.
public enum CategoryPalette {
    /// Category name (lower-case, as in the POI store) → colour.
    public static let colours: [String: RGBA8] = [
        "cafe": RGBA8(r: 0x6D, g: 0x4C, b: 0x41),        // brown 600
        "restaurant": RGBA8(r: 0xF5, g: 0x7C, b: 0x00),  // orange 700
        "atm": RGBA8(r: 0x43, g: 0xA0, b: 0x47),         // green 600
        "park": RGBA8(r: 0x1B, g: 0x5E, b: 0x20),        // green 900 (dark green)
        "parking": RGBA8(r: 0x1E, g: 0x88, b: 0xE5),     // blue 600
        "school": RGBA8(r: 0x8E, g: 0x24, b: 0xAA),      // purple 600
        "store": RGBA8(r: 0xD8, g: 0x1B, b: 0x60),       // pink 600
        "university": RGBA8(r: 0x39, g: 0x49, b: 0xAB),  // indigo 600
    ]

    /// Any other category: grey 600.
    public static let other = RGBA8(r: 0x75, g: 0x75, b: 0x75)

    public static func colour(for category: String) -> RGBA8 {
        colours[category.lowercased()] ?? other
    }
}
