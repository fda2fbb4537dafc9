import Foundation
import Fusion
import PhoneImport
import POIARCore
import SensorLog

/// A frame found while fusing: a `frame` row of the log, a synthetic one made at `--fps`, or a
/// frame of the footage.
public struct FrameEvent: Sendable {
    public var time: Double
    /// Line of the frame row; nil for frames made at a fixed rate and footage frames.
    public var line: Int?
    public var still: String?
    /// The footage frame's index (`FootageSource.frames`); nil when the frame is not footage's.
    public var footage: Int?
    public var pose: Pose
    /// The 68 % bound of the pose's heading error, degrees (`HeadingUncertainty`); nil when
    /// the pose's source gives none (the phone's own orientation).
    public var headingSigmaDeg: Double?
}

/// A frame wanted, before it has a pose.
struct FrameSlot {
    var time: Double
    var line: Int?
    var still: String?
    var footage: Int?
}

/// What one pass over a log yields: frames with their poses, and the GPS track.
public struct FusionResult: Sendable {
    public var frames: [FrameEvent]
    public var track: GPSTrack
    public var metadata: LogMetadata
    public var sampleCounts: [String: Int]
    public var firstTime: Double?
    public var lastTime: Double?
    /// Whether the poses' heading is referenced to the field (false: relative, the log has no
    /// magnetometer; see `AttitudeSeries.headingIsAbsolute`).
    public var headingIsAbsolute: Bool = true
    /// Footage frames outside the log's span, which got no frame.
    public var footageOutside = 0
    /// The walker's motion from the accelerometer (steps, standing still), for the position
    /// smoother.
    public var motion: [MotionSample] = []
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

/// Fuses a log into poses: frames with their poses, the GPS track, the counts.
///
/// **Offline** (the default): the log is read whole (its gyro, accel and mag samples held
/// compactly, `SensorRecording`), its attitude estimated with the whole recording at hand
/// (`OfflineFusion`: calibrations over the recording, forward and backward passes combined),
/// then each gyro sample gets its pose row (`onPose`) and each frame
/// the attitude interpolated at its time. A log of more than `maxOfflineSamples` sensor
/// samples is fused causally instead, with a notice.
///
/// **Causal** (`causal`, `--causal`): one streaming pass, the pose after each sample as a live
/// app could have shown it; memory stays bounded by the reorder window plus one small record
/// per frame and per GPS fix.
public struct FusionPass {
    public var params: ComplementaryFilterParams
    /// Frames per second for logs without frame rows (nil: only the log's frame rows).
    public var fps: Double?
    /// The footage's frames on the log's clock (time order), wanted instead of the log's
    /// frame rows and `fps`: `index` is the footage frame. Those outside the log's span get no
    /// frame (`FusionResult.footageOutside` counts them).
    public var footageFrames: [(time: Double, index: Int)]?
    /// Called for each fused gyro sample once there is a pose (the pose CSV), in time order,
    /// with the 68 % bound of its heading error in degrees (nil: none known).
    public var onPose: ((Double, Pose, Double?) throws -> Void)?
    /// Called after each gyro sample with the whole filter (its state, for tracing; offline:
    /// the forward pass's).
    public var onFilter: ((Double, ComplementaryFilter) throws -> Void)?
    public var onNotice: ((String) -> Void)?
    /// Fuse causally (see above).
    public var causal = false
    /// Find the walker's steps (`FusionResult.motion`): off when only the poses are wanted
    /// (`poiar pose` without `--track`), which then skips the step detector's work.
    public var wantsMotion = true

    /// Where the attitude comes from (`--pose-source`): poiar's fusion, or the phone's own
    /// orientation (`HeadingSettlement`).
    public var poseSource = PoseSource.auto

    /// Sensor samples a log may have to be fused offline: 2²² (80 MiB of samples at 20 bytes
    /// each; about 3.9 h at 100 Hz per sensor, 1 h at 500/500/100 Hz). Longer logs are fused
    /// causally: found while reading (then read again), or at once for a plain log file over
    /// 2²² × `longestSensorRowBytes` (419 MB).
    public static let maxOfflineSamples = 1 << 22

