import Foundation
import POIARCore

/// Reads a camera JSON (contract section 5):
/// `{"width", "height", "fx", "fy", "cx", "cy", "distortion": {k1,k2,p1,p2,k3}?, "orientation"?}`.
public enum CameraFile {
    /// The largest width or height a camera JSON may give, pixels: far beyond any sensor.
    static let maxCalibrationSide = 100_000.0

    public static func load(_ url: URL) throws -> CameraIntrinsics {
        let path = url.path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, "cannot read the camera file (missing or unreadable)")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            if let syntax = JSONSyntaxError.locate(in: data) {
                throw InputError(file: path, line: syntax.line, "not valid JSON: \(syntax.reason)")
            }
            throw InputError(file: path, "not valid JSON: \(jsonMessage(error))")
        }
        guard let dict = object as? [String: Any] else { throw InputError(file: path, "expected a JSON object") }
        return try parse(dict, path: path)
    }

    static func parse(_ dict: [String: Any], path: String) throws -> CameraIntrinsics {
        func number(_ key: String, in d: [String: Any], required: Bool = true) throws -> Double? {
            guard let v = d[key] else {
                if required { throw InputError(file: path, field: key, "missing") }
                return nil
            }
            // JSON true/false also arrive as NSNumber (objCType "c"); `is Bool` would match 0 and 1 too.
            guard let n = v as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue.isFinite else {
                throw InputError(file: path, field: key, "expected a finite number")
            }
            return n.doubleValue
        }
        let width = try number("width", in: dict)!, height = try number("height", in: dict)!
        // A calibration's own size is scaled to the output before anything is drawn, so it is
        // not held to `ImageLimits.maxSide`; this bound only keeps the numbers sane.
        for (k, v) in [("width", width), ("height", height)] where v < 1 || v != v.rounded() || v > CameraFile.maxCalibrationSide {
            throw InputError(file: path, field: k, "expected a whole number of pixels ≥ 1, found \(v)")
        }
        let fx = try number("fx", in: dict)!, fy = try number("fy", in: dict)!
        for (k, v) in [("fx", fx), ("fy", fy)] where v <= 0 {
            throw InputError(file: path, field: k, "focal length must be > 0 px, found \(v)")
        }
        let cx = try number("cx", in: dict)!, cy = try number("cy", in: dict)!
        var distortion: LensDistortion?
        if let d = dict["distortion"], !(d is NSNull) {
            guard let dd = d as? [String: Any] else { throw InputError(file: path, field: "distortion", "expected an object") }
            var model = LensDistortion.Model.brownConrady
            if let m = dd["model"] {
                guard let s = m as? String, let parsed = LensDistortion.Model(rawValue: s) else {
                    throw InputError(file: path, field: "distortion.model",
                                     "expected one of \(LensDistortion.Model.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                model = parsed
            }
            if model == .fisheye, let stray = ["p1", "p2"].first(where: { dd[$0] != nil }) {
                throw InputError(file: path, field: "distortion.\(stray)", "a fisheye lens has k1…k4 only (OpenCV's cv::fisheye model)")
            }
            if model == .brownConrady, dd["k4"] != nil {
                throw InputError(file: path, field: "distortion.k4", "k4 belongs to the fisheye model: add \"model\": \"fisheye\"")
            }
            distortion = LensDistortion(model: model,
                                        k1: try number("k1", in: dd, required: false) ?? 0,
                                        k2: try number("k2", in: dd, required: false) ?? 0,
                                        p1: try number("p1", in: dd, required: false) ?? 0,
                                        p2: try number("p2", in: dd, required: false) ?? 0,
                                        k3: try number("k3", in: dd, required: false) ?? 0,
                                        k4: try number("k4", in: dd, required: false) ?? 0)
        }
        var orientation = DeviceOrientation.portrait
        if let o = dict["orientation"] {
            guard let s = o as? String, let parsed = DeviceOrientation(rawValue: s) else {
                throw InputError(file: path, field: "orientation",
                                 "expected one of \(DeviceOrientation.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            orientation = parsed
        }
        return CameraIntrinsics(width: Int(width), height: Int(height), fx: fx, fy: fy, cx: cx, cy: cy,
                                distortion: distortion, orientation: orientation)
    }
}

/// The useful part of a Foundation JSON error (it carries the position in its userInfo).
func jsonMessage(_ error: Error) -> String {
    let ns = error as NSError
    if let d = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return d }
    return ns.localizedDescription
}
