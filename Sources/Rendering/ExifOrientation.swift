import Foundation

/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be turned to show the
/// picture upright. Values and meanings from the EXIF 2.32 specification (CIPA DC-008,
/// §4.6.4, table "Orientation"): each case names where the stored 0th row and 0th column
/// are on the upright picture.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 0th row at the top, 0th column on the left: as stored.
    case up = 1
    /// 0th row at the top, 0th column on the right: mirrored left–right.
    case upMirrored = 2
    /// 0th row at the bottom, 0th column on the right: turned 180°.
    case down = 3
    /// 0th row at the bottom, 0th column on the left: mirrored top–bottom.
    case downMirrored = 4
    /// 0th row on the left, 0th column at the top: transposed.
    case leftMirrored = 5
    /// 0th row on the right, 0th column at the top: turn 90° clockwise to show.
    case right = 6
    /// 0th row on the right, 0th column at the bottom: transversed.
    case rightMirrored = 7
    /// 0th row on the left, 0th column at the bottom: turn 90° anticlockwise to show.
    case left = 8

    /// True when the upright picture is the stored one on its side (width and height swap).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel shown at upright position (x, y) of an upright picture of
    /// `uprightWidth` × `uprightHeight` pixels.
    func storedPixel(x: Int, y: Int, uprightWidth w: Int, uprightHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, w - 1 - x)
        case .rightMirrored: (h - 1 - y, w - 1 - x)
        case .left: (h - 1 - y, x)
        }
    }
}

extension RasterImage {
    /// The picture turned upright: the stored pixels rearranged as `orientation` says.
    public func applying(_ orientation: ExifOrientation) -> RasterImage {
        if orientation == .up { return self }
        let w = orientation.swapsAxes ? height : width
        let h = orientation.swapsAxes ? width : height
        let sourceRow = bytesPerRow
        let out = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                let src = UnsafeRawPointer(source.baseAddress!).assumingMemoryBound(to: UInt32.self)
                let dst = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
                for y in 0..<h {
                    for x in 0..<w {
                        let s = orientation.storedPixel(x: x, y: y, uprightWidth: w, uprightHeight: h)
                        dst[y * w + x] = src[s.y * (sourceRow / 4) + s.x]
                    }
                }
            }
            count = w * h * 4
        }
        return RasterImage(width: w, height: h, pixels: out)
    }
}

/// Reads the orientation from EXIF data. The tag sits in IFD0 of a TIFF structure
/// (TIFF 6.0 §2: byte order "II"/"MM", 42, offset of IFD0; 12-byte entries), which a JPEG
/// carries in an APP1 segment after "Exif\0\0" (EXIF 2.32 §4.5.4) and a PNG in an `eXIf`
/// chunk (PNG 3rd edition §11.3.3.7). Anything unreadable or out of range counts as no tag:
/// a damaged EXIF block should not make a viewable picture unusable, and viewers treat it
/// the same way.
enum ExifReader {
    /// The orientation of a JPEG file's bytes; nil without a (readable) tag.
    static func jpegOrientation(_ data: Data) -> ExifOrientation? {
        data.withUnsafeBytes { raw -> ExifOrientation? in
            let b = raw.bindMemory(to: UInt8.self)
            guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
            var i = 2
            // Marker segments up to the start of scan (JPEG spec B.1.1.4): FF, marker, length (big-endian, includes itself).
            while i + 4 <= b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }  // fill byte
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan / end: no EXIF before the image data
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2, i + 2 + length <= b.count else { return nil }
                let body = i + 4, bodyLength = length - 2
                let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
                if marker == 0xE1, bodyLength > 6, (0..<6).allSatisfy({ b[body + $0] == exifHeader[$0] }) {
                    return tiffOrientation(UnsafeBufferPointer(rebasing: b[(body + 6)..<(body + bodyLength)]))
                }
                i += 2 + length
            }
            return nil
        }
    }

    /// The orientation of a PNG file's bytes (its `eXIf` chunk); nil without one.
    static func pngOrientation(_ data: Data) -> ExifOrientation? {
        data.withUnsafeBytes { raw -> ExifOrientation? in
            let b = raw.bindMemory(to: UInt8.self)
            var i = 8  // after the signature
            // Chunks (PNG spec §5.3): length (big-endian), type, data, CRC. eXIf comes before IDAT.
            while i + 8 <= b.count {
                let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
                let type = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 4)..<(i + 8)]), as: UTF8.self)
                guard length >= 0, i + 12 + length <= b.count else { return nil }
                if type == "eXIf" { return tiffOrientation(UnsafeBufferPointer(rebasing: b[(i + 8)..<(i + 8 + length)])) }
                if type == "IDAT" || type == "IEND" { return nil }
                i += 12 + length
            }
            return nil
        }
    }

    /// The Orientation entry of IFD0 in a TIFF structure.
    static func tiffOrientation(_ t: UnsafeBufferPointer<UInt8>) -> ExifOrientation? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true   // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for e in 0..<entries {
            let entry = ifd + 2 + 12 * e
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let value = u16(entry + 8) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
