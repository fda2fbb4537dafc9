import ArgumentParser
import Frames
import Replay

/// `--hfov` and `--camera`: the camera of a log's frames, when the log does not say or says
/// wrong. Shared by `replay`, `map` and `project`.
struct CameraArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Horizontal field of view of a centred pinhole camera, degrees, in (0, 180). (default: the log's camera, else the phone's as it was held)", valueName: "degrees"))
    var hfov: Checked<FieldOfView>?

    @Option(help: ArgumentHelp("Camera JSON: intrinsics, optional distortion. (default: the log's `# camera:` line)", valueName: "file"))
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
struct FrameCameraArguments: ParsableArguments {
    @OptionGroup var camera: CameraArguments

    @Option(help: ArgumentHelp("Output size WIDTHxHEIGHT, each side 1…16384; a camera JSON's intrinsics scale with it. (default: the camera's own size, else the phone's as it was held)", valueName: "WxH"))
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
