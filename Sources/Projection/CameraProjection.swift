import Foundation
import POIARCore

/// The pinhole camera of the contract (interfaces section 3):
///   d = R(q)ᵀ · ENU(POI − device);  X = dx, Y = −dy, Z = −dz;
///   u = fx·X/Z + cx,  v = fy·Y/Z + cy   (plus Brown–Conrady distortion when given).
/// Pixel origin at the top-left corner of the top-left pixel, x right, y down.
///
/// For stills taken with the device held in landscape (camera JSON `orientation`), the image's
/// axes are the device's turned by 90°: landscape-right (the device's top toward the user's
/// right, device +x pointing down) has X = dy, Y = dx; landscape-left (top toward the user's
/// left) has X = −dy, Y = −dx. Z = −dz in every case.
public struct CameraProjection: Sendable {
    public let camera: CameraIntrinsics
    public let pose: Pose
    private let worldToDevice: Matrix3
    /// Rows: the camera's X, Y, Z axes in device coordinates.
    public let cameraFromDevice: Matrix3
    /// Lens distortion is applied only within this radius of normalised image coordinates:
    /// beyond it Brown–Conrady's polynomial can fold far-off points back onto the image.
    private let distortionRadius: Double

    public init(camera: CameraIntrinsics, pose: Pose) {
        self.camera = camera
        self.pose = pose
        worldToDevice = pose.orientation.matrix.transposed
        cameraFromDevice = CameraProjection.cameraFromDevice(camera.orientation)
        // Twice the distance of the farthest image corner from the principal point.
        let cornerX = max(camera.cx, Double(camera.width) - camera.cx) / camera.fx
        let cornerY = max(camera.cy, Double(camera.height) - camera.cy) / camera.fy
        distortionRadius = 2 * (cornerX * cornerX + cornerY * cornerY).squareRoot()
    }

    public static func cameraFromDevice(_ orientation: DeviceOrientation) -> Matrix3 {
        switch orientation {
        case .portrait: return Matrix3(rows: Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, -1))
        case .landscapeRight: return Matrix3(rows: Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(0, 0, -1))
        case .landscapeLeft: return Matrix3(rows: Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 0, -1))
        }
    }

    /// Camera coordinates (X right, Y down, Z forward along the optical axis) of an ENU offset.
    public func cameraCoordinates(enu: Vector3) -> Vector3 {
        cameraFromDevice * (worldToDevice * enu)
    }

    /// Pixel position of an ENU offset, or nil when it is behind the camera (Z ≤ 0).
    public func project(enu: Vector3) -> Point2? {
        let c = cameraCoordinates(enu: enu)
        guard c.z > 0 else { return nil }
        return pixel(normalisedX: c.x / c.z, y: c.y / c.z)
    }

    /// Pixel of normalised image coordinates (X/Z, Y/Z), with the lens's distortion.
    public func pixel(normalisedX x: Double, y: Double) -> Point2 {
        var (x, y) = (x, y)
        if let k = camera.distortion, k.model == .fisheye {
            (x, y) = CameraProjection.distortFisheye(x: x, y: y, k)
        } else if let k = camera.distortion, !k.isZero, x * x + y * y <= distortionRadius * distortionRadius {
            (x, y) = CameraProjection.distort(x: x, y: y, k)
        }
        return Point2(camera.fx * x + camera.cx, camera.fy * y + camera.cy)
    }

    /// Brown–Conrady distortion of normalised image coordinates (OpenCV's model):
    ///   x' = x(1 + k1 r² + k2 r⁴ + k3 r⁶) + 2 p1 x y + p2 (r² + 2x²)
    ///   y' = y(1 + k1 r² + k2 r⁴ + k3 r⁶) + p1 (r² + 2y²) + 2 p2 x y
    public static func distort(x: Double, y: Double, _ k: LensDistortion) -> (Double, Double) {
        let r2 = x * x + y * y
        let radial = 1 + r2 * (k.k1 + r2 * (k.k2 + r2 * k.k3))
        return (x * radial + 2 * k.p1 * x * y + k.p2 * (r2 + 2 * x * x),
                y * radial + k.p1 * (r2 + 2 * y * y) + 2 * k.p2 * x * y)
    }

    /// Fisheye distortion of normalised image coordinates (OpenCV's `cv::fisheye`): the ray at
    /// θ = atan(r) from the axis lands at radius θ_d (`LensDistortion.fisheyeAngle`), so
    /// (x, y) is scaled by θ_d / r. Monotonic in θ: no far point folds back onto the image.
    public static func distortFisheye(x: Double, y: Double, _ k: LensDistortion) -> (Double, Double) {
        let r = (x * x + y * y).squareRoot()
        guard r > 1e-12 else { return (x, y) }
        let scale = k.fisheyeAngle(atan(r)) / r
        return (x * scale, y * scale)
    }

    /// True when the point lies on the image (edges included).
    public func isOnImage(_ p: Point2) -> Bool { camera.isOnImage(p) }

    /// The horizon (the image of the horizontal plane through the camera): the value
    /// h(u, v) = up-component of the ray through pixel (u, v), up to a positive factor.
    /// Sky where h > 0, ground where h < 0 (ignoring lens distortion).
    public func horizonValue(at p: Point2) -> Double {
        let x = (p.x - camera.cx) / camera.fx, y = (p.y - camera.cy) / camera.fy
        // The ray (x, y, 1) in camera coordinates, taken to the device frame and then to ENU;
        // its up component is row 2 of R times the device ray.
        let device = cameraFromDevice.transposed * Vector3(x, y, 1)
        return pose.orientation.matrix.row2.dot(device)
    }
}

extension DeviceOrientation {
    /// The device axis that points up in the camera image (−Y of `cameraFromDevice`): the
    /// top edge (+y) in portrait, +x in landscape-left, −x in landscape-right.
    public var imageUpInDevice: Vector3 { CameraProjection.cameraFromDevice(self).row1 * -1 }
}
