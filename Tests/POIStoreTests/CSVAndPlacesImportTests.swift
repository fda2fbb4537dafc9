import Foundation
import POIARCore
import Testing
@testable import POIStore

@Suite struct CSVImportTests {
    static let sample = fixtures.appendingPathComponent("pois/sample.csv")

    @Test func readsTheSample() throws {
        let (format, parsed) = try POIImport.parse(Self.sample)
        #expect(format == .csv)
        #expect(parsed.pois.map(\.id) == ["csv:1", "csv:2", "csv:3", "csv:6"])
        let corner = parsed.pois[0]
        #expect(corner.name == "Corner Cafe")
        #expect(corner.category == "cafe")
        #expect(corner.coordinate == GeoCoordinate(latitude: 60.17, longitude: 24.95, altitude: 12.5))
        #expect(corner.address == "Main Street 5, Helsinki")
        #expect(corner.phone == "+358 1 234")
        #expect(corner.website == "https://corner.example")
        #expect(corner.openingHours == "Mo-Fr 08:00-18:00")
        #expect(corner.tags == ["cuisine": "coffee_shop"])
        let bakery = parsed.pois[1]  // quoted name with quotes, two categories, CRLF line end
        #expect(bakery.name == "Bakery \"Pulla\"")
        #expect(bakery.categories == ["cafe", "store"])
        #expect(bakery.coordinate.altitude == nil)
        #expect(bakery.address == nil)
        let multiline = parsed.pois[3]
        #expect(multiline.name == "Multi\nline name")
        #expect(multiline.categories == ["restaurant", "bar"])  // "nonsense" dropped
        #expect(parsed.skipped == [SkipReason.unknownCategory: 1, SkipReason.noCategory: 1, SkipReason.duplicateID: 1])
    }

    @Test func reimportUpdates() throws {
        let db = try POIDatabase()
        let first = try POIImport.importFile(Self.sample, into: db)
        #expect(first.imported == 4)
        #expect(first.description.hasSuffix(#"4 new, 0 updated POIs; skipped 3 (duplicate id: 1, no known category: 1, unknown category: 1); unknown categories: "spaceport" 1 (see pois categories; --category-map maps them)"#))
        let second = try POIImport.importFile(Self.sample, into: db)
        #expect(second.imported == 0 && second.updated == 4)
        #expect(try db.count() == 4)
    }

    func error(_ text: String) -> InputError? {
        inputError { _ = try CSVImporter.parse(Data(text.utf8), file: "t.csv") }
    }

    @Test func badRowsNameTheLineAndField() {
        let header = "id,name,category,lat,lon\n"
        #expect(error(header + "1,A,cafe,91,24\n")?.description == "t.csv:2 (lat): 91.0 is out of range -90.0…90.0")
        #expect(error(header + "1,A,cafe,60,nan\n")?.description == "t.csv:2 (lon): expected a finite number, got \"nan\"")
        #expect(error(header + "1,A,cafe,60,24\n2,B,cafe,sixty,24\n")?.location.line == 3)
        #expect(error(header + "1,A,cafe,60\n")?.message == "expected 5 fields (as in the header), got 4")
        #expect(error(header + ",A,cafe,60,24\n")?.location.field == "id")
        #expect(error(header + "1,\"A,cafe,60,24\n")?.message.contains("not closed") == true)
        #expect(error(header + "1,\"A\"x,cafe,60,24\n")?.message.contains("after a quoted field") == true)
        #expect(error("id,name,lat\n1,A,60\n")?.description == "t.csv:1 (header): missing column(s) category, lon: expected name,category,lat,lon[,id,alt,address,phone,website,opening_hours] (lat also as latitude; lon as lng, long or longitude; --columns maps other names)")
        #expect(error("id,name,category,lat,lon,lat\n")?.message.contains("twice") == true)
        #expect(error("")?.message.hasPrefix("empty CSV file") == true)
        #expect(error(header + "1,A,cafe,60,24,5\n")?.location.line == 2)
        #expect(error("id,name,category,lat,lon,alt\n1,A,cafe,60,24,inf\n")?.location.field == "alt")
    }

    @Test func aFileEndingWithoutNewlineAndBlankLines() throws {
        let parsed = try CSVImporter.parse(Data("id,name,category,lat,lon\n\n1,A,cafe,60,24\n\n2,B,bar,61,25".utf8), file: "t.csv")
        #expect(parsed.pois.map(\.id) == ["csv:1", "csv:2"])
        #expect(parsed.pois[1].coordinate == GeoCoordinate(latitude: 61, longitude: 25))
    }
}

@Suite struct GooglePlacesImportTests {
    static let web = fixtures.appendingPathComponent("web")

