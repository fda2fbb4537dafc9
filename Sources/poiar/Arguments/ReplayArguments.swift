import ArgumentParser
import Foundation
import POIARCore
import POIStore
import Recordings
import Rendering
import Replay

/// `replay`'s input: the logs and the camera images drawn over.
struct ReplayInputArguments: ParsableArguments {
    @Argument(help: "Sensor logs (poiar-log/1, .csv or .csv.gz), phone recordings (Sensor Logger or phyphox export: folder or .zip), or folders of them; or GoPro clips (.mp4/.mov with GPMF telemetry).")
    var logs: [String]

    @Option(help: ArgumentHelp("Camera images to draw over: a video (MP4, MOV; H.264, H.265, …) or a folder of stills named by capture time (epoch milliseconds, as Sensor Logger's Camera/). (default: the log's # footage: line, a GoPro clip's own video, a phone export's Camera folder)", valueName: "file|folder"))
    var footage: String?

    @Option(name: .customLong("footage-offset"), parsing: .unconditional,
            help: ArgumentHelp("Where the footage's time 0 falls on the log's clock, seconds (footage time = log time − offset), or auto to estimate it from the images' motion and the gyro. (default: a video's time 0 is the log's; named stills by the log's start_utc)", valueName: "seconds|auto"))
    var footageOffset: FootageOffset?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second, in (0, 1000]: for a log without frame rows, the rate frames are made at; of a log's frame rows or the footage's frames, at most this many a second (a notice says how many are drawn). (default: 2 without frame rows; else every frame)", valueName: "n"))
    var fps: Checked<FrameRate>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw only the frames from this many seconds after the log's start. (default: 0)", valueName: "s"))
    var from: Checked<SecondsOrNone>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw only the frames up to this many seconds after the log's start. (default: the log's end)", valueName: "s"))
    var to: Checked<SecondsOrNone>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw every Nth frame (of those --from, --to and --fps leave), for a quick look.", valueName: "n"))
    var every: Checked<PositiveCount> = 1

    @Option(help: ArgumentHelp("Folder the log's stills are read from; a still path that leaves it is refused. (default: the log's `# stills:` folder, else the log's folder)", valueName: "dir"))
    var stills: String?

    @Option(name: .customLong("max-still-pixels"), parsing: .unconditional,
            help: ArgumentHelp("Refuse a still with more pixels than this (width × height, read from its header before decoding).", valueName: "n"))
    var maxStillPixels = Checked<PositiveCount>(defaultMaxStillPixels)

    func validate() throws {
        if let from, let to, to.value < from.value {
            throw ValidationError("--to \(plainNumber(to.value)) comes before --from \(plainNumber(from.value)): give the end after the start")
        }
    }

    /// Sets the frames' rate and selection, the footage and the stills of a replay.
    func apply(to options: inout ReplayOptions) {
        options.fps = fps?.value ?? 2
        options.selection = FrameSelection(from: from?.value, to: to?.value, maxRate: fps?.value, every: every.value)
        options.footage = FootageOptions(path: footage, offset: footageOffset, maxRate: fps?.value)
        options.overlay.stillsDirectory = stills
        options.overlay.maxStillPixels = maxStillPixels.value
    }
}

/// `replay`'s POI options beyond the source: fetching the POIs around the log from the web into
/// the POI database first (`--fetch`).
struct ReplayFetchArguments: ParsableArguments {
    @Flag(help: "Before replaying, fetch the POIs within --radius + 1000 m of the log's first GPS fix into the --pois database (created if missing); an area fetched before is not fetched again, so later runs work offline.")
    var fetch = false

    @Option(name: .customLong("fetch-source"), help: ArgumentHelp("With --fetch: where from (google-places: key in $POIAR_GOOGLE_PLACES_KEY).", valueName: "source"))
    var fetchSource: FetchSource = .overpass

    @Option(name: .customLong("fetch-endpoint"), help: ArgumentHelp("With --fetch: the service URL. (default: the public Overpass API / Google Places Nearby Search)", valueName: "url"))
    var fetchEndpoint: EndpointURL?

    @Flag(help: "With --fetch: fetch even when an earlier fetch covers the area.")
    var refresh = false

    func validate() throws {
        if !fetch && (refresh || fetchEndpoint != nil || fetchSource != .overpass) {
            throw ValidationError("--refresh, --fetch-source and --fetch-endpoint go with --fetch")
        }
    }

    /// The fetch asked for, into the database `pois` (nil: none asked for).
    func request(into pois: String?) -> POIFetchRequest? {
        guard fetch, let pois else { return nil }
        return POIFetchRequest(source: fetchSource, endpoint: fetchEndpoint?.url, database: pois, refresh: refresh)
    }
}

/// How `replay` draws: the fonts, the calm layout, the flat-phone map.
struct ReplayLookArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Font file for the labels' regular text. (default: DejaVu Sans)", valueName: "file"))
    var font: String?

    @Option(name: .customLong("bold-font"), help: ArgumentHelp("Font file for the labels' names. (default: DejaVu Sans Bold)", valueName: "file"))
    var boldFont: String?

    @Flag(name: .customLong("no-calm"), help: "Lay out every frame on its own (no kept stack levels, delayed drops or easing).")
    var noCalm = false

    @Flag(name: .customLong("no-flat-map"),
          help: "Keep the camera view when the phone points at the ground. (default: such frames show a map around the device; docs/phone.md)")
    var noFlatMap = false

    func apply(to options: inout ReplayOptions) {
        options.fontPath = font
        options.boldFontPath = boldFont
        options.calm = !noCalm
        options.flatMap = !noFlatMap
    }
}
