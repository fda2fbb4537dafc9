import Foundation
import POIARCore
import Testing
@testable import Rendering

/// The JPEG fixtures of tools/make_still_fixtures.py: a 24 × 16 upright picture of 3 × 2
/// blocks (8 × 8 px) in six colours, stored in every EXIF orientation and in other kinds.
@Suite("Still kinds and EXIF orientation")
struct StillKindsTests {
    /// The blocks' colours, row by row (make_still_fixtures.py BLOCKS).
    static let blocks: [[(Int, Int, Int)]] = [[(220, 40, 40), (40, 180, 60), (40, 80, 220)],
                                              [(240, 220, 40), (200, 60, 200), (30, 30, 30)]]

    func fixture(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent(name) }

    /// Checks the centre pixels of the six blocks against `expected` (r, g, b per block).
    func expectBlocks(_ image: RasterImage, tolerance: Int = 12, _ name: String,
                      expected: (Int, Int) -> (Int, Int, Int) = { StillKindsTests.blocks[$0][$1] },
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 24 && image.height == 16, "\(name): \(image.width)×\(image.height)", sourceLocation: sourceLocation)
        guard image.width == 24, image.height == 16 else { return }
        for by in 0..<2 {
            for bx in 0..<3 {
                let p = image.pixel(x: bx * 8 + 4, y: by * 8 + 4)
                let (r, g, b) = expected(by, bx)
                let close = abs(Int(p.r) - r) <= tolerance && abs(Int(p.g) - g) <= tolerance && abs(Int(p.b) - b) <= tolerance
                #expect(close, "\(name) block (\(bx), \(by)): \(p), expected (\(r), \(g), \(b))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("all 8 EXIF orientations come out upright", arguments: 1...8)
    func orientation(_ n: Int) throws {
        let data = try Data(contentsOf: fixture("exif-\(n).jpg"))
        #expect(ExifReader.jpegOrientation(data) == ExifOrientation(rawValue: n))
        let stored = try decodeJPEG(data, file: "exif-\(n).jpg", maxPixels: 1000)
        // As stored, 5–8 lie on their side.
        #expect(n >= 5 ? (stored.width == 16 && stored.height == 24) : (stored.width == 24 && stored.height == 16))
        expectBlocks(try loadStill(fixture("exif-\(n).jpg")), "exif-\(n).jpg")
    }

    @Test("a PNG's eXIf chunk is honoured too")
    func pngOrientation() throws {
        expectBlocks(try loadStill(fixture("exif-6.png")), "exif-6.png", expected: { StillKindsTests.blocks[$0][$1] })
        // A PNG is lossless: exact colours.
        expectBlocks(try loadStill(fixture("exif-6.png")), tolerance: 0, "exif-6.png")
    }

    @Test("a damaged EXIF block is ignored: the still is drawn as stored")
    func damagedExif() throws {
        let data = try Data(contentsOf: fixture("exif-bad.jpg"))
        #expect(ExifReader.jpegOrientation(data) == nil)
        let image = try loadStill(fixture("exif-bad.jpg"))
        #expect(image.width == 16 && image.height == 24)
    }

    @Test("the orientation transforms match the EXIF table on a 3 × 2 picture")
    func transforms() {
        // Stored picture (3 wide, 2 high): values 0…5 row by row, in the red channel.
        var stored = RasterImage(width: 3, height: 2)
        for y in 0..<2 { for x in 0..<3 { stored.setPixel(x: x, y: y, RGBA8(r: UInt8(10 * (y * 3 + x)), g: 0, b: 0)) } }
        func rows(_ image: RasterImage) -> [[Int]] {
            (0..<image.height).map { y in (0..<image.width).map { x in Int(image.pixel(x: x, y: y).r) / 10 } }
        }
        // Where the stored 0th row and column end up (EXIF 2.32, Orientation):
        #expect(rows(stored.applying(.up)) == [[0, 1, 2], [3, 4, 5]])
        #expect(rows(stored.applying(.upMirrored)) == [[2, 1, 0], [5, 4, 3]])         // 0th column on the right
        #expect(rows(stored.applying(.down)) == [[5, 4, 3], [2, 1, 0]])
        #expect(rows(stored.applying(.downMirrored)) == [[3, 4, 5], [0, 1, 2]])       // 0th row at the bottom
        #expect(rows(stored.applying(.leftMirrored)) == [[0, 3], [1, 4], [2, 5]])     // 0th row on the left, column at the top
        #expect(rows(stored.applying(.right)) == [[3, 0], [4, 1], [5, 2]])            // 0th row on the right, column at the top
        #expect(rows(stored.applying(.rightMirrored)) == [[5, 2], [4, 1], [3, 0]])    // 0th row right, column at the bottom
        #expect(rows(stored.applying(.left)) == [[2, 5], [1, 4], [0, 3]])             // 0th row left, column at the bottom
    }

    @Test("greyscale, progressive and CMYK JPEGs decode")
    func kinds() throws {
        expectBlocks(try loadStill(fixture("grey.jpg")), "grey.jpg", expected: { by, bx in
            let (r, g, b) = StillKindsTests.blocks[by][bx]
            let y = (r * 299 + g * 587 + b * 114) / 1000
            return (y, y, y)
        })
        // 4:2:0 blends colour across block edges, but not at block centres of 8 px blocks much.
        expectBlocks(try loadStill(fixture("progressive.jpg")), tolerance: 24, "progressive.jpg")
        expectBlocks(try loadStill(fixture("cmyk.jpg")), tolerance: 16, "cmyk.jpg")
    }

    @Test("every kind truncated is an InputError naming the file")
    func truncated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["exif-6.jpg", "grey.jpg", "progressive.jpg", "cmyk.jpg", "exif-6.png", "rgb16.png", "palette8.png"] {
            let data = try Data(contentsOf: fixture(name))
            let url = folder.file("cut-" + name)
            try data.prefix(data.count * 2 / 3).write(to: url)
            let error = #expect(throws: InputError.self, "\(name)") { try loadStill(url) }
            #expect(error?.location.file == url.path)
        }
    }
}

@Suite("Still folder: paths may not leave it")
struct StillFolderTests {
    @Test("inside paths resolve; absolute, .. and symlinked-out paths are refused; missing ones named")
    func refusal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = folder.url.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("stills"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: base.appendingPathComponent("stills/a.jpg"))
        try Data("secret".utf8).write(to: folder.file("outside.jpg"))
        try FileManager.default.createSymbolicLink(atPath: base.appendingPathComponent("stills/link.jpg").path,
                                                   withDestinationPath: folder.file("outside.jpg").path)
        try FileManager.default.createSymbolicLink(atPath: base.appendingPathComponent("inner.jpg").path,
                                                   withDestinationPath: base.appendingPathComponent("stills/a.jpg").path)
        let stills = StillFolder(base, role: "the log's folder")
        #expect(try stills.resolve("stills/a.jpg").path == base.appendingPathComponent("stills/a.jpg").path)
        #expect(try stills.resolve("stills/../stills/./a.jpg").lastPathComponent == "a.jpg")
        #expect(try stills.resolve("inner.jpg").lastPathComponent == "inner.jpg")  // a link that stays inside
        for bad in ["../outside.jpg", "stills/../../outside.jpg", folder.file("outside.jpg").path, "stills/link.jpg"] {
            #expect(throws: StillFolder.Refusal.self, "\(bad)") { try stills.resolve(bad) }
            do { _ = try stills.resolve(bad) } catch {
                #expect(error.description.contains("leaves the log's folder"))
            }
        }
        #expect(throws: StillFolder.Refusal.missing(path: base.appendingPathComponent("stills/b.jpg").path)) {
            try stills.resolve("stills/b.jpg")
        }
        #expect(throws: StillFolder.Refusal.missing(path: base.appendingPathComponent("stills").path)) {
            try stills.resolve("stills")
        }
    }
}
