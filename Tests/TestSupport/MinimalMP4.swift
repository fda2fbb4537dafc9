import Foundation

/// A small valid MP4 without a GPMF track: one second of silent 16-bit mono PCM at 8 kHz
/// (`twos`), the boxes of ISO/IEC 14496-12 written out by hand (ftyp, moov with one audio
/// trak and its sample table, mdat). What a phone's or another camera's video is to poiar: an
/// ISO media file that libavformat opens, with no telemetry.
public func minimalMP4WithoutTelemetry() -> Data {
    func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func box(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(8 + body.count) + Array(type.utf8) + body }
    func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ body: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body)
    }
    let unityMatrix = u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)
    let rate = 8000, samples = 8000, bytesPerSample = 2

    let ftyp = box("ftyp", Array("isom".utf8) + u32(512) + Array("isommp41".utf8))
    let mvhd = fullBox("mvhd", u32(0) + u32(0) + u32(1000) + u32(1000) + u32(0x0001_0000) + u16(0x0100) + [UInt8](repeating: 0, count: 10)
                       + unityMatrix + [UInt8](repeating: 0, count: 24) + u32(2))
    let tkhd = fullBox("tkhd", flags: 3, u32(0) + u32(0) + u32(1) + u32(0) + u32(1000) + [UInt8](repeating: 0, count: 8)
                       + u16(0) + u16(0) + u16(0x0100) + u16(0) + unityMatrix + u32(0) + u32(0))
    let mdhd = fullBox("mdhd", u32(0) + u32(0) + u32(rate) + u32(samples) + u16(0x55C4) + u16(0))
    let hdlr = fullBox("hdlr", u32(0) + Array("soun".utf8) + [UInt8](repeating: 0, count: 12) + Array("Sound\0".utf8))
    let smhd = fullBox("smhd", u16(0) + u16(0))
    let dinf = box("dinf", fullBox("dref", u32(1) + fullBox("url ", flags: 1, [])))
    // A QuickTime-style sound sample entry, version 0: PCM, 1 channel, 16 bits, 8000 Hz.
    let twos = box("twos", [UInt8](repeating: 0, count: 6) + u16(1) + u16(0) + u16(0) + u32(0)
                   + u16(1) + u16(16) + u16(0) + u16(0) + u32(rate << 16))
    let stsd = fullBox("stsd", u32(1) + twos)
    let stts = fullBox("stts", u32(1) + u32(samples) + u32(1))
    let stsc = fullBox("stsc", u32(1) + u32(1) + u32(samples) + u32(1))
    let stsz = fullBox("stsz", u32(bytesPerSample) + u32(samples))
    // The chunk's offset: after ftyp, moov and mdat's header; moov's size does not depend on it.
    func stco(_ offset: Int) -> [UInt8] { fullBox("stco", u32(1) + u32(offset)) }
    func moov(_ offset: Int) -> [UInt8] {
        let stbl = box("stbl", stsd + stts + stsc + stsz + stco(offset))
        let minf = box("minf", smhd + dinf + stbl)
        let mdia = box("mdia", mdhd + hdlr + minf)
        return box("moov", mvhd + box("trak", tkhd + mdia))
    }
    let offset = ftyp.count + moov(0).count + 8
    let mdat = box("mdat", [UInt8](repeating: 0, count: samples * bytesPerSample))
    return Data(ftyp + moov(offset) + mdat)
}

/// `data` (an MP4 whose boxes are ftyp, …, mdat, moov, as a GoPro writes them) with its index
/// (moov) moved to the front, before mdat, and every chunk offset (`stco`, `co64`) moved on by
/// moov's size: the layout of a "fast start" file, whose index survives when its end is cut off.
public func indexFirstMP4(_ data: Data) -> Data {
    let bytes = [UInt8](data)
    func be(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
    var boxes: [(type: String, range: Range<Int>)] = []
    var i = 0
    while i + 8 <= bytes.count {
        let size = be(i, 4)
        boxes.append((String(decoding: bytes[i + 4..<i + 8], as: UTF8.self), i..<i + size))
        i += size
    }
    guard let moovRange = boxes.first(where: { $0.type == "moov" })?.range else { return data }
    var moov = Array(bytes[moovRange])
    let shift = moov.count
    for (tag, width) in [("stco", 4), ("co64", 8)] {
        var j = 0
        while j < moov.count - 4, let found = (j..<moov.count - 4).first(where: { moov[$0..<$0 + 4].elementsEqual(tag.utf8) }) {
            let count = (0..<4).reduce(0) { $0 << 8 | Int(moov[found + 8 + $1]) }
            for k in 0..<count {
                let at = found + 12 + width * k
                let value = (0..<width).reduce(0) { $0 << 8 | Int(moov[at + $1]) } + shift
                for b in 0..<width { moov[at + b] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - b))) }
            }
            j = found + 12 + width * count
        }
    }
    var out: [UInt8] = []
    for box in boxes where box.type != "moov" {
        out += bytes[box.range]
        if box.type == "ftyp" { out += moov }
    }
    return Data(out)
}
