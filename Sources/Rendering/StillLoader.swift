import Foundation
import POIARCore

/// The largest still `loadStill` decodes by default: 100 megapixels (400 MB of pixels). A
/// budget of memory, not a side: a still is scaled into the frame it is drawn in, so its sides
/// are not bound by `ImageLimits.maxSide` (the frame's are).
public let defaultMaxStillPixels = 100_000_000

/// Loads a camera still (PNG or JPEG, told apart by their magic bytes, not the file
/// name) as premultiplied B, G, R, A pixels, turned upright as its EXIF orientation says
/// (JPEG APP1 or PNG `eXIf`; all 8 orientations), so width and height are the upright
/// picture's.
///
/// A missing, empty, truncated or undecodable file, or one over `maxPixels` (checked
/// from the header, before decoding), throws an `InputError` naming the file.
public func loadStill(_ url: URL, maxPixels: Int = defaultMaxStillPixels) throws -> RasterImage {
    let file = url.path
    let data = try readStill(url)
    return try decodeStill(data, file: file, maxPixels: maxPixels)
}

/// Decodes still bytes by their format (turned upright as `loadStill`); `file` names them in
/// errors.
public func decodeStill(_ data: Data, file: String, maxPixels: Int = defaultMaxStillPixels) throws -> RasterImage {
    switch StillFormat(sniffing: data) {
    case .png:
        let image = try decodePNG(data, file: file, maxPixels: maxPixels)
        return ExifReader.pngOrientation(data).map { image.applying($0) } ?? image
    case .jpeg:
        let image = try decodeJPEG(data, file: file, maxPixels: maxPixels)
        return ExifReader.jpegOrientation(data).map { image.applying($0) } ?? image
    case nil:
        if data.isEmpty { throw InputError(file: file, "image file is empty") }
        throw InputError(file: file, "not a PNG or JPEG image (unrecognised first bytes \(hexPrefix(data)))")
    }
}

/// The still formats poiar decodes, recognised by magic bytes.
enum StillFormat: Equatable {
    case png, jpeg

    init?(sniffing data: Data) {
        if data.starts(with: pngSignature) {
            self = .png
        } else if data.starts(with: jpegSignature) {
            self = .jpeg
        } else {
            return nil
        }
    }
}
