import CDeflate
import CPNG
import Foundation
import POIARCore

/// PNG magic bytes (PNG spec §5.2).
let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// Decodes a PNG held in memory. Any colour type, bit depth and interlacing.
/// `file` names the source in errors; images over `maxPixels` are refused before decoding.
func decodePNG(_ data: Data, file: String, maxPixels: Int) throws -> RasterImage {
    let decoder = UnsafeMutablePointer<poiar_png_decoder>.allocate(capacity: 1)
    decoder.initialize(to: poiar_png_decoder())
    defer { poiar_png_decoder_end(decoder); decoder.deallocate() }
    return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RasterImage in
        let bytes = raw.bindMemory(to: UInt8.self)
        guard poiar_png_decoder_begin(decoder, bytes.baseAddress, bytes.count) == 0 else {
            throw InputError(file: file, "not a readable PNG: \(pngMessage(decoder))")
        }
        let width = Int(decoder.pointee.width), height = Int(decoder.pointee.height)
        try checkPixelBudget(width: width, height: height, maxPixels: maxPixels, file: file)
        var failure: String?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            if poiar_png_decoder_finish(decoder, buffer.baseAddress, width * 4) != 0 {
                failure = pngMessage(decoder)
                buffer.initialize(repeating: 0)  // never expose uninitialised memory
            }
            count = width * height * 4
        }
        if let failure { throw InputError(file: file, "not a readable PNG: \(failure)") }
        return RasterImage(width: width, height: height, pixels: pixels)
    }
}

private func pngMessage(_ decoder: UnsafeMutablePointer<poiar_png_decoder>) -> String {
    withUnsafeBytes(of: decoder.pointee.error.message) { raw in
        let message = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        return message.isEmpty ? "unknown libpng error" : message
    }
}

func checkPixelBudget(width: Int, height: Int, maxPixels: Int, file: String) throws {
    guard width > 0, height > 0 else {
        throw InputError(file: file, "image has no pixels (\(width)×\(height))")
    }
    guard width.multipliedReportingOverflow(by: height).overflow == false, width * height <= maxPixels else {
        let limit = maxPixels % 1_000_000 == 0 ? "\(maxPixels / 1_000_000) megapixels" : "\(maxPixels) pixels"
        throw InputError(file: file, "image is \(width)×\(height) pixels, over the limit of \(limit)")
    }
}

/// Writes `image` as a PNG, atomically: the bytes go to a temporary file in the same
/// folder, which is renamed over `url` only when complete, so a reader never sees a
/// half-written frame. An opaque image is written as 8-bit RGB, otherwise as 8-bit
/// RGBA (un-premultiplied). `compressionLevel` is zlib's 0 (fastest) … 9 (smallest); the
/// data is compressed with libdeflate at that level (faster than zlib, and smaller), every
/// row with the Up filter (CDeflate/shim.h).
public func writePNG(_ image: RasterImage, to url: URL, compressionLevel: Int = 6) throws {
    let path = url.path
    guard image.width > 0, image.height > 0 else {
        throw RenderingError.cannotWrite(path: path, reason: "the image has no pixels")
    }
    AtomicFile.makeFolder(for: url)
    let temporary = AtomicFile.temporaryURL(for: url).path
    let opaque = image.isOpaque
    let pixels = opaque ? image.pixels : unpremultiplied(image.pixels)
    var message = [CChar](repeating: 0, count: 240)
    let status = pixels.withUnsafeBufferPointer { buffer in
        poiar_png_write_deflate(temporary, UInt32(image.width), UInt32(image.height), image.bytesPerRow,
                                buffer.baseAddress, opaque ? 0 : 1,
                                Int32(max(0, min(9, compressionLevel))), &message, message.count)
    }
    guard status == 0 else {
        unlink(temporary)
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw RenderingError.cannotWrite(path: path, reason: reason)
    }
    try AtomicFile.replace(url, with: URL(fileURLWithPath: temporary), failure: { RenderingError.cannotWrite(path: path, reason: $0) })
}

/// Premultiplied B, G, R, A → straight B, G, R, A (rounded to nearest).
private func unpremultiplied(_ pixels: [UInt8]) -> [UInt8] {
    var out = pixels
    var i = 0
    while i < out.count {
        let a = Int(out[i + 3])
        if a == 0 {
            out[i] = 0; out[i + 1] = 0; out[i + 2] = 0
        } else if a < 255 {
            for c in i..<(i + 3) { out[c] = UInt8(min(255, (Int(out[c]) * 255 + a / 2) / a)) }
        }
        i += 4
    }
    return out
}
