import CCairo
import Foundation
import POIARCore

/// The map scene behind a frame without a picture (`--scene map`): the sky and the ground split
/// at the horizon, coloured for the sun's height, the sun itself when it is in view, and the
/// buildings' faces (`SceneFace`, in painter's order) flat-shaded by the sun and hazed with
/// distance.
public struct SceneDrawing: Sendable {
    /// As `FrameBackground.synthetic`: two points on the horizon line (nil: not in view), and
    /// which side of it is sky.
    public var horizon: (Point2, Point2)?
    public var skyAbove: Bool
    /// The sun's elevation, degrees: day, dusk or night colours, and how much the sun lights.
    public var sunElevationDeg: Double
    /// Where the sun is on the image; nil when it is behind the camera.
    public var sunPoint: Point2?
    /// Farthest first.
    public var faces: [SceneFace]

    public init(horizon: (Point2, Point2)?, skyAbove: Bool, sunElevationDeg: Double, sunPoint: Point2?, faces: [SceneFace]) {
        self.horizon = horizon; self.skyAbove = skyAbove; self.sunElevationDeg = sunElevationDeg
        self.sunPoint = sunPoint; self.faces = faces
    }
}

typealias RGB = (red: Double, green: Double, blue: Double)

/// Colours of the sky and the ground.
struct SkyPalette {
    var skyAtHorizon: RGB
    var skyFar: RGB
    var groundAtHorizon: RGB
    var groundNear: RGB

    /// Today's plain background (`--scene plain`) and the scene's sky by day.
    static let day = SkyPalette(skyAtHorizon: SyntheticPalette.skyAtHorizon, skyFar: SyntheticPalette.skyFar,
                                groundAtHorizon: SyntheticPalette.groundAtHorizon, groundNear: SyntheticPalette.groundNear)
    /// The sun at the horizon: a warm horizon under a deeper blue.
    static let dusk = SkyPalette(skyAtHorizon: (0.96, 0.70, 0.47), skyFar: (0.24, 0.33, 0.58),
                                 groundAtHorizon: (0.45, 0.41, 0.38), groundNear: (0.25, 0.22, 0.18))
    /// The sun well below the horizon.
    static let night = SkyPalette(skyAtHorizon: (0.11, 0.14, 0.24), skyFar: (0.02, 0.04, 0.10),
                                  groundAtHorizon: (0.12, 0.12, 0.12), groundNear: (0.06, 0.06, 0.05))

    /// The palette for the sun at `elevation` degrees: day from 10° up, dusk at 0°, night from
    /// −8° down (civil twilight ends at −6°), blended linearly between.
    static func forSun(elevation: Double) -> SkyPalette {
        if elevation >= 10 { return day }
        if elevation >= 0 { return blend(dusk, day, elevation / 10) }
        return blend(night, dusk, max(0, 1 + elevation / 8))
    }

    static func blend(_ a: SkyPalette, _ b: SkyPalette, _ t: Double) -> SkyPalette {
        SkyPalette(skyAtHorizon: mix(a.skyAtHorizon, b.skyAtHorizon, t), skyFar: mix(a.skyFar, b.skyFar, t),
                   groundAtHorizon: mix(a.groundAtHorizon, b.groundAtHorizon, t), groundNear: mix(a.groundNear, b.groundNear, t))
    }
}

/// `a` + t·(`b` − `a`), per channel.
func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
    (a.red + t * (b.red - a.red), a.green + t * (b.green - a.green), a.blue + t * (b.blue - a.blue))
}

/// How the scene's buildings are coloured: a surface lit by the whole sky (bluish, every face)
/// and by the sun (warm, by the cosine of its angle to the face), hazed with distance.
enum BuildingPalette {
    /// Plaster, for a building whose height was tagged.
    static let surface: RGB = (0.95, 0.91, 0.85)
    /// A cooler grey for one drawn at OSM's two-storey guess, so a guessed height reads as one.
    static let guessedSurface: RGB = (0.86, 0.88, 0.91)
    /// The sky's light (every face gets it) and the sun's, by day, each with its tint.
    static let skyLight = 0.70, sunLight = 0.42
    static let skyTint: RGB = (0.93, 0.97, 1.04), sunTint: RGB = (1.06, 1.0, 0.88)
    /// Metres over which distance hazes a face about two thirds of the way to the horizon's colour.
    static let hazeDistance = 1500.0
    /// Edges: the face's colour darkened, and their width at 720 px.
    static let edgeShade = 0.72, edgeOpacity = 0.6, edgeWidth = 0.9
    /// Storey lines: fainter and thinner than the edges.
    static let storeyOpacity = 0.35, storeyWidth = 0.7

    /// The share of daylight, 0 at night to 1 by day, for the sky's light and the sun's: the
    /// sun lights from 2° below the horizon (its disc and refraction) to full at 6° up; the sky
    /// brightens through civil twilight.
    static func light(sunElevation e: Double) -> (sky: Double, sun: Double) {
        (sky: 0.3 + 0.7 * min(1, max(0, (e + 8) / 16)), sun: min(1, max(0, (e + 2) / 8)))
    }

