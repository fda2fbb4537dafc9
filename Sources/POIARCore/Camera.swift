import Foundation

/// Brown–Conrady lens distortion coefficients (OpenCV's order k1, k2, p1, p2, k3).
public struct LensDistortion: Equatable, Sendable, Codable {
    public var k1: Double, k2: Double, p1: Double, p2: Double, k3: Double
    public init(k1: Double = 0, k2: Double = 0, p1: Double = 0, p2: Double = 0, k3: Double = 0) {
        self.k1 = k1; self.k2 = k2; self.p1 = p1; self.p2 = p2; self.k3 = k3
    }
    public var isZero: Bool { k1 == 0 && k2 == 0 && p1 == 0 && p2 == 0 && k3 == 0 }
}

/// How the device was held for the stills (camera JSON `orientation`).
public enum DeviceOrientation: String, Sendable, Codable, CaseIterable {
    case portrait
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"
}

/// Pinhole camera intrinsics in output-image pixels (contract section 5).
/// Origin at the top-left corner of the top-left pixel; x right, y down.
public struct CameraIntrinsics: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    public var distortion: LensDistortion?
    public var orientation: DeviceOrientation

    public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double,
                distortion: LensDistortion? = nil, orientation: DeviceOrientation = .portrait) {
        self.width = width; self.height = height; self.fx = fx; self.fy = fy
        self.cx = cx; self.cy = cy; self.distortion = distortion; self.orientation = orientation
    }

    /// A centred camera with square pixels and the given horizontal field of view (degrees).
    public init(width: Int, height: Int, horizontalFOVDeg: Double) {
        let f = Double(width) / 2 / tan(horizontalFOVDeg * .pi / 360)
        self.init(width: width, height: height, fx: f, fy: f,
                  cx: Double(width) / 2, cy: Double(height) / 2)
    }

    /// The same camera for an image scaled to `newWidth` × `newHeight`.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
        let sx = Double(newWidth) / Double(width), sy = Double(newHeight) / Double(height)
        return CameraIntrinsics(width: newWidth, height: newHeight, fx: fx * sx, fy: fy * sy,
                                cx: cx * sx, cy: cy * sy, distortion: distortion, orientation: orientation)
    }

    public var horizontalFOVDeg: Double { 2 * atan(Double(width) / 2 / fx) * 180 / .pi }
}

