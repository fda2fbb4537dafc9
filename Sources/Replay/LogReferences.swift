import Foundation
import POIARCore
import SensorLog

/// The POI source of a replay or map: `--pois` when given (anywhere), else the log's
/// `# pois:` line, which must stay inside the log's folder (`LogFolderPath`).
enum LogReferences {
    static func poiSource(option: String?, metadata: LogMetadata, logPath: String, logFolder: URL) throws -> String {
        if let option { return option }
        guard let value = metadata.pois else {
            throw InputError(file: logPath, field: "pois", "no POI source: give --pois SOURCE or a \"# pois: FILE\" line in the log")
        }
        return try LogFolderPath.resolve(value, key: "pois", logFolder: logFolder, logPath: logPath).path
    }
}
