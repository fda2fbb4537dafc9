import Foundation
import POIARCore
import Testing
@testable import POIStore

@Suite struct GeoJSONImportTests {
    /// Five importable features and three that are skipped (no geometry, no category,
    /// a line). The park is an L of three 0.001° squares with its corner at (60.100, 24.900):
    /// the 2×1 part (area 2, centre (1, 0.5)) and the 1×1 part (area 1, centre (0.5, 1.5))
    /// give the centroid (2.5/3, 2.5/3) × 0.001° — not the vertex mean (1, 1) × 0.001°. The
    /// linear local projection keeps centroids, so the hand computation in degrees is exact.
    /// The parking lot is two squares (1×1 at the origin, 2×2 at x 3..5, wound the other way):
    /// centroid ((0.5·1 + 4·4)/5, (0.5·1 + 1·4)/5) = (3.3, 0.9) × 0.001° from (50.0, 10.0).
    static let fixture = """
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": "p1",
       "geometry": {"type": "Point", "coordinates": [24.95, 60.17, 12.5]},
       "properties": {"name": "Corner Cafe", "amenity": "cafe",
                      "addr:street": "Main Street", "addr:housenumber": "5",
                      "addr:postcode": "00100", "addr:city": "Helsinki",
                      "contact:phone": "+358 1 234", "contact:website": "https://corner.example",
                      "opening_hours": "Mo-Fr 08:00-18:00", "wheelchair": true, "level": 2,
                      "rating": 4.5, "note": null, "extra": {"b": 1, "a": [1, "x"]}}},
      {"type": "Feature",
       "geometry": {"type": "Point", "coordinates": [24.951, 60.171]},
       "properties": {"id": 42, "category": "ATM", "name": "Otto"}},
      {"type": "Feature", "id": "ignored-when-osm",
       "geometry": {"type": "Point", "coordinates": [24.952, 60.172]},
       "properties": {"@id": "node/123", "amenity": "restaurant", "name": "Ravintola"}},
      {"type": "Feature", "id": "park-1",
       "geometry": {"type": "Polygon", "coordinates": [[
          [24.900, 60.100], [24.902, 60.100], [24.902, 60.101], [24.901, 60.101],
          [24.901, 60.102], [24.900, 60.102], [24.900, 60.100]]]},
       "properties": {"leisure": "park", "name": "L Park", "category": "not-a-category"}},
      {"type": "Feature", "id": 7,
       "geometry": {"type": "MultiPolygon", "coordinates": [
          [[[10.000, 50.000], [10.001, 50.000], [10.001, 50.001], [10.000, 50.001], [10.000, 50.000]]],
          [[[10.003, 50.000], [10.003, 50.002], [10.005, 50.002], [10.005, 50.000], [10.003, 50.000]]]]},
       "properties": {"amenity": "parking"}},
      {"type": "Feature", "id": "nowhere", "geometry": null, "properties": {"amenity": "cafe"}},
      {"type": "Feature", "id": "stop",
       "geometry": {"type": "Point", "coordinates": [24.95, 60.17]},
       "properties": {"highway": "bus_stop", "name": "Stop"}},
      {"type": "Feature", "id": "line",
       "geometry": {"type": "LineString", "coordinates": [[24.95, 60.17], [24.96, 60.17]]},
       "properties": {"amenity": "cafe"}}
    ]}
    """

