import Foundation
import POIARCore
import SensorLog

/// Files and folders a log names in its `# pois:`, `# camera:` and `# stills:` lines. They are
/// relative to the log's folder and must stay inside it: an absolute path, a `..` that climbs
/// out, or a symbolic link leading out is refused (a log from elsewhere must not make poiar
/// read — or write a POI cache beside — arbitrary files). The command line's `--pois`,
/// `--camera` and `--stills` name files anywhere.
public enum LogReferences {
    /// The URL of `value`, the `key` line of the log at `logPath` (in `logFolder`).
    public static func url(_ value: String, key: String, logPath: String, logFolder: URL) throws -> URL {
        let folder = logFolder.standardizedFileURL
        let url = folder.appendingPathComponent(value).standardizedFileURL
        let resolvedFolder = folder.resolvingSymlinksInPath().path
        guard !value.hasPrefix("/"), isInside(url.path, folder.path),
              isInside(url.resolvingSymlinksInPath().path, resolvedFolder) else {
            let option = key == "pois" ? "--pois" : key == "camera" ? "--camera" : "--stills"
            throw InputError(file: logPath, field: key,
                             "\"\(value)\" leaves the log's folder \(folder.path): a log may name only files inside its folder (give \(option) for others)")
        }
        return url
    }

    /// The POI source of a replay or map: `--pois` when given, else the log's `# pois:` line.
    public static func poiSource(option: String?, metadata: LogMetadata, logPath: String, logFolder: URL) throws -> String {
        if let option { return option }
        guard let value = metadata.pois else {
            throw InputError(file: logPath, field: "pois", "no POI source: give --pois SOURCE or a \"# pois: FILE\" line in the log")
        }
        return try url(value, key: "pois", logPath: logPath, logFolder: logFolder).path
    }

    /// `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
