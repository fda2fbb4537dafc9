import Foundation
import Geodesy
import POIARCore

/// Whether the camera can see a place, against the buildings around it: each footprint
/// extruded from its `minHeight` to its `height` above the ground.
///
/// Heights here are metres above the ground under the device, which is taken as flat over the
/// area (no terrain model): the device is `eyeHeight` above it. A footprint's heights are OSM's,
/// above the ground at its own foot, so on a slope the check errs by the slope's rise.
///
/// Footprints are kept in a local east-north plane around `origin` (flat to centimetres over
/// the few kilometres of a recording) and indexed on a square grid, so a sight line tests only
/// the footprints of the cells it passes through.
public struct LineOfSight: Sendable {
    /// One building in the plane: every ring (outer and inner) for an even-odd inside test.
    struct Footprint: Sendable {
        var id: String
        var rings: [[Point2]]
        var bounds: Rect
        var minHeight: Double
        var height: Double
        /// The height was tagged (`height` or levels). An untagged building's height is a guess
        /// (OSM's two storeys): as an obstacle it hides whatever lies behind it at any height,
        /// since claiming sight over a building of unknown height is what put labels on places
        /// behind whole blocks (in central Helsinki 292 of 446 buildings are untagged, most of
        /// them five to seven storeys). Its guessed top is still the sight line's end for a POI
        /// inside it.
        var heightKnown: Bool
    }

    struct Cell: Hashable, Sendable { var x: Int32, y: Int32 }

    let plane: LocalTangentPlane
    let footprints: [Footprint]
    let cells: [Cell: [Int32]]
    /// Side of a grid cell, metres: a city block's facade is a few cells.
    let cellSize: Double

    /// The buildings known.
    public var buildingCount: Int { footprints.count }

