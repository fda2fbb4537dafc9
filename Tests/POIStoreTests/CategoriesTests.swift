import Foundation
import POIARCore
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
        #expect(throws: POICategoryError.unknown("spaceport")) { try POICategory.parseFilter("restaurant,Spaceport") }
        let message = POICategoryError.unknown("spaceport").description
        #expect(message == "unknown category \"spaceport\" (known: \(POICategory.known.joined(separator: ", ")))")
        #expect(message.hasPrefix("unknown category \"spaceport\" (known: atm, attraction, bank, bar, bicycle_rental, bus_station, cafe,"))
    }

    /// A slip gets the category meant, not the list of all of them.
    @Test func nearMissCategorySuggestsTheOneMeant() {
        #expect(throws: POICategoryError.unknown("cafes")) { try POICategory.parseFilter("restaurant,Cafes") }
        #expect(POICategoryError.unknown("cafes").description
                == "unknown category \"cafes\": did you mean \"cafe\"? (all \(POICategory.known.count): poiar pois categories)")
        #expect(POICategoryError.unknown("resturant").description.contains("did you mean \"restaurant\"?"))
        #expect(POICategoryError.unknown("musuem").description.contains("did you mean \"museum\"?"))
        #expect(!POICategoryError.unknown("cafes").description.contains("bicycle_rental"))
    }

    @Test func emptyFiltersAreErrors() {
        #expect(throws: POICategoryError.emptyFilter) { try POICategory.parseFilter("") }
        #expect(throws: POICategoryError.emptyFilter) { try POICategory.parseFilter(" , ") }
        #expect(throws: POICategoryError.emptyItem(filter: "cafe,,bar")) { try POICategory.parseFilter("cafe,,bar") }
    }
}

@Suite struct MultiCategoryTests {
    @Test func everyMatchingRuleAddsItsCategory() {
        #expect(POICategory.categories(forTags: ["amenity": "cafe", "shop": "bakery"]) == ["cafe", "store"])
        #expect(POICategory.categories(forTags: ["tourism": "museum", "shop": "gift"]) == ["store", "museum"])
        #expect(POICategory.categories(forTags: ["amenity": "bank", "atm": "yes"]) == ["bank", "atm"])
        #expect(POICategory.categories(forTags: ["shop": "supermarket"]) == ["store", "supermarket"])
        #expect(POICategory.categories(forTags: ["amenity": "restaurant", "amenity:x": "bar"]) == ["restaurant"])
        #expect(POICategory.categories(forTags: ["atm": "yes"]) == ["atm"])
        #expect(POICategory.categories(forTags: ["amenity": "bench"]).isEmpty)
        #expect(POICategory.categories(forTags: ["tourism": "hostel"]) == ["hotel"])
        #expect(POICategory.categories(forTags: ["leisure": "garden"]).isEmpty)
    }

    @Test func googleTypesInGooglesOrder() {
        #expect(POICategory.categories(forGoogleTypes: ["cafe", "food", "point_of_interest", "store", "establishment"]) == ["cafe", "store"])
        #expect(POICategory.categories(forGoogleTypes: ["bakery", "cafe"]) == ["store", "cafe"])
        #expect(POICategory.categories(forGoogleTypes: ["lodging", "point_of_interest"]) == ["hotel"])
        #expect(POICategory.categories(forGoogleTypes: ["point_of_interest", "establishment"]).isEmpty)
        #expect(POICategory.googleType(for: "store") == "store")
        #expect(POICategory.googleType(for: "hotel") == "lodging")
        #expect(POICategory.googleType(for: "kindergarten") == nil)
        for c in ["atm", "cafe", "park", "parking", "restaurant", "school", "store", "university"] {
            #expect(POICategory.googleType(for: c) != nil, "\(c)")
            #expect(!POICategory.osmRules(for: c).isEmpty, "\(c)")
        }
    }

    @Test func filtersMatchAnyCategoryAndTheManifestKeepsThePrimary() throws {
        let db = try POIDatabase()
        let teemaa = POI(id: "t", name: "Teemaa", category: "cafe", coordinate: GeoCoordinate(latitude: 60, longitude: 25),
                         categories: ["cafe", "store"])
        try db.upsert([teemaa, makePOI("s", "store", lat: 60.0001, lon: 25)], source: "t")
        let center = GeoCoordinate(latitude: 60, longitude: 25)
        #expect(try db.query(near: center, radius: 100, categories: ["cafe"]).map(\.poi.id) == ["t"])
        #expect(try db.query(near: center, radius: 100, categories: ["store"]).map(\.poi.id) == ["t", "s"])
        // Found once even when both of its categories are asked for.
        let both = try db.query(near: center, radius: 100, categories: ["store", "cafe"])
        #expect(both.map(\.poi.id) == ["t", "s"])
        #expect(both[0].poi.category == "cafe" && both[0].poi.categories == ["cafe", "store"])
        #expect(try db.query(near: center, radius: 100).count == 2)
        #expect(try db.count(category: "store") == 2)
        #expect(try db.count(category: "cafe") == 1)
        let counts = try db.categoryCounts()
        #expect(counts.map(\.name) == ["cafe", "store"])
        #expect(counts.map(\.count) == [1, 2])
        #expect(counts.map(\.primary) == [1, 1])
        // Changing a POI's categories moves its index entries.
        try db.upsert([POI(id: "t", name: "Teemaa", category: "bar", coordinate: GeoCoordinate(latitude: 60, longitude: 25))], source: "t")
        #expect(try db.query(near: center, radius: 100, categories: ["cafe"]).isEmpty)
        #expect(try db.query(near: center, radius: 100, categories: ["bar"]).map(\.poi.id) == ["t"])
        #expect(try db.query(near: center, radius: 100, categories: ["store"]).map(\.poi.id) == ["s"])
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
        // The Google table: each category's row lists its types in the code's order.
        for category in Set(POICategory.googleRules.map(\.category)) {
            let types = POICategory.googleRules.filter { $0.category == category }.map { "`\($0.type)`" }
            #expect(text.contains("| `\(category)` | \(types.joined(separator: ", ")) |"), "\(category)")
        }
        for name in POICategory.known { #expect(text.contains("`\(name)`"), "\(name)") }
        #expect(text.contains(POICategoryError.unknown("cafes").description))
        #expect(text.contains(POICategoryError.unknown("spaceport").description))
    }
}
