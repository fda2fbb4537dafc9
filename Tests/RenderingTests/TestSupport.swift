import Foundation
@_exported import PoiarTestSupport
@testable import Rendering

/// Folders the tests read, found from this source file's location.
enum TestPaths {
    /// Tests/RenderingTests/
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// Tests/RenderingTests/Fixtures/
    static let fixtures = testsFolder.appendingPathComponent("Fixtures")
    /// Lund still 01.jpg of the OpenSfM sample data, copied to Tests/Fixtures (see its README).
    static let lundStill = testsFolder.appendingPathComponent("../Fixtures/stills/lund-01.jpg").standardizedFileURL
}

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL
    init() throws {
        url = try makeTempDir("poiar-rendering-tests")
    }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A deterministic test pattern with every channel varying.
func patternImage(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RasterImage {
    var image = RasterImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            image.setPixel(x: x, y: y, RGBA8(r: UInt8((x * 7 + y * 3) % 256), g: UInt8((x * 13) % 256),
                                             b: UInt8((y * 11 + 40) % 256), a: alpha(x, y)))
        }
    }
    return image
}
