import Foundation
import POIARCore
import Testing
@testable import Rendering

/// `probeStill`, the check a replay makes of every still before writing: every decodable
/// fixture passes with its stored size, and every cut-short copy of it is refused.
@Suite("Still probe")
struct StillProbeTests {
    static let stills: [URL] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path)) ?? []
        return names.filter { ($0.hasSuffix(".png") || $0.hasSuffix(".jpg")) && $0 != "exif-bad.jpg" }.sorted()
            .map { TestPaths.fixtures.appendingPathComponent($0) } + [TestPaths.lundStill]
    }()

    @Test func everyDecodableStillPassesWithItsStoredSize() throws {
        #expect(Self.stills.count >= 20)
        for url in Self.stills {
            let size = try probeStill(url)
            let data = try Data(contentsOf: url)
            let decoded = url.pathExtension == "png" ? try decodePNG(data, file: url.path, maxPixels: defaultMaxStillPixels)
                                                     : try decodeJPEG(data, file: url.path, maxPixels: defaultMaxStillPixels)
            #expect(size.width == decoded.width && size.height == decoded.height, "\(url.lastPathComponent)")
        }
    }

    /// Cut at many points, from inside the header to the last byte, each still is refused
    /// by the probe, never accepted.
    @Test func everyTruncationIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for url in Self.stills {
            let data = try Data(contentsOf: url)
            let cuts = Set([1, 8, 20, 60, data.count / 3, data.count / 2, data.count - 40, data.count - 3, data.count - 1]
                .filter { $0 > 0 && $0 < data.count })
            for cut in cuts.sorted() {
                let cutURL = folder.file("cut-\(cut)-\(url.lastPathComponent)")
                try data.prefix(cut).write(to: cutURL)
                var refused: InputError?
                do { _ = try probeStill(cutURL) } catch let e as InputError { refused = e }
                #expect(refused?.location.file == cutURL.path, "\(url.lastPathComponent) cut at \(cut) of \(data.count) was accepted")
            }
        }
    }

    @Test func thePixelBudgetIsCheckedFromTheHeader() throws {
        let error = #expect(throws: InputError.self) { try probeStill(TestPaths.lundStill, maxPixels: 1024 * 768 - 1) }
        #expect(error?.message == "image is 1024×768 pixels, over the limit of 786431 pixels")
        #expect(try probeStill(TestPaths.lundStill, maxPixels: 1024 * 768) == (1024, 768))
    }

    @Test func notAnImageAndEmptyAndMissingAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("just text".utf8).write(to: folder.file("text.png"))
        try Data().write(to: folder.file("empty.jpg"))
        for (name, message) in [("text.png", "not a PNG or JPEG image"), ("empty.jpg", "image file is empty"),
                                ("none.png", "image file not found")] {
            let error = #expect(throws: InputError.self) { try probeStill(folder.file(name)) }
            #expect(error?.location.file == folder.file(name).path)
            #expect(error?.message.hasPrefix(message) == true, "\(name): \(error?.message ?? "")")
        }
    }
}
