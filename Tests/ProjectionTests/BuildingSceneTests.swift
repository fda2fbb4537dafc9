import Foundation
import Testing
import Geodesy
import POIARCore
@testable import Projection

/// The map scene's geometry: the buildings of the line-of-sight check as the labels' camera
/// sees them (`BuildingScene`), in metres east and north of `Block.origin`.
@Suite struct BuildingSceneTests {
    let device = Block.at(0, 0, altitude: 21.5)
    let camera = CameraIntrinsics(width: 640, height: 480, horizontalFOVDeg: 66)
    /// Upright, looking north.
    let north = Pose(headingDeg: 0, pitchDeg: 0, rollDeg: 0)
    /// The sun due south on the horizon: a south wall in full sun, a north wall in none.
    let southSun = Vector3(0, -1, 0)

    func faces(_ buildings: [Building], pose: Pose? = nil, camera: CameraIntrinsics? = nil, eye: Double = 1.5,
               at place: GeoCoordinate? = nil) -> [SceneFace] {
        let scene = BuildingScene(lineOfSight: LineOfSight(buildings: buildings, origin: Block.origin))
        return scene.faces(device: place ?? device, eyeHeight: eye,
                           projection: CameraProjection(camera: camera ?? self.camera, pose: pose ?? north), sun: southSun, reach: 1500)
    }

    @Test func aWallsCornersLandWhereTheLabelsProjectionPutsThem() throws {
        let block = Block.building("osm:way/1", -10, 40, 10, 60, height: 20)
        let seen = faces([block])
        // Looking north from straight south of it: only its south wall faces the camera.
        #expect(seen.count == 1)
        let wall = try #require(seen.first)
        #expect(wall.kind == .wall && wall.heightKnown && abs(wall.sunlight - 1) < 1e-9 && abs(wall.distance - 40) < 1e-6)
        let projection = CameraProjection(camera: camera, pose: north)
        let corners = [Vector3(-10, 40, -1.5), Vector3(10, 40, -1.5), Vector3(10, 40, 18.5), Vector3(-10, 40, 18.5)]
            .map { projection.project(enu: $0)! }
        let ring = try #require(wall.rings.first)
        #expect(ring.count == 4)
        for corner in corners {
            #expect(ring.contains { hypot($0.x - corner.x, $0.y - corner.y) < 1e-3 }, "\(corner) not in \(ring)")
        }
    }

    @Test func nothingBehindTheCameraIsDrawn() throws {
        #expect(faces([Block.building("osm:way/south", -10, -60, 10, -40)]).isEmpty)
        // A long block beside the camera, from 50 m behind to 50 m ahead: its west wall is cut
        // at the near plane, and what is left lies in front, on sane coordinates.
        let beside = faces([Block.building("osm:way/beside", 5, -50, 15, 50)])
        #expect(beside.count == 1)
        let ring = try #require(beside.first?.rings.first)
        #expect(ring.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.x > 320 && $0.x < 4 * 640 && abs($0.y - 240) < 4 * 480 })
        // Its far end, 50 m ahead at x = 5, is on the image.
        let farEnd = CameraProjection(camera: camera, pose: north).project(enu: Vector3(5, 50, -1.5))!
        #expect(ring.contains { hypot($0.x - farEnd.x, $0.y - farEnd.y) < 1e-3 })
    }

    @Test func fartherBuildingsComeFirstSoNearerOnesCoverThem() {
        let near = Block.building("osm:way/near", -15, 30, 15, 40, height: 12)
        let far = Block.building("osm:way/far", -30, 80, 30, 100, height: 40)
        let seen = faces([near, far])
        #expect(seen.count == 2)
        #expect(seen.map(\.distance) == seen.map(\.distance).sorted(by: >))
        #expect(abs(seen[0].distance - 80) < 1e-6 && abs(seen[1].distance - 30) < 1e-6)
    }

    @Test func aBuildingBehindANearerWallIsLeftOut() {
        // A wide block 30 m ahead hides a lower, narrower one behind it wholly; a tower behind
        // shows above it.
        let front = Block.building("osm:way/front", -60, 30, 60, 40, height: 8)
        let hidden = Block.building("osm:way/hidden", -10, 60, 10, 70, height: 5)
        let tower = Block.building("osm:way/tower", -10, 90, 10, 100, height: 80)
        let seen = faces([front, hidden, tower])
        #expect(seen.count == 2)
        #expect(abs(seen[0].distance - 90) < 1e-6 && abs(seen[1].distance - 30) < 1e-6)
    }

    @Test func fromInsideAFootprintTheCameraSeesOut() {
        // GPS on the pavement put the walker inside the building: its walls are not drawn.
        #expect(faces([Block.building("osm:way/around", -10, -10, 10, 10)]).isEmpty)
    }

    @Test func aCourtyardsWallsFaceTheYard() {
        // Standing in the courtyard looking north-east: its north wall and its east wall ahead
        // (the west and south walls are out of the view, and left out).
        let block = Block.building("osm:way/yard", -40, -40, 40, 40, courtyard: (-15, -15, 15, 15))
        let seen = faces([block], pose: Pose(headingDeg: 30, pitchDeg: 0, rollDeg: 0))
        #expect(seen.count == 2)
        // The yard's north wall faces south, into the yard and the sun; its east wall faces west.
        #expect(seen.filter { abs($0.sunlight - 1) < 1e-9 }.count == 1)
        #expect(seen.filter { $0.sunlight < 1e-9 }.count == 1)
    }

    @Test func aRoofIsSeenFromAboveAndAnUndersideFromBelow() throws {
        let low = Block.building("osm:way/low", -10, 40, 10, 60, height: 10)
        let fromAbove = faces([low], pose: Pose(headingDeg: 0, pitchDeg: -20, rollDeg: 0), eye: 30)
        let roof = try #require(fromAbove.last)
        #expect(roof.kind == .roof && roof.rings.count == 1 && roof.sunlight == 0)  // the sun on the horizon
        let raised = Block.building("osm:way/bridge", -10, 40, 10, 60, height: 12, minHeight: 6)
        let fromBelow = faces([raised], pose: Pose(headingDeg: 0, pitchDeg: 20, rollDeg: 0))
        #expect(fromBelow.last?.kind == .underside)
    }

    @Test func throughAFisheyeStraightEdgesAreCurves() throws {
        var fisheye = camera
        fisheye.distortion = LensDistortion(model: .fisheye, k1: 0.05)
        let wall = try #require(faces([Block.building("osm:way/1", -30, 20, 30, 40)], camera: fisheye).first)
        let ring = try #require(wall.rings.first)
        #expect(ring.count > 20)
        let projection = CameraProjection(camera: fisheye, pose: north)
        let a = projection.project(enu: Vector3(-30, 20, -1.5))!, b = projection.project(enu: Vector3(30, 20, -1.5))!
        #expect(ring.contains { hypot($0.x - a.x, $0.y - a.y) < 1e-3 } && ring.contains { hypot($0.x - b.x, $0.y - b.y) < 1e-3 })
        // The base bows away from the straight line between its ends (below the horizon, downward).
        let bow = ring.map { p in ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / hypot(b.x - a.x, b.y - a.y) }
        #expect(bow.max()! > 3)
    }
}
