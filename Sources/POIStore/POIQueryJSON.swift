import POIARCore

/// The `pois query` output: `[{"id","name","category","categories","lat","lon","alt","distance_m","bearing_deg","tags"}]`
/// (`categories`, every category of the POI with the primary first, is poiar's addition to the contract).
public enum POIQueryJSON {
    /// The hits as the JSON array, one object a line.
    public static func encode(_ hits: [POIHit]) -> String {
        "[" + hits.map { object($0.poi, hit: $0) }.joined(separator: ",\n ") + "]"
    }

    /// One POI as a JSON object: with its distance and bearing when it is a query hit, else
    /// with its address, phone, website and opening hours (`pois show --json`).
    public static func object(_ p: POI, hit: POIHit?) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.string("id", p.id)
        w.string("name", p.name)
        w.string("category", p.category)
        w.beginArray("categories")
        for c in p.categories { w.string(nil, c) }
        w.endArray()
        w.number("lat", p.coordinate.latitude)
        w.number("lon", p.coordinate.longitude)
        w.number("alt", p.coordinate.altitude)
        if let hit {
            w.number("distance_m", hit.distance, decimals: 3)
            w.number("bearing_deg", hit.bearing, decimals: 4)
        } else {
            w.string("address", p.address)
            w.string("phone", p.phone)
            w.string("website", p.website)
            w.string("opening_hours", p.openingHours)
        }
        w.beginObject("tags")
        for key in p.tags.keys.sorted() { w.string(key, p.tags[key]) }
        w.endObject()
        w.endObject()
        return w.text
    }
}