    /// - Parameters:
    ///   - buildings: the obstacles (any order); rings with fewer than 3 vertices are ignored.
    ///   - origin: the centre of the area (e.g. the recording's first position).
    public init(buildings: [Building], origin: GeoCoordinate, cellSize: Double = 25) {
        var flat = origin
        flat.altitude = 0
        let plane = LocalTangentPlane(origin: flat)
        self.plane = plane
        self.cellSize = cellSize
        var footprints: [Footprint] = []
        var cells: [Cell: [Int32]] = [:]
        for b in buildings {
            let rings = (b.outer + b.inner).map { ring in ring.map { c -> Point2 in
                let v = plane.enu(GeoCoordinate(latitude: c.latitude, longitude: c.longitude, altitude: 0))
                return Point2(v.x, v.y)
            } }.filter { $0.count >= 3 }
            guard let first = rings.first?.first, b.height > b.minHeight else { continue }
            var lo = first, hi = first
            for p in rings.joined() {
                lo = Point2(min(lo.x, p.x), min(lo.y, p.y)); hi = Point2(max(hi.x, p.x), max(hi.y, p.y))
            }
            let index = Int32(footprints.count)
            footprints.append(Footprint(id: b.id, rings: rings, bounds: Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y),
                                        minHeight: b.minHeight, height: b.height, heightKnown: b.heightSource != .assumed))
            let c0 = Self.cell(lo, cellSize), c1 = Self.cell(hi, cellSize)
            for y in c0.y...c1.y { for x in c0.x...c1.x { cells[Cell(x: x, y: y), default: []].append(index) } }
        }
        self.footprints = footprints
        self.cells = cells
    }

    static func cell(_ p: Point2, _ size: Double) -> Cell {
        Cell(x: Int32((p.x / size).rounded(.down)), y: Int32((p.y / size).rounded(.down)))
    }

    /// A position in the plane (east, north metres).
    func point(_ c: GeoCoordinate) -> Point2 {
        let v = plane.enu(GeoCoordinate(latitude: c.latitude, longitude: c.longitude, altitude: 0))
        return Point2(v.x, v.y)
    }

    /// The buildings whose footprint holds `p`, or whose outline passes within `tolerance`
    /// metres of it (a node mapped on the wall).
    func footprints(holding p: Point2, tolerance: Double) -> [Int] {
        var found: [Int] = []
        var seen = Set<Int32>()
        let c0 = Self.cell(Point2(p.x - tolerance, p.y - tolerance), cellSize)
        let c1 = Self.cell(Point2(p.x + tolerance, p.y + tolerance), cellSize)
        for y in c0.y...c1.y {
            for x in c0.x...c1.x {
                for i in cells[Cell(x: x, y: y)] ?? [] where seen.insert(i).inserted {
                    let f = footprints[Int(i)]
                    guard p.x >= f.bounds.minX - tolerance, p.x <= f.bounds.maxX + tolerance,
                          p.y >= f.bounds.minY - tolerance, p.y <= f.bounds.maxY + tolerance else { continue }
                    if Self.contains(f.rings, p) || (tolerance > 0 && Self.distance(from: p, to: f.rings) <= tolerance) {
                        found.append(Int(i))
                    }
                }
            }
        }
        return found
    }

    /// The tallest building holding `c` (see `footprints(holding:tolerance:)`), if any.
    public func building(holding c: GeoCoordinate, tolerance: Double = 0) -> (id: String, height: Double)? {
        footprints(holding: point(c), tolerance: tolerance).map { footprints[$0] }
            .max { $0.height < $1.height }.map { ($0.id, $0.height) }
    }

    /// The first building (nearest the device) that the sight line from `device` to `target`
    /// passes through, between its bottom and top; nil when the line is clear.
    ///
    /// - Parameters:
    ///   - device: position; `deviceHeight` metres above the ground.
    ///   - target: position; `targetHeight` metres above the device's ground.
    ///   - ignoring: buildings that do not block (the device's own, the target's own).
    public func blocker(from device: GeoCoordinate, deviceHeight: Double, to target: GeoCoordinate, targetHeight: Double,
                        ignoring: Set<String> = []) -> String? {
        let a = point(device), b = point(target)
        var seen = Set<Int32>()
        for cell in Self.cells(along: a, b, cellSize) {
            for i in cells[cell] ?? [] where seen.insert(i).inserted {
                let f = footprints[Int(i)]
                guard !ignoring.contains(f.id), Self.segment(a, b, meets: f.bounds) else { continue }
                for (t0, t1) in Self.insideIntervals(a, b, f.rings) {
                    let z0 = deviceHeight + (targetHeight - deviceHeight) * t0
                    let z1 = deviceHeight + (targetHeight - deviceHeight) * t1
                    if !f.heightKnown || (max(z0, z1) > f.minHeight && min(z0, z1) < f.height) { return f.id }
                }
            }
        }
        return nil
    }

    /// The grid cells the segment a–b passes through, from a to b (Amanatides & Woo's walk).
    static func cells(along a: Point2, _ b: Point2, _ size: Double) -> [Cell] {
        var c = cell(a, size)
        let end = cell(b, size)
        var out = [c]
        let dx = b.x - a.x, dy = b.y - a.y
        let stepX: Int32 = dx > 0 ? 1 : -1, stepY: Int32 = dy > 0 ? 1 : -1
        func boundary(_ v: Int32, _ step: Int32) -> Double { Double(step > 0 ? v + 1 : v) * size }
        var tMaxX = dx != 0 ? (boundary(c.x, stepX) - a.x) / dx : .infinity
        var tMaxY = dy != 0 ? (boundary(c.y, stepY) - a.y) / dy : .infinity
        let tDeltaX = dx != 0 ? size / abs(dx) : .infinity, tDeltaY = dy != 0 ? size / abs(dy) : .infinity
        var guardCount = Int(abs(end.x - c.x) + abs(end.y - c.y)) + 2
        while c != end && guardCount > 0 {
            if tMaxX < tMaxY { c.x += stepX; tMaxX += tDeltaX } else { c.y += stepY; tMaxY += tDeltaY }
            out.append(c)
            guardCount -= 1
        }
        return out
    }

    /// Whether the segment a–b can meet the rectangle (its bounding box does).
    static func segment(_ a: Point2, _ b: Point2, meets r: Rect) -> Bool {
        max(a.x, b.x) >= r.minX && min(a.x, b.x) <= r.maxX && max(a.y, b.y) >= r.minY && min(a.y, b.y) <= r.maxY
    }

    /// The parts [t0, t1] of the segment a + t(b − a), t in 0…1, inside the polygon (even-odd
    /// over all rings).
    static func insideIntervals(_ a: Point2, _ b: Point2, _ rings: [[Point2]]) -> [(Double, Double)] {
        var ts: [Double] = []
        let d = Point2(b.x - a.x, b.y - a.y)
        for ring in rings {
            var p = ring[ring.count - 1]
            for q in ring {
                let e = Point2(q.x - p.x, q.y - p.y)
                let denom = d.x * e.y - d.y * e.x
                if abs(denom) > 1e-12 {
                    let w = Point2(p.x - a.x, p.y - a.y)
                    let t = (w.x * e.y - w.y * e.x) / denom
                    let s = (w.x * d.y - w.y * d.x) / denom
                    if t > 0, t < 1, s >= 0, s < 1 { ts.append(t) }
                }
                p = q
            }
        }
        ts.sort()
        var inside = contains(rings, a)
        var start = 0.0
        var intervals: [(Double, Double)] = []
        for t in ts {
            if inside { intervals.append((start, t)) } else { start = t }
            inside.toggle()
        }
        if inside { intervals.append((start, 1)) }
        return intervals
    }

    /// Even-odd point-in-polygon over all rings.
    static func contains(_ rings: [[Point2]], _ p: Point2) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in ring.indices {
                let pi = ring[i], pj = ring[j]
                if (pi.y > p.y) != (pj.y > p.y), p.x < (pj.x - pi.x) * (p.y - pi.y) / (pj.y - pi.y) + pi.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// Distance from `p` to the nearest ring edge.
    static func distance(from p: Point2, to rings: [[Point2]]) -> Double {
        var best = Double.infinity
        for ring in rings {
            var a = ring[ring.count - 1]
            for b in ring {
                let ab = Point2(b.x - a.x, b.y - a.y)
                let len2 = ab.x * ab.x + ab.y * ab.y
                let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2)) : 0
                best = min(best, hypot(p.x - (a.x + t * ab.x), p.y - (a.y + t * ab.y)))
                a = b
            }
        }
        return best
    }
}

