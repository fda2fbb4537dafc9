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
    /// String(format:) writes, several times faster: see `FixedPoint`).
    public static func row(time: Double, pose: Pose) -> String {
        let q = pose.orientation, a = pose.angles
        var f = FixedPoint()
        f.append(time, 6); f.comma()
        f.append(q.w, 9); f.comma(); f.append(q.x, 9); f.comma(); f.append(q.y, 9); f.comma(); f.append(q.z, 9); f.comma()
        f.append(a.heading, 4); f.comma(); f.append(a.pitch, 4); f.comma(); f.append(a.roll, 4)
        return f.string
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
    @discardableResult
    public static func run(logPath: String, output: URL?, params: ComplementaryFilterParams, trace: URL? = nil,
                           notice: @escaping (String) -> Void) throws -> Int {
        let reader = try openLogSource(path: logPath)
        var pass = FusionPass(params: params)
        pass.onNotice = notice
        let traceWriter = try trace.map { try AtomicTextWriter(url: $0) }
        if let traceWriter {
            try traceWriter.write(traceHeader)
            pass.onFilter = { t, filter in try traceWriter.write(traceRow(time: t, filter: filter)) }
        }
        var rows = 0
        if let output {
            let writer = try AtomicTextWriter(url: output)
            try writer.write(header)
            pass.onPose = { t, pose in try writer.write(row(time: t, pose: pose)); rows += 1 }
            _ = try pass.run(reader)
            try writer.commit()
        } else {
            var buffer = header + "\n"
            pass.onPose = { t, pose in
                buffer += row(time: t, pose: pose) + "\n"
                rows += 1
                if buffer.utf8.count > 1 << 16 { FileHandle.standardOutput.write(Data(buffer.utf8)); buffer = "" }
            }
            _ = try pass.run(reader)
            FileHandle.standardOutput.write(Data(buffer.utf8))
        }
        try traceWriter?.commit()
        if rows == 0 {
            notice("\(logPath): no pose rows: the log has no gyro samples after the first accel and mag samples")
        }
        return rows
    }
}


/// Numbers with a fixed count of decimals, as printf's `%.Nf` writes them (sign of negative
/// values and of −0 kept, half-way cases rounded as printf does). The digits come from the
/// value scaled by 10^N and rounded; when that product lies within 10⁻⁶ of a half-way point,
/// where its own rounding could differ from printf's exact decimal rounding, printf is asked.
struct FixedPoint {
    private var bytes: [UInt8] = []
    private static let powers: [Double] = (0...15).map { pow(10, Double($0)) }

    init() { bytes.reserveCapacity(128) }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    mutating func append(_ v: Double, _ decimals: Int) {
        let scaled = abs(v) * Self.powers[decimals]
        let floor = scaled.rounded(.down)
        guard v.isFinite, scaled < 9e15, abs(scaled - floor - 0.5) > 1e-6 else {
            bytes.append(contentsOf: String(format: "%.\(decimals)f", v).utf8)
            return
        }
        var n = UInt64(scaled.rounded(.toNearestOrEven))
        if v.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        // Digits, least significant first, then reversed in place.
        let start = bytes.count
        var written = 0
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
            n /= 10
            written += 1
            if written == decimals { bytes.append(UInt8(ascii: ".")) }
        } while n > 0 || written <= decimals
        bytes[start...].reverse()
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
