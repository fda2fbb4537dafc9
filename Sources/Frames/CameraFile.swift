import Foundation
import POIARCore

/// Reads a camera JSON (contract section 5):
/// `{"width", "height", "fx", "fy", "cx", "cy", "distortion": {k1,k2,p1,p2,k3}?, "orientation"?}`.
public enum CameraFile {
    /// The largest width or height a camera JSON may give, pixels: far beyond any sensor.
    static let maxCalibrationSide = 100_000.0

    /// The file as written: numbers as numbers (the checks below say what is wrong with them),
    /// names as strings.
    struct Document: Decodable {
        var width: Double, height: Double, fx: Double, fy: Double, cx: Double, cy: Double
        var distortion: Distortion?
        var orientation: String?
        struct Distortion: Decodable {
            var model: String?
            var k1: Double?, k2: Double?, p1: Double?, p2: Double?, k3: Double?, k4: Double?
        }
    }

    public static func load(_ url: URL) throws -> CameraIntrinsics {
        let path = url.path
        try InputFile.checkRegular(path, what: "the camera file")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, "cannot read the camera file (missing or unreadable)")
        }
        return try camera(JSONInput.decode(Document.self, from: data, file: path), path: path)
    }

    static func camera(_ d: Document, path: String) throws -> CameraIntrinsics {
        // A calibration's own size is scaled to the output before anything is drawn, so it is
        // not held to `ImageLimits.maxSide`; this bound only keeps the numbers sane.
        for (k, v) in [("width", d.width), ("height", d.height)] where v < 1 || v != v.rounded() || v > CameraFile.maxCalibrationSide {
            throw InputError(file: path, field: k, "expected a whole number of pixels ≥ 1, found \(v)")
        }
        for (k, v) in [("fx", d.fx), ("fy", d.fy)] where v <= 0 {
            throw InputError(file: path, field: k, "focal length must be > 0 px, found \(v)")
        }
        var distortion: LensDistortion?
        if let dd = d.distortion {
            var model = LensDistortion.Model.brownConrady
            if let m = dd.model {
                guard let parsed = LensDistortion.Model(rawValue: m) else {
                    throw InputError(file: path, field: "distortion.model",
                                     "expected one of \(LensDistortion.Model.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                model = parsed
            }
            if model == .fisheye, let stray = [("p1", dd.p1), ("p2", dd.p2)].first(where: { $0.1 != nil }) {
                throw InputError(file: path, field: "distortion.\(stray.0)", "a fisheye lens has k1…k4 only (OpenCV's cv::fisheye model)")
            }
            if model == .brownConrady, dd.k4 != nil {
                throw InputError(file: path, field: "distortion.k4", "k4 belongs to the fisheye model: add \"model\": \"fisheye\"")
            }
            distortion = LensDistortion(model: model, k1: dd.k1 ?? 0, k2: dd.k2 ?? 0, p1: dd.p1 ?? 0, p2: dd.p2 ?? 0,
                                        k3: dd.k3 ?? 0, k4: dd.k4 ?? 0)
        }
        var orientation = DeviceOrientation.portrait
        if let o = d.orientation {
            guard let parsed = DeviceOrientation(rawValue: o) else {
                throw InputError(file: path, field: "orientation",
                                 "expected one of \(DeviceOrientation.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            orientation = parsed
        }
        return CameraIntrinsics(width: Int(d.width), height: Int(d.height), fx: d.fx, fy: d.fy, cx: d.cx, cy: d.cy,
                                distortion: distortion, orientation: orientation)
    }
}
