import Evaluation
import Foundation
import Fusion
import PhoneImport
import Recordings
import SensorLog

extension PoseSeries {
    /// `evaluate LOG`: the recording's poses fused as `pose` fuses them, one per gyro sample,
    /// to `north`.
    public static func fused(_ recording: Recording, north: NorthReference, causal: Bool, poseSource: PoseSource,
                             notice: @escaping (String) -> Void) throws -> PoseSeries {
        var pass = FusionPass()
        pass.north = north
        pass.causal = causal
        pass.poseSource = poseSource
        pass.onNotice = notice
        var series = PoseSeries()
        pass.onPose = { t, pose, _ in series.append(time: t, pose.orientation) }
        _ = try pass.run(recording)
        return series
    }
}