    @Test func importsPointsAndPolygonCentroids() throws {
        let parsed = try GeoJSONImporter.parse(Data(Self.fixture.utf8), file: "test.geojson")
        #expect(parsed.pois.map(\.id) == ["geojson:p1", "geojson:42", "osm:node/123", "geojson:park-1", "geojson:7"])
        #expect(parsed.skipped == ["no geometry": 1, "no known category": 1, "unsupported geometry LineString": 1])

        let cafe = parsed.pois[0]
        #expect(cafe.name == "Corner Cafe")
        #expect(cafe.category == "cafe")
        #expect(cafe.coordinate == GeoCoordinate(latitude: 60.17, longitude: 24.95, altitude: 12.5))
        #expect(cafe.address == "Main Street 5, 00100 Helsinki")
        #expect(cafe.phone == "+358 1 234")
        #expect(cafe.website == "https://corner.example")
        #expect(cafe.openingHours == "Mo-Fr 08:00-18:00")
        #expect(cafe.tags["wheelchair"] == "true")
        #expect(cafe.tags["level"] == "2")
        #expect(cafe.tags["rating"] == "4.5")
        #expect(cafe.tags["note"] == nil)
        #expect(cafe.tags["extra"] == #"{"a":[1,"x"],"b":1}"#)

        #expect(parsed.pois[1].category == "atm")
        #expect(parsed.pois[1].name == "Otto")
        #expect(parsed.pois[1].address == nil)
        #expect(parsed.pois[2].category == "restaurant")

        let park = parsed.pois[3]
        #expect(park.category == "park")
        #expect(abs(park.coordinate.latitude - (60.100 + 0.0025 / 3)) < 1e-10)
        #expect(abs(park.coordinate.longitude - (24.900 + 0.0025 / 3)) < 1e-10)
        #expect(park.coordinate.altitude == nil)

        let parking = parsed.pois[4]
        #expect(parking.category == "parking")
        #expect(parking.name == "")
        #expect(abs(parking.coordinate.latitude - 50.0009) < 1e-10)
        #expect(abs(parking.coordinate.longitude - 10.0033) < 1e-10)
    }

    @Test func importsIntoTheStoreWithAReport() throws {
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let url = try write(Self.fixture, to: "pois.geojson", in: folder)
        let db = try POIDatabase()
        let report = try POIImport.importFile(url, into: db)
        #expect(report.format == .geoJSON)
        #expect(report.imported == 5 && report.updated == 0 && report.skippedTotal == 3)
        #expect(report.description.hasSuffix(
            "pois.geojson (GeoJSON): 5 new, 0 updated POIs; skipped 3 (no geometry: 1, no known category: 1, unsupported geometry LineString: 1)"))
        #expect(try db.poi(id: "geojson:p1") == GeoJSONImporter.parse(Data(Self.fixture.utf8), file: "x").pois[0])
    }

    @Test func osmStyleFeatureIDs() {
        #expect(GeoJSONImporter.poiID(featureID: .string("way/5"), tags: [:], fallback: { "f#0" }) == "osm:way/5")
        #expect(GeoJSONImporter.poiID(featureID: nil, tags: ["@id": "relation/9"], fallback: { "f#0" }) == "osm:relation/9")
        #expect(GeoJSONImporter.poiID(featureID: .string("node/x"), tags: [:], fallback: { "f#0" }) == "geojson:node/x")
        #expect(GeoJSONImporter.poiID(featureID: nil, tags: [:], fallback: { "f.geojson#3" }) == "geojson:f.geojson#3")
    }

    @Test func malformedGeoJSONNamesTheField() {
        let badPosition = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"amenity": "cafe"}, "geometry": {"type": "Point", "coordinates": [60.17, 124.95]}}]}"#
        let error = inputError { _ = try GeoJSONImporter.parse(Data(badPosition.utf8), file: "bad.geojson") }
        #expect(error?.location.file == "bad.geojson")
        #expect(error?.location.field == "features[0].geometry.coordinates")

        let notGeoJSON = #"{"type": "Topology"}"#
        #expect(inputError { _ = try GeoJSONImporter.parse(Data(notGeoJSON.utf8), file: "t.json") }?.location.field == "type")

        let syntax = "{\"type\": \"FeatureCollection\",\n \"features\": [,]}"
        let syntaxError = inputError { _ = try GeoJSONImporter.parse(Data(syntax.utf8), file: "s.geojson") }
        #expect(syntaxError?.location.file == "s.geojson")
        #expect(syntaxError?.message.hasPrefix("invalid JSON") == true)
    }
}
