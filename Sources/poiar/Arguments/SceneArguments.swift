import ArgumentParser
import Frames

/// The buildings drawn into frames: the scene behind frames without a picture and the outlines
/// over pictures. Shared by `replay` and `project`.
struct SceneArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Behind frames without a picture: map (the buildings around the camera, lit by the sun at the frame's time) or plain (sky and ground).",
                               valueName: "kind"))
    var scene: SceneArgument = .notGiven

    @Option(help: ArgumentHelp("Drawn over every frame: buildings (their outlines, to see whether the pose registers with the picture) or none.",
                               valueName: "what"))
    var overlay: PictureOverlay = .none

    func apply(to options: inout OverlayOptions) {
        options.scene = scene.choice
        options.pictureOverlay = overlay
    }
}
