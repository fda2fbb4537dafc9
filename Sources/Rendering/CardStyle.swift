import CCairo
import Foundation
import POIARCore

/// Fonts and dimensions of the cards (labels) drawn over a frame, and the one place
/// that measures them: `labelSize` gives the layout exactly the box `renderFrame` draws.
///
/// Dimensions are designed for a 720-pixel image and scale with
/// `scale = min(imageWidth, imageHeight) / 720`, so a card covers the same share of
/// the picture at any resolution.
///
/// Thread safety: a `CardStyle` is immutable and `Sendable`; measuring and drawing
/// from many threads at once is safe (fonts are shared Cairo scaled fonts, which lock
/// internally). Creating one is cheap after the first, because font files are loaded
/// once per process.
public struct CardStyle: LabelSizing {
    public let imageWidth: Int
    public let imageHeight: Int
    /// Pixels per design pixel (design = 720-pixel image).
    public let scale: Double

    // Dimensions in pixels, already scaled (design values in `Design`).
    let cornerRadius: Double
    /// Largest diameter of the round category badge (icon) at the card's left.
    let badgeDiameter: Double
    /// From the card's left, top and bottom edges to the badge.
    let badgeInset: Double
    let paddingLeft: Double
    let paddingRight: Double
    let paddingTop: Double
    let paddingBottom: Double
    let lineGap: Double
    /// Widest a name or detail line may be before it is ellipsised: 40 % of the image width.
    public let maxTextWidth: Double

    let nameFont: ScaledFont
    let detailFont: ScaledFont
    let attributionFont: ScaledFont

    /// Design values for a 720-pixel image.
    enum Design {
        static let referenceSize = 720.0
        static let nameFontSize = 17.0
        static let detailFontSize = 13.0
        static let attributionFontSize = 11.0
        static let cornerRadius = 8.0
        /// The category badge: a disc in the category colour with the icon in white.
        static let badgeDiameter = 32.0
        static let badgeInset = 7.0
        /// The icon's size as a share of the badge's diameter.
        static let iconFraction = 0.66
        /// From the card's left edge (badge included) to the text.
        static let paddingLeft = 7.0 + 32.0 + 8.0
        static let paddingRight = 11.0
        static let paddingTop = 6.0
        static let paddingBottom = 7.0
        /// Between the name line's descent and the detail line's ascent.
        static let lineGap = 0.0
        static let maxTextWidthFraction = 0.4
        static let leaderWidth = 1.5
        static let anchorDotRadius = 4.0
    }

    /// - Parameters:
    ///   - imageWidth: the frame width; when nil, 16:9 landscape is assumed
    ///     (`imageHeight × 16 / 9`) — pass it when known: it sets the maximum card width.
    ///   - imageHeight: the frame height.
    ///   - fontPath: regular font (detail line, attribution); DejaVu Sans by default.
    ///   - boldFontPath: bold font (names); DejaVu Sans Bold by default.
    /// - Throws: `InputError` naming a font file that is missing or unreadable.
    public init(imageWidth: Int? = nil, imageHeight: Int,
                fontPath: String? = nil, boldFontPath: String? = nil) throws {
        let height = max(1, imageHeight)
        let width = max(1, imageWidth ?? (height * 16 / 9))
        self.imageWidth = width
        self.imageHeight = height
        let scale = Double(min(width, height)) / Design.referenceSize
        self.scale = scale
        cornerRadius = Design.cornerRadius * scale
        badgeDiameter = Design.badgeDiameter * scale
        badgeInset = Design.badgeInset * scale
        paddingLeft = Design.paddingLeft * scale
        paddingRight = Design.paddingRight * scale
        paddingTop = Design.paddingTop * scale
        paddingBottom = Design.paddingBottom * scale
        lineGap = Design.lineGap * scale
        maxTextWidth = Design.maxTextWidthFraction * Double(width)

        let regular = try FontLibrary.shared.face(path: fontPath ?? defaultRegularFontPath)
        let bold = try FontLibrary.shared.face(path: boldFontPath ?? defaultBoldFontPath)
        nameFont = try ScaledFont(face: bold, pixelSize: Design.nameFontSize * scale)
        detailFont = try ScaledFont(face: regular, pixelSize: Design.detailFontSize * scale)
        attributionFont = try ScaledFont(face: regular, pixelSize: Design.attributionFontSize * scale)
    }

