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

    /// The part of a polygon where (p − origin)·normal ≥ 0 (`clipPolygon`).
    static func clip(_ polygon: [Point2], origin: Point2, normal: Point2) -> [Point2] {
        clipPolygon(polygon, side: { ($0.x - origin.x) * normal.x + ($0.y - origin.y) * normal.y },
                    between: { a, b, t in Point2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)) })
    }

    /// The image rectangle's corners, clockwise on screen from the top-left.
    static func corners(width: Double, height: Double) -> [Point2] {
        [Point2(0, 0), Point2(width, 0), Point2(width, height), Point2(0, height)]
    }
}
