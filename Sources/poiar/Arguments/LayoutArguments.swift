import ArgumentParser
import Frames
import Projection
import Replay

/// Which labels a frame shows and where: shared by `replay` and `project`.
struct LayoutArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Search radius around the device, metres.", valueName: "m"))
    var radius: Checked<Metres> = 1500

    @Option(name: .customLong("max-visible"), parsing: .unconditional, help: ArgumentHelp("At most this many labels per frame, nearest first.", valueName: "n"))
    var maxVisible: Checked<Count> = 100

    @Option(name: .customLong("max-cards"), parsing: .unconditional, help: ArgumentHelp("Cards a frame shows at most, cluster cards included; other POIs in sight get dots.", valueName: "n"))
    var maxCards: Checked<Count> = 10

    @Option(name: .customLong("max-distance"), parsing: .unconditional, help: ArgumentHelp("Label only POIs within this many metres. (default: the whole radius)", valueName: "m"))
    var maxDistance: Checked<Metres>?

    @Option(name: .customLong("max-stack"), parsing: .unconditional, help: ArgumentHelp("Hide a label that would need more than this many lifts. (default: no cap)", valueName: "n"))
    var maxStack: Checked<Count>?

    @Option(name: .customLong("distance-offset"),
            help: ArgumentHelp("Raise labels by distance: none, auto (up to a quarter of the image height at the search radius), or manual:THRESHOLD_M:PX_PER_M.", valueName: "mode"))
    var distanceOffset: DistanceOffsetChoice = .none

    @Option(parsing: .unconditional, help: ArgumentHelp("Edge arrows toward the nearest POIs outside the view (0 turns them off).", valueName: "n"))
    var offscreen: Checked<Count> = 3

    @Option(parsing: .unconditional, help: ArgumentHelp("Terrestrial refraction coefficient for far POIs, in [0, 1) (0 turns it off).", valueName: "k"))
    var refraction: Checked<RefractionCoefficient> = 0.13

    @Option(help: ArgumentHelp("POIs behind buildings: hide (no card), dim (a small translucent marker), or off (no line-of-sight check). Needs buildings (--buildings).", valueName: "mode"))
    var occlusion: OcclusionMode = .hide

    @Option(name: .customLong("eye-height"), parsing: .unconditional, help: ArgumentHelp("Height of the camera above the ground, metres, where sight lines start.", valueName: "m"))
    var eyeHeight: Checked<EyeHeight> = 1.5

    @Option(name: .customLong("card-size"), help: ArgumentHelp("Card size: distance (near cards larger, far ones smaller) or fixed.", valueName: "mode"))
    var cardSize: CardSizing = .distance

    /// The labels' distance beyond which `--distance-offset auto` lifts the most.
    var labelDistance: Double { maxDistance?.value ?? radius.value }

    func apply(to layout: inout LayoutOptions, _ annotation: inout AnnotationOptions) {
        layout.maxVisible = maxVisible.value
        layout.distanceOffset = distanceOffset.offset(radius: labelDistance)
        layout.maxStackLevel = maxStack?.value
        layout.maxDistance = maxDistance?.value
        annotation.offscreenIndicators = offscreen.value
        annotation.refractionCoefficient = refraction.value
        annotation.occlusion = occlusion
        annotation.eyeHeight = eyeHeight.value
        layout.declutter.maxCards = maxCards.value
        layout.cardSize = cardSize == .fixed ? nil : CardSizeByDistance()
    }
}

/// What is drawn over the frames besides the labels: shared by `replay` and `project`.
struct HUDArguments: ParsableArguments {
    @Option(help: ArgumentHelp("HUD parts to draw, comma-separated: compass (tape along the top), gps (accuracy and time), radar; or none.", valueName: "parts"))
    var hud = HUDList(parts: .all)

    @Flag(name: .customLong("no-hud"), help: "Draw no HUD (same as --hud none).")
    var noHUD = false

    @Option(name: .customLong("radar-range"), parsing: .unconditional, help: ArgumentHelp("Radius of the radar, metres. (default: --max-distance, else --radius)", valueName: "m"))
    var radarRange: Checked<Metres>?

    @Option(name: .customLong("card-detail"),
            help: ArgumentHelp("After the distance on a card's second line: none, address, hours (opening hours) or auto (address, else hours).", valueName: "what"))
    var cardDetail: CardSecondLine = .none

    /// Sets the HUD parts, the radar's range and the cards' second line.
    func apply(to overlay: inout OverlayOptions, _ annotation: inout AnnotationOptions) {
        overlay.hud = noHUD ? [] : hud.parts
        overlay.radarRange = radarRange?.value
        annotation.secondLine = cardDetail
    }
}
