import Foundation
import POIARCore
import Testing
@testable import Frames
@testable import Replay

@Suite struct CameraSetupTests {
    func cameraFile(_ json: String) throws -> String {
        let url = try makeTempDir().appendingPathComponent("camera.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aCameraJSONIsScaledToStillsOfTheSameAspect() throws {
        let file = try cameraFile(#"{"width": 4032, "height": 3024, "fx": 3000, "fy": 3000, "cx": 2016, "cy": 1512, "orientation": "landscape-right"}"#)
        let c = try CameraSetup(cameraFile: file).resolve(stillSize: (1024, 768))
        #expect(c.width == 1024 && c.height == 768)
        #expect(abs(c.fx - 3000 * 1024 / 4032) < 1e-9 && abs(c.cy - 384) < 1e-9)
        #expect(c.orientation == .landscapeRight)
    }

    @Test func aCameraJSONOfAnotherAspectIsRefused() throws {
        let file = try cameraFile(#"{"width": 720, "height": 1280, "fx": 808, "fy": 808, "cx": 360, "cy": 640}"#)
        let error = #expect(throws: InputError.self) { try CameraSetup(cameraFile: file).resolve(stillSize: (1024, 768)) }
        #expect(error?.description.contains("720×1280 but the stills are 1024×768") == true)
    }

    @Test func sizeWinsOverTheStillsAndHFOVTakesTheirSize() throws {
        let c = try CameraSetup(hfovDeg: 54, size: (640, 480)).resolve(stillSize: (1024, 768))
        #expect(c.width == 640 && c.height == 480)
        let s = try CameraSetup(hfovDeg: 54).resolve(stillSize: (1024, 768))
        #expect(s.width == 1024 && abs(s.horizontalFOVDeg - 54) < 1e-9)
    }
}
