import Foundation
import Geodesy
import MCAP
import PhoneImport
import POIARCore
import Rendering
import SensorLog

/// The topics of poiar's MCAP files and their frames of reference (docs/mcap.md).
public enum MCAPTopics {
    public static let pose = "/pose"
    public static let gps = "/gps"
    /// A vector sensor's raw samples: `/imu/gyro`, `/imu/accel`, `/imu/mag`…
    public static func sensor(_ sensor: VectorSensor) -> String { "/imu/\(sensor.name)" }
    public static let image = "/camera/image"
    public static let annotations = "/camera/annotations"
    /// The local East-North-Up frame at the first GPS fix, in which poses are given.
    static let enuFrame = "enu"
    static let gpsFrame = "gps"
    static let cameraFrame = "camera"
}

/// `--mcap FILE` of `replay` and `pose`: a recording's poses, GPS fixes, raw gyro, accel and
/// mag samples and (for a replay) its rendered frames with their annotations, as one MCAP file
/// (`MCAPWriter`) for Foxglove, in log-time order across channels.
///
/// Log times are nanoseconds since 1970: the log's `start_utc` plus the sample's time (without
/// `start_utc`, the log's times themselves, with a notice). The raw samples are read again from
/// the log as they are written (memory stays bounded); the poses, one per gyro sample as in
/// the pose CSV, are collected while fusing (`addPose`); frames come in as they are rendered
/// (`addFrame`), and everything earlier than a frame is written before it.
///
/// The file is written under a temporary name beside FILE and renamed into place by `finish()`;
/// dropped before that, it leaves nothing.
public final class RecordingMCAP {
    public let url: URL
    private let tmp: URL
    private let writer: MCAPWriter
    private let logPath: String
    private let startNanoseconds: Int64
    private var channels: [String: UInt16] = [:]
    /// Each vector sensor's topic, by `VectorSensor.index` (not rebuilt per sample).
    private let sensorTopics = VectorSensor.allCases.map(MCAPTopics.sensor)
    private var poses: [(time: Double, pose: Pose)] = []
    private var nextPose = 0
    private var samples: LogSource?
    private var pendingSample: LogRecord?
    private var plane: LocalTangentPlane?
    private var track: (any PositionTrack)?
    private var committed = false
    /// Time spent making the file (reading frames back, encoding, writing), not the replay's.
    private var busySeconds = 0.0

    /// What was written, for the run's summary line.
    public struct Summary: Sendable {
        public var url: URL
        public var bytes: UInt64
        public var messages: [String: Int]
        /// Time spent on the file: reading the frames back, encoding the messages, writing.
        public var seconds: Double
        public var description: String {
            let counts = messages.keys.sorted().map { "\(messages[$0]!) \($0)" }.joined(separator: ", ")
            return String(format: "mcap: wrote %@ (%.1f MB: %@); %.2f s spent on it", url.path, Double(bytes) / 1e6, counts, seconds)
        }
    }
    private var counts: [String: Int] = [:]

    /// How the frames go into the file (`--mcap-images`).
    public enum ImageFormat: Equatable, Sendable {
        /// The PNG files as rendered, byte for byte.
        case png
        /// Encoded as JPEG at this quality (1…100): smaller, lossy.
        case jpeg(quality: Int)

        /// `png`, `jpeg` (quality 90) or `jpeg:Q`.
        public init?(parsing text: String) {
            if text == "png" { self = .png; return }
            if text == "jpeg" || text == "jpg" { self = .jpeg(quality: 90); return }
            for prefix in ["jpeg:", "jpg:"] where text.hasPrefix(prefix) {
                guard let q = Int(text.dropFirst(prefix.count)), (1...100).contains(q) else { return nil }
                self = .jpeg(quality: q)
                return
            }
            return nil
        }
    }
    private let images: ImageFormat

