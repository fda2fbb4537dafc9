import Foundation
import Fusion
import POIARCore
import SensorLog

/// A frame found while fusing: a `frame` row of the log, or a synthetic one made at `--fps`.
public struct FrameEvent: Sendable {
    public var time: Double
    /// Line of the frame row; nil for frames made at a fixed rate.
    public var line: Int?
    public var still: String?
    public var pose: Pose
}

/// What one pass over a log yields: frames with their poses, and the GPS track.
public struct FusionResult: Sendable {
    public var frames: [FrameEvent]
    public var track: GPSTrack
    public var metadata: LogMetadata
    public var sampleCounts: [String: Int]
    public var firstTime: Double?
    public var lastTime: Double?
}

extension FusionPass {
    /// The metadata key of the magnetometer's known hard-iron offset, µT: `x, y, z`.
    public static let hardIronKey = "mag_hard_iron_ut"

    /// `# mag_hard_iron_ut: x, y, z` (µT), the offset to subtract from the mag samples before
    /// the filter's own estimate refines it; nil when the log has none.
    public static func hardIronSeed(_ metadata: LogMetadata, path: String) throws -> Vector3? {
        guard let text = metadata[hardIronKey] else { return nil }
        guard let v = ComplementaryFilterParams.parseHardIron(text) else {
            throw InputError(file: path, field: hardIronKey, "expected three numbers in µT, \"x, y, z\", found \"\(text)\"")
        }
        return v
    }
}

/// Streams a log once through the complementary filter. Memory stays bounded by the reorder
/// window plus one small record per frame and per GPS fix.
public struct FusionPass {
    public var params: ComplementaryFilterParams
    /// Frames per second for logs without frame rows (nil: only the log's frame rows).
    public var fps: Double?
    /// Called for each fused gyro sample once the filter is initialised (the pose CSV).
    public var onPose: ((Double, Pose) throws -> Void)?
    /// Called after each gyro sample with the whole filter (its state, for tracing).
    public var onFilter: ((Double, ComplementaryFilter) throws -> Void)?
    public var onNotice: ((String) -> Void)?
    /// Stop with `FirstUsableFix` at the first GPS fix that could place the magnetic model
    /// (a pass run before the log's north is known; see `PoseExport`).
    public var stopAtFirstUsableFix = false

    /// Thrown by a pass with `stopAtFirstUsableFix` when it meets such a fix.
    public struct FirstUsableFix: Error {
        public var fix: GPSFix
    }

    public init(params: ComplementaryFilterParams = ComplementaryFilterParams(), fps: Double? = nil) {
        self.params = params; self.fps = fps
    }

    public func run(_ reader: any LogSource) throws -> FusionResult {
        reader.onNotice = onNotice
        var params = self.params
        if params.magHardIronSeed == nil {
            params.magHardIronSeed = try Self.hardIronSeed(reader.metadata, path: reader.path)
        }
        var filter = ComplementaryFilter(params: params)
        var frames: [FrameEvent] = []
        var waiting: [(time: Double, line: Int?, still: String?)] = []  // frames before the filter is ready
        var track = GPSTrack()
        var gyroCount = 0, accelCount = 0, magCount = 0, gpsCount = 0, frameCount = 0, orientationCount = 0  // per sensor
        var firstTime: Double?, lastTime: Double?
        var hasFrameRows = false
        var nextSyntheticFrame: Double?
        var syntheticCount = 0

        func addFrame(_ time: Double, _ line: Int?, _ still: String?) {
            if let pose = filter.pose { frames.append(FrameEvent(time: time, line: line, still: still, pose: pose)) }
            else { waiting.append((time, line, still)) }
        }
        func emitSynthetic(before t: Double, inclusive: Bool) {
            guard let fps, !hasFrameRows, var next = nextSyntheticFrame else { return }
            while next < t || (inclusive && next <= t) {
                addFrame(next, nil, nil)
                syntheticCount += 1
                next = firstTime! + Double(syntheticCount) / fps
            }
            nextSyntheticFrame = next
        }

        while let record = try reader.nextRecord() {
            let t = record.sample.time
            if firstTime == nil { firstTime = t; nextSyntheticFrame = t }
            lastTime = t
            emitSynthetic(before: t, inclusive: false)
            switch record.sample {
            case .gyro: gyroCount += 1
            case .accel: accelCount += 1
            case .mag: magCount += 1
            case .gps: gpsCount += 1
            case .frame: frameCount += 1
            case .orientation: orientationCount += 1
            }
            let wasInitialized = filter.isInitialized
            switch record.sample {
            case .gyro(let time, let rate):
                filter.updateGyro(rate, time: time)
                if let onPose, let pose = filter.pose { try onPose(time, pose) }
                if let onFilter { try onFilter(time, filter) }
            case .accel(let time, let force):
                filter.updateAccel(force, time: time)
            case .mag(let time, let field):
                filter.updateMag(field, time: time)
            case .gps(let fix):
                if stopAtFirstUsableFix && TrueNorth.isUsable(fix) { throw FirstUsableFix(fix: fix) }
                track.add(fix)
            case .frame(let time, let still):
                if !hasFrameRows {
                    // The log has its own frames: drop any made at --fps before this row.
                    hasFrameRows = true
                    frames.removeAll { $0.line == nil }
                    waiting.removeAll { $0.line == nil }
                }
                addFrame(time, record.line, still)
            case .orientation:
                break  // the phone's own attitude: not fused
            }
            if !wasInitialized, let pose = filter.pose {
                // Frames before the first accelerometer and magnetometer samples take the
                // first attitude they give.
                for w in waiting { frames.append(FrameEvent(time: w.time, line: w.line, still: w.still, pose: pose)) }
                waiting.removeAll()
            }
        }
        if let lastTime { emitSynthetic(before: lastTime, inclusive: true) }
        if !waiting.isEmpty {
            let missing = [("accel", accelCount), ("mag", magCount)].filter { $0.1 == 0 }.map(\.0)
            throw InputError(file: reader.path, line: waiting[0].line,
                             "cannot fuse a pose for the frames: the log has no \(missing.isEmpty ? "usable accel/mag" : missing.joined(separator: " or ")) samples")
        }
        var counts: [String: Int] = [:]
        for (name, n) in [("gyro", gyroCount), ("accel", accelCount), ("mag", magCount), ("gps", gpsCount), ("frame", frameCount),
                          ("orientation", orientationCount)]
        where n > 0 { counts[name] = n }
        return FusionResult(frames: frames, track: track, metadata: reader.metadata, sampleCounts: counts,
                            firstTime: firstTime, lastTime: lastTime)
    }
}
