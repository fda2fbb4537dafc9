import POIARCore

/// Plane geometry for the synthetic background's horizon.
enum HorizonGeometry {
    /// Unit normal of the line through a and b pointing toward the top of the image
    /// (negative y; for a vertical line, negative x). For a == b the line is taken as
    /// horizontal.
    static func upNormal(_ a: Point2, _ b: Point2) -> Point2 {
        var dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length == 0 { dx = 1; dy = 0 } else { dx /= length; dy /= length }
        var normal = Point2(-dy, dx)
        if normal.y > 0 || (normal.y == 0 && normal.x > 0) { normal = Point2(dy, -dx) }
        return normal
    }

    /// Sutherland–Hodgman clipping of a convex or concave polygon against one
    /// half-plane: keeps the part where (p − origin)·normal ≥ 0.
    /// (Sutherland & Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974.)
    static func clip(_ polygon: [Point2], origin: Point2, normal: Point2) -> [Point2] {
        guard !polygon.isEmpty else { return [] }
        func side(_ p: Point2) -> Double { (p.x - origin.x) * normal.x + (p.y - origin.y) * normal.y }
        var output: [Point2] = []
        var previous = polygon[polygon.count - 1]
        var previousSide = side(previous)
        for current in polygon {
            let currentSide = side(current)
            if (currentSide >= 0) != (previousSide >= 0) {
                let t = previousSide / (previousSide - currentSide)
                output.append(Point2(previous.x + t * (current.x - previous.x),
                                     previous.y + t * (current.y - previous.y)))
            }
            if currentSide >= 0 { output.append(current) }
            previous = current
            previousSide = currentSide
        }
        return output
    }

    /// The image rectangle's corners, clockwise on screen from the top-left.
    static func corners(width: Double, height: Double) -> [Point2] {
        [Point2(0, 0), Point2(width, 0), Point2(width, height), Point2(0, height)]
    }
}
