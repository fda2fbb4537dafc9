import Foundation
import POIARCore
import SensorLog

/// The paths a log names in its metadata (`# pois:`, `# camera:`, `# stills:`) are relative to
/// the log's folder and must stay inside it: a log from elsewhere (an unpacked archive, a
/// colleague's recording) must not make poiar read files outside the folder it was given —
/// nor write there, since a POI source's cache is built beside the source. A path is refused
/// when it is absolute, when `..` takes it out, or when a symbolic link on the way leads out.
/// Files elsewhere are given on the command line (`--pois`, `--camera`, `--stills`), which
/// is the user's own choice and is not confined.
public enum LogFolderPath {
    /// The URL `value` (the `# key:` line's value) names inside `logFolder`.
    /// - Parameter logPath: the log, to name in the message (else the folder is named).
    public static func resolve(_ value: String, key: String, logFolder: URL, logPath: String?) throws -> URL {
        let folder = logFolder.standardizedFileURL.path
        func refuse() -> InputError {
            let option = ["pois": "--pois", "camera": "--camera", "stills": "--stills", "footage": "--footage"][key].map { " (\($0) on the command line may name one anywhere)" } ?? ""
            return InputError(file: logPath ?? folder, field: key,
                              "the log's path \"\(value)\" leaves the log's folder \(folder); paths in a log must stay inside it\(option)")
        }
        guard !value.hasPrefix("/"), !value.hasPrefix("~") else { throw refuse() }
        let lexical = logFolder.appendingPathComponent(value).standardizedFileURL
        guard isInside(lexical.path, folder) else { throw refuse() }
        // Through symbolic links: compare the real paths (when the target exists; a missing
        // file is reported by whoever opens it).
        if FileManager.default.fileExists(atPath: lexical.path) {
            let real = lexical.resolvingSymlinksInPath().path
            let realFolder = logFolder.standardizedFileURL.resolvingSymlinksInPath().path
            guard isInside(real, realFolder) else { throw refuse() }
        }
        return lexical
    }

    /// `metadata` for a log written to `output` from the recording at `input`: its `footage`
    /// path (relative to the recording's folder) made relative to the output's folder. A clip
    /// outside that folder could not be named there (a log's paths must stay inside its folder):
    /// the key is left out, and the notice says so.
    public static func relocatingFootage(_ metadata: LogMetadata, from input: String, to output: String) -> (metadata: LogMetadata, notice: String?) {
        guard let value = metadata.footage else { return (metadata, nil) }
        var isDir: ObjCBool = false
        let inputURL = URL(fileURLWithPath: input)
        let inputFolder = FileManager.default.fileExists(atPath: input, isDirectory: &isDir) && isDir.boolValue
            ? inputURL : inputURL.deletingLastPathComponent()
        let clip = (value.hasPrefix("/") ? URL(fileURLWithPath: value) : inputFolder.appendingPathComponent(value)).standardizedFileURL
        let outFolder = URL(fileURLWithPath: output).deletingLastPathComponent().standardizedFileURL.path
        var out = metadata
        let prefix = outFolder.hasSuffix("/") ? outFolder : outFolder + "/"
        if clip.path.hasPrefix(prefix) {
            let relative = String(clip.path.dropFirst(prefix.count))
            out.entries = out.entries.map { $0.key == LogMetadata.footageKey ? ($0.key, relative) : $0 }
            return (out, nil)
        }
        out.entries.removeAll { $0.key == LogMetadata.footageKey }
        return (out, "\(output): no \"# \(LogMetadata.footageKey):\" line: the clip \(clip.path) is outside the log's folder \(outFolder), and a log's paths must stay inside it; write the log beside the clip to keep the link (or give the clip with --footage)")
    }

    public static func isInside(_ path: String, _ folder: String) -> Bool { pathIsInside(path, folder) }

    /// The POI source of a replay or map: `--pois` when given (anywhere), else the log's
    /// `# pois:` line, inside the log's folder; nil when there is neither (`missingPOISource`).
    public static func poiSource(option: String?, metadata: LogMetadata, logPath: String, logFolder: URL) throws -> String? {
        if let option { return option }
        guard let value = metadata.pois else { return nil }
        return try resolve(value, key: "pois", logFolder: logFolder, logPath: logPath).path
    }

    /// The notice for a replay or map without a POI source, with advice that fits the input: a
    /// phone app's recording has no place for a `# pois:` line.
    public static func missingPOISource(metadata: LogMetadata, logPath: String, what: String) -> String {
        if metadata["import_source"] != nil {
            return "\(logPath): no POI source, \(what): give --pois FILE (an OSM extract, GeoJSON, CSV, … or a poiar database), or --fetch --pois DB to fetch the POIs around the recording"
        }
        return "\(logPath): no POI source, \(what): give --pois SOURCE (or --fetch --pois DB), or a \"# pois: FILE\" line in the log"
    }
}
