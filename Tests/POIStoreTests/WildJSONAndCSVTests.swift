import Foundation
import POIARCore
@testable import POIStore
import Testing

/// GeoJSON, Google Places and CSV as other projects and open-data portals write them
/// (issue 15): their variants, options for data without OSM tags, and the messages.
struct WildJSONAndCSVTests {
    func parse(_ text: String, _ name: String, options: ImportOptions = ImportOptions()) throws -> (POISourceFormat, ParsedPOIs) {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let (format, parsed) = try POIImport.parse(try write(text, to: name, in: folder), options: options)
        return (format, parsed)
    }

    @Test func geoJSONVariants() throws {
        // MultiPoint: one POI per point; osmtogeojson's older layout (tags in properties.tags);
        // a feature without an id gets a stable one.
        let collection = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "m", "properties": {"amenity": "toilets"},
           "geometry": {"type": "MultiPoint", "coordinates": [[24.90, 60.10], [24.91, 60.11]]}},
          {"type": "Feature", "properties": {"amenity": "atm"},
           "geometry": {"type": "MultiPoint", "coordinates": [[24.92, 60.12]]}},
          {"type": "Feature", "id": "node/42", "properties": {"type": "node", "id": 42,
             "tags": {"amenity": "cafe", "name": "Nested"}, "relations": [], "meta": {}},
           "geometry": {"type": "Point", "coordinates": [24.93, 60.13]}},
          {"type": "Feature", "properties": {"type": "way", "id": 7, "tags": {"shop": "bakery"}},
           "geometry": {"type": "Point", "coordinates": [24.94, 60.14]}},
          {"type": "Feature", "properties": {"name": "Lib", "category": "library;cafe"},
           "geometry": {"type": "Point", "coordinates": [24.95, 60.15]}}
        ]}
        """
        let (format, parsed) = try parse(collection, "c.geojson")
        #expect(format == .geoJSON)
        let ids = parsed.pois.map(\.id)
        #expect(ids.prefix(3) == ["geojson:m#1", "geojson:m#2", "geojson:" + ids[2].dropFirst(8)])
        #expect(parsed.pois[1].coordinate == GeoCoordinate(latitude: 60.11, longitude: 24.91))
        #expect(ids[3] == "osm:node/42" && parsed.pois[3].name == "Nested" && parsed.pois[3].tags["tags"] == nil)
        #expect(ids[4] == "osm:way/7" && parsed.pois[4].category == "store")
        #expect(parsed.pois[5].categories == ["library", "cafe"])
        // Stable: the same features in another file, elsewhere in it, get the same ids.
        let moved = collection.replacingOccurrences(of: "\"features\": [", with: "\"features\": [{\"type\": \"Feature\", \"properties\": {\"amenity\": \"bar\"}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}},")
        let (_, again) = try parse(moved, "other-name.geojson")
        #expect(Set(again.pois.map(\.id)).isSuperset(of: Set(ids)))
        #expect(ids[2].hasPrefix("geojson:") && ids[2].count == "geojson:".count + 16)

        // GeoJSONSeq (RFC 8142) and newline-delimited features.
        let features = [#"{"type":"Feature","id":1,"properties":{"amenity":"cafe"},"geometry":{"type":"Point","coordinates":[24.9,60.1]}}"#,
                        #"{"type":"Feature","id":2,"properties":{"amenity":"pub"},"geometry":{"type":"Point","coordinates":[24.8,60.2]}}"#]
        for (text, name) in [(features.map { "\u{1E}" + $0 + "\n" }.joined(), "s.geojsons"), (features.joined(separator: "\n") + "\n", "n.geojson")] {
            let (f, seq) = try parse(text, name)
            #expect(f == .geoJSON)
            #expect(seq.pois.map(\.id) == ["geojson:1", "geojson:2"], "\(name)")
        }
        // A bad feature on line 2 of a sequence names the line.
        let bad = features[0] + "\n" + #"{"type":"Feature","id":3,"properties":{"amenity":"pub"},"geometry":{"type":"Point","coordinates":[24.8]}}"# + "\n"
        let error = try #require(inputError { _ = try parse(bad, "bad.geojson") })
        #expect(error.location.line == 2 && error.location.field == "features[1].geometry.coordinates", "\(error)")
        // Unknown categories are listed with counts.
        let unknown = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"category": "kiosk"}, "geometry": {"type": "Point", "coordinates": [1, 1]}},
          {"type": "Feature", "properties": {"category": "Kiosk"}, "geometry": {"type": "Point", "coordinates": [1, 2]}},
          {"type": "Feature", "properties": {"category": "toy"}, "geometry": {"type": "Point", "coordinates": [1, 3]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 4]}}]}
        """
        let (_, u) = try parse(unknown, "u.geojson")
        #expect(u.skipped == [SkipReason.unknownCategory: 3, SkipReason.noCategory: 1])
        #expect(u.unknownCategories == ["kiosk": 1, "Kiosk": 1, "toy": 1])
    }

    /// Open data without OSM tags: `--category` names the category of all of them, a property
    /// can name it through a mapping.
    @Test func openDataGetsItsCategoryFromTheOptions() throws {
        let geojson = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"NAME": "Kallio Library", "TYPE": "Bibliothek"}, "geometry": {"type": "Point", "coordinates": [24.95, 60.18]}},
          {"type": "Feature", "properties": {"NAME": "Play", "TYPE": "Spielplatz"}, "geometry": {"type": "Point", "coordinates": [24.96, 60.19]}},
          {"type": "Feature", "properties": {"NAME": "Other", "TYPE": "Sauna"}, "geometry": {"type": "Point", "coordinates": [24.97, 60.2]}}]}
        """
        let (_, none) = try parse(geojson, "open.geojson")
        #expect(none.pois.isEmpty && none.skipped == [SkipReason.noCategory: 3])
        let (_, all) = try parse(geojson, "open.geojson", options: ImportOptions(category: "library"))
        #expect(all.pois.map(\.category) == ["library", "library", "library"])
        let mapped = ImportOptions(categoryProperty: "TYPE", categoryMap: ["bibliothek": "library", "Spielplatz": "playground"])
        let (_, m) = try parse(geojson, "open.geojson", options: mapped)
        #expect(m.pois.map(\.category) == ["library", "playground"])
        #expect(m.unknownCategories == ["Sauna": 1])
        let csv = "name;TYPE;latitude;longitude\nKallio;Bibliothek;60.18;24.95\n"
        let (_, c) = try parse(csv, "open.csv", options: mapped)
        #expect(c.pois.map(\.category) == ["library"])
    }

    @Test func csvVariants() throws {
        // Semicolon-separated (a European spreadsheet), with decimal points; latitude/lng names.
        let semicolon = "id;name;category;latitude;lng\n1;Kappeli;cafe;60.1675;24.9495\n2;\"Bar; Grill\";\"restaurant;bar\";60.1679;24.945\n"
        let (format, parsed) = try parse(semicolon, "pois.csv")
        #expect(format == .csv)
        #expect(parsed.pois.map(\.id) == ["csv:1", "csv:2"])
        #expect(parsed.pois[1].name == "Bar; Grill" && parsed.pois[1].categories == ["restaurant", "bar"])
        #expect(parsed.pois[0].coordinate == GeoCoordinate(latitude: 60.1675, longitude: 24.9495))
        // Tab-separated, no id column: ids from name and position, the same every time.
        let tabs = "name\tcategory\tlat\tlon\nA\tcafe\t60.1\t24.9\n"
        let (tabFormat, t1) = try parse(tabs, "pois.tsv")
        let (_, t2) = try parse(tabs, "again.tsv")
        #expect(tabFormat == .csv && t1.pois.count == 1 && t1.pois.map(\.id) == t2.pois.map(\.id))
        // A column map for other names.
        let other = "OBJECTID,TITLE,KIND,Y,X\n7,Museum,museum,60.17,24.93\n"
        let (_, mapped) = try parse(other, "other.csv", options: ImportOptions(columns: ["id": "OBJECTID", "name": "title", "category": "KIND", "lat": "Y", "lon": "X"]))
        #expect(mapped.pois.map(\.id) == ["csv:7"] && mapped.pois[0].category == "museum")
        let missing = try #require(inputError { _ = try parse(other, "other.csv", options: ImportOptions(columns: ["lat": "LATITUDE"])) })
        #expect(missing.message.contains("no column \"LATITUDE\""), "\(missing)")
        // Unknown categories: counted and listed, the most frequent first.
        let unknown = "id,name,category,lat,lon\n1,a,kiosk,1,1\n2,b,kiosk,1,1\n3,c,toy,1,1\n4,d,,1,1\n5,e,cafe,1,1\n"
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let report = try POIImport.importFile(try write(unknown, to: "u.csv", in: folder), into: try POIDatabase())
        #expect(report.description.hasSuffix(#"1 new, 0 updated POIs; skipped 4 (unknown category: 3, no known category: 1); unknown categories: "kiosk" 2, "toy" 1 (see pois categories; --category-map maps them)"#),
                "\(report)")
    }

    @Test func googlePlacesNewForms() throws {
        let single = """
        {"name": "places/ChIJ1", "id": "ChIJ1", "types": ["coffee_shop", "cafe", "food", "point_of_interest"],
         "primaryType": "coffee_shop", "formattedAddress": "Pohjoisesplanadi 1, Helsinki", "nationalPhoneNumber": "09 123",
         "websiteUri": "https://example.fi", "location": {"latitude": 60.1675, "longitude": 24.9495},
         "displayName": {"text": "Kappeli", "languageCode": "fi"},
         "regularOpeningHours": {"weekdayDescriptions": ["Monday: 8 AM – 10 PM", "Tuesday: 8 AM – 10 PM"]}}
        """
        let (format, parsed) = try parse(single, "place.json")
        #expect(format == .googlePlaces)
        let poi = try #require(parsed.pois.first)
        #expect(poi.id == "gplaces:ChIJ1" && poi.name == "Kappeli" && poi.category == "cafe")
        #expect(poi.address == "Pohjoisesplanadi 1, Helsinki" && poi.phone == "09 123" && poi.website == "https://example.fi")
        #expect(poi.openingHours == "Monday: 8 AM – 10 PM; Tuesday: 8 AM – 10 PM")
        // primaryType wins the primary category when poiar maps it.
        let list = """
        {"places": [
          {"id": "a", "primaryType": "bar", "types": ["restaurant", "bar"], "location": {"latitude": 1, "longitude": 2}, "displayName": {"text": "A"}},
          {"types": ["cafe"], "location": {"latitude": 1, "longitude": 2}, "displayName": {"text": "No id"}}]}
        """
        let (_, l) = try parse(list, "places.json")
        #expect(l.pois.map(\.categories) == [["bar", "restaurant"]])
        #expect(l.skipped == ["no id": 1])
    }

    @Test func unrecognisedJSONListsEveryForm() throws {
        let error = try #require(inputError { _ = try parse(#"{"foo": 1}"#, "x.json") })
        for form in ["FeatureCollection", "GeoJSONSeq", "\"elements\"", "\"results\"", "\"result\"", "Places API (New)", "\"places\"", "Place object"] {
            #expect(error.message.contains(form), "\(form): \(error.message)")
        }
    }
}
