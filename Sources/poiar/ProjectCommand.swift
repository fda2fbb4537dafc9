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

    @OptionGroup(title: "Pose") var place: ProjectPlaceArguments
    @OptionGroup(title: "Pose") var attitude: PoseArguments

    @OptionGroup(title: "Camera") var camera: FrameCameraArguments<GivenCamera>
    @OptionGroup(title: "Camera") var pinhole: ProjectIntrinsicsArguments

    @OptionGroup(title: "POIs") var source: ProjectPOIArguments
    @OptionGroup(title: "POIs") var selection: POISelectionArguments
    @OptionGroup(title: "POIs") var buildings: BuildingArguments

    @OptionGroup(title: "Layout and HUD") var look: FrameLookArguments

    @OptionGroup(title: "Output") var output: ProjectOutputArguments

    func validate() throws {
        let lens = camera.camera
        if lens.camera == nil {
            guard camera.size != nil else { throw ValidationError("give --size WxH with --hfov or --intrinsics, or --camera FILE") }
            guard (lens.hfov == nil) != (pinhole.intrinsics == nil) else { throw ValidationError("give exactly one of --hfov and --intrinsics with --size") }
        } else if lens.hfov != nil || pinhole.intrinsics != nil {
            throw ValidationError("--camera already gives the intrinsics: drop --hfov/--intrinsics")
        }
        if output.still != nil && output.png == nil { throw ValidationError("--still needs --png") }
    }

    func run() throws {
        try reportingErrors {
            let (png, still, pois) = (output.png, output.still, source.pois)
            try checkOutputs(writes: [(png, "--png")],
                             reads: [(pois, "the POI source"), (still, "the still"), (lens.camera, "the camera file"),
                                     (buildings.buildings, "the building source"), (output.font, "the font")])
            var projection = PoseProjection(location: place.at.coordinate, pose: attitude.pose,
                                            camera: CameraSetup(cameraFile: lens.camera, intrinsics: pinhole.intrinsics.map { ($0.fx, $0.fy, $0.cx, $0.cy) },
                                                                hfovDeg: lens.hfov?.value, size: camera.size?.pair),
                                            poiSource: pois)
            (projection.categories, projection.language, projection.buildings) = (try selection.categories(), selection.language, buildings.buildings)
            look.apply(radius: &projection.radius, &projection.layout, &projection.annotation, &projection.overlay)
            (projection.still, projection.maxStillPixels, projection.fontPath) = (still, output.maxStillPixels.value, output.font)
            let frame = try projection.annotate(image: png.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "", notice: printNotice)
            print(frame.record.jsonLine)
            if let png { try frame.writePNG(to: URL(fileURLWithPath: png)) }
        }
    }

    private var lens: CameraArguments<GivenCamera> { camera.camera }
}

/// `project`'s pose: heading, pitch and roll, or a quaternion.
struct PoseArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Heading of the back camera, degrees clockwise from north. (default: none; needed without --quat)", valueName: "degrees"))
    var heading: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Pitch of the back camera above the horizon, degrees. (default: none; needed without --quat)", valueName: "degrees"))
    var pitch: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Roll about the optical axis, degrees (+ clockwise as the user sees the screen). (default: 0)", valueName: "degrees"))
    var roll: Checked<Degrees>?
    @Option(parsing: .unconditional, help: ArgumentHelp("Attitude quaternion (device → ENU), instead of heading/pitch/roll. (default: none)", valueName: "w,x,y,z"))
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

/// Where `project`'s device is.
struct ProjectPlaceArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Device position (degrees, metres above the WGS84 ellipsoid).", valueName: "lat,lon[,alt]"))
    var at: Position
}

/// `project`'s camera given by its pinhole intrinsics, beside `--hfov` and `--camera`.
struct ProjectIntrinsicsArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Intrinsics in pixels, instead of --hfov. (default: none)", valueName: "fx,fy,cx,cy"))
    var intrinsics: PinholeIntrinsics?
}

/// `project`'s POI source: there is no log to name one.
struct ProjectPOIArguments: ParsableArguments {
    @Option(help: ArgumentHelp("POI source: a poiar database or a file `pois import` reads.", valueName: "source"))
    var pois: String
}

/// What `project` writes beside the manifest object it prints.
struct ProjectOutputArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Also render the frame to this PNG. (default: none)", valueName: "file"))
    var png: String?
    @Option(help: ArgumentHelp("Still image to draw under the labels (with --png). (default: none: the --scene background)", valueName: "image"))
    var still: String?
    @Option(name: .customLong("max-still-pixels"), parsing: .unconditional,
            help: ArgumentHelp("Refuse a still with more pixels than this (width × height, read from its header before decoding).", valueName: "n"))
    var maxStillPixels = Checked<PositiveCount>(defaultMaxStillPixels)
    @Option(help: ArgumentHelp("Font file for regular text. (default: DejaVu Sans)", valueName: "file"))
    var font: String?
}
