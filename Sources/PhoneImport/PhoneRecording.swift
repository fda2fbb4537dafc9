import Footage
import Foundation
import Geodesy
import GeodesyData
import POIARCore
import SensorLog

/// A phone app's recording (a folder or a zip of per-sensor CSV files, from Sensor Logger or
/// phyphox) read as one time-ordered stream of samples, as if it were a `poiar-log/1` log.
/// Files are streamed and merged, so memory does not grow with the recording's length.
public final class PhoneRecording: LogSource {
    public enum App: String, Sendable { case sensorLogger = "Sensor Logger", phyphox }

    public let path: String
    public let metadata: LogMetadata
    public let app: App
    public var onNotice: ((String) -> Void)?
    private let merged: MergedStreams
    private var pending: [String] = []

    /// Opens `path` (a folder or a zip archive). Notices found while opening (missing
    /// sensors, skipped files) are kept and handed to `onNotice` on the first read. `geoid`
    /// makes heights above sea level (phyphox's) ellipsoidal.
    /// Whether `path` (a folder or zip) is a phone app's export poiar reads: false for any
    /// other folder or file; an export refused for what it holds (a link out of it) throws,
    /// rather than passing for a folder of logs.
    public static func isRecording(path: String) throws -> Bool {
        guard let container = try? RecordingContainer(path: path),
              SensorLoggerImport.recognises(container) || PhyphoxImport.recognises(container) else { return false }
        try container.checkInside()
        return (try? PhoneRecording(path: path)) != nil
    }

    public init(path: String, geoid: Geoid = .system) throws {
        self.path = path
        let container = try RecordingContainer(path: path)
        var notes: [String] = []
        let note: (String) -> Void = { notes.append($0) }
        // Notices found while reading go through `onNotice` once it is set.
        let box = NoticeBox()
        let live: (String) -> Void = { box.send($0) }
        let opened: (streams: [RecordStream], metadata: LogMetadata)
        if SensorLoggerImport.recognises(container) {
            app = .sensorLogger
            try container.checkInside()
            opened = try SensorLoggerImport.open(container, purpose: .recording) { m in box.isLive ? live(m) : note(m) }
        } else if PhyphoxImport.recognises(container) {
            app = .phyphox
            try container.checkInside()
            opened = try PhyphoxImport.open(container, geoid: geoid) { m in box.isLive ? live(m) : note(m) }
        } else {
            let csvs = container.files.filter { $0.lowercased().hasSuffix(".csv") }
            throw InputError(file: path, csvs.isEmpty
                ? "no CSV files: expected a poiar-log/1 log, or a Sensor Logger or phyphox export (a folder or zip of per-sensor CSV files)"
                : "unknown recording layout (files: \(csvs.prefix(12).joined(separator: ", "))): expected a Sensor Logger export (Gyroscope.csv with time,seconds_elapsed,z,y,x) or a phyphox CSV export (\"Time (s)\", …)")
        }
        metadata = opened.metadata
        merged = MergedStreams(opened.streams)
        pending = notes
        box.target = { [weak self] m in self?.onNotice?(m) }
    }

    /// The sensors of the files read.
    public var sensors: Set<String>? { Set(merged.streams.map(\.sensor)) }

    public func nextRecord() throws -> LogRecord? {
        if !pending.isEmpty {
            for n in pending { onNotice?(n) }
            pending.removeAll()
        }
        return try merged.next()
    }

    /// The phone's own orientation in a Sensor Logger export, as a truth for `evaluate`: `path`
    /// is the export (folder or zip), or its `Orientation.csv` (or a file of that layout),
    /// whose folder is then the export; or a poiar-log/1 log with `orientation` rows (one
    /// `convert` wrote). Times are on the recording's clock, the one `pose` and `replay` use
    /// for the same export; attitudes are device → ENU (`OrientationConvention`). `export` is
    /// the recording read (`path`, or the folder of the file `path`).
    public static func orientation(path: String, onNotice: @escaping (String) -> Void) throws
        -> (samples: [(time: Double, attitude: Quaternion)], metadata: LogMetadata, export: String) {
        if let log = try? SensorLogReader(path: path) {
            log.onNotice = onNotice
            var out: [(time: Double, attitude: Quaternion)] = []
            while let r = try log.nextRecord() {
                if case .orientation(let t, let q) = r.sample { out.append((t, q)) }
            }
            guard !out.isEmpty else {
                throw InputError(file: path, "no orientation rows: a log converted from a phone export with Orientation.csv has them")
            }
            return (out, log.metadata, path)
        }
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        let container: RecordingContainer
        let purpose: SensorLoggerImport.Purpose
        if exists && !isDir.boolValue && !ZipArchive.looksLikeZip(path: path) {
            let url = URL(fileURLWithPath: path)
            container = try RecordingContainer(path: url.deletingLastPathComponent().path)
            purpose = .orientation(file: url.lastPathComponent)
        } else {
            container = try RecordingContainer(path: path)
            purpose = .orientation(file: nil)
        }
        try container.checkInside()
        let opened = try SensorLoggerImport.open(container, purpose: purpose, notice: onNotice)
        let merged = MergedStreams(opened.streams)
        var out: [(time: Double, attitude: Quaternion)] = []
        while let r = try merged.next() {
            if case .orientation(let t, let q) = r.sample { out.append((t, q)) }
        }
        return (out, opened.metadata, container.path)
    }