    /// Width and height in pixels of the card for `name` and `detail` — exactly the box
    /// `renderFrame` draws (whole pixels; long text is ellipsised to `maxTextWidth`).
    public func labelSize(name: String, detail: String) -> (width: Double, height: Double) {
        let layout = cardLayout(name: name, detail: detail)
        return (layout.width, layout.height)
    }

    /// The box around an off-screen arrow and its text pill, as `renderFrame` draws them.
    public func indicatorFootprint(tip: Point2, angleDeg: Double, name: String, detail: String,
                                   imageWidth: Int, imageHeight: Int) -> Rect {
        let indicator = IndicatorDrawing(position: tip, angleDeg: angleDeg, name: name, detail: detail, category: "")
        return IndicatorGeometry(indicator, style: self, width: imageWidth, height: imageHeight).footprint
    }

    /// Where everything goes inside one card, relative to its top-left corner.
    struct CardLayout {
        var name: String
        var detail: String
        var width: Double
        var height: Double
        var textX: Double
        var nameBaseline: Double
        /// Nil when there is no detail line.
        var detailBaseline: Double?
        /// Centre and diameter of the category badge.
        var badgeCentre: Point2
        var badgeDiameter: Double
    }

    func cardLayout(name: String, detail: String) -> CardLayout {
        let (shownName, nameWidth) = ellipsised(name, font: nameFont, maxWidth: maxTextWidth)
        let (shownDetail, detailWidth) = ellipsised(detail, font: detailFont, maxWidth: maxTextWidth)
        let nameBaseline = paddingTop + nameFont.ascent
        var bottom = nameBaseline + nameFont.descent
        var detailBaseline: Double?
        if !shownDetail.isEmpty {
            let baseline = bottom + lineGap + detailFont.ascent
            detailBaseline = baseline
            bottom = baseline + detailFont.descent
        }
        let height = (bottom + paddingBottom).rounded(.up)
        // The badge fills the card's height less its insets (a one-line card has a smaller one).
        let diameter = min(badgeDiameter, height - 2 * badgeInset)
        let textX = badgeInset + diameter + (paddingLeft - badgeInset - badgeDiameter)
        return CardLayout(
            name: shownName, detail: shownDetail,
            width: (textX + max(nameWidth, detailWidth) + paddingRight).rounded(.up),
            height: height,
            textX: textX, nameBaseline: nameBaseline, detailBaseline: detailBaseline,
            badgeCentre: Point2(badgeInset + diameter / 2, height / 2), badgeDiameter: diameter)
    }
}

/// `text` cut to fit `maxWidth` pixels, ending in "…" when cut, with its width.
/// Cuts between grapheme clusters (never inside an emoji or accented letter).
func ellipsised(_ text: String, font: ScaledFont, maxWidth: Double) -> (String, Double) {
    let fullWidth = font.width(of: text)
    if fullWidth <= maxWidth { return (text, fullWidth) }
    let characters = Array(text)
    func candidate(_ count: Int) -> String {
        String(characters[..<count]).trimmingCharacters(in: .whitespaces) + "…"
    }
    // Largest prefix length whose ellipsised form fits (width grows with length).
    var low = 0, high = characters.count - 1
    while low < high {
        let mid = (low + high + 1) / 2
        if font.width(of: candidate(mid)) <= maxWidth { low = mid } else { high = mid - 1 }
    }
    let shown = candidate(low)
    return (shown, font.width(of: shown))
}
