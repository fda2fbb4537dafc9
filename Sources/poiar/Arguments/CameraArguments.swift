import ArgumentParser
import Frames
import Replay

/// What `--hfov`, `--camera` and `--size` fall back to, in a command's help: the log's camera
/// (`replay`, `map`), or none (`project`, which has no log: the camera is given).
protocol CameraDefaults {
    static var hfov: String { get }
    static var camera: String { get }
    static var size: String { get }
}

/// A log's frames: the camera its header names, else the phone's as it was held.
enum LogCamera: CameraDefaults {
    static let hfov = "the log's camera, else the phone's as it was held"
    static let camera = "the log's `# camera:` line"
    static let size = "the camera's own size, else the phone's as it was held"
}

/// One pose with no log (`project`): the camera is one of --hfov, --intrinsics and --camera.
enum GivenCamera: CameraDefaults {
    static let hfov = "none; --hfov, --intrinsics or --camera is needed"
    static let camera = "none"
    static let size = "a camera JSON's own size; needed with --hfov or --intrinsics"
}

/// `--hfov` and `--camera`: the camera of a log's frames, when the log does not say or says
/// wrong. Shared by `replay`, `map` and `project`.
struct CameraArguments<Defaults: CameraDefaults>: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Horizontal field of view of a centred pinhole camera, degrees, in (0, 180). (default: \(Defaults.hfov))", valueName: "degrees"))
    var hfov: Checked<FieldOfView>?

    @Option(help: ArgumentHelp("Camera JSON: intrinsics, optional distortion. (default: \(Defaults.camera))", valueName: "file"))
    var camera: String?

    func validate() throws {
        if hfov != nil && camera != nil { throw ValidationError("give --hfov or --camera, not both") }
    }

    /// The camera choice, with the output `size` when one is given.
    func setup(size: PixelSize? = nil) -> CameraSetup {
        CameraSetup(cameraFile: camera, hfovDeg: hfov?.value, size: size?.pair)
    }
}

/// The camera of the frames drawn and their size: `replay` and `project`.
struct FrameCameraArguments<Defaults: CameraDefaults>: ParsableArguments {
    @OptionGroup var camera: CameraArguments<Defaults>

    @Option(help: ArgumentHelp("Output size WIDTHxHEIGHT, each side 1…16384; a camera JSON's intrinsics scale with it. (default: \(Defaults.size))", valueName: "WxH"))
    var size: PixelSize?

    var setup: CameraSetup { camera.setup(size: size) }
}

/// `--png-level`: how hard the PNG files written are compressed. Shared by `replay`, `merge`
/// and the benchmarks.
struct PNGArguments: ParsableArguments {
    @Option(name: .customLong("png-level"), parsing: .unconditional, help: ArgumentHelp("PNG zlib compression level, 0–9.", valueName: "0-9"))
    var pngLevel: Checked<PNGLevel> = 6

    var level: Int { pngLevel.value }
}
