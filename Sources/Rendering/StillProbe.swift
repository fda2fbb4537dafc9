import CDeflate
import CJPEG
import CPNG
import Foundation
import POIARCore

/// Checks a still without decoding its pixels: that it is a PNG or JPEG, that its header
/// reads (with libpng and libjpeg-turbo, as decoding will), that it fits the pixel budget,
/// and that the file is whole — a PNG's chunks run to `IEND`, a JPEG's scan reaches its end
/// marker. A replay probes every still before it writes anything, so a bad still anywhere in
/// a log fails the run before the first frame rather than in the middle of it.
///
/// It reads the file once and costs a fraction of decoding it. What it cannot see — bad
/// compressed data inside a whole file — is still refused when the still is decoded.
/// Returns the stored width and height (before EXIF orientation).
public func probeStill(_ url: URL, maxPixels: Int = defaultMaxStillPixels) throws -> (width: Int, height: Int) {
    try probeStillData(try readStill(url), file: url.path, maxPixels: maxPixels).size
}

/// `probeStill`, returning the size the still shows upright (its EXIF orientation applied):
/// the size a decoded still has, found without decoding it.
public func probeStillUpright(_ url: URL, maxPixels: Int = defaultMaxStillPixels) throws -> (width: Int, height: Int) {
    try probeStillUpright(data: try readStill(url), file: url.path, maxPixels: maxPixels)
}

/// `probeStillUpright` of a still's bytes (read from an archive); `file` names it in errors.
public func probeStillUpright(data: Data, file: String, maxPixels: Int = defaultMaxStillPixels) throws -> (width: Int, height: Int) {
    let (size, format) = try probeStillData(data, file: file, maxPixels: maxPixels)
    let orientation = format == .png ? ExifReader.pngOrientation(data) : ExifReader.jpegOrientation(data)
    return orientation?.swapsAxes == true ? (size.height, size.width) : size
}

/// The checks of `probeStill` on a still's bytes; its stored size and format.
func probeStillData(_ data: Data, file: String, maxPixels: Int) throws -> (size: (width: Int, height: Int), format: StillFormat) {
    switch StillFormat(sniffing: data) {
    case .png:
        let size = try pngHeaderSize(data, file: file)
        try checkPixelBudget(width: size.width, height: size.height, maxPixels: maxPixels, file: file)
        if let problem = pngStructureProblem(data) { throw InputError(file: file, "not a readable PNG: \(problem)") }
        return (size, .png)
    case .jpeg:
        let size = try jpegHeaderSize(data, file: file)
        try checkPixelBudget(width: size.width, height: size.height, maxPixels: maxPixels, file: file)
        if let problem = jpegStructureProblem(data) { throw InputError(file: file, "not a readable JPEG: \(problem)") }
        return (size, .jpeg)
    case nil:
        if data.isEmpty { throw InputError(file: file, "image file is empty") }
        throw InputError(file: file, "not a PNG or JPEG image (unrecognised first bytes \(hexPrefix(data)))")
    }
}

/// A frame file poiar wrote, checked whole before `merge` takes it: a PNG (not a JPEG or
/// anything else under a frame's name), whose header reads and whose chunks run to `IEND`
/// with every CRC right. Returns its width and height.
public func probeFramePNG(_ url: URL) throws -> (width: Int, height: Int) {
    let data = try readStill(url)
    switch StillFormat(sniffing: data) {
    case .png: return try probeStillData(data, file: url.path, maxPixels: .max).size
    case .jpeg: throw InputError(file: url.path, "is a JPEG, not the PNG poiar writes for a frame")
    case nil: throw InputError(file: url.path, data.isEmpty ? "is empty" : "is not a PNG (unrecognised first bytes \(hexPrefix(data)))")
    }
}

/// The still's bytes (memory-mapped when possible); a missing, folder or unreadable path is an
/// `InputError` naming it.
func readStill(_ url: URL) throws -> Data {
    let file = url.path
    do {
        return try Data(contentsOf: url, options: .mappedIfSafe)
    } catch {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) {
            throw InputError(file: file, "image file not found")
        }
        if isFolder.boolValue { throw InputError(file: file, "is a folder, not an image file") }
        throw InputError(file: file, "cannot read image file: \(error.localizedDescription)")
    }
}

