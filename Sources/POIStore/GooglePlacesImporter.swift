import Foundation
import POIARCore

/// Reads Google Places responses as they stream in: a Nearby Search (or Text Search) JSON
/// response of the Places API, `{"results": [...], "status": "OK"}`, or a Place Details one,
/// `{"result": {...}}`; and the Places API (New) forms, `{"places": [...]}` (Nearby / Text
/// Search (New)) and a single Place object (Place Details (New): `{"id": …, "displayName":
/// …, "location": …}`).
///
/// - `status` must be `OK` or `ZERO_RESULTS`; any other (`OVER_QUERY_LIMIT`,
///   `REQUEST_DENIED`, `INVALID_REQUEST`, …) is an error quoting Google's `error_message`. A
///   new-API `{"error": {...}}` is an error too.
/// - Each place: id `gplaces:<place_id>` (new: `gplaces:<id>`); position
///   `geometry.location.lat/lng` (new: `location.latitude/longitude`); `name` (new:
///   `displayName.text`); address `vicinity` or `formatted_address` (new:
///   `shortFormattedAddress`, else `formattedAddress`); phone (international, else national)
///   and website when the response has them; opening hours from `opening_hours.weekday_text`
///   (new: `regularOpeningHours.weekdayDescriptions`); categories from the types through the
///   Google table of docs/categories.md — the new form's `primaryType` first (it wins the
///   primary category when poiar maps it), then `types` in the order Google lists them.
/// - Skipped, counted: a place without its id ("no place_id"; new form: "no id"), with no
///   type poiar maps ("no known category"), marked `CLOSED_PERMANENTLY` ("permanently
///   closed"), an id seen before ("duplicate id"). A missing or non-numeric location is an
///   error naming the field.
public enum GooglePlacesImporter {
    public static func parse(_ data: Data, file: String) throws -> ParsedPOIs {
        try parse(SourceStream(data: data, file: file))
    }

    static func parse(_ source: SourceStream) throws -> ParsedPOIs {
        let file = source.file
        let reader = JSONStreamReader(source)
        guard try reader.peek() == UInt8(ascii: "{") else {
            throw InputError(file: file, "expected a Google Places response object")
        }
        var places = PlaceList(file: file)
        var top: [String: JSONValue] = [:]
        try reader.members { key in
            if let form = Form(listKey: key), try reader.peek() == UInt8(ascii: "[") {
                places.listed = form
                try reader.items { i in try places.add(reader.value(), form: form, field: "\(key)[\(i)]") }
            } else {
                top[key] = try reader.value()
            }
        }
        try reader.expectEnd()
        return try places.finish(top: top)
    }

    /// Reads a response already parsed (a page of `pois fetch`).
    static func parse(_ root: JSONValue, file: String) throws -> ParsedPOIs {
        var places = PlaceList(file: file)
        var top = root.object ?? [:]
        for key in ["places", "results"] {
            guard let form = Form(listKey: key), let list = top[key]?.array else { continue }
            places.listed = form
            for (i, place) in list.enumerated() { try places.add(place, form: form, field: "\(key)[\(i)]") }
            top[key] = nil
        }
        return try places.finish(top: top)
    }

    /// The places of one response, read one at a time.
    private struct PlaceList {
        let file: String
        var parsed = ParsedPOIs()
        var seen = Set<String>()
        /// The list the places came in, if any.
        var listed: Form?

        init(file: String) { self.file = file }

        /// Checks the response's other members (errors, status), and reads a response of
        /// one place; returns the POIs.
        mutating func finish(top: [String: JSONValue]) throws -> ParsedPOIs {
            if let error = top["error"], error.object != nil {
                let status = error["status"]?.string ?? error["code"]?.jsonText ?? "error"
                let message = error["message"]?.string.map { ": \($0)" } ?? ""
                throw InputError(file: file, field: "error", "Google Places request failed: \(status)\(message)")
            }
            if let status = top["status"]?.string, status != "OK", status != "ZERO_RESULTS" {
                let message = top["error_message"]?.string.map { ": \($0)" } ?? ""
                throw InputError(file: file, field: "status", "Google Places request failed: \(status)\(message)")
            }
            if listed == nil {
                if let place = top["result"] {
                    try add(place, form: .places, field: "result")
                } else if Form.isPlaceNew(top) {
                    try add(.object(top), form: .placesNew, field: "place")
                } else if let places = top["places"] ?? top["results"] {
                    throw InputError(file: file, field: top["places"] != nil ? "places" : "results",
                                     "expected an array of places, got \(places.jsonText.prefix(40))")
                } else {
                    throw InputError(file: file, field: "results",
                                     "expected an array of places (\"results\" of a Places search, \"places\" of a Places (New) search) or one place (\"result\", or a Places (New) Place object with \"id\" and \"location\")")
                }
            }
            return parsed
        }

        mutating func add(_ place: JSONValue, form: Form, field: String) throws {
            // (An entry of the new form that is not an object has no id: skipped below.)
            if form == .places, place.object == nil { throw InputError(file: file, field: field, "expected an object") }
            guard let placeID = place[form.idKey]?.string, !placeID.isEmpty else {
                parsed.skip(form.missingID)
                return
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
                return
            }
            let types = place["types"]?.array?.compactMap(\.string) ?? []
            let categories = POICategory.categories(forGoogleTypes: form.categoryTypes(place, types: types))
            guard !categories.isEmpty else {
                parsed.skip(SkipReason.noCategory)
                return
            }
            guard seen.insert(placeID).inserted else {
                parsed.skip(SkipReason.duplicateID)
                return
            }
            let name = form.name(place)
            var tags: [String: String] = ["place_id": placeID]
            if form == .placesNew { tags["name"] = name }  // the old form's name is among `tagKeys`
            if !types.isEmpty { tags["types"] = types.joined(separator: ",") }
            if form == .placesNew, let primary = place["primaryType"]?.string { tags["primaryType"] = primary }
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
    }

    /// The two response forms, and where each keeps the fields poiar reads.
    private enum Form {
        /// The Places API: `results[]`, `place_id`, `geometry.location.lat/lng`, `name`.
        case places
        /// The Places API (New): `places[]`, `id`, `location.latitude/longitude`, `displayName.text`.
        case placesNew

        init?(listKey: String) {
            switch listKey {
            case "results": self = .places
            case "places": self = .placesNew
            default: return nil
            }
        }

        /// A Places (New) Place object: its own fields at the top level.
        static func isPlaceNew(_ members: [String: JSONValue]) -> Bool {
            members["location"]?["latitude"] != nil || members["displayName"] != nil || members["primaryType"] != nil
        }

        /// The skip reason for a place without its id.
        var missingID: String { self == .places ? "no place_id" : "no id" }
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
}

extension GooglePlacesImporter: POISourceReader {
    static let format = POISourceFormat("Google Places JSON")
    static let jsonForm: String? = #"a Google Places "results" (Nearby/Text Search) or "result" (Details) response; "#
        + #"a Places API (New) "places" response or Place object ("id", "displayName", "location")"#

    /// An object with `"results"`, `"result"`, `"places"`, a Places `"status"` or a Place
    /// (New)'s own fields.
    static func recognises(_ head: SourceHead) -> Bool {
        head.jsonObjectHas(#""(results|result|places|html_attributions|error_message|displayName|primaryType|formattedAddress|googleMapsUri)"\s*:"#)
            || head.jsonObjectHas(#""status"\s*:\s*"[A-Z_]+""#) || head.jsonObjectHas(#""location"\s*:\s*\{\s*"latitude""#)
    }

    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs { try parse(source) }
}
