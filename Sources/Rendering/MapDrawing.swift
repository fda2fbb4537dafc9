import CCairo
import Foundation
import POIARCore

/// A top-down map of a replay, north up, in image pixels: the base map (OSM streets,
/// buildings, green and water, or a plain grid), the walked track, view cones, the POIs, a
/// scale bar, a north arrow and the attribution.
public struct MapDrawing: Sendable {
    public enum AreaKind: Sendable { case building, green, water, plaza }

    public struct Area: Sendable {
        public var kind: AreaKind
        public var points: [Point2]
        public init(kind: AreaKind, points: [Point2]) { self.kind = kind; self.points = points }
    }

    public struct Line: Sendable {
        /// 0 major road … 3 footpath; 4 railway.
        public var rank: Int
        public var points: [Point2]
        public init(rank: Int, points: [Point2]) { self.rank = rank; self.points = points }
    }

    /// The camera's view at one moment: apex at the device, `heading` degrees clockwise from
    /// north (up), `halfAngle` either side, `length` pixels long.
    public struct Cone: Sendable {
        public var apex: Point2
        public var heading: Double
        public var halfAngle: Double
        public var length: Double
        public init(apex: Point2, heading: Double, halfAngle: Double, length: Double) {
            self.apex = apex; self.heading = heading; self.halfAngle = halfAngle; self.length = length
        }
    }

    public struct Place: Sendable {
        public var point: Point2
        public var category: String
        /// Drawn beside the badge when set. Places are drawn in the order given (the last on
        /// top) and labelled in the reverse order, each only where its name covers no name
        /// placed before it and no badge: give the most important last.
        public var label: String?
        public init(point: Point2, category: String, label: String? = nil) {
            self.point = point; self.category = category; self.label = label
        }
    }

    public var width: Int
    public var height: Int
    /// Ground metres per pixel (the same along both axes).
    public var metresPerPixel: Double
    /// False: no base map, a plain grid is drawn.
    public var hasBaseMap: Bool
    public var areas: [Area]
    public var lines: [Line]
    public var track: [Point2]
    /// The radius holding the position's error 68 % of the time at each track point, pixels
    /// (empty: not known): drawn as a pale band around the track.
    public var trackSigma: [Double] = []
    /// The raw GPS fixes under a smoothed track, drawn faintly.
    public var rawFixes: [Point2] = []
    public var cones: [Cone]
    public var places: [Place]
    public var attribution: String?
    /// The device now: a blue dot over everything but the labels (a flat phone's map frame).
    public var position: Point2?
    /// A line of text in a pill at the top centre, e.g. why the frame is a map.
    public var caption: String?

    public init(width: Int, height: Int, metresPerPixel: Double, hasBaseMap: Bool, areas: [Area] = [], lines: [Line] = [],
                track: [Point2] = [], cones: [Cone] = [], places: [Place] = [], attribution: String? = nil) {
        self.width = width; self.height = height; self.metresPerPixel = metresPerPixel; self.hasBaseMap = hasBaseMap
        self.areas = areas; self.lines = lines; self.track = track; self.cones = cones; self.places = places
        self.attribution = attribution
    }
}

/// Colours of the map, in the manner of OSM's standard style, lighter so the track stands out.
enum MapPalette {
    static let land = (0.95, 0.94, 0.91)
    static let gridLand = (0.96, 0.96, 0.96)
    static let grid = (0.0, 0.0, 0.0, 0.08)
    static let building = (0.85, 0.82, 0.79)
    static let buildingEdge = (0.76, 0.72, 0.68)
    static let green = (0.80, 0.91, 0.76)
    static let water = (0.67, 0.83, 0.87)
    static let plaza = (0.91, 0.90, 0.88)
    static let roadCasing = (0.75, 0.73, 0.70)
    static let road = (1.0, 1.0, 1.0)
    static let majorRoad = (0.99, 0.87, 0.64)
    static let path = (0.55, 0.52, 0.50)
    static let rail = (0.45, 0.45, 0.45)
    static let track = (0.90, 0.16, 0.22)
    static let cone = (0.13, 0.45, 0.95)
}

