import Foundation
import PhoneImport
import POIARCore
import SensorLog

/// The logs of one `poiar replay` call: each argument is a log, a phone recording (folder or
/// zip), or a folder of those, and each log gets its own output folder.
public enum LogInputs {
    /// One log to replay and the folder its frames go to (nil: `Output/<log name>/`).
    public struct Input: Equatable, Sendable {
        public var log: String
        public var outputDir: String?
    }

    /// Expands `paths` in order. A folder that is not itself a phone recording stands for the
    /// logs directly inside it, by name: `*.csv` and `*.csv.gz` files that read as
    /// poiar-log/1, `*.zip` files and sub-folders that are phone recordings; anything else
    /// there is passed over with a notice naming it. With one log, `out` is its folder; with several,
    /// each goes to `out/<log name>/` (or `Output/<log name>/`), and two logs with the same
    /// name are refused before anything runs.
    public static func expand(_ paths: [String], out: String?, notice: (String) -> Void) throws -> [Input] {
        var logs: [String] = []
        for path in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw InputError(file: path, "no such file or folder")
            }
            if isDir.boolValue, try !PhoneRecording.isRecording(path: path) {
                logs += try logsInFolder(path, notice: notice)
            } else {
                logs.append(path)
            }
        }
        guard logs.count > 1 else { return logs.map { Input(log: $0, outputDir: out) } }
        var inputs: [Input] = []
        var byFolder: [String: String] = [:]
        for log in logs {
            var options = ReplayOptions(logPath: log)
            let name = options.resolvedOutputDir.lastPathComponent
            if let out { options.outputDir = URL(fileURLWithPath: out).appendingPathComponent(name).path }
            let folder = options.resolvedOutputDir.standardizedFileURL.path
            if let other = byFolder[folder] {
                throw InputError(file: log, "would write to the same folder as \(other) (\(folder)): rename one of them or replay them separately")
            }
            byFolder[folder] = log
            inputs.append(Input(log: log, outputDir: options.outputDir))
        }
        return inputs
    }

    static func logsInFolder(_ folder: String, notice: (String) -> Void) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        var logs: [String] = []
        // Files and folders that are none of those, said in one notice (a GoPro clip among
        // them is replayed when named on its own).
        var others: [String] = []
        for name in names {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            let lower = name.lowercased()
            if isDir.boolValue || lower.hasSuffix(".zip") {
                if try PhoneRecording.isRecording(path: path) { logs.append(path) }
                else if lower.hasSuffix(".zip") { notice("\(path): skipped, not a phone recording") }
                else { others.append(name + "/") }
            } else if lower.hasSuffix(".csv") || lower.hasSuffix(".csv.gz") {
                do {
                    _ = try SensorLogReader(path: path)
                    logs.append(path)
                } catch {
                    notice("\(path): skipped, not a poiar-log/1 log")
                }
            } else {
                others.append(name)
            }
        }
        if !others.isEmpty {
            let videos = others.contains { [".mp4", ".mov"].contains(where: $0.lowercased().hasSuffix) }
            notice("\(folder): skipped \(others.count) other item\(others.count == 1 ? "" : "s"), not logs: \(others.joined(separator: ", "))"
                   + (videos ? " (a GoPro clip is replayed when named on its own; other video goes with --footage)" : ""))
        }
        guard !logs.isEmpty else {
            throw InputError(file: folder, "no logs in this folder (poiar-log/1 .csv or .csv.gz files, phone recordings) and not a phone recording itself")
        }
        return logs
    }
}
