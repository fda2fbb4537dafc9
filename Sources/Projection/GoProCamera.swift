import Foundation
import POIARCore

/// The camera poiar assumes for GoPro footage that names none: GoPro's "Wide" digital lens,
/// the default of HERO5 to HERO13 and of the MAX in HERO mode, which GoPro gives as 118° across
/// a 16:9 frame's width (69° across its height). It is taken as an equidistant fisheye
/// (r = f·θ; OpenCV's fisheye model with k1…k4 = 0), centred, with square pixels: within a
/// few degrees of a calibrated GoPro Wide lens across the frame, where a pinhole of any focal
/// length is tens of degrees off at the edges. A camera JSON from a calibration (docs/footage.md)
/// overrides it; Linear and Narrow modes, SuperView and HyperView need one.
public enum GoProCamera {
    /// GoPro's Wide lens, degrees across a 16:9 frame's width.
    public static let wideHorizontalFOVDeg = 118.2

    /// The Wide lens for frames of `width` × `height` (its 118° across the long side).
    public static func wide(width: Int, height: Int) -> CameraIntrinsics {
        let f = Double(max(width, height)) / 2 / (wideHorizontalFOVDeg / 2 * .pi / 180)
        return CameraIntrinsics(width: width, height: height, fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2,
                                distortion: LensDistortion(model: .fisheye),
                                orientation: .portrait)
    }
}
