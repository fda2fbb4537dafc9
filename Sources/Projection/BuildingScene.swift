import Foundation
import Geodesy
import POIARCore

/// The buildings of a `LineOfSight` — the same footprints and heights that hide POIs — as the
/// camera sees them: each footprint extruded from its `minHeight` to its `height` over flat
/// ground `eyeHeight` below the camera, its faces turned into image polygons through the
/// labels' own `CameraProjection`, in painter's order (farthest first).
///
/// - A face is clipped in camera space to what lies in front of the camera (Z ≥ `nearPlane`)
///   before it is projected, so nothing behind the camera is ever drawn; for lenses without
///   a fisheye, also to a guard band four image-widths wide, so no coordinate gets too large
///   for Cairo's fixed-point paths.
/// - Only walls facing the camera are made (a closed building's back walls are hidden by its
///   front ones); a camera inside a footprint (GPS error on the pavement) sees out through it,
///   as the line-of-sight check does.
/// - Through a distorting lens a straight edge is a curve: edges are cut into pieces of at most
///   2° before they are projected.
/// - Painter's order: buildings by their distance from the camera (0 inside), farthest first;
///   within one, walls by the distance of their middle, then the roof (seen from above) or the
///   underside (seen from below). Drawn in that order, nearer faces cover farther ones —
///   exactly, for buildings that do not interlock. Faces that nearer walls would cover wholly,
///   or that miss the image, are left out (`CoverageMask`).
public struct BuildingScene: Sendable {
    let lineOfSight: LineOfSight
    /// Per footprint, per ring: +1 when the building's inside lies left of the ring's edges
    /// (their outward normal points right), −1 when it lies right.
    let inwardSide: [[Double]]

    /// Metres in front of the camera where faces are cut.
    public static let nearPlane = 0.3
    /// Longest piece of an edge through a distorting lens, radians.
    static let edgePiece = radians(2)
    /// A storey's height, metres (`BuildingHeights.storeyHeight`): walls are lined at each floor.
    static let storey = 3.0
    /// Storey lines are drawn on walls where they are at least this many pixels apart (nearer
    /// ones would crowd, and cost drawing time for little).
    static let storeyLineSpacing = 14.0

    /// The buildings known.
    public var buildingCount: Int { lineOfSight.buildingCount }

    public init(lineOfSight: LineOfSight) {
        self.lineOfSight = lineOfSight
        inwardSide = lineOfSight.footprints.map { f in
            f.rings.enumerated().map { i, ring in
                // A ring inside an odd number of the footprint's other rings bounds a courtyard:
                // the building lies outside it.
                let depth = f.rings.indices.filter { $0 != i && LineOfSight.contains([f.rings[$0]], ring[0]) }.count
                let counterClockwise = BuildingScene.signedArea(ring) > 0
                return counterClockwise == depth.isMultiple(of: 2) ? 1 : -1
            }
        }
    }

    /// Twice the signed area of a ring in the east-north plane (positive: counter-clockwise).
    static func signedArea(_ ring: [Point2]) -> Double {
        var sum = 0.0
        var p = ring[ring.count - 1]
        for q in ring { sum += p.x * q.y - q.x * p.y; p = q }
        return sum
    }

    /// The faces the camera at `device` (`eyeHeight` metres above the ground) sees, in the order
    /// to paint them, of the buildings within `reach` metres. `sun`: the unit vector toward the
    /// sun (east, north, up).
    public func faces(device: GeoCoordinate, eyeHeight: Double, projection: CameraProjection, sun: Vector3,
                      reach: Double) -> [SceneFace] {
        let eye = lineOfSight.point(device)
        let view = CameraSpace(projection: projection, eye: eye, eyeHeight: eyeHeight)
        var buildings: [(distance: Double, index: Int)] = []
        for (i, f) in lineOfSight.footprints.enumerated() {
            let dx = max(f.bounds.minX - eye.x, 0, eye.x - f.bounds.maxX)
            let dy = max(f.bounds.minY - eye.y, 0, eye.y - f.bounds.maxY)
            guard hypot(dx, dy) <= reach, view.mayShow(bounds: f.bounds, bottom: f.minHeight, top: f.height) else { continue }
            let distance = LineOfSight.contains(f.rings, eye) ? 0 : LineOfSight.distance(from: eye, to: f.rings)
            buildings.append((distance, i))
        }
        // Nearest first, each building's faces kept only where nearer walls leave them visible
        // (`CoverageMask`; through a distorting lens walls are curved and nothing is left out);
        // then painted farthest first.
        buildings.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        var mask = view.curves ? nil : CoverageMask(width: projection.camera.width, height: projection.camera.height)
        var kept: [[SceneFace]] = []
        for (_, i) in buildings {
            if let visible = mask, let box = view.imageBox(of: lineOfSight.footprints[i]),
               visible.hides([box], margin: Self.hiddenMargin) { continue }
            var faces = buildingFaces(i, view: view, sun: sun)
            if let visible = mask {
                faces.removeAll { visible.hides($0.rings, margin: Self.hiddenMargin) }
                for face in faces where face.kind == .wall { mask?.add(convex: face.rings[0]) }
            }
            kept.append(faces)
        }
        return kept.reversed().flatMap { $0 }
    }

