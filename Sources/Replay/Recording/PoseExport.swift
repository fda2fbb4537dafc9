import Export
import Foundation
import Fusion
import PhoneImport
import POIARCore
import SensorLog

/// `poiar pose`: fuses a log and writes the pose CSV (contract section 2), one row per gyro
/// sample once the filter has its initial attitude.
public enum PoseExport {
    public static let header = "time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg"

    /// `%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f` of time, q and the angles (byte for byte what
    /// String(format:) writes, several times faster: see `LineBytes.fixed`).
    public static func row(time: Double, pose: Pose) -> String {
        LineBytes.string { appendRow(time: time, pose: pose, to: &$0) }
    }

    @inline(__always)
    static func appendRow(time: Double, pose: Pose, to f: inout LineBytes) {
        let q = pose.orientation, a = pose.angles
        f.fixed(time, 6); f.comma()
        f.fixed(q.w, 9); f.comma(); f.fixed(q.x, 9); f.comma(); f.fixed(q.y, 9); f.comma(); f.fixed(q.z, 9); f.comma()
        f.fixed(a.heading, 4); f.comma(); f.fixed(a.pitch, 4); f.comma(); f.fixed(a.roll, 4)
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

    /// Writes the poses of `logPath` to `output` (atomically), or to stdout when nil.
    ///
    /// `north` chooses the north reference from the log's first usable GPS fix (nil: none) and
    /// `params` the filter's parameters for it.
    ///
    /// Offline (the default) the whole log is read before anything is fused, so its first fix is
    /// known when the reference is chosen; `refineAttitudes` may change the estimated attitudes
    /// before they are written (see `FusionPass`).
    ///
    /// Causal (`causal`): the reference must be known before the first pose, but finding out
    /// that a log has no fix means reading all of it. So for a file output the poses are fused
    /// at once as if there were none, and only if a usable fix turns up is that pass dropped
    /// (nothing of it is kept, notices included) and the log fused again with the fix's
    /// reference: a log without GPS is read once, not twice. On stdout, which cannot be taken
    /// back, the log is first looked through for a fix.
    @discardableResult
    public static func run(logPath: String, output: URL?,
                           north: @escaping (GPSFix?) -> NorthReference,
                           params: @escaping (NorthReference) throws -> ComplementaryFilterParams,
                           causal: Bool = false, poseSource: PoseSource = .auto, trace: URL? = nil,
                           refineAttitudes: FusionPass.AttitudeRefinement? = nil, mcap: URL? = nil,
                           notice: @escaping (String) -> Void) throws -> Int {
        // The phone's own orientation is read whole either way, and its north known then.
        if !causal || poseSource == .phone {
            var pass = FusionPass()
            pass.poseSource = poseSource
            pass.paramsForFirstFix = { fix in
                let reference = north(fix)
                notice("north: \(reference.explanation)")
                return try params(reference)
            }
            pass.refineAttitudes = refineAttitudes
            return try fuse(pass, logPath: logPath, output: output, trace: trace, mcap: mcap, notice: notice)
        }
        func causalPass(_ reference: NorthReference, stopAtFirstUsableFix: Bool) throws -> FusionPass {
            var pass = FusionPass(params: try params(reference))
            pass.causal = true
            pass.poseSource = poseSource
            pass.stopAtFirstUsableFix = stopAtFirstUsableFix
            return pass
        }
        if output != nil {
            var held: [String] = []
            let reference = north(nil)
            do {
                let rows = try fuse(try causalPass(reference, stopAtFirstUsableFix: true), logPath: logPath, output: output,
                                    trace: trace, mcap: mcap, notice: { held.append($0) })
                notice("north: \(reference.explanation)")
                held.forEach(notice)
                return rows
            } catch let found as FusionPass.FirstUsableFix {
                let reference = north(found.fix)
                notice("north: \(reference.explanation)")
                return try fuse(try causalPass(reference, stopAtFirstUsableFix: false), logPath: logPath, output: output,
                                trace: trace, mcap: mcap, notice: notice)
            }
        }
        let reference = north(try TrueNorth.firstFix(logPath: logPath))
        notice("north: \(reference.explanation)")
        return try fuse(try causalPass(reference, stopAtFirstUsableFix: false), logPath: logPath, output: output,
                        trace: trace, mcap: mcap, notice: notice)
    }

    /// One pass: the poses of `logPath` through `pass` to `output` or stdout, and with `mcap`
    /// to that MCAP file too (`RecordingMCAP`).
    static func fuse(_ pass: FusionPass, logPath: String, output: URL?, trace: URL?, mcap: URL? = nil,
                     notice: @escaping (String) -> Void) throws -> Int {
        var pass = pass
        let reader = try openLogSource(path: logPath)
        pass.onNotice = notice
        let recording = try mcap.map { try RecordingMCAP(url: $0, logPath: logPath, metadata: reader.metadata, frames: false, notice: notice) }
        func run() throws {
            if let recording, let onPose = pass.onPose {
                pass.onPose = { t, pose in recording.addPose(time: t, pose: pose); try onPose(t, pose) }
            }
            let fused = try pass.run(reader)
            if let recording {
                try recording.start(track: fused.track)
                notice(try recording.finish().description)
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
            pass.onPose = { t, pose in try writer.writeLine { appendRow(time: t, pose: pose, to: &$0) }; rows += 1 }
            try run()
            try writer.commit()
        } else {
            var buffer = LineBytes.allocate(capacity: 1 << 17)
            defer { buffer.deallocate() }
            func flush() {
                FileHandle.standardOutput.write(Data(buffer.bytes))
                buffer.removeAll()
            }
            buffer.append(contentsOf: header.utf8)
            buffer.byte(0x0A)
            pass.onPose = { t, pose in
                appendRow(time: t, pose: pose, to: &buffer)
                buffer.byte(0x0A)
                rows += 1
                if buffer.count > 1 << 16 { flush() }
            }
            try run()
            flush()
        }
        try traceWriter?.commit()
        if rows == 0 {
            notice("\(logPath): no pose rows: the log has no gyro samples after the first accel sample")
        }
        return rows
    }
}
