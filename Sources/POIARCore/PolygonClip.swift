/// Sutherland–Hodgman clipping of a polygon (convex or concave, given by its vertices in
/// order) against one half-space: keeps the part where `side(vertex) ≥ 0`, cutting each edge
/// that crosses the boundary where `side` is 0 (linearly between its ends: `between(a, b, t)`
/// is a + t·(b − a)). (Sutherland & Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974.)
/// A concave polygon may come out with edges running along the boundary; filled, it is still
/// the right area. The one clipping path for a horizon's sky (image plane) and a scene's faces
/// (camera space).
public func clipPolygon<Vertex>(_ polygon: [Vertex], side: (Vertex) -> Double,
                                between: (Vertex, Vertex, Double) -> Vertex) -> [Vertex] {
    guard let last = polygon.last else { return [] }
    var output: [Vertex] = []
    output.reserveCapacity(polygon.count + 2)
    var previous = last
    var previousSide = side(previous)
    for current in polygon {
        let currentSide = side(current)
        if (currentSide >= 0) != (previousSide >= 0) {
            output.append(between(previous, current, previousSide / (previousSide - currentSide)))
        }
        if currentSide >= 0 { output.append(current) }
        previous = current
        previousSide = currentSide
    }
    return output
}