    public init(params: ComplementaryFilterParams = ComplementaryFilterParams(), fps: Double? = nil) {
        self.params = params; self.fps = fps
    }

    /// The recording's north (`TrueNorth.reference(for:)`, resolved once before the pass), put
    /// into `params` when the pass runs; its model declination turns a true-north phone
    /// orientation to a magnetic pass.
    public var north: NorthReference?

    /// Bytes of a plain (not gzipped) poiar-log/1 row that is surely longer than any sensor
    /// row: a log file over `maxOfflineSamples` times this has more samples than offline
    /// fusion holds, and is fused causally without reading it twice.
    static let longestSensorRowBytes = 100

    public func run(_ recording: Recording) throws -> FusionResult {
        var pass = self
        north?.apply(to: &pass.params)
        if poseSource == .phone { return try pass.runPhone(recording) }
        if causal { return try pass.runCausal(try recording.stream(notice: onNotice), params: pass.params) }
        do {
            return try pass.runOffline(recording)
        } catch let reason as OfflineNotPossible {
            onNotice?("\(recording.path): \(reason.reason): fused causally (--causal)")
            pass.causal = true
            return try pass.runCausal(try recording.stream(notice: onNotice), params: pass.params)
        }
    }

    /// Why a log is fused causally after all.
    public struct OfflineNotPossible: Error { public var reason: String }

    // MARK: - Offline

    func runOffline(_ recording: Recording) throws -> FusionResult {
        recording.releaseNotices(to: onNotice)
        var log = try recording.loadWhole()
        guard !log.recording.gyro.isEmpty || log.recording.accel.isEmpty else {
            throw OfflineNotPossible(reason: "the log has no gyro samples")
        }
        var params = self.params
        if params.magHardIronSeed == nil {
            params.magHardIronSeed = try Self.hardIronSeed(recording.metadata, path: recording.path)
        }
        var fusion = OfflineFusion(params: params)
        var traceError: Error?
        if let onFilter {
            fusion.onForwardFilter = { t, f in
                guard traceError == nil else { return }
                do { try onFilter(t, f) } catch { traceError = error }
            }
        }
        // The steps first: the estimate takes the accelerometer samples over.
        if wantsMotion { log.steps = StepDetector.detect(log.recording.accel) }
        var (series, report) = fusion.estimate(&log.recording)
        if let traceError { throw traceError }
        log.recording = SensorRecording()  // the samples are no longer needed
        report.notices.forEach { onNotice?($0) }
        if let relative = report.relativeHeading {
            HeadingSettlement(source: poseSource, declinationDeg: params.declinationDeg,
                              modelDeclinationDeg: north?.modelDeclinationDeg, notice: onNotice)
                .settle(&series, log: log, metadata: recording.metadata, relative: relative)
        }
        correctByCourse(&series, fixes: log.track.fixes)
        let (bridged, bridges) = GyroGapCourse.bridge(series, fixes: log.track.fixes, lastTime: log.lastTime)
        bridges.forEach { onNotice?(GyroGapCourse.notice($0)) }
        return try finish(bridged, log: log, recording: recording)
    }

    /// `--pose-source phone`: the phone's own orientation, turned to the pass's north.
    func runPhone(_ recording: Recording) throws -> FusionResult {
        recording.releaseNotices(to: onNotice)
        let log = try recording.loadWhole(limit: Int.max)
        guard let series = HeadingSettlement(source: .phone, declinationDeg: params.declinationDeg,
                                             modelDeclinationDeg: north?.modelDeclinationDeg, notice: onNotice)
            .phoneSeries(log, metadata: recording.metadata) else {
            throw InputError(file: recording.path, field: "--pose-source",
                             "the recording has no orientation of the phone's own (Sensor Logger's Orientation.csv, or orientation rows): record with Orientation on, or leave out --pose-source phone")
        }
        if !series.headingIsAbsolute { onNotice?("heading is relative: the phone's orientation has no known north") }
        return try finish(series, log: log, recording: recording)
    }

