import Foundation
import Geodesy

/// The geoid grid file on this machine: EGM96 every 15′, `egm96_15.gtx`, from PROJ's data
/// (Debian's `proj-data` package, which scripts/install-deps.sh installs). Geodesy parses and
/// interpolates the grid (`GeoidGrid`); this module is where the file is found and read.
///
/// Where it is looked for, first found wins:
/// 1. `$POIAR_GEOID`: a GTX file (any geoid grid, e.g. EGM2008's `egm08_25.gtx`), or `none`
///    for no geoid; when it is set, nothing else is tried;
/// 2. `egm96_15.gtx` in each folder of `$PROJ_DATA`, then of `$PROJ_LIB` (PROJ's own
///    variables: `:`-separated folder lists);
/// 3. `/usr/share/proj/egm96_15.gtx` (Debian, Ubuntu), `/usr/local/share/proj/egm96_15.gtx`.
public enum GeoidFile {
    public static let fileName = "egm96_15.gtx"
    /// The folders searched after the environment's.
    public static let defaultFolders = ["/usr/share/proj", "/usr/local/share/proj"]
    public static let environmentKey = "POIAR_GEOID"

    /// Where to look, in order; `nil` when `$POIAR_GEOID` is `none`.
    public static func candidates(environment: [String: String]) -> [String]? {
        if let chosen = environment[environmentKey], !chosen.isEmpty {
            return chosen.lowercased() == "none" ? nil : [chosen]
        }
        var folders: [String] = []
        for key in ["PROJ_DATA", "PROJ_LIB"] {
            folders += (environment[key] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        folders += defaultFolders
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent(fileName).path }
    }

    /// The grid found as the type says, or why there is none.
    public static func load(environment: [String: String]) -> Geoid.Availability {
        guard let paths = candidates(environment: environment) else {
            return .unavailable(reason: "$\(environmentKey) is \"none\"")
        }
        let explicit = environment[environmentKey].map { !$0.isEmpty } ?? false
        guard let path = explicit ? paths.first : paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return .unavailable(reason: "\(fileName) is in none of \(searchedFolders(paths)) (install Debian's proj-data package, or set $\(environmentKey) to a GTX geoid grid)")
        }
        do {
            return .grid(try read(path))
        } catch {
            return .unavailable(reason: "\(error)")
        }
    }

    /// Reads and parses a GTX file.
    /// - Throws: `GeoidGridError` naming the file when it cannot be read or is not a grid.
    public static func read(_ path: String) throws -> GeoidGrid {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw GeoidGridError(file: path, "cannot read the geoid grid: \((error as NSError).localizedDescription)")
        }
        return try GeoidGrid(gtx: data, name: path)
    }

    private static func searchedFolders(_ paths: [String]) -> String {
        paths.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }.joined(separator: ", ")
    }
}

extension Geoid {
    /// This process's geoid: the grid `GeoidFile` finds, read on first use (about 4 MB),
    /// once. The default wherever poiar converts heights above sea level.
    public static let system = Geoid { GeoidFile.load(environment: ProcessInfo.processInfo.environment) }
}