/// Width and height from libpng's reading of the header chunks.
private func pngHeaderSize(_ data: Data, file: String) throws -> (width: Int, height: Int) {
    let decoder = UnsafeMutablePointer<poiar_png_decoder>.allocate(capacity: 1)
    decoder.initialize(to: poiar_png_decoder())
    defer { poiar_png_decoder_end(decoder); decoder.deallocate() }
    return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> (width: Int, height: Int) in
        let bytes = raw.bindMemory(to: UInt8.self)
        guard poiar_png_decoder_begin(decoder, bytes.baseAddress, bytes.count) == 0 else {
            let message = withUnsafeBytes(of: decoder.pointee.error.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw InputError(file: file, "not a readable PNG: \(message.isEmpty ? "unknown libpng error" : message)")
        }
        return (Int(decoder.pointee.width), Int(decoder.pointee.height))
    }
}

/// Width and height from libjpeg-turbo's reading of the header.
private func jpegHeaderSize(_ data: Data, file: String) throws -> (width: Int, height: Int) {
    guard let handle = tjInitDecompress() else {
        throw InputError(file: file, "cannot start the JPEG decoder: \(String(cString: tjGetErrorStr2(nil)))")
    }
    defer { tjDestroy(handle) }
    return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> (width: Int, height: Int) in
        let jpeg = raw.bindMemory(to: UInt8.self)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0 else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown libjpeg-turbo error"
            throw InputError(file: file, "not a readable JPEG: \(message)")
        }
        guard width > 0, height > 0 else { throw InputError(file: file, "not a readable JPEG: file is truncated (no frame header)") }
        return (Int(width), Int(height))
    }
}

/// Why a PNG's chunk sequence is not whole (PNG spec §5.3: length, type, data, CRC), or nil.
/// Each chunk's CRC-32 is checked too (libdeflate's, a few GB/s): a copy damaged inside keeps
/// its length but not its bytes, and would otherwise be found only when decoded, after
/// frames were written (or never, for a frame file `merge` puts into a video).
func pngStructureProblem(_ data: Data) -> String? {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
        let b = raw.bindMemory(to: UInt8.self)
        var offset = pngSignature.count
        var sawIDAT = false
        while true {
            guard b.count - offset >= 12 else {
                return "file is truncated (it ends after \(b.count) bytes, before the IEND chunk)"
            }
            let length = Int(b[offset]) << 24 | Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3])
            guard length <= 0x7FFF_FFFF else { return "chunk length \(length) at byte \(offset) is out of range" }
            let type = (b[offset + 4], b[offset + 5], b[offset + 6], b[offset + 7])
            guard b.count - offset - 12 >= length else {
                return "file is truncated (a chunk at byte \(offset) needs \(length + 12) bytes, \(b.count - offset) left)"
            }
            let stored = UInt32(b[offset + 8 + length]) << 24 | UInt32(b[offset + 9 + length]) << 16
                | UInt32(b[offset + 10 + length]) << 8 | UInt32(b[offset + 11 + length])
            let crc = UInt32(libdeflate_crc32(0, b.baseAddress! + offset + 4, 4 + length))
            guard crc == stored else {
                let name = String(decoding: [type.0, type.1, type.2, type.3], as: UTF8.self)
                return "the \(name) chunk at byte \(offset) is damaged (its CRC does not match its data)"
            }
            if type == (0x49, 0x44, 0x41, 0x54) { sawIDAT = true }  // IDAT
            if type == (0x49, 0x45, 0x4E, 0x44) { return sawIDAT ? nil : "no image data (no IDAT chunk)" }  // IEND
            offset += 12 + length
        }
    }
}

/// Why a JPEG is not whole, or nil: the scan after the first start-of-scan marker must reach
/// an end-of-image marker (FF D9). In entropy-coded data a 0xFF byte is always followed by 00
/// or a restart marker (JPEG spec B.1.1.5), so FF D9 there can only be the real end.
func jpegStructureProblem(_ data: Data) -> String? {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
        let b = raw.bindMemory(to: UInt8.self)
        let n = b.count
        // Most files end with the marker (some cameras append data after it).
        if n >= 4, b[n - 2] == 0xFF, b[n - 1] == 0xD9 { return nil }
        // Walk the marker segments to the first SOS (FF DA).
        var i = 2
        while true {
            while i < n, b[i] == 0xFF, i + 1 < n, b[i + 1] == 0xFF { i += 1 }  // fill bytes
            guard i + 1 < n else { return "file is truncated (it ends in the headers)" }
            guard b[i] == 0xFF else { return "corrupt marker at byte \(i)" }
            let marker = b[i + 1]
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            guard i + 3 < n else { return "file is truncated (it ends in the headers)" }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= n else { return "file is truncated (it ends in the headers)" }
            i += 2 + length
            if marker == 0xDA { break }
        }
        while i + 1 < n {
            if b[i] == 0xFF, b[i + 1] == 0xD9 { return nil }
            i += 1
        }
        return "file is truncated (the image data has no end marker)"
    }
}

func hexPrefix(_ data: Data) -> String {
    data.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
}
