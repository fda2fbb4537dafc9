import ArgumentParser
import POIStore
import Replay

/// `--filter` and `--lang`: which POIs, and the language of their names. Shared by `replay`,
/// `map`, `project` and `pois query`.
struct POISelectionArguments: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("Categories to show, comma-separated (e.g. cafe,restaurant; a POI matches when any of its categories does). (default: all)", valueName: "cats"))
    var filter: String?

    @Option(help: ArgumentHelp("Language code: POI names from their name:<lang> tag when a POI has one (e.g. sv). (default: the name tag)", valueName: "code"))
    var lang: LanguageCode?

    /// The categories asked for (nil: all); an unknown one is an error that lists the known.
    func categories() throws -> [String]? { try filter.map { try POICategory.parseFilter($0) } }

    var language: String? { lang?.code }
}

/// `--buildings`: the building footprints labels are checked against for line of sight. Shared
/// by `replay`, `project` and `map`.
struct BuildingArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Buildings for line of sight: an OSM file (PBF, XML, .gz/.bz2, Overpass JSON; imported into a cache beside it, as a POI source is) or a poiar database. (default: the POI source, when it holds buildings)", valueName: "source"))
    var buildings: String?
}

/// The POIs over a log's frames: their source, which of them, and the buildings that hide
/// them. Shared by `replay` and `map` (`project`, with no log to name a source, asks for one).
struct POIArguments: ParsableArguments {
    @Option(help: ArgumentHelp("POI source: a poiar database or a file `pois import` reads. (default: the log's `# pois:` line)", valueName: "source"))
    var pois: String?

    @OptionGroup var selection: POISelectionArguments
    @OptionGroup var buildings: BuildingArguments

    /// Sets the source, categories, language and buildings of a replay or a map.
    func apply(to options: inout some POISettings) throws {
        options.poiSource = pois
        options.categories = try selection.categories()
        options.language = selection.language
        options.buildings = buildings.buildings
    }
}

/// The POI settings of a run over a log: `replay`'s and `map`'s options.
protocol POISettings {
    var poiSource: String? { get set }
    var categories: [String]? { get set }
    var language: String? { get set }
    var buildings: String? { get set }
}
extension ReplayOptions: POISettings {}
extension MapOptions: POISettings {}
