import CCairo
import POIARCore

/// Where the thumbnails of a contact sheet go: a grid about as wide as it is tall, each
/// thumbnail `thumbnailSide` pixels on its longer side with a caption strip below it.
public struct ContactSheetLayout: Sendable, Equatable {
    /// The most thumbnails one sheet holds (about 70 megabytes of pixels at 256 px).
    public static let maxThumbnails = 400
    public static let thumbnailSide = 256
    static let gap = 8
    static let captionHeight = 18

    public let count: Int
    public let thumbnailWidth: Int
    public let thumbnailHeight: Int
    public let columns: Int
    public let rows: Int
    public let width: Int
    public let height: Int

    /// - Precondition: 1 ≤ count ≤ maxThumbnails, frame sizes ≥ 1.
    public init(frameWidth: Int, frameHeight: Int, count: Int) {
        precondition(count >= 1 && count <= ContactSheetLayout.maxThumbnails && frameWidth > 0 && frameHeight > 0)
        self.count = count
        let side = Double(ContactSheetLayout.thumbnailSide)
        let scale = side / Double(max(frameWidth, frameHeight))
        thumbnailWidth = max(1, Int((Double(frameWidth) * scale).rounded()))
        thumbnailHeight = max(1, Int((Double(frameHeight) * scale).rounded()))
        let cellWidth = Double(thumbnailWidth + ContactSheetLayout.gap)
        let cellHeight = Double(thumbnailHeight + ContactSheetLayout.captionHeight + ContactSheetLayout.gap)
        // Columns for a square sheet: c·w ≈ (n/c)·h.
        columns = min(count, max(1, Int((Double(count) * cellHeight / cellWidth).squareRoot().rounded(.up))))
        rows = (count + columns - 1) / columns
        width = columns * Int(cellWidth) + ContactSheetLayout.gap
        height = rows * Int(cellHeight) + ContactSheetLayout.gap
    }

    /// Top-left corner of thumbnail `i` (0-based, row by row).
    public func origin(of i: Int) -> (x: Int, y: Int) {
        let cellWidth = thumbnailWidth + ContactSheetLayout.gap
        let cellHeight = thumbnailHeight + ContactSheetLayout.captionHeight + ContactSheetLayout.gap
        return (ContactSheetLayout.gap + (i % columns) * cellWidth, ContactSheetLayout.gap + (i / columns) * cellHeight)
    }
}

/// A contact sheet drawn one thumbnail at a time, so only the sheet and the frame being
/// added are in memory: frames scaled down (Cairo's GOOD filter, box-filtered) on a dark
/// background, each captioned below.
public final class ContactSheet {
    public let layout: ContactSheetLayout
    private let canvas: CairoCanvas
    private let font: ScaledFont

    /// - Throws: `InputError` naming a font file that is missing or unreadable.
    public init(layout: ContactSheetLayout, fontPath: String? = nil) throws {
        self.layout = layout
        canvas = try CairoCanvas(width: layout.width, height: layout.height)
        font = try ScaledFont(face: try FontLibrary.shared.face(path: fontPath ?? defaultRegularFontPath), pixelSize: 12)
        canvas.setColour(red: 0.13, green: 0.13, blue: 0.14)
        cairo_paint(canvas.context)
    }

    /// Draws `image` as thumbnail `i` with `caption` below it.
    public func add(_ image: RasterImage, at i: Int, caption: String) throws {
        let cr = canvas.context
        let (x, y) = layout.origin(of: i)
        let surface = try cairoSurface(of: image)
        defer { cairo_surface_destroy(surface) }
        cairo_save(cr)
        cairo_rectangle(cr, Double(x), Double(y), Double(layout.thumbnailWidth), Double(layout.thumbnailHeight))
        cairo_clip(cr)
        cairo_translate(cr, Double(x), Double(y))
        cairo_scale(cr, Double(layout.thumbnailWidth) / Double(image.width), Double(layout.thumbnailHeight) / Double(image.height))
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
        let (shown, _) = ellipsised(caption, font: font, maxWidth: Double(layout.thumbnailWidth))
        canvas.setColour(red: 0.85, green: 0.85, blue: 0.85)
        canvas.text(shown, font: font, x: Double(x), y: Double(y + layout.thumbnailHeight) + 4 + font.ascent)
    }

    /// The sheet drawn so far.
    public func image() throws -> RasterImage { try canvas.image() }
}
