import Foundation
import Fusion
import POIARCore
import SensorLog

/// `poiar pose`: fuses a log and writes the pose CSV (contract section 2), one row per gyro
/// sample once the filter has its initial attitude.
public enum PoseExport {
    public static let header = "time,qw,qx,qy,qz,heading_deg,pitch_deg,roll_deg"

    public static func row(time: Double, pose: Pose) -> String {
        let q = pose.orientation, a = pose.angles
        return String(format: "%.6f,%.9f,%.9f,%.9f,%.9f,%.4f,%.4f,%.4f", time, q.w, q.x, q.y, q.z, a.heading, a.pitch, a.roll)
    }

    /// Writes the poses of `logPath` to `output` (atomically), or to stdout when nil.
    @discardableResult
    public static func run(logPath: String, output: URL?, params: ComplementaryFilterParams,
                           notice: @escaping (String) -> Void) throws -> Int {
        let reader = try SensorLogReader(path: logPath)
        var pass = FusionPass(params: params)
        pass.onNotice = notice
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
        if rows == 0 {
            notice("\(logPath): no pose rows: the log has no gyro samples after the first accel and mag samples")
        }
        return rows
    }
}

