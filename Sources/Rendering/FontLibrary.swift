import CCairo
import Foundation
import POIARCore

/// Default fonts: DejaVu Sans, present on Debian/Ubuntu through `fonts-dejavu-core`.
public let defaultRegularFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
public let defaultBoldFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/// A font file loaded with FreeType and wrapped as a Cairo font face.
///
/// Thread safety: FreeType's `FT_Library` must not create faces from two threads at
/// once, so all loading goes through `FontLibrary.shared` under a lock. After that the
/// `FT_Face` is only touched by Cairo, which locks it internally around every use
/// (cairo-ft's per-face mutex), so one face serves any number of threads.
final class FontFace: @unchecked Sendable {
    /// `cairo_font_face_t *`; lives as long as the process (see `FontLibrary`).
    let cairoFace: OpaquePointer
    let path: String

    fileprivate init(cairoFace: OpaquePointer, path: String) {
        self.cairoFace = cairoFace
        self.path = path
    }
}

/// Loads each font file once per process and keeps it for the process's lifetime:
/// a handful of faces, and never freeing them removes any question of a frame still
/// drawing with a face another thread is releasing.
final class FontLibrary: @unchecked Sendable {
    static let shared = FontLibrary()

    private let lock = NSLock()
    private var library: FT_Library?
    private var faces: [String: FontFace] = [:]
    private var scaledFonts: [String: ScaledFont] = [:]

    /// `face` at `pixelSize`, made once per process and size (HUD and map text).
    func scaled(_ face: FontFace, _ pixelSize: Double) throws -> ScaledFont {
        let key = "\(face.path)@\(pixelSize)"
        lock.lock()
        if let font = scaledFonts[key] { lock.unlock(); return font }
        lock.unlock()
        let font = try ScaledFont(face: face, pixelSize: pixelSize)
        lock.lock(); defer { lock.unlock() }
        if let existing = scaledFonts[key] { return existing }
        scaledFonts[key] = font
        return font
    }

    private init() {}

    /// The face for the font file at `path`, loading it on first use.
    func face(path: String) throws -> FontFace {
        lock.lock()
        defer { lock.unlock() }
        if let face = faces[path] { return face }

        guard FileManager.default.fileExists(atPath: path) else { throw InputError(file: path, "font file not found") }
        try InputFile.checkRegular(path, what: "a font file")
        if library == nil {
            var created: FT_Library?
            let status = FT_Init_FreeType(&created)
            guard status == 0, let created else {
                throw InputError(file: path, "cannot start FreeType (error \(status))")
            }
            library = created
        }
        var ftFace: FT_Face?
        let status = FT_New_Face(library, path, 0, &ftFace)
        guard status == 0, let ftFace else {
            let reason = switch status {
            case 1: "cannot open the file"                 // FT_Err_Cannot_Open_Resource
            case 2: "not a font file (unknown format)"     // FT_Err_Unknown_File_Format
            case 3: "damaged font file"                    // FT_Err_Invalid_File_Format
            default: "FreeType cannot read it (error \(status))"
            }
            throw InputError(file: path, reason)
        }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(ftFace, 0),
              cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
            FT_Done_Face(ftFace)
            throw InputError(file: path, "Cairo cannot use this font")
        }
        let face = FontFace(cairoFace: cairoFace, path: path)
        faces[path] = face
        return face
    }
}

/// A font face at one pixel size, with the options used both to measure and to draw,
/// so measured widths are exactly the drawn ones.
final class ScaledFont: @unchecked Sendable {
    /// `cairo_scaled_font_t *`; Cairo's scaled fonts are thread-safe (reference counts
    /// are atomic and the glyph cache has its own lock).
    let scaledFont: OpaquePointer
    /// Distance from the baseline up to the top of the tallest glyphs, in pixels.
    let ascent: Double
    /// Distance from the baseline down to the bottom of the lowest glyphs, in pixels.
    let descent: Double

    init(face: FontFace, pixelSize: Double) throws {
        var fontMatrix = cairo_matrix_t()
        var identity = cairo_matrix_t()
        cairo_matrix_init_scale(&fontMatrix, pixelSize, pixelSize)
        cairo_matrix_init_identity(&identity)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        // Unhinted metrics: advances scale smoothly with the size, so text never
        // jumps in width between two nearby scales.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        guard let scaled = cairo_scaled_font_create(face.cairoFace, &fontMatrix, &identity, options),
              cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else {
            throw InputError(file: face.path, "Cairo cannot scale this font")
        }
        var extents = cairo_font_extents_t()
        cairo_scaled_font_extents(scaled, &extents)
        self.scaledFont = scaled
        self.ascent = extents.ascent
        self.descent = extents.descent
    }

    deinit { cairo_scaled_font_destroy(scaledFont) }

    /// Horizontal advance of `text` in pixels.
    func width(of text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_scaled_font_text_extents(scaledFont, text, &extents)
        return extents.x_advance
    }
}
