import Foundation
import Testing
@testable import POIStore

@Suite struct CategoriesTests {
    @Test func mapsOSMTags() {
        let cases: [([String: String], String?)] = [
            (["amenity": "cafe"], "cafe"),
            (["amenity": "atm"], "atm"),
            (["amenity": "bank", "atm": "yes"], "bank"),
            (["amenity": "restaurant"], "restaurant"),
            (["amenity": "school"], "school"),
            (["amenity": "university"], "university"),
            (["amenity": "college"], "university"),
            (["amenity": "parking"], "parking"),
            (["amenity": "parking_entrance"], nil),
            (["amenity": "pub"], "pub"),
            (["amenity": "bar"], "bar"),
            (["amenity": "fast_food"], "fast_food"),
            (["shop": "bakery"], "store"),
            (["shop": "supermarket"], "store"),
            (["shop": "no"], nil),
            (["shop": "vacant"], nil),
            (["leisure": "park"], "park"),
            (["leisure": "garden"], nil),
            (["tourism": "hotel"], "hotel"),
            (["tourism": "museum"], "museum"),
            (["highway": "bus_stop", "name": "Stop"], nil),
            ([:], nil),
        ]
        for (tags, expected) in cases {
            #expect(POICategory.category(forTags: tags) == expected, "\(tags)")
        }
    }

    @Test func precedenceIsAmenityShopTourismLeisure() {
        #expect(POICategory.category(forTags: ["amenity": "cafe", "shop": "coffee"]) == "cafe")
        #expect(POICategory.category(forTags: ["tourism": "museum", "shop": "gift"]) == "store")
        #expect(POICategory.category(forTags: ["leisure": "park", "tourism": "attraction"]) == "attraction")
        #expect(POICategory.category(forTags: ["amenity": "bench", "leisure": "park"]) == "park")
    }

    @Test func knownIsSortedAndHasTheContractCategories() {
        #expect(POICategory.known == POICategory.known.sorted())
        #expect(Set(POICategory.known).count == POICategory.known.count)
        for name in ["atm", "cafe", "park", "parking", "restaurant", "school", "store", "university"] {
            #expect(POICategory.known.contains(name))
        }
    }

    @Test func parsesFilters() throws {
        #expect(try POICategory.parseFilter("cafe") == ["cafe"])
        #expect(try POICategory.parseFilter(" Cafe, RESTAURANT ,cafe") == ["cafe", "restaurant"])
    }

    @Test func unknownCategoryListsEveryKnownOne() {
        #expect(throws: POICategoryError.unknown("cafes")) { try POICategory.parseFilter("restaurant,Cafes") }
        let message = POICategoryError.unknown("cafes").description
        #expect(message == "unknown category \"cafes\" (known: \(POICategory.known.joined(separator: ", ")))")
        #expect(message.hasPrefix("unknown category \"cafes\" (known: atm, attraction, bank, bar, cafe,"))
    }

    @Test func emptyFiltersAreErrors() {
        #expect(throws: POICategoryError.emptyFilter) { try POICategory.parseFilter("") }
        #expect(throws: POICategoryError.emptyFilter) { try POICategory.parseFilter(" , ") }
        #expect(throws: POICategoryError.emptyItem(filter: "cafe,,bar")) { try POICategory.parseFilter("cafe,,bar") }
    }
}

@Suite struct CategoriesDocTests {
    /// docs/categories.md must list every category and every tag rule of `POICategory.rules`.
    @Test func docsTableMatchesTheCode() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/categories.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        for rule in POICategory.rules {
            #expect(text.contains("| `\(rule.category)` |"), "\(rule.category)")
            #expect(text.contains("`\(rule.key)=\(rule.value ?? "*")`"), "\(rule)")
        }
        #expect(text.contains(POICategoryError.unknown("cafes").description))
    }
}