/// What `--occlusion` does with POIs behind buildings.
public enum OcclusionMode: String, CaseIterable, Sendable {
    /// No card, no marker (the default).
    case hide
    /// A small translucent marker at the anchor, no card.
    case dim
    /// No line-of-sight check: every POI in view may get a card.
    case off
}

extension LineOfSight {
    /// Where sight lines start on one frame: the device, the ground under it, and the buildings
    /// that hold it (GPS error can put a walker on the pavement inside the facade; the building
    /// holding the device does not hide what lies outside it).
    public struct Viewpoint: Sendable {
        public var device: GeoCoordinate
        public var eyeHeight: Double
        var holding: Set<String>
    }

    /// The viewpoint of a device at `device` (altitude above the ellipsoid, nil if unknown),
    /// `eyeHeight` metres above the ground.
    public func viewpoint(device: GeoCoordinate, eyeHeight: Double) -> Viewpoint {
        Viewpoint(device: device, eyeHeight: eyeHeight,
                  holding: Set(footprints(holding: point(device), tolerance: 0).map { footprints[$0].id }))
    }

    /// Metres within which a POI's node counts as in a building it lies just outside of (a node
    /// mapped on the wall or at the door): the sight line may end at that building's top.
    public static let ownBuildingTolerance = 3.0
    /// Metres around a POI within which buildings do not hide it: a POI's node is often mapped
    /// at the door, on the pavement or in the neighbouring outline, and what the eye finds is
    /// the facade there (the radius of the issue's own 2-D check).
    public static let poiSurroundings = 15.0

    /// Whether the POI at `poi` is hidden from the viewpoint by a building.
    ///
    /// The sight line ends at the POI's altitude when it and the device's are known (both above
    /// the ellipsoid); otherwise, for a POI inside a building, at the top of that building (the
    /// building is what the eye finds: a cafe inside it is seen by its facade); otherwise at
    /// eye height (where the contract places a POI without altitude). The buildings within
    /// `poiSurroundings` of the POI (its own among them) and the ones holding the device never
    /// hide it.
    public func isOccluded(_ poi: GeoCoordinate, from v: Viewpoint) -> Bool {
        let p = point(poi)
        let near = footprints(holding: p, tolerance: Self.poiSurroundings).map { footprints[$0] }
        let own = near.filter { Self.contains($0.rings, p) || Self.distance(from: p, to: $0.rings) <= Self.ownBuildingTolerance }
        let targetHeight: Double
        if let a = poi.altitude, let d = v.device.altitude {
            targetHeight = a - (d - v.eyeHeight)
        } else if let top = own.map(\.height).max() {
            targetHeight = top
        } else {
            targetHeight = v.eyeHeight
        }
        return blocker(from: v.device, deviceHeight: v.eyeHeight, to: poi, targetHeight: targetHeight,
                       ignoring: v.holding.union(near.map(\.id))) != nil
    }
}