/// Sizes on the map at 1200 px along its longer side (scaled with it, at least 3/4): street
/// widths are in pixels, not metres, so the map reads at any extent.
enum MapDesign {
    static let referenceSize = 1200.0
    static let roadWidths = [9.0, 7.0, 5.0, 1.6]
    static let trackWidth = 4.0
    static let placeDiameter = 22.0
    static let margin = 16.0
}

/// Draws a map. The result is opaque.
public func renderMap(_ map: MapDrawing) throws -> RasterImage {
    guard map.width > 0, map.height > 0, map.width <= ImageLimits.maxSide, map.height <= ImageLimits.maxSide else {
        throw RenderingError.invalidFrameSize(width: map.width, height: map.height)
    }
    let canvas = try CairoCanvas(width: map.width, height: map.height)
    let cr = canvas.context
    // Sizes follow the longer side (a long thin map keeps readable streets), never below 3/4.
    let s = max(0.75, Double(max(map.width, map.height)) / MapDesign.referenceSize)
    func rgb(_ c: (Double, Double, Double), _ alpha: Double = 1) { canvas.setColour(red: c.0, green: c.1, blue: c.2, alpha: alpha) }
    func path(_ points: [Point2]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
    }

    // Ground, and the grid without a base map (100 m squares, or whatever keeps 40+ px apart).
    rgb(map.hasBaseMap ? MapPalette.land : MapPalette.gridLand)
    canvas.paint()
    if !map.hasBaseMap {
        let step = niceLength(atLeast: 40 * s * map.metresPerPixel) / map.metresPerPixel
        canvas.setColour(red: MapPalette.grid.0, green: MapPalette.grid.1, blue: MapPalette.grid.2, alpha: MapPalette.grid.3)
        cairo_set_line_width(cr, 1)
        var x = 0.5
        while x < Double(map.width) { cairo_move_to(cr, x.rounded() + 0.5, 0); cairo_line_to(cr, x.rounded() + 0.5, Double(map.height)); x += step }
        var y = 0.5
        while y < Double(map.height) { cairo_move_to(cr, 0, y.rounded() + 0.5); cairo_line_to(cr, Double(map.width), y.rounded() + 0.5); y += step }
        cairo_stroke(cr)
    }

    // Areas: green, then water (a pond in a park), plazas, buildings.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    for kind in [MapDrawing.AreaKind.green, .water, .plaza, .building] {
        for area in map.areas where area.kind == kind {
            path(area.points)
            cairo_close_path(cr)
        }
        switch kind {
        case .water: rgb(MapPalette.water)
        case .green: rgb(MapPalette.green)
        case .plaza: rgb(MapPalette.plaza)
        case .building: rgb(MapPalette.building)
        }
        if kind == .building {
            cairo_fill_preserve(cr)
            rgb(MapPalette.buildingEdge)
            cairo_set_line_width(cr, max(0.8, 1 * s))
            cairo_stroke(cr)
        } else {
            cairo_fill(cr)
        }
    }
    // Streets: casings then fills, minor under major; paths dashed; railways grey.
    for rank in [3, 2, 1, 0] {
        let lines = map.lines.filter { $0.rank == rank }
        guard !lines.isEmpty else { continue }
        let width = MapDesign.roadWidths[rank] * s
        if rank == 3 {
            let dash = [3 * s, 2.5 * s]
            cairo_set_dash(cr, dash, 2, 0)
            for line in lines { path(line.points) }
            rgb(MapPalette.path, 0.8)
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            continue
        }
        for line in lines { path(line.points) }
        rgb(MapPalette.roadCasing)
        cairo_set_line_width(cr, width + 2 * s)
        cairo_stroke(cr)
        for line in lines { path(line.points) }
        rgb(rank == 0 ? MapPalette.majorRoad : MapPalette.road)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }
    for line in map.lines where line.rank == 4 { path(line.points) }
    rgb(MapPalette.rail)
    cairo_set_line_width(cr, 1.5 * s)
    cairo_stroke(cr)

    // View cones, translucent, the latest on top; one whose apex is within half a cone's length
    // of the last drawn is left out, so a slow stretch of the track does not pile cones into
    // one smear.
    var lastApex: Point2?
    for cone in map.cones {
        if let last = lastApex, hypot(cone.apex.x - last.x, cone.apex.y - last.y) < cone.length / 2, cone.apex != map.position { continue }
        lastApex = cone.apex
        let a = (cone.heading - 90) * .pi / 180, h = min(89, cone.halfAngle) * .pi / 180
        cairo_move_to(cr, cone.apex.x, cone.apex.y)
        cairo_arc(cr, cone.apex.x, cone.apex.y, cone.length, a - h, a + h)
        cairo_close_path(cr)
        rgb(MapPalette.cone, 0.16)
        cairo_fill_preserve(cr)
        rgb(MapPalette.cone, 0.55)
        cairo_set_line_width(cr, 1 * s)
        cairo_stroke(cr)
    }
    // The smoothed track's uncertainty: one path of circles at the points and of quadrilaterals
    // joining them (points farther apart than their radii leave no gap), all wound the same
    // way and filled once (their union, evenly pale); then the raw fixes as faint dots.
    if map.trackSigma.count == map.track.count, !map.trackSigma.isEmpty {
        cairo_new_path(cr)
        for (p, r) in zip(map.track, map.trackSigma) where r > 0 {
            cairo_new_sub_path(cr)
            cairo_arc(cr, p.x, p.y, r, 0, 2 * .pi)
        }
        for i in map.track.indices.dropLast() {
            let p = map.track[i], q = map.track[i + 1], r0 = map.trackSigma[i], r1 = map.trackSigma[i + 1]
            let length = hypot(q.x - p.x, q.y - p.y)
            guard length > 0, r0 > 0, r1 > 0 else { continue }
            // The normal to the left of p → q; the corners taken clockwise on the page, as
            // cairo_arc draws the circles.
            let nx = -(q.y - p.y) / length, ny = (q.x - p.x) / length
            cairo_move_to(cr, p.x - nx * r0, p.y - ny * r0)
            cairo_line_to(cr, q.x - nx * r1, q.y - ny * r1)
            cairo_line_to(cr, q.x + nx * r1, q.y + ny * r1)
            cairo_line_to(cr, p.x + nx * r0, p.y + ny * r0)
            cairo_close_path(cr)
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        rgb(MapPalette.track, 0.2)
        cairo_fill(cr)
    }
    for p in map.rawFixes {
        rgb((0.25, 0.25, 0.3), 0.45)
        cairo_arc(cr, p.x, p.y, 2 * s, 0, 2 * .pi)
        cairo_fill(cr)
    }
    // The track: white halo, red line, start and end marks.
    if map.track.count >= 2 {
        path(map.track)
        rgb((1, 1, 1), 0.9)
        cairo_set_line_width(cr, (MapDesign.trackWidth + 3) * s)
        cairo_stroke(cr)
        path(map.track)
        rgb(MapPalette.track)
        cairo_set_line_width(cr, MapDesign.trackWidth * s)
        cairo_stroke(cr)
    }
    if let start = map.track.first {
        rgb((1, 1, 1)); cairo_arc(cr, start.x, start.y, 7 * s, 0, 2 * .pi); cairo_fill(cr)
        rgb((0.18, 0.62, 0.25)); cairo_arc(cr, start.x, start.y, 5 * s, 0, 2 * .pi); cairo_fill(cr)
    }
    if let end = map.track.last, map.track.count >= 2 {
        rgb((1, 1, 1)); cairo_rectangle(cr, end.x - 7 * s, end.y - 7 * s, 14 * s, 14 * s); cairo_fill(cr)
        rgb(MapPalette.track); cairo_rectangle(cr, end.x - 5 * s, end.y - 5 * s, 10 * s, 10 * s); cairo_fill(cr)
    }
    // POIs: category badges with a white rim.
    let d = MapDesign.placeDiameter * s
    for place in map.places {
        rgb((1, 1, 1))
        cairo_arc(cr, place.point.x, place.point.y, d / 2 + 1.5 * s, 0, 2 * .pi)
        cairo_fill(cr)
        drawBadge(category: place.category, centre: place.point, diameter: d, on: canvas)
    }
    if let p = map.position {
        rgb((1, 1, 1)); cairo_arc(cr, p.x, p.y, 10 * s, 0, 2 * .pi); cairo_fill(cr)
        rgb((0.10, 0.45, 0.91)); cairo_arc(cr, p.x, p.y, 7.5 * s, 0, 2 * .pi); cairo_fill(cr)
    }
    let furniture = try MapFurniture(map, scale: s)
    try drawPlaceLabels(map, badgeDiameter: d, avoiding: furniture.areas, scale: s, on: canvas)
    drawMapFurniture(map, furniture, scale: s, on: canvas)
    return try canvas.image()
}

