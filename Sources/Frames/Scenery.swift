import Foundation
import Geodesy
import POIARCore
import Projection
import Rendering

/// `--scene`: what is drawn behind a frame without a picture.
public enum SceneChoice: String, Sendable, CaseIterable {
    /// The buildings around the camera, lit by the sun at the frame's time.
    case map
    /// Sky and ground only.
    case plain
}

/// `--overlay`: what is drawn over every frame's picture besides the labels.
public enum PictureOverlay: String, Sendable, CaseIterable {
    case none
    /// The buildings' outlines, hidden lines removed.
    case buildings
}

/// The buildings a replay or a single frame draws: the map scene behind frames without a
/// picture, and the outlines over every frame — from the same footprints and heights as the
/// line-of-sight check, through the same camera model as the labels, so a POI hidden by a
/// building is seen hidden, and a picture whose pose is right has the lines on its facades.
public struct Scenery: Sendable {
    public var buildings: BuildingScene
    /// The map scene behind frames without a picture.
    public var scene: Bool
    /// The outlines over every frame.
    public var outlines: Bool
    /// Height of the camera above the ground, metres (`--eye-height`).
    public var eyeHeight: Double
    /// Buildings farther than this, metres, are not drawn.
    public var reach: Double
    /// UTC time of the log's time 0, for the sun; nil: `SolarPosition.unknownDate`.
    public var startUTC: Date?

    /// The scenery `overlay` asks for over `lineOfSight`'s buildings; nil when it asks for none.
    /// `--scene map` and `--overlay buildings` need buildings: without them, an error naming
    /// `file` (the recording, or the POI source of a single frame) and the option; with neither
    /// given, the scene is drawn when there are buildings.
    public static func resolve(_ overlay: OverlayOptions, lineOfSight: LineOfSight?, eyeHeight: Double, reach: Double,
                               startUTC: Date?, file: String) throws -> Scenery? {
        try check(overlay, hasBuildings: lineOfSight != nil, file: file)
        guard let lineOfSight else { return nil }
        let scene = (overlay.scene ?? .map) == .map, outlines = overlay.pictureOverlay == .buildings
        guard scene || outlines else { return nil }
        return Scenery(buildings: BuildingScene(lineOfSight: lineOfSight), scene: scene, outlines: outlines,
                       eyeHeight: eyeHeight, reach: reach, startUTC: startUTC)
    }

    /// Refuses `--scene map` and `--overlay buildings` without buildings (before any work).
    public static func check(_ overlay: OverlayOptions, hasBuildings: Bool, file: String) throws {
        guard !hasBuildings else { return }
        for (option, asked) in [("--scene map", overlay.scene == .map), ("--overlay buildings", overlay.pictureOverlay == .buildings)]
        where asked {
            throw InputError(file: file, "\(option) draws buildings, and there are none: give --buildings SOURCE (OSM PBF, "
                             + "OSM XML or Overpass JSON with buildings) or a POI source that holds them")
        }
    }

    /// The sun at the frame's time and place.
    func sun(for record: FrameRecord) -> SolarPosition {
        let c = record.location.coordinate
        guard let startUTC else { return .unknownDate(latitude: c.latitude, longitude: c.longitude) }
        return SolarPosition(date: startUTC.addingTimeInterval(record.time), latitude: c.latitude, longitude: c.longitude)
    }

    /// The faces the frame's camera sees, farthest first.
    func faces(for record: FrameRecord, sun: SolarPosition) -> [SceneFace] {
        buildings.faces(device: record.location.coordinate, eyeHeight: eyeHeight,
                        projection: CameraProjection(camera: record.camera, pose: record.pose),
                        sun: sun.direction, reach: reach)
    }

    /// The map scene behind the frame; nil when the scene is off.
    func background(for record: FrameRecord) -> FrameBackground? {
        guard scene, case let .synthetic(horizon, skyAbove) = syntheticBackground(camera: record.camera, pose: record.pose) else {
            return nil
        }
        let sun = sun(for: record)
        let projection = CameraProjection(camera: record.camera, pose: record.pose)
        let sunPoint = projection.project(enu: sun.direction)
        return .scene(SceneDrawing(horizon: horizon, skyAbove: skyAbove, sunElevationDeg: sun.elevationDeg, sunPoint: sunPoint,
                                   faces: faces(for: record, sun: sun)))
    }

    /// The outlines over the frame; none when they are off.
    func overlays(for record: FrameRecord) -> [any FrameLayer] {
        guard outlines else { return [] }
        return [BuildingOutlinesLayer(faces: faces(for: record, sun: sun(for: record)))]
    }
}