    /// Whether `path` names a Sensor Logger orientation file (`time,seconds_elapsed,…,qw`), an
    /// export (a folder or zip) or a poiar-log/1 log: what `orientation(path:)` reads, rather
    /// than a truth CSV.
    public static func isPhoneOrientation(path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        if isDir.boolValue || ZipArchive.looksLikeZip(path: path) || (try? SensorLogReader(path: path)) != nil { return true }
        guard let source = try? FileByteStream(path: path),
              let table = try? CSVTable(lines: LineReader(stream: source, display: path, expected: "a CSV file")) else { return false }
        let cols = Set(table.columns.map { $0.lowercased() })
        return cols.contains("seconds_elapsed") && cols.contains("qw")
    }

    /// "YYYY-MM-DDTHH:MM:SSZ" for whole seconds since the Unix epoch.
    static func isoSeconds(_ seconds: Int64) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// Routes notices raised while streaming to the recording's `onNotice`.
private final class NoticeBox {
    var target: ((String) -> Void)?
    var isLive: Bool { target != nil }
    func send(_ m: String) { target?(m) }
}

/// Opens a recording for `replay`, `pose` and `convert`: a folder or a zip archive is a phone
/// app's export (`PhoneRecording`); an MP4/MOV is a GoPro clip read through its GPMF telemetry
/// track (`GoProRecording`; one without the track is refused, naming what is missing); any
/// other file is a `poiar-log/1` log (`.csv`/`.csv.gz`). The importers make heights above sea
/// level ellipsoidal through `geoid` (a `poiar-log/1` log's are ellipsoidal already).
public func openLogSource(path: String, kind: RecordingKind? = nil, geoid: Geoid = .system) throws -> LogSource {
    if let kind {
        switch kind {
        case .phoneExport: return try PhoneRecording(path: path, geoid: geoid)
        case .clip: return try GoProRecording(path: path, geoid: geoid)
        case .log: return try SensorLogReader(path: path)
        }
    }
    let (found, descriptor) = RecordingKind.sniff(path: path)
    if let descriptor { return try SensorLogReader(path: path, descriptor: descriptor) }
    return try openLogSource(path: path, kind: found, geoid: geoid)
}

/// What kind of recording a path names, told from the file system and its first bytes: a
/// phone app's export (a folder, or a zip archive), a video clip (ISO media: MP4, MOV), else
/// a `poiar-log/1` log.
public enum RecordingKind: Sendable {
    case phoneExport, clip, log

    public static func of(path: String) -> RecordingKind {
        let (kind, descriptor) = sniff(path: path)
        if let descriptor { close(descriptor) }
        return kind
    }

    /// The kind of `path`, and for a log the file, open at its start, for its reader to take
    /// over: a log is opened once, to tell its kind and read it.
    static func sniff(path: String) -> (RecordingKind, descriptor: Int32?) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return (.log, nil) }
        if isDir.boolValue { return (.phoneExport, nil) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return (.log, nil) }  // the reader says why it cannot be opened
        var head = [UInt8](repeating: 0, count: 8)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, 0) }
        head = Array(head.prefix(max(n, 0)))
        if ZipArchive.isZipSignature(head) { close(fd); return (.phoneExport, nil) }
        if MediaFile.isISOMediaHead(head) { close(fd); return (.clip, nil) }
        return (.log, fd)
    }

    /// The kind of an opened recording.
    public init(of source: any LogSource) {
        self = source is PhoneRecording ? .phoneExport : source is GoProRecording ? .clip : .log
    }
}
