import CCairo
import Foundation
import POIARCore

/// Fonts and dimensions of the cards (labels) drawn over a frame, and the one place
/// that measures them: `labelSize` gives the layout exactly the box `renderFrame` draws.
///
/// Dimensions are designed for a 720-pixel image and scale with it (`scale(width:height:)`):
/// a card covers the same share of the picture at 720 px and above, and its text never gets
/// smaller than at 720 px down to frames 480 px on their shorter side (the GoPro's 848 × 480),
/// where a share of the picture would make the distance line 7 px tall.
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

    /// This style's card size relative to the normal card (1): cards are sized by distance.
    public let sizeFactor: Double
    /// The styles of the other card sizes (`sizeFactors`), made once with this one.
    private let sizes: [CardStyle]
    /// The card sizes drawn, relative to the normal card: steps of 0.05 from 0.8 to 1.2, so
    /// a card's size changes in small steps as its distance does, and fonts are made once.
    /// The smallest keeps a 720-px frame's name at 13.6 px and distance line at 10.4 px.
    public static let sizeFactors = stride(from: 0.8, through: 1.2001, by: 0.05).map { ($0 * 100).rounded() / 100 }

    /// Design values for a 720-pixel image.
    enum Design {
        static let referenceSize = 720.0
        /// Down to this shorter side, text keeps its size at 720 px.
        static let smallestFullSize = 480.0
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
        try self.init(imageWidth: imageWidth, imageHeight: imageHeight, fontPath: fontPath, boldFontPath: boldFontPath,
                      sizeFactor: 1, withSizes: true)
    }

    private init(imageWidth: Int?, imageHeight: Int, fontPath: String?, boldFontPath: String?,
                 sizeFactor: Double, withSizes: Bool) throws {
        let height = max(1, imageHeight)
        let width = max(1, imageWidth ?? (height * 16 / 9))
        self.imageWidth = width
        self.imageHeight = height
        let scale = Self.scale(width: width, height: height)
        self.scale = scale
        self.sizeFactor = sizeFactor
        let card = scale * sizeFactor  // the card's own dimensions
        cornerRadius = Design.cornerRadius * card
        badgeDiameter = Design.badgeDiameter * card
        badgeInset = Design.badgeInset * card
        paddingLeft = Design.paddingLeft * card
        paddingRight = Design.paddingRight * card
        paddingTop = Design.paddingTop * card
        paddingBottom = Design.paddingBottom * card
        lineGap = Design.lineGap * card
        maxTextWidth = Design.maxTextWidthFraction * Double(width)

        let regular = try FontLibrary.shared.face(path: fontPath ?? defaultRegularFontPath)
        let bold = try FontLibrary.shared.face(path: boldFontPath ?? defaultBoldFontPath)
        nameFont = try ScaledFont(face: bold, pixelSize: Design.nameFontSize * card)
        detailFont = try ScaledFont(face: regular, pixelSize: Design.detailFontSize * card)
        attributionFont = try ScaledFont(face: regular, pixelSize: Design.attributionFontSize * scale)
        sizes = withSizes ? try Self.sizeFactors.map { f in
            try CardStyle(imageWidth: width, imageHeight: height, fontPath: fontPath, boldFontPath: boldFontPath,
                          sizeFactor: f, withSizes: false)
        } : []
    }

    /// Pixels per design pixel of a `width` × `height` frame: its shorter side over 720 px, but
    /// 1 from 720 px down to 480 px (the smallest text, a far card's distance line, stays 10.4 px
    /// tall, as at 720 px), and the shorter side over 480 px below that (thumbnails scale down).
    public static func scale(width: Int, height: Int) -> Double {
        let shorter = Double(min(width, height))
        if shorter >= Design.referenceSize { return shorter / Design.referenceSize }
        return min(1, shorter / Design.smallestFullSize)
    }

    /// The style of cards drawn `factor` times the normal size (the nearest of `sizeFactors`).
    public func sized(_ factor: Double) -> CardStyle {
        guard let k = Self.sizeFactors.indices.min(by: { abs(Self.sizeFactors[$0] - factor) < abs(Self.sizeFactors[$1] - factor) }),
              Self.sizeFactors[k] != sizeFactor, k < sizes.count else { return self }
        return sizes[k]
    }

    /// Width and height in pixels of the card for `name` and `detail` — exactly the box
    /// `renderFrame` draws (whole pixels; long text is ellipsised to `maxTextWidth`).
    public func labelSize(name: String, detail: String) -> (width: Double, height: Double) {
        let layout = cardLayout(name: name, detail: detail)
        return (layout.width, layout.height)
    }

    /// The size of the card drawn `sizeFactor` times the normal size (`sized`).
    public func labelSize(name: String, detail: String, sizeFactor: Double) -> (width: Double, height: Double) {
        sized(sizeFactor).labelSize(name: name, detail: detail)
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
    // A visible character is a pixel wide or more, so no more than maxWidth + 1 of them are
    // measured (and of those, no more than 4 Unicode scalars each on average: one character
    // can hold a million combining accents): a name of megabytes (from a database made before
    // import cut names) costs no more than one that fills the card.
    let count = max(1, Int(maxWidth) + 1)
    let (head, isWhole) = boundedPrefix(text, characters: count, scalars: 4 * count)
    if isWhole {
        let fullWidth = font.width(of: text)
        if fullWidth <= maxWidth { return (text, fullWidth) }
    }
    let characters = Array(head)
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