    /// Pose rows and frame poses from the settled series.
    func finish(_ series: AttitudeSeries, log: LoadedLog, recording: Recording) throws -> FusionResult {
        if let onPose {
            for i in 0..<series.count { try onPose(series.times[i], Pose(series[i]), series.headingSigma(i)) }
        }
        var frames: [FrameEvent] = []
        let slots = log.frames(fps: fps, footage: footageFrames)
        frames.reserveCapacity(slots.count)
        for f in slots {
            guard let q = series.orientation(at: f.time) else {
                throw InputError(file: recording.path, line: f.line,
                                 "cannot fuse a pose for the frames: the log has no \(log.counts["accel"] == nil ? "accel" : "usable accel") samples")
            }
            frames.append(FrameEvent(time: f.time, line: f.line, still: f.still, footage: f.footage, pose: Pose(q),
                                     headingSigmaDeg: series.headingSigma(at: f.time)))
        }
        let steps = wantsMotion ? log.steps ?? StepDetector.detect(log.recording.accel) : StepDetector()
        return FusionResult(frames: frames, track: log.track, metadata: recording.metadata, sampleCounts: log.counts,
                            firstTime: log.firstTime, lastTime: log.lastTime, headingIsAbsolute: series.headingIsAbsolute,
                            footageOutside: (footageFrames?.count ?? 0) - (footageFrames == nil ? 0 : slots.count),
                            motion: steps.motion { series.orientation(at: $0).map(Pose.init) })
    }

    // MARK: - Causal

