import POIARCore

/// Which parts of the image the faces drawn so far cover wholly, on a coarse grid: what lets
/// the map scene leave out the faces hidden behind nearer buildings (most of a street's blocks
/// stand behind its first row). Faces are added nearest first; a face all of whose cells are
/// covered would be painted over entirely, so it is not drawn.
///
/// Conservative both ways: a cell counts as covered only when its four corners lie inside one
/// convex face (a wall seen through a lens without distortion: a planar convex polygon in front
/// of the camera projects to a convex polygon), and a face is hidden only when every cell its
/// bounding box touches, widened by `margin` for its antialiased edges and strokes, is covered.
struct CoverageMask {
    let cell: Double
    let columns: Int, rows: Int
    let width: Double, height: Double
    private var covered: [Bool]

    init(width: Int, height: Int, cell: Double = 16) {
        self.cell = cell
        self.width = Double(width); self.height = Double(height)
        columns = max(1, Int((Double(width) / cell).rounded(.up)))
        rows = max(1, Int((Double(height) / cell).rounded(.up)))
        covered = [Bool](repeating: false, count: columns * rows)
    }

    /// The cells the box of `points` (widened by `margin`) touches on the image; nil when the box
    /// misses the image.
    private func cells(of points: [[Point2]], margin: Double) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        var lo = Point2(.infinity, .infinity), hi = Point2(-.infinity, -.infinity)
        for p in points.joined() {
            lo = Point2(min(lo.x, p.x), min(lo.y, p.y)); hi = Point2(max(hi.x, p.x), max(hi.y, p.y))
        }
        lo = Point2(max(0, lo.x - margin), max(0, lo.y - margin))
        hi = Point2(min(width, hi.x + margin), min(height, hi.y + margin))
        guard lo.x < hi.x, lo.y < hi.y else { return nil }
        return (Int(lo.x / cell)...min(columns - 1, Int(hi.x / cell)), Int(lo.y / cell)...min(rows - 1, Int(hi.y / cell)))
    }

    /// Whether the face with these rings would not show: off the image, or within covered cells.
    func hides(_ rings: [[Point2]], margin: Double) -> Bool {
        guard let box = cells(of: rings, margin: margin) else { return true }
        for y in box.y { for x in box.x where !covered[y * columns + x] { return false } }
        return true
    }

    /// Marks the cells lying wholly inside the convex polygon.
    mutating func add(convex polygon: [Point2]) {
        guard polygon.count >= 3, let box = cells(of: [polygon], margin: 0) else { return }
        // Each edge's side of a point; inside: the same sign for every edge (either winding).
        func inside(_ p: Point2) -> Bool {
            var positive = false, negative = false
            var a = polygon[polygon.count - 1]
            for b in polygon {
                let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                if cross > 0 { positive = true } else if cross < 0 { negative = true }
                if positive && negative { return false }
                a = b
            }
            return true
        }
        for y in box.y {
            for x in box.x where !covered[y * columns + x] {
                let x0 = Double(x) * cell, y0 = Double(y) * cell
                if inside(Point2(x0, y0)) && inside(Point2(x0 + cell, y0)) && inside(Point2(x0, y0 + cell))
                    && inside(Point2(x0 + cell, y0 + cell)) {
                    covered[y * columns + x] = true
                }
            }
        }
    }
}
