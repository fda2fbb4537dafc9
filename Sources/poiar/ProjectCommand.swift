import ArgumentParser
import Foundation
import Frames
import POIARCore
import Rendering
import Replay

struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Project the POIs around one pose: print its frame-manifest object (and render it with --png).")

    @Option(parsing: .unconditional, help: ArgumentHelp("Device position (degrees, metres above the WGS84 ellipsoid).", valueName: "lat,lon[,alt]"))
    var at: Position

    @OptionGroup(title: "Pose") var attitude: PoseArguments

    @OptionGroup(title: "Camera") var camera: FrameCameraArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("Intrinsics in pixels, instead of --hfov.", valueName: "fx,fy,cx,cy"))
    var intrinsics: PinholeIntrinsics?

    @Option(help: ArgumentHelp("POI source: a poiar database or a file `pois import` reads.", valueName: "source"))
    var pois: String
    @OptionGroup var selection: POISelectionArguments
    @OptionGroup var buildings: BuildingArguments

    @OptionGroup(title: "Layout and HUD") var look: FrameLookArguments

    @Option(help: ArgumentHelp("Also render the frame to this PNG.", valueName: "file"))
    var png: String?
    @Option(help: ArgumentHelp("Still image to draw under the labels (with --png).", valueName: "image"))
    var still: String?
    @Option(name: .customLong("max-still-pixels"), parsing: .unconditional,
            help: ArgumentHelp("Refuse a still with more pixels than this (width × height, read from its header before decoding).", valueName: "n"))
    var maxStillPixels = Checked<PositiveCount>(defaultMaxStillPixels)
    @Option(help: ArgumentHelp("Font file for regular text. (default: DejaVu Sans)", valueName: "file"))
    var font: String?

    func validate() throws {
        let lens = camera.camera
        if lens.camera == nil {
            guard camera.size != nil else { throw ValidationError("give --size WxH with --hfov or --intrinsics, or --camera FILE") }
            guard (lens.hfov == nil) != (intrinsics == nil) else { throw ValidationError("give exactly one of --hfov and --intrinsics with --size") }
        } else if lens.hfov != nil || intrinsics != nil {
            throw ValidationError("--camera already gives the intrinsics: drop --hfov/--intrinsics")
        }
        if still != nil && png == nil { throw ValidationError("--still needs --png") }
    }

    func run() throws {
        try reportingErrors {
            try checkOutputs(writes: [(png, "--png")],
                             reads: [(pois, "the POI source"), (still, "the still"), (lens.camera, "the camera file"),
                                     (buildings.buildings, "the building source"), (font, "the font")])
            var projection = PoseProjection(location: at.coordinate, pose: attitude.pose,
                                            camera: CameraSetup(cameraFile: lens.camera, intrinsics: intrinsics.map { ($0.fx, $0.fy, $0.cx, $0.cy) },
                                                                hfovDeg: lens.hfov?.value, size: camera.size?.pair),
                                            poiSource: pois)
            (projection.categories, projection.language, projection.buildings) = (try selection.categories(), selection.language, buildings.buildings)
            look.apply(radius: &projection.radius, &projection.layout, &projection.annotation, &projection.overlay)
            (projection.still, projection.maxStillPixels, projection.fontPath) = (still, maxStillPixels.value, font)
            let frame = try projection.annotate(image: png.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "", notice: printNotice)
            print(frame.record.jsonLine)
            if let png { try frame.writePNG(to: URL(fileURLWithPath: png)) }
        }
    }

    private var lens: CameraArguments { camera.camera }
}

/// `project`'s pose: heading, pitch and roll, or a quaternion.
struct PoseArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Heading of the back camera, degrees clockwise from north.", valueName: "degrees"))
    var heading: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Pitch of the back camera above the horizon, degrees.", valueName: "degrees"))
    var pitch: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Roll about the optical axis, degrees (+ clockwise as the user sees the screen). (default: 0)", valueName: "degrees"))
    var roll: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Attitude quaternion (device → ENU), instead of heading/pitch/roll.", valueName: "w,x,y,z"))
    var quat: AttitudeQuaternion?

    func validate() throws {
        if quat != nil {
            guard heading == nil, pitch == nil, roll == nil else { throw ValidationError("give --quat or --heading/--pitch/--roll, not both") }
        } else if heading == nil || pitch == nil {
            throw ValidationError("give --heading and --pitch (and optionally --roll), or --quat")
        }
    }

    /// The pose given (checked by `validate`).
    var pose: Pose {
        if let quat { return Pose(quat.quaternion) }
        return Pose(headingDeg: heading?.value ?? 0, pitchDeg: pitch?.value ?? 0, rollDeg: roll?.value ?? 0)
    }
}