    func runCausal(_ reader: any LogSource, params: ComplementaryFilterParams) throws -> FusionResult {
        reader.onNotice = onNotice
        var params = params
        if params.magHardIronSeed == nil {
            params.magHardIronSeed = try Self.hardIronSeed(reader.metadata, path: reader.path)
        }
        var filter = ComplementaryFilter(params: params)
        // (A log that gives its magnetometer's offset has it calibrated; else the turns say.)
        var uncertainty = HeadingUncertainty(calibrated: params.magHardIronSeed != nil ? true : nil)
        // The heading's 68 % bound now, degrees (180 while the heading is relative).
        func sigmaDeg() -> Double { filter.state.headingIsAbsolute ? uncertainty.sigma * 180 / .pi : 180 }
        var frames: [FrameEvent] = []
        var waiting: [FrameSlot] = []  // frames before the filter is ready
        var track = GPSTrack()
        var counter = SampleCounter()
        var firstTime: Double?, lastTime: Double?
        var hasFrameRows = false
        var nextSyntheticFrame: Double?
        var syntheticCount = 0
        var headingIsAbsolute: Bool?
        var course = CausalCourseOutput()
        var steps = StepDetector()
        var motion: [MotionSample] = []
        // The magnetometer's hard iron in the horizontal plane when the turns are too narrow
        // for the filter's own fit (`RunningLevelFit`); a log with only uncalibrated rows
        // (`mag_uncal`) is fused with them, calibrated as the pass goes. (A poiar-log does not
        // say which sensors it has: its `mag_uncal` rows stand in until a `mag` row comes.)
        var levelFit = RunningLevelFit(params: params)
        let uncalibratedOnly = reader.sensors.map { !$0.contains(VectorSensor.mag.name) }
        var sawMag = false, fedUncalibrated = false

        func addFrame(_ slot: FrameSlot) {
            if let pose = filter.pose {
                frames.append(FrameEvent(time: slot.time, line: slot.line, still: slot.still, footage: slot.footage,
                                         pose: course.pose(pose, at: slot.time), headingSigmaDeg: sigmaDeg()))
            } else {
                waiting.append(slot)
            }
        }
        // Footage frames, wanted as the log reaches their times; those before its first sample
        // are outside it.
        var nextFootage = 0
        var footageOutside = 0
        func emitFootage(before t: Double, inclusive: Bool) {
            guard let footageFrames else { return }
            while nextFootage < footageFrames.count,
                  footageFrames[nextFootage].time < t || (inclusive && footageFrames[nextFootage].time <= t) {
                let f = footageFrames[nextFootage]
                if f.time < firstTime! { footageOutside += 1 } else { addFrame(FrameSlot(time: f.time, footage: f.index)) }
                nextFootage += 1
            }
        }
        func emitSynthetic(before t: Double, inclusive: Bool) {
            emitFootage(before: t, inclusive: inclusive)
            guard let fps, footageFrames == nil, !hasFrameRows, var next = nextSyntheticFrame else { return }
            while next < t || (inclusive && next <= t) {
                addFrame(FrameSlot(time: next))
                syntheticCount += 1
                next = firstTime! + Double(syntheticCount) / fps
            }
            nextSyntheticFrame = next
        }

        while let record = try reader.nextRecord() {
            let t = record.sample.time
            if firstTime == nil { firstTime = t; nextSyntheticFrame = t }
            lastTime = t
            // (The filter is 2 KB: each call that reads it by value, such as `pose`, copies all
            // of it, so the per-sample path reads its pose only where it is used, once.)
            try course.gapRows(before: t, filterPose: { filter.pose }, sigmaDeg: { sigmaDeg() }, onPose: onPose)
            emitSynthetic(before: t, inclusive: false)
            counter.count(record.sample)
            let wasInitialized = filter.state.initialized
            switch record.sample {
            case .vector(var sensor, let time, let value):
                if sensor == .mag { sawMag = true }
                if sensor == .magUncal, uncalibratedOnly ?? !sawMag { sensor = .mag; fedUncalibrated = true }
                filter.update(sensor, value, time: time)
                if sensor == .mag { levelFit?.add(value, time: time, filter: &filter) }
                let gyroPose = sensor == .gyro ? filter.pose : nil
                if let pose = gyroPose {
                    course.course.observe(pose.orientation, time: time, sigmaDeg: filter.state.headingIsAbsolute ? sigmaDeg() : nil)
                    course.notices(final: nil, onNotice)
                }
                if sensor == .accel, wantsMotion {
                    // Each step judgement takes the direction faced as the filter has it then.
                    steps.add(time: time, force: value)
                    while motion.count < steps.samples.count {
                        var s = steps.samples[motion.count]
                        s.azimuth = filter.pose?.facingAzimuth()
                        motion.append(s)
                    }
                }
                if sensor == .gyro {
                    uncertainty.update(&filter, time: time)
                    if let onPose, let pose = gyroPose { try onPose(time, course.pose(pose, at: time), sigmaDeg()) }
                    if let onFilter { try onFilter(time, filter) }
                }
            case .gps(let fix):
                track.add(fix)
                course.course.add(fix)
            case .frame(let time, let still):
                guard footageFrames == nil else { break }  // the footage's frames replace the log's
                if !hasFrameRows {
                    // The log has its own frames: drop any made at --fps before this row.
                    hasFrameRows = true
                    frames.removeAll { $0.line == nil }
                    waiting.removeAll { $0.line == nil }
                }
                addFrame(FrameSlot(time: time, line: record.line, still: still?.text))
            case .orientation:
                break  // the phone's own attitude: not fused
            }
            if !wasInitialized, let pose = filter.pose {
                headingIsAbsolute = filter.state.headingIsAbsolute
                // Frames before the first accelerometer (and magnetometer) samples take the
                // first attitude they give.
                for w in waiting {
                    frames.append(FrameEvent(time: w.time, line: w.line, still: w.still, footage: w.footage, pose: pose,
                                             headingSigmaDeg: sigmaDeg()))
                }
                waiting.removeAll()
            }
        }
        if let lastTime {
            emitSynthetic(before: lastTime, inclusive: true)
            course.notices(final: lastTime, onNotice)
        }
        if fedUncalibrated && !sawMag { onNotice?("magnetometer: the log has only uncalibrated rows (mag_uncal): fused with them, calibrated as the pass goes") }
        if let firstTime, let notice = levelFit?.notice(origin: firstTime) { onNotice?(notice) }
        footageOutside += (footageFrames?.count ?? 0) - nextFootage
        if !waiting.isEmpty {
            throw InputError(file: reader.path, line: waiting[0].line,
                             "cannot fuse a pose for the frames: the log has no \(counter.counts[VectorSensor.accel.name] == nil ? "accel" : "usable accel") samples")
        }
        if headingIsAbsolute == false {
            onNotice?("heading is relative: the log has no magnetometer samples at its start (azimuth 0 = the device's facing direction at the first pose; without --causal the heading comes from the phone's orientation or the GPS course when the recording has them)")
        }
        return FusionResult(frames: frames, track: track, metadata: reader.metadata, sampleCounts: counter.counts,
                            firstTime: firstTime, lastTime: lastTime, headingIsAbsolute: headingIsAbsolute ?? true,
                            footageOutside: footageOutside, motion: motion)
    }
}

/// A whole log read into memory for offline fusion: the sensor samples (compact), the GPS
/// track, the frame rows, and what the counts and notices need.
public struct LoadedLog {
    var recording = SensorRecording()
    var track = GPSTrack()
    var frameRows: [FrameSlot] = []
    /// The phone's own attitude (`orientation` rows), for `--pose-source phone`.
    var orientations: [(time: Double, attitude: Quaternion)] = []
    var counts: [String: Int] = [:]
    var firstTime: Double?, lastTime: Double?
    var firstUsableFix: GPSFix?
    /// The steps found in the accelerometer samples, before offline fusion lets them go.
    var steps: StepDetector?
    /// Why the reading stopped short: more than its limit of sensor samples (nil: read whole).
    var overflow: String?

