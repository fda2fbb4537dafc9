import Foundation
import POIARCore

/// Reads Google Places responses: a Nearby Search (or Text Search) JSON response of the Places
/// API, `{"results": [...], "status": "OK"}`, and also the Places API (New) form,
/// `{"places": [...]}`.
///
/// - `status` must be `OK` or `ZERO_RESULTS`; any other (`OVER_QUERY_LIMIT`,
///   `REQUEST_DENIED`, `INVALID_REQUEST`, …) is an error quoting Google's `error_message`. A
///   new-API `{"error": {...}}` is an error too.
/// - Each result: id `gplaces:<place_id>`; position `geometry.location.lat/lng` (new API:
///   `location.latitude/longitude`); `name` (`displayName.text`); address `vicinity` or
///   `formatted_address` (`formattedAddress`); phone and website when a Details response has
///   them; opening hours from `opening_hours.weekday_text`; categories from `types` through
///   the Google table of docs/categories.md, in the order Google lists them.
/// - Skipped, counted: a result without `place_id` ("no place_id"), with no type poiar maps
///   ("no known category"), marked `CLOSED_PERMANENTLY` ("permanently closed"), an id seen
///   before ("duplicate id"). A missing or non-numeric location is an error naming the field.
public enum GooglePlacesImporter {
    public static func parse(_ data: Data, file: String) throws -> ParsedPOIs {
        try parse(JSONValue.parse(data, file: file), file: file)
    }

    static func parse(_ root: JSONValue, file: String) throws -> ParsedPOIs {
        if let error = root["error"], error.object != nil {
            let status = error["status"]?.string ?? error["code"]?.jsonText ?? "error"
            let message = error["message"]?.string.map { ": \($0)" } ?? ""
            throw InputError(file: file, field: "error", "Google Places request failed: \(status)\(message)")
        }
        if let places = root["places"] {
            guard let list = places.array else { throw InputError(file: file, field: "places", "expected an array") }
            return try parseNew(list, file: file)
        }
        let status = root["status"]?.string
        if let status, status != "OK", status != "ZERO_RESULTS" {
            let message = root["error_message"]?.string.map { ": \($0)" } ?? ""
            throw InputError(file: file, field: "status", "Google Places request failed: \(status)\(message)")
        }
        guard let results = root["results"]?.array ?? (root["result"].map { [$0] }) else {
            throw InputError(file: file, field: "results", "expected an array of places (a Google Places Nearby Search response)")
        }
        var parsed = ParsedPOIs()
        var seen = Set<String>()
        for (i, place) in results.enumerated() {
            let field = "results[\(i)]"
            guard place.object != nil else { throw InputError(file: file, field: field, "expected an object") }
            guard let placeID = place["place_id"]?.string, !placeID.isEmpty else {
                parsed.skip("no place_id")
                continue
            }
            let location = place["geometry"]?["location"]
            guard let lat = location?["lat"]?.number, let lng = location?["lng"]?.number else {
                throw InputError(file: file, field: "\(field).geometry.location", "expected numeric lat and lng")
            }
            let coordinate = GeoCoordinate(latitude: lat, longitude: lng)
            guard coordinate.isValid else {
                throw InputError(file: file, field: "\(field).geometry.location", "position \(lat),\(lng) is out of range")
            }
            if place["business_status"]?.string == "CLOSED_PERMANENTLY" || place["permanently_closed"] == .bool(true) {
                parsed.skip("permanently closed")
                continue
            }
            let types = place["types"]?.array?.compactMap(\.string) ?? []
            let categories = POICategory.categories(forGoogleTypes: types)
            guard !categories.isEmpty else {
                parsed.skip(SkipReason.noCategory)
                continue
            }
            guard seen.insert(placeID).inserted else {
                parsed.skip(SkipReason.duplicateID)
                continue
            }
            var tags: [String: String] = ["place_id": placeID]
            if !types.isEmpty { tags["types"] = types.joined(separator: ",") }
            for key in ["name", "vicinity", "formatted_address", "business_status", "rating", "user_ratings_total",
                        "price_level", "formatted_phone_number", "international_phone_number", "website", "url"] {
                if let value = place[key]?.tagString, !value.isEmpty { tags[key] = value }
            }
            let hours = place["opening_hours"]?["weekday_text"]?.array?.compactMap(\.string).joined(separator: "; ")
            parsed.pois.append(POI(
                id: "gplaces:\(placeID)", name: place["name"]?.string ?? "", category: categories[0],
                coordinate: coordinate,
                address: TagFields.nonEmpty(tags["vicinity"]) ?? TagFields.nonEmpty(tags["formatted_address"]),
                phone: TagFields.nonEmpty(tags["international_phone_number"]) ?? TagFields.nonEmpty(tags["formatted_phone_number"]),
                website: TagFields.nonEmpty(tags["website"]),
                openingHours: TagFields.nonEmpty(hours), tags: tags, categories: categories))
        }
        return parsed
    }

    /// The Places API (New) form: `places[].id`, `location.latitude/longitude`, `displayName.text`.
    private static func parseNew(_ places: [JSONValue], file: String) throws -> ParsedPOIs {
        var parsed = ParsedPOIs()
        var seen = Set<String>()
        for (i, place) in places.enumerated() {
            let field = "places[\(i)]"
            guard let placeID = place["id"]?.string, !placeID.isEmpty else {
                parsed.skip("no place_id")
                continue
            }
            guard let lat = place["location"]?["latitude"]?.number, let lng = place["location"]?["longitude"]?.number else {
                throw InputError(file: file, field: "\(field).location", "expected numeric latitude and longitude")
            }
            let coordinate = GeoCoordinate(latitude: lat, longitude: lng)
            guard coordinate.isValid else {
                throw InputError(file: file, field: "\(field).location", "position \(lat),\(lng) is out of range")
            }
            if place["businessStatus"]?.string == "CLOSED_PERMANENTLY" {
                parsed.skip("permanently closed")
                continue
            }
            let types = place["types"]?.array?.compactMap(\.string) ?? []
            let categories = POICategory.categories(forGoogleTypes: (place["primaryType"]?.string).map { [$0] + types } ?? types)
            guard !categories.isEmpty else {
                parsed.skip(SkipReason.noCategory)
                continue
            }
            guard seen.insert(placeID).inserted else {
                parsed.skip(SkipReason.duplicateID)
                continue
            }
            let name = place["displayName"]?["text"]?.string ?? ""
            var tags: [String: String] = ["place_id": placeID, "name": name]
            if !types.isEmpty { tags["types"] = types.joined(separator: ",") }
            for key in ["formattedAddress", "shortFormattedAddress", "nationalPhoneNumber", "internationalPhoneNumber",
                        "websiteUri", "rating", "userRatingCount", "businessStatus"] {
                if let value = place[key]?.tagString, !value.isEmpty { tags[key] = value }
            }
            let hours = place["regularOpeningHours"]?["weekdayDescriptions"]?.array?.compactMap(\.string).joined(separator: "; ")
            parsed.pois.append(POI(
                id: "gplaces:\(placeID)", name: name, category: categories[0], coordinate: coordinate,
                address: TagFields.nonEmpty(tags["shortFormattedAddress"]) ?? TagFields.nonEmpty(tags["formattedAddress"]),
                phone: TagFields.nonEmpty(tags["internationalPhoneNumber"]) ?? TagFields.nonEmpty(tags["nationalPhoneNumber"]),
                website: TagFields.nonEmpty(tags["websiteUri"]),
                openingHours: TagFields.nonEmpty(hours), tags: tags, categories: categories))
        }
        return parsed
    }
}
