import Foundation
import Rendering

/// Golden-image comparison for the tests that draw: an image against a PNG on file, with a
/// tolerance (font rasterisers differ a little between FreeType and Cairo versions: shades of
/// an edge's pixels, an edge moved by a pixel), but none for a missing line or card. After a
/// deliberate change of the drawing, regenerate the files and look at them:
///
///     POIAR_UPDATE_GOLDEN=1 swift test --filter Golden
public enum GoldenImage {
    public static var updating: Bool { ProcessInfo.processInfo.environment["POIAR_UPDATE_GOLDEN"] == "1" }

    /// A channel off by more than this many levels makes a pixel differ.
    public static let levels = 48
    /// Differing pixels a match allows, in the whole image. A missing leader line differs along
    /// its length (tens of pixels at the smallest size drawn), a missing card in thousands.
    public static let allowedPixels = 12

    /// Nil when `image` matches the golden file `url` (or the file was just rewritten, when
    /// updating); else what differs. A pixel differs when a channel is off by more than
    /// `levels` from the other image's pixel there and from each of its 8 neighbours, checked
    /// both ways: a rasteriser that moves an edge by a pixel passes, a missing line does not.
    /// At most `allowedPixels` may differ, and the mean absolute channel difference must stay
    /// under 1.
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
        let (far, mean, first) = difference(image, golden)
        guard far > allowedPixels || mean >= 1.0 else { return nil }
        let at = first.map { " (the first at x \($0.x), y \($0.y))" } ?? ""
        return "\(url.lastPathComponent): \(far) pixels differ\(at), mean difference \(String(format: "%.2f", mean)) (regenerate with POIAR_UPDATE_GOLDEN=1 if the change is meant)"
    }

    /// The pixels of `a` and `b` (one size) that differ as `mismatch` counts them, the mean
    /// absolute channel difference, and the first differing pixel.
    public static func difference(_ a: RasterImage, _ b: RasterImage) -> (far: Int, mean: Double, first: (x: Int, y: Int)?) {
        let w = a.width, h = a.height
        func near(_ p: [UInt8], _ i: Int, _ q: [UInt8], _ j: Int) -> Bool {
            abs(Int(p[i]) - Int(q[j])) <= levels && abs(Int(p[i + 1]) - Int(q[j + 1])) <= levels
                && abs(Int(p[i + 2]) - Int(q[j + 2])) <= levels
        }
        /// Whether `p`'s pixel (x, y) is near one of `q`'s within one pixel of it.
        func matched(_ p: [UInt8], _ q: [UInt8], _ x: Int, _ y: Int) -> Bool {
            let i = (y * w + x) * 4
            for ny in max(0, y - 1)...min(h - 1, y + 1) {
                for nx in max(0, x - 1)...min(w - 1, x + 1) where near(p, i, q, (ny * w + nx) * 4) { return true }
            }
            return false
        }
        var far = 0, total = 0
        var first: (x: Int, y: Int)?
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                for c in 0..<3 { total += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
                guard !near(a.pixels, i, b.pixels, i) else { continue }
                if !matched(a.pixels, b.pixels, x, y) || !matched(b.pixels, a.pixels, x, y) {
                    far += 1
                    if first == nil { first = (x, y) }
                }
            }
        }
        return (far, Double(total) / Double(max(1, w * h * 3)), first)
    }
}
