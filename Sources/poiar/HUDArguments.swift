import ArgumentParser
import Rendering
import Replay

/// What is drawn over the frames besides the labels, and where stills come from: shared by
/// `replay` (all of it) and `project` (HUD and card options).
struct HUDArguments: ParsableArguments {
    @Option(help: "HUD parts to draw, comma-separated: compass (tape along the top), gps (accuracy and time), radar; or none. Default: all.")
    var hud: String = "compass,gps,radar"

    @Flag(name: .customLong("no-hud"), help: "Draw no HUD (same as --hud none).")
    var noHUD = false

    @Option(name: .customLong("radar-range"), parsing: .unconditional, help: "Radius of the radar, metres (default: --max-distance, else --radius).")
    var radarRange: Double?

    @Option(name: .customLong("card-detail"),
            help: "After the distance on a card's second line: none, address, hours (opening hours) or auto (address, else hours).")
    var cardDetail: String = "none"

    /// The HUD parts asked for.
    func parts() throws -> HUDParts {
        if noHUD { return [] }
        let parsed = HUDParts.parse(hud)
        if let unknown = parsed.unknown {
            throw ValidationError("--hud: unknown HUD part \"\(unknown)\"; expected compass, gps, radar or none")
        }
        return parsed.parts
    }

    func secondLine() throws -> CardSecondLine {
        guard let line = CardSecondLine(rawValue: cardDetail.lowercased()) else {
            throw ValidationError("--card-detail: expected none, address, hours or auto, got \"\(cardDetail)\"")
        }
        return line
    }

    func validate() throws {
        _ = try parts()
        _ = try secondLine()
        if let radarRange, !(radarRange > 0 && radarRange.isFinite) {
            throw ValidationError("--radar-range: expected metres > 0, got \(radarRange)")
        }
    }

    /// Sets the HUD parts, the radar's range and the cards' second line.
    func apply(to overlay: inout OverlayOptions, _ annotation: inout AnnotationOptions) throws {
        overlay.hud = try parts()
        annotation.secondLine = try secondLine()
        overlay.radarRange = radarRange
    }
}

/// `replay`'s options for stills and the map, beside the HUD's.
struct ReplayOverlayArguments: ParsableArguments {
    @OptionGroup var hud: HUDArguments

    @Option(help: "Folder the log's stills are read from (default: the log's `# stills:` folder, else the log's folder). A still path that leaves it is refused.")
    var stills: String?

    @Option(name: .customLong("max-still-pixels"), parsing: .unconditional,
            help: "Refuse a still with more pixels than this (width × height, read from its header before decoding).")
    var maxStillPixels: Int = defaultMaxStillPixels

    @Flag(help: "Also write map.png beside the frames: the track, the POIs and view cones (see `poiar map`).")
    var map = false

    @Option(name: .customLong("map-every"), parsing: .unconditional, help: "Seconds between view cones on the map.")
    var mapEvery: Double = 5

    func validate() throws {
        if !(mapEvery > 0 && mapEvery.isFinite) { throw ValidationError("--map-every: expected seconds > 0, got \(mapEvery)") }
        if maxStillPixels < 1 { throw ValidationError("--max-still-pixels: expected a number of pixels ≥ 1, got \(maxStillPixels)") }
    }

    func apply(to options: inout ReplayOptions) throws {
        try hud.apply(to: &options.overlay, &options.annotation)
        options.overlay.stillsDirectory = stills
        options.overlay.maxStillPixels = maxStillPixels
        options.overlay.map = map
        options.overlay.mapConeInterval = mapEvery
    }
}