    /// Opens FILE for the recording at `logPath`; `frames`: with the image and annotation
    /// channels (a replay), their images as `images`.
    public init(url: URL, logPath: String, metadata: LogMetadata, frames: Bool, images: ImageFormat = .png,
                notice: (String) -> Void) throws {
        self.url = url
        self.images = images
        self.logPath = logPath
        if let start = metadata.startUTC {
            // MCAP log times are nanoseconds since 1970 in 64 bits: 1677 to 2262 (a start
            // beyond crashed the conversion).
            let ns = (start.timeIntervalSince1970 * 1e9).rounded()
            guard ns.magnitude < 9e18 else {
                throw InputError(file: logPath, field: "start_utc",
                                 "\(metadata["start_utc"] ?? "") lies beyond 2262, past what MCAP log times (nanoseconds since 1970) can hold")
            }
            startNanoseconds = Int64(ns)
        } else {
            startNanoseconds = 0
            notice("mcap: \(logPath) has no start_utc: log times in the MCAP file are the log's own seconds, counted from 1970-01-01")
        }
        tmp = AtomicFile.temporaryURL(for: url)
        do {
            writer = try MCAPWriter(url: tmp, library: "poiar")
        } catch {
            throw InputError(file: url.path, "cannot write the MCAP file: \(String(cString: strerror(errno)))")
        }
        do {
            try open(frames: frames, metadata: metadata)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw error
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: tmp) }
    }

    private func open(frames: Bool, metadata: LogMetadata) throws {
        var schemas: [String: UInt16] = [:]
        func schema(_ name: String) throws -> UInt16 {
            if let id = schemas[name] { return id }
            let id = try writer.addSchema(name: name, encoding: FoxgloveSchemas.encoding, data: FoxgloveSchemas.schema(name))
            schemas[name] = id
            return id
        }
        func channel(_ topic: String, _ schemaName: String, _ meta: [String: String] = [:]) throws {
            channels[topic] = try writer.addChannel(topic: topic, schema: try schema(schemaName), messageEncoding: "json", metadata: meta)
        }
        try channel(MCAPTopics.pose, FoxgloveSchemas.poseInFrame,
                    ["description": "fused device pose: orientation device→ENU (x right, y up the screen, z out of it), position ENU m from the first GPS fix"])
        try channel(MCAPTopics.gps, FoxgloveSchemas.locationFix, ["description": "the log's GPS fixes"])
        for sensor in VectorSensor.allCases {
            try channel(MCAPTopics.sensor(sensor), FoxgloveSchemas.sensorSample, ["unit": sensor.properties.asciiUnit])
        }
        if frames {
            try channel(MCAPTopics.image, FoxgloveSchemas.compressedImage, ["description": "the rendered frames"])
            try channel(MCAPTopics.annotations, FoxgloveSchemas.imageAnnotations,
                        ["description": "each frame's anchors, label boxes and texts, in the frame's pixels"])
        }
        var entries = ["log": logPath]
        for (key, value) in metadata.entries { entries["log." + key] = value }
        try writer.addMetadata(name: "poiar", entries)
    }

    /// A fused pose (called in time order while fusing).
    public func addPose(time: Double, pose: Pose) {
        poses.append((time, pose))
    }

    /// The GPS track the poses' positions are interpolated on, and the recording read again
    /// for its raw samples (`Recording.secondReading`). Call once fusion is done, before
    /// `addFrame`.
    public func start(track: any PositionTrack, samples: any LogSource) throws {
        let began = Date()
        defer { busySeconds += Date().timeIntervalSince(began) }
        self.track = track
        plane = track.fixes.first.map { LocalTangentPlane(origin: $0.coordinate) }
        self.samples = samples
        pendingSample = try samples.nextRecord()
        // The earliest time must have a place on MCAP's clock before any frame is drawn.
        if let first = pendingSample { _ = try nanoseconds(first.sample.time, line: first.line) }
    }

    /// A frame: everything before its time is written first, then its image (the PNG file as
    /// rendered, read back; with `images` `.jpeg`, decoded and encoded as JPEG) and its
    /// annotations.
    public func addFrame(_ frame: ExportedFrame, imageFile: URL) throws {
        let began = Date()
        defer { busySeconds += Date().timeIntervalSince(began) }
        var image: Data
        do { image = try Data(contentsOf: imageFile) } catch {
            throw InputError(file: imageFile.path, "cannot read the frame back for the MCAP file: \(error.localizedDescription)")
        }
        if case .jpeg(let quality) = images {
            image = try encodeJPEG(try decodeStill(image, file: imageFile.path), quality: quality, file: imageFile.path)
        }
        let format = images == .png ? "png" : "jpeg"
        try advance(to: frame.time)
        let t = try nanoseconds(frame.time, line: frame.logLine)
        try write(MCAPTopics.image, t, FoxgloveMessages.compressedImage(t, format: format, data: image))
        try write(MCAPTopics.annotations, t, FoxgloveMessages.imageAnnotations(t, frame))
    }

    /// Writes the rest and renames the file into place.
    public func finish() throws -> Summary {
        let began = Date()
        try advance(to: .infinity)
        let bytes = try writer.finish()
        try AtomicFile.replace(url, with: tmp)
        committed = true
        busySeconds += Date().timeIntervalSince(began)
        return Summary(url: url, bytes: bytes, messages: counts, seconds: busySeconds)
    }

    /// Writes the log's samples and the poses up to `time` (inclusive), in time order.
    private func advance(to time: Double) throws {
        while true {
            let sampleTime = pendingSample?.sample.time ?? .infinity
            let poseTime = nextPose < poses.count ? poses[nextPose].time : .infinity
            guard min(sampleTime, poseTime) <= time, min(sampleTime, poseTime) < .infinity else { return }
            if sampleTime <= poseTime {
                try writeSample(pendingSample!)
                pendingSample = try samples?.nextRecord()
            } else {
                let (t, pose) = poses[nextPose]
                nextPose += 1
                let position = plane.flatMap { plane in track?.location(at: t).map { plane.enu($0.coordinate) } } ?? Vector3(0, 0, 0)
                let ns = try nanoseconds(t, line: nil)
                try write(MCAPTopics.pose, ns, FoxgloveMessages.poseInFrame(ns, pose: pose, position: position))
            }
        }
    }

    private func writeSample(_ record: LogRecord) throws {
        switch record.sample {
        case .vector(let sensor, let t, let v):
            let ns = try nanoseconds(t, line: record.line)
            try write(sensorTopics[Int(sensor.index)], ns, FoxgloveMessages.sensorSample(ns, sensor: sensor.name, v))
        case .gps(let fix):
            let ns = try nanoseconds(fix.time, line: record.line)
            try write(MCAPTopics.gps, ns, FoxgloveMessages.locationFix(ns, fix))
        case .frame, .orientation:
            break  // frames come rendered (addFrame); the phone's own orientation is not exported
        }
    }

    private func write(_ topic: String, _ nanoseconds: UInt64, _ json: String) throws {
        try writer.write(channel: channels[topic]!, logTime: nanoseconds, data: json.utf8)
        counts[topic, default: 0] += 1
    }

    /// The log time `time` (s) as MCAP's log time: nanoseconds since 1970.
    private func nanoseconds(_ time: Double, line: Int?) throws -> UInt64 {
        // In integers: a Double holds today's nanoseconds since 1970 only to 256 ns.
        let offset = (time * 1e9).rounded()
        guard offset.magnitude < 9e18, case let (ns, overflow) = startNanoseconds.addingReportingOverflow(Int64(offset)), !overflow else {
            throw InputError(file: logPath, line: line, field: "time",
                             "\(time) s lies beyond 2262 on the log's clock, past what MCAP log times (nanoseconds since 1970) can hold")
        }
        guard ns >= 0 else {
            throw InputError(file: logPath, line: line, field: "time",
                             "\(time) s falls before 1970 on the log's clock, where MCAP log times cannot go"
                                + (startNanoseconds == 0 ? " (give the log a start_utc)" : " (its start_utc is before 1970)"))
        }
        return UInt64(ns)
    }
}
