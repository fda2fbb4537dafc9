import Export
import Foundation
import Fusion
import PhoneImport
import POIARCore
import Recordings
import SensorLog

/// `poiar pose`: fuses a log and writes the pose CSV (contract section 2), one row per gyro
/// sample once the filter has its initial attitude.
public enum PoseExport {
    public static let header = "time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg,heading_sigma_deg"

    /// `%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f,%.2f` of time, q, the angles and the heading's
    /// 68 % bound (empty when none is known) (byte for byte what String(format:) writes,
    /// several times faster: see `LineBytes.fixed`).
    public static func row(time: Double, pose: Pose, headingSigmaDeg: Double?) -> String {
        LineBytes.string { appendRow(time: time, pose: pose, headingSigmaDeg: headingSigmaDeg, to: &$0) }
    }

    @inline(__always)
    static func appendRow(time: Double, pose: Pose, headingSigmaDeg: Double?, to f: inout LineBytes) {
        let q = pose.orientation, a = pose.angles
        f.fixed(time, 6); f.comma()
        f.fixed(q.w, 9); f.comma(); f.fixed(q.x, 9); f.comma(); f.fixed(q.y, 9); f.comma(); f.fixed(q.z, 9); f.comma()
        f.fixed(a.heading, 4); f.comma(); f.fixed(a.pitch, 4); f.comma(); f.fixed(a.roll, 4); f.comma()
        if let headingSigmaDeg { f.fixed(headingSigmaDeg, 2) }
    }

    /// `--trace`: the filter's inner state after each gyro sample (for tuning and diagnosis).
    public static let traceHeader = "time,bias_x,bias_y,bias_z,bias_sigma,at_rest,mag_disturbed,mag_ref_norm,mag_ref_dip_deg,"
        + "hard_iron_x,hard_iron_y,hard_iron_z,tilt_trust"

    public static func traceRow(time: Double, filter: ComplementaryFilter) -> String {
        let s = filter.state, b = s.gyroBias, h = s.hardIron, p = s.biasCovariance
        let ref = s.magReference
        return String(format: "%.6f,%.6f,%.6f,%.6f,%.6f,%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", time, b.x, b.y, b.z,
                      ((p.xx + p.yy + p.zz) / 3).squareRoot(), s.atRest ? 1 : 0, s.magDisturbed ? 1 : 0,
                      ref?.norm ?? 0.0, (ref?.dip ?? 0.0) * 180 / .pi, h.x, h.y, h.z, s.lastTiltTrust)
    }

    /// Writes the poses of `recording` to `output` (atomically), or to stdout when nil.
    ///
    /// North is resolved once (`TrueNorth.reference(for:)`) and `params` gives the filter's
    /// parameters for it. Offline (the default) the whole recording is read first, its notices
    /// said as it goes, and north then comes from its first usable fix; causal, the recording
    /// is read ahead to that fix, and the pass goes on from where that stopped.
    @discardableResult
    public static func run(recording: Recording, output: URL?, north choice: NorthChoice,
                           params: (NorthReference) throws -> ComplementaryFilterParams,
                           causal: Bool = false, poseSource: PoseSource = .auto, trace: URL? = nil, mcap: URL? = nil,
                           track: URL? = nil, trackMotion: Bool = true, notice: @escaping (String) -> Void) throws -> Int {
        if !causal || poseSource == .phone {
            recording.releaseNotices(to: notice)
            do {
                _ = try recording.loadWhole(limit: poseSource == .phone ? Int.max : FusionPass.maxOfflineSamples)
            } catch is FusionPass.OfflineNotPossible {
                // Fused causally: the pass says why.
            }
        }
        let north = try TrueNorth.reference(for: recording, choice)
        notice("north: \(north.explanation)")
        var pass = FusionPass(params: try params(north))
        pass.north = north
        pass.causal = causal
        pass.poseSource = poseSource
        return try fuse(pass, recording: recording, output: output, trace: trace, mcap: mcap, track: track, trackMotion: trackMotion,
                        notice: notice)
    }

    /// One pass: the poses of `recording` through `pass` to `output` or stdout, with `mcap`
    /// to that MCAP file too (`RecordingMCAP`), and with `track` the smoothed position track
    /// (`TrackExport`; from the GPS fixes alone unless `trackMotion`).
    static func fuse(_ pass: FusionPass, recording: Recording, output: URL?, trace: URL?, mcap: URL? = nil, track: URL? = nil,
                     trackMotion: Bool = true, notice: @escaping (String) -> Void) throws -> Int {
        var pass = pass
        let logPath = recording.path
        pass.onNotice = notice
        pass.wantsMotion = track != nil && trackMotion
        let mcapFile = try mcap.map { try RecordingMCAP(url: $0, logPath: logPath, metadata: recording.metadata, frames: false, notice: notice) }
        func run() throws {
            if let mcapFile, let onPose = pass.onPose {
                pass.onPose = { t, pose, sigma in mcapFile.addPose(time: t, pose: pose); try onPose(t, pose, sigma) }
            }
            let fused = try pass.run(recording)
            if let track { try TrackExport.write(fused.track, causal: pass.causal, motion: trackMotion ? fused.motion : [], to: track, logPath: logPath, notice: notice) }
            if let mcapFile {
                try mcapFile.start(track: fused.track, samples: try recording.secondReading())
                notice(try mcapFile.finish().description)
            }
        }
        let traceWriter = try trace.map { try AtomicTextWriter(url: $0) }
        if let traceWriter {
            try traceWriter.write(traceHeader)
            pass.onFilter = { t, filter in try traceWriter.write(traceRow(time: t, filter: filter)) }
        }
        var rows = 0
        if let output {
            let writer = try AtomicTextWriter(url: output)
            try writer.write(header)
            pass.onPose = { t, pose, sigma in
                try writer.writeLine { appendRow(time: t, pose: pose, headingSigmaDeg: sigma, to: &$0) }
                rows += 1
            }
            try run()
            try writer.commit()
        } else {
            var buffer = LineBytes.allocate(capacity: 1 << 17)
            defer { buffer.deallocate() }
            func flush() throws {
                try StandardStreams.write(UnsafeRawBufferPointer(buffer.bytes))
                buffer.removeAll()
            }
            buffer.append(contentsOf: header.utf8)
            buffer.byte(0x0A)
            pass.onPose = { t, pose, sigma in
                appendRow(time: t, pose: pose, headingSigmaDeg: sigma, to: &buffer)
                buffer.byte(0x0A)
                rows += 1
                if buffer.count > 1 << 16 { try flush() }
            }
            try run()
            try flush()
        }
        try traceWriter?.commit()
        if rows == 0 {
            notice("\(logPath): no pose rows: the log has no gyro samples after the first accel sample")
        }
        return rows
    }
}
