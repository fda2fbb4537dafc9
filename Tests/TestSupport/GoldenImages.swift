import Foundation
import Rendering

/// Golden-image comparison for the tests that draw: an image against a PNG on file, with a
/// tolerance (font rasterisers differ a little between FreeType and Cairo versions). After a
/// deliberate change of the drawing, regenerate the files and look at them:
///
///     POIAR_UPDATE_GOLDEN=1 swift test --filter Golden
public enum GoldenImage {
    public static var updating: Bool { ProcessInfo.processInfo.environment["POIAR_UPDATE_GOLDEN"] == "1" }

    /// Nil when `image` matches the golden file `url` (or the file was just rewritten, when
    /// updating); else what differs: the share of pixels with a channel off by more than 48
    /// levels (at most 0.2 %) and the mean absolute channel difference (under 1).
    public static func mismatch(_ image: RasterImage, _ url: URL) throws -> String? {
        if updating {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try writePNG(image, to: url, compressionLevel: 9)
            return nil
        }
        let golden = try loadStill(url)
        guard golden.width == image.width, golden.height == image.height else {
            return "\(url.lastPathComponent): size \(image.width)×\(image.height), golden \(golden.width)×\(golden.height)"
        }
        var far = 0, total = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            var worst = 0
            for c in 0..<3 {
                let d = abs(Int(image.pixels[i + c]) - Int(golden.pixels[i + c]))
                worst = max(worst, d)
                total += d
            }
            if worst > 48 { far += 1 }
        }
        let pixels = image.width * image.height
        let farShare = Double(far) / Double(pixels), mean = Double(total) / Double(pixels * 3)
        guard farShare >= 0.002 || mean >= 1.0 else { return nil }
        return "\(url.lastPathComponent): \(String(format: "%.3f", farShare * 100)) % of pixels differ, mean difference \(String(format: "%.2f", mean)) (regenerate with POIAR_UPDATE_GOLDEN=1 if the change is meant)"
    }
}