    /// Pixels around a face that its antialiased edge and stroke may touch.
    static let hiddenMargin = 2.0

    /// One building's faces in painter's order.
    private func buildingFaces(_ index: Int, view: CameraSpace, sun: Vector3) -> [SceneFace] {
        let f = lineOfSight.footprints[index]
        let eye = view.eye
        var walls: [(distance: Double, face: SceneFace)] = []
        for (r, ring) in f.rings.enumerated() {
            var p = ring[ring.count - 1]
            for q in ring {
                defer { p = q }
                let edge = Point2(q.x - p.x, q.y - p.y)
                let length = hypot(edge.x, edge.y)
                guard length > 1e-6 else { continue }
                let outward = Point2(edge.y / length * inwardSide[index][r], -edge.x / length * inwardSide[index][r])
                guard (eye.x - p.x) * outward.x + (eye.y - p.y) * outward.y > 0 else { continue }
                let corners = [view.camera(p, f.minHeight), view.camera(q, f.minHeight),
                               view.camera(q, f.height), view.camera(p, f.height)]
                guard let outline = view.image(of: corners) else { continue }
                let middle = Point2((p.x + q.x) / 2 - eye.x, (p.y + q.y) / 2 - eye.y)
                let distance = hypot(middle.x, middle.y)
                var face = SceneFace(kind: .wall, rings: [outline], sunlight: max(0, outward.x * sun.x + outward.y * sun.y),
                                     distance: distance, heightKnown: f.heightKnown)
                if distance < view.storeyLinesWithin {
                    for level in stride(from: f.minHeight + Self.storey, to: f.height - 0.5, by: Self.storey) {
                        if let line = view.image(from: view.camera(p, level), to: view.camera(q, level)) { face.storeys.append(line) }
                    }
                }
                walls.append((distance, face))
            }
        }
        var faces = walls.sorted { $0.distance > $1.distance }.map(\.face)
        // The horizontal face the eye can see: the roof from above, the underside from below.
        let level: Double?, kind: SceneFace.Kind
        if view.eyeHeight > f.height { (level, kind) = (f.height, .roof) } else if view.eyeHeight < f.minHeight {
            (level, kind) = (f.minHeight, .underside)
        } else { (level, kind) = (nil, .roof) }
        if let level {
            let rings = f.rings.compactMap { ring in view.image(of: ring.map { view.camera($0, level) }) }
            if !rings.isEmpty {
                let centre = Point2(f.bounds.midX - eye.x, f.bounds.midY - eye.y)
                faces.append(SceneFace(kind: kind, rings: rings, sunlight: kind == .roof ? max(0, sun.z) : 0,
                                       distance: hypot(centre.x, centre.y), heightKnown: f.heightKnown))
            }
        }
        return faces
    }
}

/// Camera space of one frame: where a point of the east-north plane at a height above the
/// ground lies relative to the camera, what is in front of it, and where it lands on the image.
struct CameraSpace {
    let projection: CameraProjection
    let eye: Point2
    let eyeHeight: Double
    /// Camera coordinates of a metre east, north and up (the rotation's columns: camera space is
    /// linear in the ENU offset).
    private let east: Vector3, north: Vector3, up: Vector3
    /// Half-spaces (camera coordinates, n·p ≥ offset) whose intersection is what may be drawn:
    /// in front of the near plane and, for a lens without a fisheye, within the guard band.
    private let keep: [(normal: Vector3, offset: Double)]
    /// Metres within which a wall's storeys are `BuildingScene.storeyLineSpacing` pixels apart or more.
    let storeyLinesWithin: Double
    /// A fisheye or other distortion curves edges.
    let curves: Bool
    private let nearPlane = BuildingScene.nearPlane

    init(projection: CameraProjection, eye: Point2, eyeHeight: Double) {
        self.projection = projection; self.eye = eye; self.eyeHeight = eyeHeight
        east = projection.cameraCoordinates(enu: Vector3(1, 0, 0))
        north = projection.cameraCoordinates(enu: Vector3(0, 1, 0))
        up = projection.cameraCoordinates(enu: Vector3(0, 0, 1))
        let camera = projection.camera
        curves = camera.distortion.map { !$0.isZero } ?? false
        storeyLinesWithin = camera.fy * BuildingScene.storey / BuildingScene.storeyLineSpacing
        let near = (normal: Vector3(0, 0, 1), offset: BuildingScene.nearPlane)
        if camera.distortion?.model == .fisheye {
            keep = [near]
        } else {
            // X ≥ left·Z, X ≤ right·Z, Y ≥ top·Z, Y ≤ bottom·Z at four times the image's reach.
            let band = 4.0
            let left = -band * camera.cx / camera.fx, right = band * (Double(camera.width) - camera.cx) / camera.fx
            let top = -band * camera.cy / camera.fy, bottom = band * (Double(camera.height) - camera.cy) / camera.fy
            keep = [near] + [Vector3(1, 0, -left), Vector3(-1, 0, right), Vector3(0, 1, -top), Vector3(0, -1, bottom)].map { ($0, 0) }
        }
    }

