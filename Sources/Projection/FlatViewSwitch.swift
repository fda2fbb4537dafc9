import Foundation
import POIARCore

/// When a phone is tilted down until its camera sees only the ground, a frame shows a map
/// instead of the camera view, as Google Maps' Live View does: the camera image then holds
/// no horizon and no place a label could stand on.
///
/// The switch looks at the pitch of the camera's optical axis (the pose CSV's `pitch_deg`).
/// It turns to the map when the pitch falls to `enterPitchDeg` (−60°: with a phone's 67°
/// portrait field of view the horizon is then 27° above the image's top edge) and back to
/// the camera only when the pitch rises above `leavePitchDeg` (−45°): the 15° between them
/// is the hysteresis that keeps a phone held about half-way from flickering between the two.
/// The change itself is a cross-fade over `fadeSeconds` of the log's time (so the same at any
/// frame rate; at 2 frames a second it is done from one frame to the next).
public struct FlatViewSwitch: Sendable {
    public static let enterPitchDeg = -60.0
    public static let leavePitchDeg = -45.0
    public static let fadeSeconds = 0.4

    /// The map's share of the frame: 0 camera view, 1 map.
    public private(set) var mapFraction = 0.0
    /// Whether the map is wanted (the state with hysteresis).
    public private(set) var showsMap = false
    private var lastTime: Double?

    public init() {}

    /// The map's share of the frame at `time` for the camera's `pitchDeg`.
    public mutating func update(time: Double, pitchDeg: Double) -> Double {
        if showsMap { if pitchDeg > Self.leavePitchDeg { showsMap = false } }
        else if pitchDeg <= Self.enterPitchDeg { showsMap = true }
        let target = showsMap ? 1.0 : 0.0
        if let lastTime {
            let step = max(0, time - lastTime) / Self.fadeSeconds
            mapFraction = target > mapFraction ? min(target, mapFraction + step) : max(target, mapFraction - step)
        } else {
            mapFraction = target  // the first frame starts in its own view
        }
        lastTime = time
        return mapFraction
    }
}
