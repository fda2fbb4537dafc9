/// A decoded or rendered image: 8 bits per channel, 4 bytes per pixel, rows packed
/// top to bottom (`bytesPerRow == width * 4`), colour premultiplied by alpha.
///
/// The byte order is B, G, R, A — Cairo's `CAIRO_FORMAT_ARGB32` on little-endian
/// machines (every platform poiar builds for), so an image passes to and from Cairo
/// with a plain copy.
public struct RasterImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `height * bytesPerRow` bytes: B, G, R, A (premultiplied) per pixel.
    public var pixels: [UInt8]

    public var bytesPerRow: Int { width * 4 }

    /// An image from existing pixel bytes (B, G, R, A premultiplied, rows packed).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RasterImage: \(pixels.count) bytes do not make \(width)×\(height) pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour (given un-premultiplied).
    public init(width: Int, height: Int, filledWith colour: RGBA8 = RGBA8(r: 0, g: 0, b: 0, a: 255)) {
        let p = colour.premultipliedBGRA
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = p.0; pixels[i + 1] = p.1; pixels[i + 2] = p.2; pixels[i + 3] = p.3
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixel at column x, row y, un-premultiplied (exact when alpha is 255).
    public func pixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
        let i = y * bytesPerRow + x * 4
        return RGBA8(premultipliedB: pixels[i], g: pixels[i + 1], r: pixels[i + 2], a: pixels[i + 3])
    }

    /// Sets the pixel at column x, row y (colour given un-premultiplied).
    public mutating func setPixel(x: Int, y: Int, _ colour: RGBA8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
        let i = y * bytesPerRow + x * 4
        let p = colour.premultipliedBGRA
        pixels[i] = p.0; pixels[i + 1] = p.1; pixels[i + 2] = p.2; pixels[i + 3] = p.3
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }
}

/// One colour, 8 bits per channel, not premultiplied.
public struct RGBA8: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Un-premultiplies a stored pixel (rounding to nearest).
    init(premultipliedB b: UInt8, g: UInt8, r: UInt8, a: UInt8) {
        func un(_ c: UInt8) -> UInt8 {
            guard a != 0 else { return 0 }
            return UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a)))
        }
        self.init(r: un(r), g: un(g), b: un(b), a: a)
    }

    /// (B, G, R, A) with colour premultiplied by alpha, rounded as the PNG decoder does.
    var premultipliedBGRA: (UInt8, UInt8, UInt8, UInt8) {
        func pre(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
        return (pre(b), pre(g), pre(r), a)
    }

    public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}

extension RasterImage {
    /// This image faded toward `other` (same size): each byte (1 − t)·self + t·other, t in
    /// 0…1, rounded; premultiplied colour blends the same way.
    public func crossFade(to other: RasterImage, fraction t: Double) -> RasterImage {
        precondition(other.width == width && other.height == height, "crossFade: images of different sizes")
        let w = UInt32((max(0, min(1, t)) * 256).rounded())
        var out = pixels
        other.pixels.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { a in
                for i in 0..<a.count {
                    a[i] = UInt8((UInt32(a[i]) * (256 - w) + UInt32(b[i]) * w + 128) >> 8)
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: out)
    }
}
