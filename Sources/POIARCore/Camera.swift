import Foundation

/// Lens distortion: Brown–Conrady (OpenCV's standard model, order k1, k2, p1, p2, k3) for
/// ordinary lenses, or the fisheye model (OpenCV's `cv::fisheye`, Kannala–Brandt: k1…k4 of
/// θ_d = θ(1 + k1θ² + k2θ⁴ + k3θ⁶ + k4θ⁸)) for wide action-camera lenses, whose 120° and more
/// no polynomial in tan θ follows.
public struct LensDistortion: Equatable, Sendable {
    public enum Model: String, Sendable, CaseIterable {
        case brownConrady = "brown-conrady"
        case fisheye
    }
    public var model: Model
    public var k1: Double, k2: Double, p1: Double, p2: Double, k3: Double
    /// Fisheye only.
    public var k4: Double
    public init(model: Model = .brownConrady, k1: Double = 0, k2: Double = 0, p1: Double = 0, p2: Double = 0, k3: Double = 0,
                k4: Double = 0) {
        self.model = model
        self.k1 = k1; self.k2 = k2; self.p1 = p1; self.p2 = p2; self.k3 = k3; self.k4 = k4
    }
    /// No distortion: a pinhole. (A fisheye is never one: with zero coefficients it is the
    /// equidistant lens, r = f·θ.)
    public var isZero: Bool { model == .brownConrady && k1 == 0 && k2 == 0 && p1 == 0 && p2 == 0 && k3 == 0 }

    /// The fisheye's distorted angle θ_d for a ray θ from the optical axis (radians).
    public func fisheyeAngle(_ theta: Double) -> Double {
        let t2 = theta * theta
        return theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
    }

    /// The ray angle θ whose distorted angle is `distorted` (radians): `fisheyeAngle` inverted
    /// by bisection on 0…π/2, where it rises for sane coefficients.
    public func fisheyeRayAngle(distorted: Double) -> Double {
        var lo = 0.0, hi = Double.pi / 2
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if fisheyeAngle(mid) < distorted { lo = mid } else { hi = mid }
        }
        return lo
    }
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

    /// True when the point (pixels, origin at the image's top-left corner) lies on the image,
    /// edges included.
    public func isOnImage(_ p: Point2) -> Bool {
        p.x >= 0 && p.x <= Double(width) && p.y >= 0 && p.y <= Double(height)
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

    /// The angle from the optical axis to the farther of the left and right image edges,
    /// degrees, through the lens (a fisheye sees much more than a pinhole of its focal length).
    public var halfHorizontalFOVDeg: Double {
        let edge = max(cx, Double(width) - cx) / fx
        guard let d = distortion, d.model == .fisheye else { return atan(edge) * 180 / .pi }
        return d.fisheyeRayAngle(distorted: edge) * 180 / .pi
    }
}

