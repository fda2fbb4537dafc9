import ArgumentParser
import Frames
import Projection

/// What a frame shows and how it is laid out — the layout, the HUD and the scene — the same
/// options for `replay` and `project`, applied in one place.
struct FrameLookArguments: ParsableArguments {
    @OptionGroup var layout: LayoutArguments
    @OptionGroup var hud: HUDArguments
    @OptionGroup var scene: SceneArguments

    func apply(radius: inout Double, _ layoutOptions: inout LayoutOptions, _ annotation: inout AnnotationOptions,
               _ overlay: inout OverlayOptions) {
        radius = layout.radius.value
        layout.apply(to: &layoutOptions, &annotation)
        hud.apply(to: &overlay, &annotation)
        scene.apply(to: &overlay)
    }
}
