import ArgumentParser
import Foundation
import Maps
import Recordings
import Replay

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw a map of a log: the walked track, view cones and the POIs around it, over the OSM extract's streets and buildings (a grid otherwise).")

    @Argument(help: "The sensor log (poiar-log/1, .csv or .csv.gz), or a phone recording.")
    var log: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output PNG.", valueName: "file"))
    var out: String

    @OptionGroup(title: "POIs") var poi: POIArguments

    @Option(help: ArgumentHelp("OSM extract (PBF, XML, Overpass JSON) whose streets and buildings are drawn. (default: the POI source, when it is one)", valueName: "file"))
    var basemap: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels along the map's longer side.", valueName: "px"))
    var size: Checked<MapSide> = 1200

    @Option(parsing: .unconditional, help: ArgumentHelp("Metres shown around the track.", valueName: "m"))
    var margin: Checked<MetresOrNone> = 150

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds between view cones.", valueName: "s"))
    var every: Checked<Seconds> = 5

    @OptionGroup(title: "The camera, for the cones' angle") var camera: CameraArguments<LogCamera>

    @OptionGroup(title: "Fusion") var fusion: FusionArguments

    func run() throws {
        try reportingErrors {
            var options = MapOptions(logPath: log, outputPath: out)
            try poi.apply(to: &options)
            fusion.apply(to: &options)
            options.camera = camera.setup()
            options.baseMapPath = basemap
            (options.longestSide, options.margin, options.coneInterval) = (size.value, margin.value, every.value)
            printNotice("wrote \(out): \(try TrackMap.run(options, notice: printNotice))")
        }
    }
}
