/// The colour of each POI category (docs/categories.md): the badge behind a card's icon,
/// the anchor dot, radar blips, map dots. Material Design hues (material.io, 2014 palette,
/// shades 600–900), grouped by theme so related places look related — food and drink warm
/// (brown, orange, red), money green, transport blue, health red, culture purple, education
/// indigo, nature dark green, shopping pink — and chosen within a group to stay apart from
/// each other and from sky, ground and foliage. Every category has its own colour.
public enum CategoryPalette {
    /// Category name (lower-case, as in the POI store) → colour.
    public static let colours: [String: RGBA8] = [
        // Food and drink.
        "cafe": RGBA8(r: 0x6D, g: 0x4C, b: 0x41),            // brown 600
        "restaurant": RGBA8(r: 0xF5, g: 0x7C, b: 0x00),      // orange 700
        "fast_food": RGBA8(r: 0xE6, g: 0x51, b: 0x00),       // orange 900
        "ice_cream": RGBA8(r: 0xF0, g: 0x62, b: 0x92),       // pink 400
        "bar": RGBA8(r: 0xC6, g: 0x28, b: 0x28),             // red 800
        "pub": RGBA8(r: 0x8D, g: 0x6E, b: 0x63),             // brown 400
        "nightclub": RGBA8(r: 0x6A, g: 0x1B, b: 0x9A),       // purple 800
        // Money.
        "atm": RGBA8(r: 0x43, g: 0xA0, b: 0x47),             // green 600
        "bank": RGBA8(r: 0x2E, g: 0x7D, b: 0x32),            // green 800
        // Transport.
        "parking": RGBA8(r: 0x1E, g: 0x88, b: 0xE5),         // blue 600
        "fuel": RGBA8(r: 0x15, g: 0x65, b: 0xC0),            // blue 800
        "charging_station": RGBA8(r: 0x00, g: 0x89, b: 0x7B),  // teal 600
        "bicycle_rental": RGBA8(r: 0x03, g: 0x9B, b: 0xE5),  // light blue 600
        "bus_station": RGBA8(r: 0x0D, g: 0x47, b: 0xA1),     // blue 900
        // Health.
        "hospital": RGBA8(r: 0xD3, g: 0x2F, b: 0x2F),        // red 700
        "doctors": RGBA8(r: 0xE5, g: 0x39, b: 0x35),         // red 600
        "pharmacy": RGBA8(r: 0x00, g: 0x96, b: 0x88),        // teal 500
        // Culture and leisure.
        "museum": RGBA8(r: 0x7B, g: 0x1F, b: 0xA2),          // purple 700
        "theatre": RGBA8(r: 0xAD, g: 0x14, b: 0x57),         // pink 800
        "cinema": RGBA8(r: 0x4A, g: 0x14, b: 0x8C),          // purple 900
        "attraction": RGBA8(r: 0xFF, g: 0x8F, b: 0x00),      // amber 800
        "viewpoint": RGBA8(r: 0x00, g: 0x83, b: 0x8F),       // cyan 800
        "zoo": RGBA8(r: 0x55, g: 0x8B, b: 0x2F),             // light green 800
        "sports": RGBA8(r: 0x00, g: 0x69, b: 0x5C),          // teal 800
        "library": RGBA8(r: 0x5E, g: 0x35, b: 0xB1),         // deep purple 600
        // Nature.
        "park": RGBA8(r: 0x1B, g: 0x5E, b: 0x20),            // green 900 (dark green)
        "playground": RGBA8(r: 0x7C, g: 0xB3, b: 0x42),      // light green 600
        "peak": RGBA8(r: 0x26, g: 0x32, b: 0x38),            // blue grey 900 (rock)
        // Education.
        "school": RGBA8(r: 0x8E, g: 0x24, b: 0xAA),          // purple 600
        "university": RGBA8(r: 0x39, g: 0x49, b: 0xAB),      // indigo 600
        "kindergarten": RGBA8(r: 0x5C, g: 0x6B, b: 0xC0),    // indigo 400
        // Shopping and lodging.
        "store": RGBA8(r: 0xD8, g: 0x1B, b: 0x60),           // pink 600
        "supermarket": RGBA8(r: 0x88, g: 0x0E, b: 0x4F),     // pink 900
        "hotel": RGBA8(r: 0x28, g: 0x35, b: 0x93),           // indigo 800
        // Public services.
        "police": RGBA8(r: 0x1A, g: 0x23, b: 0x7E),          // indigo 900
        "post_office": RGBA8(r: 0xF9, g: 0xA8, b: 0x25),     // yellow 800
        "townhall": RGBA8(r: 0x45, g: 0x5A, b: 0x64),        // blue grey 700
        "place_of_worship": RGBA8(r: 0x4E, g: 0x34, b: 0x2E),  // brown 800
        "toilets": RGBA8(r: 0x54, g: 0x6E, b: 0x7A),         // blue grey 600
    ]

    /// Any other category: grey 600.
    public static let other = RGBA8(r: 0x75, g: 0x75, b: 0x75)

    public static func colour(for category: String) -> RGBA8 {
        colours[category.lowercased()] ?? other
    }
}