    /// The colour of `face` under the sun at `sunElevation`, hazed toward `horizon`.
    static func colour(of face: SceneFace, sunElevation: Double, horizon: RGB) -> RGB {
        let light = light(sunElevation: sunElevation)
        let base = face.heightKnown ? surface : guessedSurface
        let sky = skyLight * light.sky * (face.kind == .underside ? 0.7 : 1), sun = sunLight * light.sun * face.sunlight
        let lit = (min(1, base.red * (sky * skyTint.red + sun * sunTint.red)),
                   min(1, base.green * (sky * skyTint.green + sun * sunTint.green)),
                   min(1, base.blue * (sky * skyTint.blue + sun * sunTint.blue)))
        return mix(lit, horizon, 1 - exp(-face.distance / hazeDistance))
    }
}

/// Sky and ground, the sun, then the faces farthest first, each filled and its edges drawn.
func drawScene(_ scene: SceneDrawing, style: CardStyle, on canvas: CairoCanvas) {
    let palette = SkyPalette.forSun(elevation: scene.sunElevationDeg)
    drawSyntheticBackground(horizon: scene.horizon, skyAbove: scene.skyAbove, palette: palette, style: style, on: canvas)
    if let sun = scene.sunPoint, scene.sunElevationDeg > -1 { drawSun(at: sun, style: style, on: canvas) }
    let cr = canvas.context
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
    // Bevelled joins: at under a pixel wide they look as round ones do, and cost far less.
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    cairo_set_line_width(cr, BuildingPalette.edgeWidth * style.scale)
    for face in scene.faces {
        let c = BuildingPalette.colour(of: face, sunElevation: scene.sunElevationDeg, horizon: palette.skyAtHorizon)
        for ring in face.rings { canvas.polygon(ring) }
        canvas.setColour(red: c.red, green: c.green, blue: c.blue)
        cairo_fill_preserve(cr)
        let e = BuildingPalette.edgeShade
        canvas.setColour(red: c.red * e, green: c.green * e, blue: c.blue * e, alpha: BuildingPalette.edgeOpacity)
        cairo_stroke(cr)
        guard !face.storeys.isEmpty else { continue }
        for line in face.storeys {
            guard let first = line.first else { continue }
            cairo_move_to(cr, first.x, first.y)
            for p in line.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        }
        canvas.setColour(red: c.red * e, green: c.green * e, blue: c.blue * e, alpha: BuildingPalette.storeyOpacity)
        cairo_set_line_width(cr, BuildingPalette.storeyWidth * style.scale)
        cairo_stroke(cr)
        cairo_set_line_width(cr, BuildingPalette.edgeWidth * style.scale)
    }
}

/// The sun: a white disc in a soft yellow glow.
private func drawSun(at p: Point2, style: CardStyle, on canvas: CairoCanvas) {
    let cr = canvas.context
    let glow = 70 * style.scale, disc = 11 * style.scale
    guard let gradient = cairo_pattern_create_radial(p.x, p.y, disc, p.x, p.y, glow) else { return }
    defer { cairo_pattern_destroy(gradient) }
    cairo_pattern_add_color_stop_rgba(gradient, 0, 1, 0.97, 0.85, 0.75)
    cairo_pattern_add_color_stop_rgba(gradient, 1, 1, 0.97, 0.85, 0)
    cairo_set_source(cr, gradient)
    cairo_arc(cr, p.x, p.y, glow, 0, 2 * Double.pi)
    cairo_fill(cr)
    canvas.setColour(red: 1, green: 0.99, blue: 0.95)
    cairo_arc(cr, p.x, p.y, disc, 0, 2 * Double.pi)
    cairo_fill(cr)
}

// MARK: - Outlines over a picture

/// The buildings' outlines over the picture (`--overlay buildings`): every face's edges — the
/// footprint's base, the roof line, the corners — with the lines a nearer building hides taken
/// out, so a user sees at a glance whether the pose registers with the world (the lines should
/// sit on the real facades). Drawn into a group far to near: each face first clears what it
/// covers of the lines already drawn, then draws its own.
public struct BuildingOutlinesLayer: FrameLayer {
    /// Farthest first (`BuildingScene.faces`).
    public var faces: [SceneFace]
    public var depth: LayerDepth { .buildings }

    public init(faces: [SceneFace]) { self.faces = faces }

    /// Bright lines on a dark halo, at 720 px.
    static let line = (red: 1.0, green: 0.86, blue: 0.12), lineWidth = 2.0
    static let haloOpacity = 0.55, haloWidth = 4.4

    public func draw(on canvas: CairoCanvas, style: CardStyle) {
        guard !faces.isEmpty else { return }
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_push_group(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for face in faces {
            for ring in face.rings { canvas.polygon(ring) }
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_fill_preserve(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            canvas.setColour(red: 0, green: 0, blue: 0, alpha: Self.haloOpacity)
            cairo_set_line_width(cr, Self.haloWidth * style.scale)
            cairo_stroke_preserve(cr)
            canvas.setColour(red: Self.line.red, green: Self.line.green, blue: Self.line.blue)
            cairo_set_line_width(cr, Self.lineWidth * style.scale)
            cairo_stroke(cr)
        }
        cairo_pop_group_to_source(cr)
        cairo_paint(cr)
    }
}
