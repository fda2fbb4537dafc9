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
            return try parse(list, form: .placesNew, file: file)
        }
        let status = root["status"]?.string
        if let status, status != "OK", status != "ZERO_RESULTS" {
            let message = root["error_message"]?.string.map { ": \($0)" } ?? ""
            throw InputError(file: file, field: "status", "Google Places request failed: \(status)\(message)")
        }
        guard let results = root["results"]?.array ?? (root["result"].map { [$0] }) else {
            throw InputError(file: file, field: "results", "expected an array of places (a Google Places Nearby Search response)")
        }
        return try parse(results, form: .places, file: file)
    }

    /// The two response forms, and where each keeps the fields poiar reads.
    private enum Form {
        /// The Places API: `results[]`, `place_id`, `geometry.location.lat/lng`, `name`.
        case places
        /// The Places API (New): `places[]`, `id`, `location.latitude/longitude`, `displayName.text`.
        case placesNew

        var listField: String { self == .places ? "results" : "places" }
        var idKey: String { self == .places ? "place_id" : "id" }
        var locationField: String { self == .places ? "geometry.location" : "location" }
        var latitudeKey: String { self == .places ? "lat" : "latitude" }
        var longitudeKey: String { self == .places ? "lng" : "longitude" }

        func location(_ place: JSONValue) -> JSONValue? {
            self == .places ? place["geometry"]?["location"] : place["location"]
        }

        func isPermanentlyClosed(_ place: JSONValue) -> Bool {
            switch self {
            case .places: place["business_status"]?.string == "CLOSED_PERMANENTLY" || place["permanently_closed"] == .bool(true)
            case .placesNew: place["businessStatus"]?.string == "CLOSED_PERMANENTLY"
            }
        }

        /// The types the categories come from, in order: the new form's `primaryType` first.
        func categoryTypes(_ place: JSONValue, types: [String]) -> [String] {
            guard self == .placesNew, let primary = place["primaryType"]?.string else { return types }
            return [primary] + types
        }

        func name(_ place: JSONValue) -> String {
            (self == .places ? place["name"]?.string : place["displayName"]?["text"]?.string) ?? ""
        }

        /// Fields kept as tags (besides `place_id`, `types` and, in the new form, `name`).
        var tagKeys: [String] {
            switch self {
            case .places: ["name", "vicinity", "formatted_address", "business_status", "rating", "user_ratings_total",
                           "price_level", "formatted_phone_number", "international_phone_number", "website", "url"]
            case .placesNew: ["formattedAddress", "shortFormattedAddress", "nationalPhoneNumber", "internationalPhoneNumber",
                              "websiteUri", "rating", "userRatingCount", "businessStatus"]
            }
        }

        func openingHours(_ place: JSONValue) -> String? {
            let lines = self == .places ? place["opening_hours"]?["weekday_text"] : place["regularOpeningHours"]?["weekdayDescriptions"]
            return lines?.array?.compactMap(\.string).joined(separator: "; ")
        }

        /// Tags to take the address, the phone and the website from, the first non-empty one.
        var addressTags: [String] { self == .places ? ["vicinity", "formatted_address"] : ["shortFormattedAddress", "formattedAddress"] }
        var phoneTags: [String] {
            self == .places ? ["international_phone_number", "formatted_phone_number"] : ["internationalPhoneNumber", "nationalPhoneNumber"]
        }
        var websiteTag: String { self == .places ? "website" : "websiteUri" }
    }

    private static func parse(_ list: [JSONValue], form: Form, file: String) throws -> ParsedPOIs {
        var parsed = ParsedPOIs()
        var seen = Set<String>()
        for (i, place) in list.enumerated() {
            let field = "\(form.listField)[\(i)]"
            // (An entry of the new form that is not an object has no id: skipped below.)
            if form == .places, place.object == nil { throw InputError(file: file, field: field, "expected an object") }
            guard let placeID = place[form.idKey]?.string, !placeID.isEmpty else {
                parsed.skip("no place_id")
                continue
            }
            let location = form.location(place)
            guard let lat = location?[form.latitudeKey]?.number, let lng = location?[form.longitudeKey]?.number else {
                throw InputError(file: file, field: "\(field).\(form.locationField)",
                                 "expected numeric \(form.latitudeKey) and \(form.longitudeKey)")
            }
            let coordinate = GeoCoordinate(latitude: lat, longitude: lng)
            guard coordinate.isValid else {
                throw InputError(file: file, field: "\(field).\(form.locationField)", "position \(lat),\(lng) is out of range")
            }
            if form.isPermanentlyClosed(place) {
                parsed.skip("permanently closed")
                continue
            }
            let types = place["types"]?.array?.compactMap(\.string) ?? []
            let categories = POICategory.categories(forGoogleTypes: form.categoryTypes(place, types: types))
            guard !categories.isEmpty else {
                parsed.skip(SkipReason.noCategory)
                continue
            }
            guard seen.insert(placeID).inserted else {
                parsed.skip(SkipReason.duplicateID)
                continue
            }
            let name = form.name(place)
            var tags: [String: String] = ["place_id": placeID]
            if form == .placesNew { tags["name"] = name }  // the old form's name is among `tagKeys`
            if !types.isEmpty { tags["types"] = types.joined(separator: ",") }
            for key in form.tagKeys {
                if let value = place[key]?.tagString, !value.isEmpty { tags[key] = value }
            }
            func firstTag(_ keys: [String]) -> String? { keys.lazy.compactMap { TagFields.nonEmpty(tags[$0]) }.first }
            parsed.pois.append(POI(
                id: "gplaces:\(placeID)", name: name, category: categories[0], coordinate: coordinate,
                address: firstTag(form.addressTags), phone: firstTag(form.phoneTags),
                website: TagFields.nonEmpty(tags[form.websiteTag]),
                openingHours: TagFields.nonEmpty(form.openingHours(place)), tags: tags, categories: categories))
        }
        return parsed
    }
}
