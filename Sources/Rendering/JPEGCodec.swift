import CJPEG
import Foundation
import POIARCore

/// JPEG start-of-image marker followed by the first marker's 0xFF (JPEG spec B.1.1.2).
let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

/// Decodes a JPEG held in memory with libjpeg-turbo's TurboJPEG API (2.x: the
/// `tjDecompress2` family; the installed version has no tj3 API). Baseline and
/// progressive, grey, YCbCr and CMYK/YCCK files all come out as opaque B, G, R, A.
/// The pixels are as stored: EXIF orientation is applied by the caller (`loadStill`).
func decodeJPEG(_ data: Data, file: String, maxPixels: Int) throws -> RasterImage {
    guard let handle = tjInitDecompress() else {
        throw InputError(file: file, "cannot start the JPEG decoder: \(String(cString: tjGetErrorStr2(nil)))")
    }
    defer { tjDestroy(handle) }
    return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RasterImage in
        let jpeg = raw.bindMemory(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg.baseAddress, UInt(jpeg.count),
                                  &width, &height, &subsampling, &colourspace) == 0 else {
            throw InputError(file: file, "not a readable JPEG: \(jpegMessage(handle))")
        }
        let w = Int(width), h = Int(height)
        // libjpeg pads a file that ends inside the headers with a fake end marker.
        guard w > 0, h > 0 else { throw InputError(file: file, "not a readable JPEG: file is truncated (no frame header)") }
        try checkPixelBudget(width: w, height: h, maxPixels: maxPixels, file: file)
        // TurboJPEG cannot convert CMYK to RGB itself: take CMYK and convert below.
        let cmyk = colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue)
        let format = cmyk ? TJPF_CMYK : TJPF_BGRA
        var failure: String?
        var pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            buffer.initialize(repeating: 0)
            count = w * h * 4
            if tjDecompress2(handle, jpeg.baseAddress, UInt(jpeg.count), buffer.baseAddress,
                             width, Int32(w * 4), height, Int32(format.rawValue), 0) != 0 {
                let message = jpegMessage(handle)
                // A warning still yields an image, but one about damaged data (libjpeg's
                // "Corrupt JPEG data: …", a premature end, a broken progression) means
                // garbage or grey where the damage is: refused, never drawn silently.
                if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) || isDamageWarning(message) {
                    failure = message
                }
            }
        }
        if let failure {
            if failure.localizedCaseInsensitiveContains("premature end of jpeg file") {
                throw InputError(file: file, "not a readable JPEG: file is truncated (\(failure))")
            }
            if isDamageWarning(failure) {
                throw InputError(file: file, "the JPEG is damaged inside (libjpeg-turbo: \(failure)): its picture would be drawn with garbage where the damage is; replace the file")
            }
            throw InputError(file: file, "not a readable JPEG: \(failure)")
        }
        if cmyk { convertAdobeCMYKToBGRA(&pixels) }
        return RasterImage(width: w, height: h, pixels: pixels)
    }
}

/// Encodes an opaque image as a baseline JPEG (4:2:0, `quality` 1…100) with libjpeg-turbo.
/// Alpha is dropped: frames are opaque, so premultiplied B, G, R are the colours.
public func encodeJPEG(_ image: RasterImage, quality: Int, file: String) throws -> Data {
    guard let handle = tjInitCompress() else {
        throw InputError(file: file, "cannot start the JPEG encoder: \(String(cString: tjGetErrorStr2(nil)))")
    }
    defer { tjDestroy(handle) }
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    defer { if let buffer { tjFree(buffer) } }
    let status = image.pixels.withUnsafeBufferPointer {
        tjCompress2(handle, $0.baseAddress, Int32(image.width), Int32(image.bytesPerRow), Int32(image.height),
                    Int32(TJPF_BGRA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
    }
    guard status == 0, let buffer else { throw InputError(file: file, "cannot encode the JPEG: \(jpegMessage(handle))") }
    return Data(bytes: buffer, count: Int(size))
}

/// libjpeg's warnings that the compressed data is damaged (jerror.h: JWRN_HIT_MARKER,
/// JWRN_HUFF_BAD_CODE, JWRN_MUST_RESYNC, JWRN_EXTRANEOUS_DATA, JWRN_ARITH_BAD_CODE,
/// JWRN_JPEG_EOF, JWRN_BOGUS_PROGRESSION), as opposed to ones about metadata.
private func isDamageWarning(_ message: String) -> Bool {
    ["corrupt jpeg data", "premature end", "inconsistent progression"].contains { message.lowercased().contains($0) }
}

private func jpegMessage(_ handle: tjhandle) -> String {
    guard let message = tjGetErrorStr2(handle) else { return "unknown libjpeg-turbo error" }
    return String(cString: message)
}

/// CMYK as Adobe writes it in JPEGs (inverted: 255 = no ink) to opaque B, G, R, A:
/// R = C·K/255 and so on — the usual naive conversion, no colour management.
private func convertAdobeCMYKToBGRA(_ pixels: inout [UInt8]) {
    var i = 0
    while i < pixels.count {
        let c = Int(pixels[i]), m = Int(pixels[i + 1]), y = Int(pixels[i + 2]), k = Int(pixels[i + 3])
        pixels[i] = UInt8((y * k + 127) / 255)
        pixels[i + 1] = UInt8((m * k + 127) / 255)
        pixels[i + 2] = UInt8((c * k + 127) / 255)
        pixels[i + 3] = 255
        i += 4
    }
}
