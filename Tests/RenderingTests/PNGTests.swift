import Foundation
import POIARCore
import Testing
@testable import Rendering

@Suite("PNG encode and decode")
struct PNGTests {
    @Test("an opaque image survives write and read unchanged, at every compression level")
    func opaqueRoundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = patternImage(width: 37, height: 23)
        for level in [0, 1, 6, 9] {
            let url = folder.file("frame-\(level).png")
            try writePNG(image, to: url, compressionLevel: level)
            #expect(try loadStill(url) == image)
        }
        // Opaque frames are written as 8-bit RGB (colour type 2 in IHDR, byte 25).
        let bytes = try Data(contentsOf: folder.file("frame-6.png"))
        #expect(bytes[24] == 8 && bytes[25] == 2)
    }

    @Test("an image with transparency is written as RGBA and read back within rounding")
    func translucentRoundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = patternImage(width: 16, height: 9) { x, y in UInt8([0, 255, 128, 200, 30][(x + y) % 5]) }
        let url = folder.file("alpha.png")
        try writePNG(image, to: url)
        let bytes = try Data(contentsOf: url)
        #expect(bytes[25] == 6)
        let back = try loadStill(url)
        #expect(back.width == image.width && back.height == image.height)
        // Premultiplied → straight → premultiplied can move a channel by one step.
        for (a, b) in zip(image.pixels, back.pixels) {
            #expect(abs(Int(a) - Int(b)) <= 1)
        }
    }

    @Test("writing leaves no temporary file behind and replaces an existing file")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("frame_000001.png")
        try writePNG(patternImage(width: 4, height: 4), to: url)
        let second = patternImage(width: 8, height: 2)
        try writePNG(second, to: url)
        #expect(try loadStill(url) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["frame_000001.png"])
    }

    @Test("writing where no folder can be made (a file stands in the way) fails naming the file")
    func writeFailure() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("frame.png")
        let error = #expect(throws: RenderingError.self) { try writePNG(patternImage(width: 2, height: 2), to: url) }
        #expect(error?.description.contains(url.path) == true, "\(String(describing: error))")
    }

    // Fixture formulas: see Fixtures/make_fixtures.py.
    static func red(_ x: Int, _ y: Int) -> Int { 25 * x }
    static func green(_ x: Int, _ y: Int) -> Int { 35 * y }
    static func blue(_ x: Int, _ y: Int) -> Int { 10 * (x + y) + 5 }
    static func alpha(_ x: Int, _ y: Int) -> Int { 255 - 20 * x }
    static func grey(_ x: Int, _ y: Int) -> Int { 20 * x + 10 * y }
    static let palette = [(200, 30, 40, 255), (20, 180, 60, 255), (30, 60, 220, 255), (250, 250, 10, 128)]

    /// Expected stored pixel (B, G, R, A premultiplied) of each fixture kind.
    static func expected(_ kind: String, _ x: Int, _ y: Int) -> [UInt8] {
        let (r, g, b, a): (Int, Int, Int, Int)
        switch kind {
        case "rgb8", "rgb16", "rgb16-interlaced": (r, g, b, a) = (red(x, y), green(x, y), blue(x, y), 255)
        case "rgba8", "rgba8-interlaced": (r, g, b, a) = (red(x, y), green(x, y), blue(x, y), alpha(x, y))
        case "grey8": (r, g, b, a) = (grey(x, y), grey(x, y), grey(x, y), 255)
        case "greyalpha8": (r, g, b, a) = (grey(x, y), grey(x, y), grey(x, y), alpha(x, y))
        case "grey2": let v = (x + 2 * y) % 4 * 85; (r, g, b, a) = (v, v, v, 255)
        case "palette8", "palette2-interlaced": (r, g, b, a) = palette[(x + y) % 4]
        default: fatalError("unknown fixture \(kind)")
        }
        func pre(_ c: Int) -> UInt8 { UInt8((c * a + 127) / 255) }
        return [pre(b), pre(g), pre(r), UInt8(a)]
    }

    @Test("every PNG colour type, bit depth and interlacing decodes to the same pixels",
          arguments: ["rgb8", "rgba8", "grey8", "greyalpha8", "grey2", "palette8", "palette2-interlaced",
                      "rgb16", "rgb16-interlaced", "rgba8-interlaced"])
    func decodeFixture(kind: String) throws {
        let image = try loadStill(TestPaths.fixtures.appendingPathComponent("\(kind).png"))
        #expect(image.width == 10 && image.height == 7)
        var mismatches = 0
        for y in 0..<7 {
            for x in 0..<10 {
                let i = (y * 10 + x) * 4
                let actual = Array(image.pixels[i..<(i + 4)])
                if actual != Self.expected(kind, x, y) {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record("\(kind) (\(x), \(y)): got \(actual), expected \(Self.expected(kind, x, y))")
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("a truncated PNG is an InputError naming the file")
    func truncatedPNG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let whole = folder.file("whole.png")
        try writePNG(patternImage(width: 200, height: 150), to: whole, compressionLevel: 0)
        let data = try Data(contentsOf: whole)
        for cut in [20, 60, data.count / 2, data.count - 20] {
            let url = folder.file("cut-\(cut).png")
            try data.prefix(cut).write(to: url)
            let error = #expect(throws: InputError.self) { try loadStill(url) }
            #expect(error?.location.file == url.path)
            #expect(error?.description.contains("cut-\(cut).png") == true)
        }
        let error = #expect(throws: InputError.self) {
            try loadStill(folder.file("cut-\(data.count / 2).png"))
        }
        #expect(error?.message.contains("truncated") == true)
    }

    @Test("a PNG with a corrupted image-data checksum is refused")
    func corruptPNG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("corrupt.png")
        try writePNG(patternImage(width: 30, height: 30), to: url)
        var data = try Data(contentsOf: url)
        data[data.count - 30] ^= 0xFF  // inside IDAT (IEND is the last 12 bytes)
        try data.write(to: url)
        #expect(throws: InputError.self) { try loadStill(url) }
    }
}
