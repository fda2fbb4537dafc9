import Foundation
import POIARCore
import SensorLog

/// Chooses the camera for a replay or a projection, most explicit first:
/// `--camera FILE` › `--intrinsics` › `--hfov` › the log's `# camera:` › the log's
/// `# camera_hfov_deg:` › a 60° camera. `--size` sets (or, with a camera JSON, rescales)
/// the output size; without it a JSON camera keeps its own size and others get 1280×720.
public struct CameraSetup: Sendable {
    public static let defaultSize = (width: 1280, height: 720)
    public static let defaultHFOVDeg = 60.0

    public var cameraFile: String?
    public var intrinsics: (fx: Double, fy: Double, cx: Double, cy: Double)?
    public var hfovDeg: Double?
    public var size: (width: Int, height: Int)?

    public init(cameraFile: String? = nil, intrinsics: (fx: Double, fy: Double, cx: Double, cy: Double)? = nil,
                hfovDeg: Double? = nil, size: (width: Int, height: Int)? = nil) {
        self.cameraFile = cameraFile; self.intrinsics = intrinsics; self.hfovDeg = hfovDeg; self.size = size
    }

    public func resolve(metadata: LogMetadata? = nil, logFolder: URL? = nil) throws -> CameraIntrinsics {
        let size = self.size ?? CameraSetup.defaultSize
        if let cameraFile {
            return scaled(try CameraFile.load(URL(fileURLWithPath: cameraFile)))
        }
        if let k = intrinsics {
            return CameraIntrinsics(width: size.width, height: size.height, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)
        }
        if let hfovDeg { return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: hfovDeg) }
        if let metadata, let path = metadata.camera {
            let url = logFolder.map { $0.appendingPathComponent(path) } ?? URL(fileURLWithPath: path)
            return scaled(try CameraFile.load(url))
        }
        if let metadata, let raw = metadata["camera_hfov_deg"] {
            guard let h = Double(raw), h > 0, h < 180 else {
                throw InputError(file: logFolder?.path ?? "log", field: "camera_hfov_deg", "expected degrees in (0, 180), found \"\(raw)\"")
            }
            return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: h)
        }
        return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: CameraSetup.defaultHFOVDeg)
    }

    private func scaled(_ c: CameraIntrinsics) -> CameraIntrinsics {
        guard let size else { return c }
        return c.scaled(toWidth: size.width, height: size.height)
    }
}
