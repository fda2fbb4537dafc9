import Foundation
import POIARCore
import SensorLog

/// The camera images of a phone export (a folder or a zip): Sensor Logger's `Camera/` folder of
/// stills named by their capture time in epoch milliseconds, or of videos. Read in place: a
/// zip's entries are inflated when asked for, nothing is unpacked to disk.
public final class PhoneCameraFiles {
    /// The export as the user named it.
    public let recording: String
    /// The camera folder's path inside the export (`Camera`, `Sensor Logger/Camera`).
    public let folder: String
    /// The files directly in that folder (names only), sorted.
    public let names: [String]
    private let container: RecordingContainer

    /// The export's camera folder (a folder named `Camera…`, any case, up to two levels down
    /// with files in it); nil when it has none.
    public static func find(in recording: String, kind: RecordingKind? = nil) throws -> PhoneCameraFiles? {
        guard (kind ?? RecordingKind.of(path: recording)) == .phoneExport else { return nil }
        let container = try RecordingContainer(path: recording)
        var byFolder: [String: [String]] = [:]
        for file in container.files {
            let parts = file.split(separator: "/").map(String.init)
            guard parts.count >= 2, parts[parts.count - 2].lowercased().hasPrefix("camera") else { continue }
            byFolder[parts.dropLast().joined(separator: "/"), default: []].append(parts.last!)
        }
        guard let folder = byFolder.keys.min(by: { ($0.count, $0) < ($1.count, $1) }) else { return nil }
        return PhoneCameraFiles(recording: recording, folder: folder, names: byFolder[folder]!.sorted(), container: container)
    }

    private init(recording: String, folder: String, names: [String], container: RecordingContainer) {
        self.recording = recording; self.folder = folder; self.names = names; self.container = container
    }

    /// How messages name the folder: `export.zip/Camera`.
    public var display: String { container.display(folder) }

    /// Whether the export is a folder on disk (its files have paths of their own).
    public var isFolder: Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: recording, isDirectory: &isDir) && isDir.boolValue
    }

    /// The path of the camera folder on disk (a folder export only).
    public var folderPath: String? { isFolder ? URL(fileURLWithPath: recording).appendingPathComponent(folder).path : nil }

    /// The bytes of the file `name` of the camera folder.
    public func data(_ name: String) throws -> Data {
        let stream = try container.openBytes(folder + "/" + name)
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }
}
