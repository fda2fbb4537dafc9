import Foundation
import Manifest
import POIARCore
import Testing

/// The manifest's one reader: a line as written decodes and writes back byte for byte, and a
/// broken line is named by file, line and field.
@Suite struct ManifestTests {
    static let line = #"{"frame": 3, "time": 1.25, "image": "frame_000003.png", "still": null, "location": {"lat": 60.1678863, "lon": 24.9493217, "alt": 21.5, "accuracy": 4.2}, "pose": {"q": [0.7071067811865476, 0.7071067811865475, 0, 0], "heading": 0, "pitch": 0, "roll": 0, "facing": 0}, "camera": {"width": 720, "height": 1280, "fx": 1000, "fy": 1000, "cx": 360, "cy": 640, "distortion": {"model": "fisheye", "k1": 0.1, "k2": 0, "k3": 0, "k4": 0.01}}, "annotations": [{"id": "osm:node/1", "name": "Cafe \"Engel\"", "category": "cafe", "lat": 60.168, "lon": 24.95, "alt": null, "distance_m": 85.123, "bearing_deg": 12.5, "anchor_x": 400.5, "anchor_y": 600.25, "box": {"x": 300, "y": 500, "w": 200, "h": 56}, "stack_level": 1, "visible": true, "occluded": false, "opacity": 0.5, "size": 0.9}, {"id": "osm:node/2", "name": "", "category": "atm", "lat": 60.1, "lon": 24.9, "alt": 12, "distance_m": 900, "bearing_deg": 200, "anchor_x": null, "anchor_y": null, "box": null, "stack_level": 0, "visible": false, "marker": "dot", "cluster": 0, "offscreen": {"x": 10, "y": 600, "angle_deg": 180}}], "clusters": [{"id": "cluster:cafe:1", "name": "6 cafes", "detail": "300–430 m", "category": "cafe", "members": ["osm:node/2"], "nearest_m": 300, "farthest_m": 430, "anchor_x": 100, "anchor_y": 200, "box": {"x": 1, "y": 2, "w": 3, "h": 4}, "stack_level": 0, "opacity": 0.25}]}"#

    @Test func aLineDecodesAndWritesBackByteForByte() throws {
        let frame = try JSONInput.decode(ManifestFrame.self, from: Data(Self.line.utf8), file: "frames.jsonl")
        #expect(frame.jsonLine == Self.line)
        #expect(frame.annotations[1].marker == .dot && frame.annotations[0].anchor == Point2(400.5, 600.25))
        #expect(frame.camera.distortion?.model == "fisheye" && !frame.isMapView)
    }

    /// A line's camera gives back its lens (`merge --map` draws the cones at its field of view):
    /// a fisheye sees far more than a pinhole of its focal length.
    @Test func aLinesCameraKeepsItsLens() {
        let fisheye = CameraIntrinsics(width: 1920, height: 1080, fx: 870, fy: 870, cx: 960, cy: 540,
                                       distortion: LensDistortion(model: .fisheye, k1: 0.05, k2: -0.01, k3: 0.002, k4: -0.0003))
        let brown = CameraIntrinsics(width: 720, height: 1280, fx: 1100, fy: 1100, cx: 360, cy: 640,
                                     distortion: LensDistortion(k1: -0.2, k2: 0.05, p1: 0.001, p2: -0.002, k3: 0.01))
        for camera in [fisheye, brown] {
            let line = ManifestFrame.Camera(camera)
            #expect(line.withLens == camera)
            #expect(abs(line.withLens.halfHorizontalFOVDeg - camera.halfHorizontalFOVDeg) < 1e-12)
        }
        #expect(ManifestFrame.Camera(fisheye).withLens.halfHorizontalFOVDeg > ManifestFrame.Camera(fisheye).intrinsics.halfHorizontalFOVDeg + 5)
    }

    @Test func aBrokenLineIsNamedByFileLineAndField() throws {
        let url = try makeTempDir("poiar-manifest").appendingPathComponent("frames.jsonl")
        func error(_ text: String) throws -> InputError? {
            try Data(text.utf8).write(to: url)
            do { _ = try ManifestReader.frames(url) } catch let e as InputError { return e }
            return nil
        }
        #expect(try error("\(Self.line)\n\n{\"frame\": 1, \"time\": 0.5}\n") == InputError(file: url.path, line: 3, field: "image", "missing"))
        #expect(try error("\(Self.line)\nnot json\n")?.location == InputLocation(file: url.path, line: 2))
        let wrongType = Self.line.replacingOccurrences(of: #""stack_level": 0, "visible": false"#, with: #""stack_level": "0", "visible": false"#)
        #expect(try error(wrongType) == InputError(file: url.path, line: 1, field: "annotations[1].stack_level", "expected a whole number"))
    }
}
