import CCairo
import POIARCore

/// A Cairo image surface and its drawing context for one frame.
///
/// Each frame gets its own surface and context, so frames render in parallel without
/// sharing any mutable Cairo state (fonts are shared, and Cairo locks those itself).
/// Public so that `FrameLayer` can name it; layers draw with it inside this module.
public final class CairoCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    let width: Int
    let height: Int

    init(width: Int, height: Int) throws {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw RenderingError.cairo("cannot create a \(width)×\(height) surface")
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            let message = cairoMessage(cairo_surface_status(surface))
            cairo_surface_destroy(surface)
            throw RenderingError.cairo(message)
        }
        self.surface = surface
        self.context = context
        self.width = width
        self.height = height
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The pixels drawn so far.
    func image() throws -> RasterImage {
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderingError.cairo(cairoMessage(status)) }
        cairo_surface_flush(surface)
        return try rasterImage(of: surface)
    }

    // MARK: Small drawing helpers

    func setColour(_ c: RGBA8, alpha: Double = 1) {
        cairo_set_source_rgba(context, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255,
                              Double(c.a) / 255 * alpha)
    }

    func setColour(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        cairo_set_source_rgba(context, red, green, blue, alpha)
    }

    /// Fills the whole surface with the current colour.
    func paint() { cairo_paint(context) }

    /// Adds a rounded-rectangle subpath.
    func roundedRectangle(_ r: Rect, radius: Double) {
        let radius = max(0, min(radius, r.width / 2, r.height / 2))
        cairo_new_sub_path(context)
        cairo_arc(context, r.maxX - radius, r.minY + radius, radius, -Double.pi / 2, 0)
        cairo_arc(context, r.maxX - radius, r.maxY - radius, radius, 0, Double.pi / 2)
        cairo_arc(context, r.minX + radius, r.maxY - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(context, r.minX + radius, r.minY + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    /// Adds a closed polygon subpath.
    func polygon(_ points: [Point2]) {
        guard let first = points.first else { return }
        cairo_move_to(context, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(context, p.x, p.y) }
        cairo_close_path(context)
    }

    /// Adds `text`'s outline to the path at the current point (for a halo: stroke it).
    func textPath(_ text: String, font: ScaledFont) {
        cairo_set_scaled_font(context, font.scaledFont)
        cairo_text_path(context, text)
    }

    /// Draws `text` with its baseline starting at (x, y).
    func text(_ text: String, font: ScaledFont, x: Double, y: Double) {
        cairo_set_scaled_font(context, font.scaledFont)
        cairo_move_to(context, x, y)
        cairo_show_text(context, text)
        cairo_new_path(context)  // no current point left behind for a following arc to join
    }
}

/// Copies a Cairo ARGB32 image surface into a `RasterImage` (same byte layout).
func rasterImage(of surface: OpaquePointer) throws -> RasterImage {
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else {
        throw RenderingError.cairo("surface has no pixel data")
    }
    let rowBytes = width * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
        for y in 0..<height {
            (buffer.baseAddress! + y * rowBytes).update(from: data + y * stride, count: rowBytes)
        }
        count = rowBytes * height
    }
    return RasterImage(width: width, height: height, pixels: pixels)
}

/// A new Cairo ARGB32 surface holding a copy of `image` (caller destroys it).
func cairoSurface(of image: RasterImage) throws -> OpaquePointer {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))
    else { throw RenderingError.cairo("cannot create a \(image.width)×\(image.height) surface") }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
    else {
        let message = cairoMessage(cairo_surface_status(surface))
        cairo_surface_destroy(surface)
        throw RenderingError.cairo(message)
    }
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let rowBytes = image.bytesPerRow
    image.pixels.withUnsafeBufferPointer { source in
        for y in 0..<image.height {
            (data + y * stride).update(from: source.baseAddress! + y * rowBytes, count: rowBytes)
        }
    }
    cairo_surface_mark_dirty(surface)
    return surface
}

func cairoMessage(_ status: cairo_status_t) -> String {
    String(cString: cairo_status_to_string(status))
}