    @Test func readsANearbySearchPage() throws {
        let (format, parsed) = try POIImport.parse(Self.web.appendingPathComponent("google-nearby-page1.json"))
        #expect(format == .googlePlaces)
        #expect(parsed.pois.map(\.id) == ["gplaces:ChIJtest_CafeEngel_0001", "gplaces:ChIJtest_KarlFazer_0002"])
        let engel = parsed.pois[0]
        #expect(engel.name == "Cafe Engel")
        #expect(engel.categories == ["cafe", "store"])
        #expect(engel.coordinate == GeoCoordinate(latitude: 60.168913, longitude: 24.951745))
        #expect(engel.address == "Aleksanterinkatu 26, Helsinki")
        #expect(engel.tags["rating"] == "4.4")
        #expect(engel.tags["types"] == "cafe,food,point_of_interest,store,establishment")
        #expect(parsed.pois[1].categories == ["store", "cafe"])  // bakery first, as Google lists it
        #expect(parsed.skipped == ["permanently closed": 1, SkipReason.noCategory: 1])
    }

    @Test func statusesOtherThanOKAreErrors() throws {
        for (name, status, message) in [("google-over-query-limit.json", "OVER_QUERY_LIMIT", "exceeded your daily request quota"),
                                        ("google-request-denied.json", "REQUEST_DENIED", "The provided API key is invalid")] {
            let url = Self.web.appendingPathComponent(name)
            let error = try #require(inputError { _ = try POIImport.parse(url) })
            #expect(error.location.file == url.path)
            #expect(error.location.field == "status")
            #expect(error.message.contains("Google Places request failed: \(status): "))
            #expect(error.message.contains(message))
        }
        let (_, zero) = try POIImport.parse(Self.web.appendingPathComponent("google-zero-results.json"))
        #expect(zero.pois.isEmpty)
    }

    @Test func theNewAPIFormAndBadLocations() throws {
        let (format, parsed) = try POIImport.parse(Self.web.appendingPathComponent("google-places-new.json"))
        #expect(format == .googlePlaces)
        #expect(parsed.pois.map(\.id) == ["gplaces:ChIJtest_New_0001"])
        #expect(parsed.pois[0].website == "https://www.cafeengel.fi/")
        #expect(parsed.pois[0].phone == "09 652776")
        let bad = #"{"status": "OK", "results": [{"place_id": "x", "types": ["cafe"], "geometry": {"location": {"lat": "north", "lng": 1}}}]}"#
        let error = inputError { _ = try GooglePlacesImporter.parse(Data(bad.utf8), file: "p.json") }
        #expect(error?.description == "p.json (results[0].geometry.location): expected numeric lat and lng")
        let far = #"{"status": "OK", "results": [{"place_id": "x", "types": ["cafe"], "geometry": {"location": {"lat": 95, "lng": 1}}}]}"#
        #expect(inputError { _ = try GooglePlacesImporter.parse(Data(far.utf8), file: "p.json") }?.message.contains("out of range") == true)
    }

    @Test func invalidJSONIsAnError() throws {
        let url = Self.web.appendingPathComponent("overpass-truncated.json")
        let error = try #require(inputError { _ = try POIImport.parse(url) })
        #expect(error.location.file == url.path)
        #expect(error.message.hasPrefix("invalid JSON"))
    }
}

@Suite struct OverpassCenterTests {
    /// `out center` answers: ways and relations come with a `center` and without their nodes;
    /// a way whose node list is only partly in the answer is still placed at its centre.
    @Test func waysAndRelationsAtTheirCenter() throws {
        let (_, parsed) = try POIImport.parse(fixtures.appendingPathComponent("web/overpass-center.json"))
        let ateneum = try #require(parsed.pois.first { $0.id == "osm:way/8033120" })
        #expect(ateneum.coordinate == GeoCoordinate(latitude: 60.1700237, longitude: 24.9440706))
        let mall = try #require(parsed.pois.first { $0.id == "osm:relation/9630" })
        #expect(mall.coordinate == GeoCoordinate(latitude: 60.1697906, longitude: 24.9418385))
        #expect(mall.categories == ["store"])
        let json = #"""
        {"elements": [
          {"type": "node", "id": 1, "lat": 10.0, "lon": 20.0, "tags": {"entrance": "yes"}},
          {"type": "way", "id": 2, "nodes": [1, 3, 4, 5, 1], "center": {"lat": 10.5, "lon": 20.5}, "tags": {"amenity": "school"}}
        ]}
        """#
        let partial = try OverpassJSONImporter.parse(Data(json.utf8), file: "o.json")
        #expect(partial.pois.first?.coordinate == GeoCoordinate(latitude: 10.5, longitude: 20.5))
    }
}