    /// Reads `reader` to its end, or up to `limit` sensor samples (then `overflow` says so).
    static func read(_ reader: any LogSource, limit: Int) throws -> LoadedLog {
        var log = LoadedLog()
        var counter = SampleCounter()
        while let record = try reader.nextRecord() {
            let t = record.sample.time
            if log.firstTime == nil { log.firstTime = t }
            log.lastTime = t
            counter.count(record.sample)
            switch record.sample {
            case .vector(let sensor, let time, let v): log.recording.append(sensor, time: time, v)
            case .gps(let fix):
                if log.firstUsableFix == nil && TrueNorth.isUsable(fix) { log.firstUsableFix = fix }
                log.track.add(fix)
            case .frame(let time, let still):
                log.frameRows.append(FrameSlot(time: time, line: record.line, still: still?.text))
            case .orientation(let time, let attitude):
                log.orientations.append((time, attitude))
            }
            if counter.sensorSamples > limit {
                log.overflow = "over \(limit) sensor samples, too long to hold for offline fusion"
                return log
            }
        }
        log.counts = counter.counts
        return log
    }

    /// The frames to give poses: the footage's frames within the log's span; else the log's
    /// frame rows, or without them one every 1/fps s from the log's first time to its last (as
    /// the causal pass makes them).
    func frames(fps: Double?, footage: [(time: Double, index: Int)]? = nil) -> [FrameSlot] {
        if let footage {
            guard let first = firstTime, let last = lastTime else { return [] }
            return footage.filter { $0.time >= first && $0.time <= last }.map { FrameSlot(time: $0.time, footage: $0.index) }
        }
        if !frameRows.isEmpty { return frameRows }
        guard let fps, let first = firstTime, let last = lastTime else { return [] }
        var out: [FrameSlot] = []
        var n = 0
        var t = first
        while t <= last {
            out.append(FrameSlot(time: t))
            n += 1
            t = first + Double(n) / fps
        }
        return out
    }
}

/// How many samples of each sensor a reading met (for notices and `FusionResult.sampleCounts`).
struct SampleCounter {
    private var vectors = [Int](repeating: 0, count: VectorSensor.allCases.count)
    private var gps = 0, frames = 0, orientations = 0

    @inline(__always)
    mutating func count(_ sample: SensorSample) {
        switch sample {
        case .vector(let sensor, _, _): vectors[Int(sensor.index)] += 1
        case .gps: gps += 1
        case .frame: frames += 1
        case .orientation: orientations += 1
        }
    }

    /// Samples a sensor gave (every vector sensor and the phone's own orientation): what offline
    /// fusion holds in memory.
    var sensorSamples: Int { vectors.reduce(0, +) + orientations }

    /// Each sensor's count by its row name, sensors with none left out.
    var counts: [String: Int] {
        var out: [String: Int] = [:]
        for sensor in VectorSensor.allCases where vectors[Int(sensor.index)] > 0 { out[sensor.name] = vectors[Int(sensor.index)] }
        for (name, n) in [("gps", gps), ("frame", frames), ("orientation", orientations)] where n > 0 { out[name] = n }
        return out
    }
}
