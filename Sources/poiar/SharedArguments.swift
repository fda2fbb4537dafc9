import ArgumentParser
import POIStore
import Replay

/// `--filter` and `--lang`: which POIs, and the language of their names. Shared by `replay`,
/// `map`, `project` and `pois query`.
struct POISelectionArguments: ParsableArguments {
    @Option(help: "Categories to show, comma-separated (e.g. cafe,restaurant; a POI matches when any of its categories does). Default: all.")
    var filter: String?

    @Option(help: "Language code: POI names from their name:<lang> tag when a POI has one (e.g. sv).")
    var lang: String?

    func validate() throws {
        if let lang { _ = try parseLanguage(lang) }
    }

    /// The categories asked for (nil: all); an unknown one is an error that lists the known.
    func categories() throws -> [String]? { try filter.map { try POICategory.parseFilter($0) } }

    /// The language asked for (checked by `validate`).
    var language: String? { lang.flatMap { try? parseLanguage($0) } }
}

/// `--hfov` and `--camera`: the camera of a log's frames, when the log does not say or says
/// wrong. Shared by `replay` and `map`.
struct CameraArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Horizontal field of view of a centred pinhole camera, degrees. Default: the log's camera, else the phone's as it was held.")
    var hfov: Double?

    @Option(help: "Camera JSON (intrinsics, optional distortion). Default: the log's `# camera:` line.")
    var camera: String?

    func validate() throws {
        if let hfov, !(hfov > 0 && hfov < 180) { throw ValidationError("--hfov: expected degrees in (0, 180), got \(hfov)") }
        if hfov != nil && camera != nil { throw ValidationError("give --hfov or --camera, not both") }
    }

    /// The camera choice, with the output `size` when one is given.
    func setup(size: (width: Int, height: Int)? = nil) -> CameraSetup {
        CameraSetup(cameraFile: camera, hfovDeg: hfov, size: size)
    }
}

/// `--buildings`: the building footprints labels are checked against for line of sight. Shared
/// by `replay`, `project` and `map`.
struct BuildingArguments: ParsableArguments {
    @Option(help: "Buildings for line of sight: an OSM file (PBF, XML, .gz/.bz2, Overpass JSON; imported into a cache beside it, as a POI source is) or a poiar database. Default: the POI source, when it holds buildings.")
    var buildings: String?
}