/// Names beside the labelled places' badges, right of the badge (else left, above, below), in
/// a white halo; last place first (the one drawn on top), each only where it covers no name placed
/// before it, no badge and none of the map's furniture, and stays on the map.
private func drawPlaceLabels(_ map: MapDrawing, badgeDiameter d: Double, avoiding furniture: [Rect], scale s: Double,
                             on canvas: CairoCanvas) throws {
    let labelled = map.places.reversed().filter { $0.label?.isEmpty == false }
    guard !labelled.isEmpty else { return }
    let cr = canvas.context
    let font = try FontLibrary.shared.scaled(try FontLibrary.shared.face(path: defaultBoldFontPath), 14 * s)
    var badges = map.places.map { Rect(x: $0.point.x - d / 2, y: $0.point.y - d / 2, width: d, height: d) }
    if let p = map.position { badges.append(Rect(x: p.x - 12 * s, y: p.y - 12 * s, width: 24 * s, height: 24 * s)) }
    var taken = furniture
    let bounds = Rect(x: 0, y: 0, width: Double(map.width), height: Double(map.height))
    // A name never lies on the track: the line would run through its letters.
    let trackHalfWidth = (MapDesign.trackWidth + 3) * s / 2
    func crossesTrack(_ box: Rect) -> Bool {
        let wide = box.insetBy(-trackHalfWidth)
        return zip(map.track, map.track.dropFirst()).contains { segment($0, $1, meets: wide) }
    }
    for place in labelled {
        let (text, width) = ellipsised(place.label!, font: font, maxWidth: Double(map.width) * 0.4)
        let height = font.ascent + font.descent
        let gap = 4 * s
        // Right of the badge, else left; else centred above or below it (where the track
        // runs beside the badge or the name would leave the map at the side).
        let sides = [Rect(x: place.point.x + d / 2 + gap, y: place.point.y - height / 2, width: width, height: height),
                     Rect(x: place.point.x - d / 2 - gap - width, y: place.point.y - height / 2, width: width, height: height),
                     Rect(x: place.point.x - width / 2, y: place.point.y - d / 2 - gap - height, width: width, height: height),
                     Rect(x: place.point.x - width / 2, y: place.point.y + d / 2 + gap, width: width, height: height)]
        guard let box = sides.first(where: { box in
            box.minX >= 0 && box.maxX <= bounds.maxX && box.minY >= 0 && box.maxY <= bounds.maxY
                && !taken.contains { $0.intersects(box) }
                && !badges.contains { $0.intersects(box) }
                && !crossesTrack(box.insetBy(-gap / 2))
        }) else { continue }
        taken.append(box)
        // A halo: the text stroked in white under the text filled in dark grey.
        cairo_save(cr)
        cairo_move_to(cr, box.x, box.y + font.ascent)
        canvas.textPath(text, font: font)
        canvas.setColour(red: 1, green: 1, blue: 1, alpha: 0.92)
        cairo_set_line_width(cr, 3 * s)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(cr)
        cairo_restore(cr)
        canvas.setColour(red: 0.13, green: 0.13, blue: 0.15)
        canvas.text(text, font: font, x: box.x, y: box.y + font.ascent)
    }
}

extension Rect {
    /// The rectangle grown by `-d` on every side (shrunk for positive `d`).
    func insetBy(_ d: Double) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
}
