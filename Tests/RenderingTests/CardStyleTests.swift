import Foundation
import POIARCore
import Testing
@testable import Rendering

@Suite("Card style and label sizes")
struct CardStyleTests {
    @Test("longer names make wider cards, up to the cap, then ellipsised")
    func widthGrowsThenCaps() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let short = style.labelSize(name: "Ica", detail: "85 m")
        let longer = style.labelSize(name: "Ica Supermarket Lund", detail: "85 m")
        #expect(longer.width > short.width)
        #expect(longer.height == short.height)

        let huge = String(repeating: "Stortorget Restaurang och Bar ", count: 10)
        let capped = style.labelSize(name: huge, detail: "1.2 km")
        // Text at most maxTextWidth, plus the badge and paddings (about 60 px at this scale).
        #expect(capped.width <= style.maxTextWidth + 60)
        #expect(capped.width >= style.maxTextWidth)
        let layout = style.cardLayout(name: huge, detail: "1.2 km")
        #expect(layout.name.hasSuffix("…"))
        #expect(layout.name.count < huge.count)
        #expect(style.nameFont.width(of: layout.name) <= style.maxTextWidth)
    }

    /// A name of 10 MB (from a database made before import cut names) is laid out as a name
    /// that just overflows the card: the same text, measured no further than the card is wide.
    @Test("a 10 MB name is cut as fast as a long one")
    func aHugeNameIsMeasuredOnlyAsFarAsItCanShow() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let long = String(repeating: "Kappeli ", count: 200)
        let huge = String(repeating: "Kappeli ", count: 1_250_000)
        let start = Date()
        let cut = style.cardLayout(name: huge, detail: "85 m")
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(cut.name == style.cardLayout(name: long, detail: "85 m").name)
        #expect(cut.name.hasSuffix("…"))
    }

    /// One character of a million combining accents is not measured: it ends the text shown.
    @Test("a name of one huge character is cut as fast")
    func aHugeCharacterIsMeasuredOnlyAsFarAsItCanShow() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let huge = "Kappeli a" + String(repeating: "\u{0301}", count: 1_000_000)
        let start = Date()
        let cut = style.cardLayout(name: huge, detail: "85 m")
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(cut.name == "Kappeli…")
    }

    @Test("sizes are whole pixels and scale with the image")
    func scaling() throws {
        let small = try CardStyle(imageWidth: 1280, imageHeight: 720)
        let large = try CardStyle(imageWidth: 3840, imageHeight: 2160)
        let a = small.labelSize(name: "Lunds domkyrka", detail: "312 m")
        let b = large.labelSize(name: "Lunds domkyrka", detail: "312 m")
        #expect(a.width == a.width.rounded() && a.height == a.height.rounded())
        #expect(abs(b.width / a.width - 3) < 0.1)
        #expect(abs(b.height / a.height - 3) < 0.1)
        // Portrait: the shorter side sets the scale.
        let portrait = try CardStyle(imageWidth: 720, imageHeight: 1280)
        #expect(portrait.scale == 1)
        #expect(small.scale == 1)
    }

    @Test("a card without a detail line is shorter")
    func oneLine() throws {
        let style = try CardStyle(imageWidth: 1280, imageHeight: 720)
        #expect(style.labelSize(name: "Park", detail: "").height < style.labelSize(name: "Park", detail: "5 m").height)
    }

    @Test("a missing font file is an InputError naming it")
    func missingFont() throws {
        let error = #expect(throws: InputError.self) {
            try CardStyle(imageHeight: 720, fontPath: "/no/such/font.ttf")
        }
        #expect(error?.description == "/no/such/font.ttf: font file not found")
        let notAFont = TestPaths.fixtures.appendingPathComponent("make_fixtures.py").path
        let badFont = #expect(throws: InputError.self) { try CardStyle(imageHeight: 720, boldFontPath: notAFont) }
        #expect(badFont?.location.file == notAFont)
    }

    @Test("every listed category has its own colour; unknown ones are grey")
    func palette() {
        let colours = Set(CategoryPalette.colours.values)
        #expect(colours.count == CategoryPalette.colours.count)
        #expect(!colours.contains(CategoryPalette.other))
        #expect(CategoryPalette.colour(for: "Cafe") == CategoryPalette.colours["cafe"])
        #expect(CategoryPalette.colour(for: "bicycle_rental") != CategoryPalette.other)
        #expect(CategoryPalette.colour(for: "no_such_category") == CategoryPalette.other)
        // Every category of docs/categories.md has a colour and a glyph of its own.
        let documented = ["atm", "attraction", "bank", "bar", "bicycle_rental", "bus_station", "cafe", "charging_station",
                          "cinema", "doctors", "fast_food", "fuel", "hospital", "hotel", "ice_cream", "kindergarten",
                          "library", "museum", "nightclub", "park", "parking", "peak", "pharmacy", "place_of_worship",
                          "playground", "police", "post_office", "pub", "restaurant", "school", "sports", "store",
                          "supermarket", "theatre", "toilets", "townhall", "university", "viewpoint", "zoo"]
        #expect(Set(CategoryPalette.colours.keys) == Set(documented))
        #expect(Set(CategoryIcons.categories) == Set(documented))
    }
}
