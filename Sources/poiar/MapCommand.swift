import ArgumentParser
import Foundation
import Maps
import POIARCore
import POIStore
import Replay

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw a map of a log: the walked track, view cones and the POIs around it, over the OSM extract's streets and buildings (a grid otherwise).")

    @Argument(help: "The sensor log (poiar-log/1, .csv or .csv.gz), or a phone recording.")
    var log: String

    @Option(help: "Output PNG.")
    var out: String

    @Option(help: "POI source: a poiar database or a file `pois import` reads. Default: the log's `# pois:` line.")
    var pois: String?

    @OptionGroup var selection: POISelectionArguments

    @OptionGroup var buildings: BuildingArguments

    @Option(help: "OSM extract (PBF, XML, Overpass JSON) whose streets and buildings are drawn. Default: the POI source, when it is one.")
    var basemap: String?

    @Option(parsing: .unconditional, help: "Pixels along the map's longer side.")
    var size: Int = 1200

    @Option(parsing: .unconditional, help: "Metres shown around the track.")
    var margin: Double = 150

    @Option(parsing: .unconditional, help: "Seconds between view cones.")
    var every: Double = 5

    @OptionGroup(title: "The camera, for the cones' angle") var camera: CameraArguments

    @OptionGroup var fusion: FusionArguments

    func validate() throws {
        try fusion.validate()
        if !(64...ImageLimits.maxSide).contains(size) { throw ValidationError("--size: expected 64…\(ImageLimits.maxSide) pixels, got \(size)") }
        if !(margin >= 0 && margin.isFinite) { throw ValidationError("--margin: expected metres ≥ 0, got \(margin)") }
        if !(every > 0 && every.isFinite) { throw ValidationError("--every: expected seconds > 0, got \(every)") }
    }

    func run() throws {
        try reportingErrors {
            var options = MapOptions(logPath: log, outputPath: out)
            options.poiSource = pois
            options.buildings = buildings.buildings
            options.categories = try selection.categories()
            options.language = selection.language
            options.baseMapPath = basemap
            options.longestSide = size
            options.margin = margin
            options.coneInterval = every
            options.camera = camera.setup()
            options.magnetic = fusion.magnetic
            options.date = fusion.magneticModelDate
            options.causal = fusion.causal
            options.poseSource = fusion.source
            options.fixedPosition = try fusion.fixedPosition()
            let summary = try TrackMap.run(options, notice: { printNotice($0) })
            printNotice("wrote \(out): \(summary)")
        }
    }
}
