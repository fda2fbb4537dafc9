import Evaluation
import Foundation
import Fusion
import PhoneImport
import SensorLog

extension PoseSeries {
    /// `evaluate LOG`: the log's poses fused as `pose` fuses them, one per gyro sample, to
    /// `north`.
    public static func fused(log: any LogSource, north: NorthReference, causal: Bool, poseSource: PoseSource,
                             notice: @escaping (String) -> Void) throws -> PoseSeries {
        var params = ComplementaryFilterParams()
        north.apply(to: &params)
        var pass = FusionPass(params: params)
        pass.causal = causal
        pass.poseSource = poseSource
        pass.onNotice = notice
        var series = PoseSeries()
        pass.onPose = { t, pose in series.append(time: t, pose.orientation) }
        _ = try pass.run(log)
        return series
    }
}
