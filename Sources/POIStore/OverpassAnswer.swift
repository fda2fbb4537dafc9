import POIARCore

/// What an Overpass API answer carries beyond plain OSM data, in either of its forms (XML,
/// JSON): the `remark` of a query it had to cut short, and the coordinates `out geom` puts on
/// relation members.
enum OverpassAnswer {
    /// The error for a `remark` that reports a runtime error ("runtime error: Query timed out
    /// in \"query\" at line 3 after 26 seconds.", "… ran out of memory …"), nil for an
    /// informational one. Overpass answers such a query with HTTP 200 and what it had found
    /// so far: importing it would pass a part of the area's POIs off as all of them.
    static func failure(remark: String) -> String? {
        let lower = remark.lowercased()
        guard lower.contains("error") || lower.contains("timed out") || lower.contains("out of memory") else { return nil }
        return "Overpass did not finish the query: \(remark.trimmingWhitespace())"
    }

    /// Where a relation is placed whose members carry their own coordinates (`out geom`) and
    /// whose nodes are not in the answer: at the area-weighted centroid of its outer rings —
    /// closed member ways, and rings joined end to end from open ones (role `inner` left
    /// out) — else at the mean of its members' distinct points. The same rule as for a
    /// relation whose members are in the file (`OSMElementCollector`).
    static func relationPosition(_ members: [(role: String, points: [GeoCoordinate])]) -> GeoCoordinate? {
        // Open ways are joined by shared end points: each distinct point gets a number, and the
        // collector's ring joining runs on those.
        var numbers: [GeoCoordinate: Int64] = [:]
        var points: [GeoCoordinate] = []
        func number(_ c: GeoCoordinate) -> Int64 {
            if let n = numbers[c] { return n }
            numbers[c] = Int64(points.count)
            points.append(c)
            return Int64(points.count - 1)
        }
        var rings: [[GeoCoordinate]] = []
        var open: [[Int64]] = []
        var loose: [GeoCoordinate] = []
        for member in members where member.role != "inner" {
            let p = member.points
            if p.count >= 4, p.first == p.last {
                rings.append(p)
            } else if p.count >= 2 {
                open.append(p.map(number))
            } else {
                loose += p
            }
        }
        let (joined, leftover) = OSMElementCollector.joinRings(open)
        rings += joined.map { $0.map { points[Int($0)] } }
        for way in leftover { loose += way.map { points[Int($0)] } }
        if !rings.isEmpty { return Centroid.ofRings(rings) }
        return Centroid.mean(Centroid.distinctVertices(loose))
    }
}
