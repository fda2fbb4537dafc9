import Foundation
import POIARCore
import Testing
@testable import Rendering

@Suite("Loading stills")
struct StillLoaderTests {
    @Test("the Lund still decodes as a 1024×768 photograph")
    func lundJPEG() throws {
        let image = try loadStill(TestPaths.lundStill)
        #expect(image.width == 1024 && image.height == 768)
        #expect(image.isOpaque)
        // A 64×64 region in the middle: not black, and not one flat colour.
        var sum = 0, minimum = 255, maximum = 0
        for y in 352..<416 {
            for x in 480..<544 {
                let p = image.pixel(x: x, y: y)
                let luma = (Int(p.r) * 299 + Int(p.g) * 587 + Int(p.b) * 114) / 1000
                sum += luma; minimum = min(minimum, luma); maximum = max(maximum, luma)
            }
        }
        let mean = sum / (64 * 64)
        #expect(mean > 20 && mean < 240)
        #expect(maximum - minimum > 10)
    }

    @Test("a truncated JPEG is an InputError naming the file")
    func truncatedJPEG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let data = try Data(contentsOf: TestPaths.lundStill)
        for cut in [2, 200, data.count * 2 / 5] {
            let url = folder.file("cut-\(cut).jpg")
            try data.prefix(cut).write(to: url)
            let error = #expect(throws: InputError.self) { try loadStill(url) }
            #expect(error?.location.file == url.path)
        }
        let error = #expect(throws: InputError.self) { try loadStill(folder.file("cut-\(data.count * 2 / 5).jpg")) }
        #expect(error?.message.contains("truncated") == true)
    }

    @Test("the format comes from the content, not the file name")
    func sniffing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpegNamedPNG = folder.file("really-a-jpeg.png")
        try FileManager.default.copyItem(at: TestPaths.lundStill, to: jpegNamedPNG)
        #expect(try loadStill(jpegNamedPNG).width == 1024)

        let textNamedPNG = folder.file("notes.png")
        try Data("just some text\n".utf8).write(to: textNamedPNG)
        let error = #expect(throws: InputError.self) { try loadStill(textNamedPNG) }
        #expect(error?.location.file == textNamedPNG.path)
        #expect(error?.message.contains("not a PNG or JPEG") == true)
    }

    @Test("missing and empty files are InputErrors naming the file")
    func missingAndEmpty() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.file("absent.jpg")
        let error = #expect(throws: InputError.self) { try loadStill(missing) }
        #expect(error?.description == "\(missing.path): image file not found")

        let empty = folder.file("empty.jpg")
        try Data().write(to: empty)
        let emptyError = #expect(throws: InputError.self) { try loadStill(empty) }
        #expect(emptyError?.message == "image file is empty")
    }

    @Test("an image over the pixel budget is refused from its header")
    func pixelBudget() throws {
        let error = #expect(throws: InputError.self) { try loadStill(TestPaths.lundStill, maxPixels: 500_000) }
        #expect(error?.message.contains("1024×768") == true)
        let png = TestPaths.fixtures.appendingPathComponent("rgb8.png")
        #expect(throws: InputError.self) { try loadStill(png, maxPixels: 69) }
        #expect(try loadStill(png, maxPixels: 70).width == 10)
    }
}
