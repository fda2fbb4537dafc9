import Foundation
import POIARCore
import Projection
import Recordings
import SensorLog

/// Chooses the camera for a replay or a projection, most explicit first:
/// `--camera FILE` › `--intrinsics` › `--hfov` › the log's `# camera:` › the log's
/// `# camera_hfov_deg:` › for a recording, a phone's main camera held the way the recording
/// shows (`PhoneCamera`, `PhoneHolding`) › a 60° camera. The output size is `--size`, else
/// the stills' size, else the camera JSON's, else 720×1280 (portrait) or 1280×720; a camera
/// JSON's intrinsics scale with it.
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

    /// - Parameter stillSize: the size of the frames' stills, when they have them: without
    ///   `--size` it is the output size, and a camera JSON made for another size is scaled to
    ///   it (the same aspect ratio is required: a different one means the wrong camera file).
    /// - Parameter logPath: the log, named when its `# camera:` path leaves its folder.
    /// - Parameter holding: how the recording's phone was held, when it is known (after
    ///   fusion): without a camera from the options or the log, the phone camera held so.
    public func resolve(metadata: LogMetadata? = nil, logFolder: URL? = nil, logPath: String? = nil,
                        stillSize: (width: Int, height: Int)? = nil, holding: PhoneHolding? = nil) throws -> CameraIntrinsics {
        let size = self.size ?? stillSize ?? CameraSetup.defaultSize
        if let cameraFile {
            return try fitted(try CameraFile.load(URL(fileURLWithPath: cameraFile)), file: cameraFile, stillSize: stillSize)
        }
        if let k = intrinsics {
            return CameraIntrinsics(width: size.width, height: size.height, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)
        }
        if let hfovDeg { return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: hfovDeg) }
        if let metadata, let path = metadata.camera {
            let url = try logFolder.map { try LogFolderPath.resolve(path, key: "camera", logFolder: $0, logPath: logPath) }
                ?? URL(fileURLWithPath: path)
            return try fitted(try CameraFile.load(url), file: url.path, stillSize: stillSize)
        }
        if let metadata, let raw = metadata["camera_hfov_deg"] {
            guard let h = Double(raw), h > 0, h < 180 else {
                throw InputError(file: logFolder?.path ?? "log", field: "camera_hfov_deg", "expected degrees in (0, 180), found \"\(raw)\"")
            }
            return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: h)
        }
        if let holding { return PhoneCamera.intrinsics(holding: holding.orientation, size: self.size ?? stillSize) }
        return CameraIntrinsics(width: size.width, height: size.height, horizontalFOVDeg: CameraSetup.defaultHFOVDeg)
    }

    /// A camera JSON's intrinsics for the output: scaled to `--size`, else to the stills.
    /// Whether the camera comes from neither the options nor the log, so that `resolve` takes
    /// the phone camera for a `holding`.
    public func isUnspecified(metadata: LogMetadata?) -> Bool {
        cameraFile == nil && intrinsics == nil && hfovDeg == nil && metadata?.camera == nil && metadata?["camera_hfov_deg"] == nil
    }

    /// How the phone was held over `frames`, when the camera is to be taken from it (neither
    /// the options nor the log give one); nil otherwise.
    public func holding(metadata: LogMetadata, frames: [FrameEvent]) -> PhoneHolding? {
        isUnspecified(metadata: metadata) ? PhoneHolding.estimate(frames.lazy.map(\.pose)) : nil
    }

    /// The notice saying which camera was assumed for a recording held as `holding`.
    public static func assumed(_ camera: CameraIntrinsics, holding: PhoneHolding) -> String {
        String(format: "camera: none given; a phone's main camera (%.0f° across the long side) held %@, %d×%d",
               PhoneCamera.longSideFOVDeg, holding.description, camera.width, camera.height)
    }

    private func fitted(_ c: CameraIntrinsics, file: String, stillSize: (width: Int, height: Int)?) throws -> CameraIntrinsics {
        if size != nil { return sized(c) }
        guard let still = stillSize, still.width != c.width || still.height != c.height else { return c }
        let cameraAspect = Double(c.width) / Double(c.height), stillAspect = Double(still.width) / Double(still.height)
        guard abs(cameraAspect / stillAspect - 1) < 0.01 else {
            throw InputError(file: file, field: "width/height",
                             "the camera is \(c.width)×\(c.height) but the stills are \(still.width)×\(still.height): a different aspect ratio, so this camera did not take them")
        }
        return c.scaled(toWidth: still.width, height: still.height)
    }

    /// A camera for the output: scaled to `--size` when given.
    public func sized(_ c: CameraIntrinsics) -> CameraIntrinsics {
        guard let size else { return c }
        return c.scaled(toWidth: size.width, height: size.height)
    }
}