    /// Camera coordinates of the plane point `p` at `height` metres above the ground.
    func camera(_ p: Point2, _ height: Double) -> Vector3 {
        east * (p.x - eye.x) + north * (p.y - eye.y) + up * (height - eyeHeight)
    }

    /// The eight corners of a box (footprint bounds, bottom to top) in camera coordinates.
    private func corners(bounds: Rect, bottom: Double, top: Double) -> [Vector3] {
        var corners: [Vector3] = []
        for x in [bounds.minX, bounds.maxX] {
            for y in [bounds.minY, bounds.maxY] {
                for h in [bottom, top] { corners.append(camera(Point2(x, y), h)) }
            }
        }
        return corners
    }

    /// Whether any of a box (footprint bounds, bottom to top) can be on the image: false when its
    /// eight corners all lie outside one of the half-spaces kept, or behind the near plane.
    func mayShow(bounds: Rect, bottom: Double, top: Double) -> Bool {
        let corners = corners(bounds: bounds, bottom: bottom, top: top)
        return !keep.contains { plane in corners.allSatisfy { $0.dot(plane.normal) < plane.offset } }
    }

    /// The image of a footprint's bounding box extruded to its height, as the corners of the
    /// rectangle around it (a lens without distortion: the image of a convex solid is within the
    /// hull of its corners' images); nil when a corner is not in front of the camera.
    func imageBox(of f: LineOfSight.Footprint) -> [Point2]? {
        guard !curves else { return nil }
        let points = corners(bounds: f.bounds, bottom: f.minHeight, top: f.height)
        guard points.allSatisfy({ $0.z > nearPlane }) else { return nil }
        let pixels = pixels(points)
        let xs = pixels.map(\.x), ys = pixels.map(\.y)
        return [Point2(xs.min()!, ys.min()!), Point2(xs.max()!, ys.max()!)]
    }

    /// The image outline of a flat polygon given in camera coordinates: clipped to the near
    /// plane and the guard band, its edges cut into pieces through a distorting lens, projected.
    /// nil when nothing of it is in front.
    func image(of polygon: [Vector3]) -> [Point2]? {
        var kept = polygon
        for plane in keep where kept.count >= 3 {
            kept = clipPolygon(kept, side: { $0.dot(plane.normal) - plane.offset }, between: Self.between)
        }
        guard kept.count >= 3 else { return nil }
        return pixels(curves ? pieces(kept, closed: true) : kept)
    }

    /// The image of the segment from `a` to `b` (camera coordinates), cut as `image(of:)` cuts a
    /// face: a polyline, nil when none of it is in front.
    func image(from a: Vector3, to b: Vector3) -> [Point2]? {
        var t0 = 0.0, t1 = 1.0
        for plane in keep {
            let sa = a.dot(plane.normal) - plane.offset, sb = b.dot(plane.normal) - plane.offset
            if sa < 0 && sb < 0 { return nil }
            if sa < 0 { t0 = max(t0, sa / (sa - sb)) } else if sb < 0 { t1 = min(t1, sa / (sa - sb)) }
        }
        guard t0 < t1 else { return nil }
        let kept = [Self.between(a, b, t0), Self.between(a, b, t1)]
        return pixels(curves ? pieces(kept, closed: false) : kept)
    }

    private func pixels(_ points: [Vector3]) -> [Point2] {
        points.map { projection.pixel(normalisedX: $0.x / $0.z, y: $0.y / $0.z) }
    }

    private static func between(_ a: Vector3, _ b: Vector3, _ t: Double) -> Vector3 { a + (b - a) * t }

    /// The polygon (`closed`) or polyline with each edge cut into pieces of at most
    /// `BuildingScene.edgePiece` as seen from the camera.
    private func pieces(_ points: [Vector3], closed: Bool) -> [Vector3] {
        var out: [Vector3] = []
        var a = closed ? points[points.count - 1] : points[0]
        for b in closed ? points[...] : points.dropFirst() {
            let cosine = a.normalized.dot(b.normalized)
            let n = max(1, min(64, Int((acos(min(1, max(-1, cosine))) / BuildingScene.edgePiece).rounded(.up))))
            for k in 0..<n { out.append(Self.between(a, b, Double(k) / Double(n))) }
            a = b
        }
        if !closed, let last = points.last { out.append(last) }
        return out
    }
}
