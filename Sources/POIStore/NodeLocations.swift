import POIARCore

/// The positions of an OSM file's nodes by id, which the collector keeps to place ways and
/// relations. OSM files list nodes by ascending id (the API, osmium and Overpass all sort
/// them), so those are kept in three flat arrays, 24 bytes a node, and found by binary
/// search; a node out of order goes to a dictionary. About half what a dictionary of
/// `GeoCoordinate`s takes, and a fifth of the node's bytes in OSM XML. Reads like the
/// dictionary it replaces (`subscript`, `updateValue(_:forKey:)`).
struct NodeLocations {
    private var ids: [Int64] = []
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    private var unordered: [Int64: GeoCoordinate] = [:]

    /// The node's position (latitude and longitude; OSM nodes have no altitude).
    subscript(id: Int64) -> GeoCoordinate? {
        if let i = index(of: id) { return GeoCoordinate(latitude: latitudes[i], longitude: longitudes[i]) }
        return unordered[id]
    }

    /// Stores a node's position; returns the one it replaces, if any.
    @discardableResult
    mutating func updateValue(_ coordinate: GeoCoordinate, forKey id: Int64) -> GeoCoordinate? {
        if ids.isEmpty || id > ids[ids.count - 1] {
            ids.append(id)
            latitudes.append(coordinate.latitude)
            longitudes.append(coordinate.longitude)
            return nil
        }
        if let i = index(of: id) {
            let old = GeoCoordinate(latitude: latitudes[i], longitude: longitudes[i])
            latitudes[i] = coordinate.latitude
            longitudes[i] = coordinate.longitude
            return old
        }
        return unordered.updateValue(coordinate, forKey: id)
    }

    private func index(of id: Int64) -> Int? {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}
