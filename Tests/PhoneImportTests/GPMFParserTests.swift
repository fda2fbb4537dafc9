import Foundation
import POIARCore
import Testing
@testable import PhoneImport

/// GPMF KLV bytes made by hand, as the gpmf-parser README lays them out: key, type, structure
/// size, repeat (big-endian), data padded to 4 bytes.
enum KLV {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(v >> (56 - 8 * UInt64($0)) & 0xFF) } }
    static func f32(_ v: Float) -> [UInt8] { be32(Int(v.bitPattern)) }
    static func f64(_ v: Double) -> [UInt8] { be64(v.bitPattern) }

    /// One item: `data` is structSize × repeat bytes, padded here.
    static func item(_ key: String, _ type: Character, size: Int, count: Int, _ data: [UInt8]) -> [UInt8] {
        precondition(data.count == size * count)
        let padding = (4 - data.count % 4) % 4
        return Array(key.utf8) + [UInt8(type.asciiValue!), UInt8(size)] + be16(count) + data + [UInt8](repeating: 0, count: padding)
    }

    static func text(_ key: String, _ s: String) -> [UInt8] { item(key, "c", size: 1, count: s.utf8.count, Array(s.utf8)) }

    /// A nest (type 0) of `children`, each already padded.
    static func nest(_ key: String, _ children: [[UInt8]]) -> [UInt8] {
        let body = children.flatMap { $0 }
        return Array(key.utf8) + [0, 4] + be16(body.count / 4) + body
    }
}

@Suite struct GPMFParserTests {
    let file = "clip.mp4", payload = "GPMF payload 1 (at 0.000 s)"

    /// DEVC → STRM → ACCL, with a per-axis SCAL, ORIN and TSMP before it.
    func accelPayload(scale: [Int] = [10, 100, 1000]) -> [UInt8] {
        let accl = [(100, -200, 3000), (-10, 20, -30)].flatMap { KLV.be16(Int(UInt16(bitPattern: Int16($0.0)))) + KLV.be16(Int(UInt16(bitPattern: Int16($0.1)))) + KLV.be16(Int(UInt16(bitPattern: Int16($0.2)))) }
        return KLV.nest("DEVC", [
            KLV.item("DVID", "L", size: 4, count: 1, KLV.be32(1)),
            KLV.text("DVNM", "Test Camera"),
            KLV.nest("STRM", [
                KLV.item("TSMP", "L", size: 4, count: 1, KLV.be32(2)),
                KLV.text("STNM", "Accelerometer"),
                KLV.item("ORIN", "c", size: 3, count: 1, Array("YxZ".utf8)),
                KLV.item("SCAL", "s", size: 2, count: scale.count, scale.flatMap { KLV.be16($0) }),
                KLV.item("ACCL", "s", size: 6, count: 2, accl),
            ]),
        ])
    }

    @Test func nestedStreamWithPerAxisScale() throws {
        let items = try GPMFParser.parse(accelPayload(), file: file, payload: payload)
        #expect(items.map(\.key) == ["DEVC"])
        #expect(items[0].children.map(\.key) == ["DVID", "DVNM", "STRM"])
        #expect(items[0].children[2].children.map(\.key) == ["TSMP", "STNM", "ORIN", "SCAL", "ACCL"])
        let streams = try GPMFPayloadStreams.read(items, keys: ["ACCL"], file: file, payload: payload)
        #expect(streams.devices == ["Test Camera"])
        let accl = try #require(streams.streams("ACCL").first)
        #expect(accl.samples == [[10, -2, 3], [-1, 0.2, -0.03]])
        #expect(accl.text("ORIN") == "YxZ")
        #expect(accl.totalSamples == 2)
        #expect(accl.device == "Test Camera")
    }

    @Test func oneScaleForAllElementsAndAMismatchedCount() throws {
        let one = try GPMFPayloadStreams.read(try GPMFParser.parse(accelPayload(scale: [100]), file: file, payload: payload),
                                              keys: ["ACCL"], file: file, payload: payload)
        #expect(one.streams("ACCL").first?.samples == [[1, -2, 30], [-0.1, 0.2, -0.3]])
        let items = try GPMFParser.parse(accelPayload(scale: [1, 2]), file: file, payload: payload)
        let e = try #require(throws: (any Error).self) { try GPMFPayloadStreams.read(items, keys: ["ACCL"], file: file, payload: payload) }
        #expect("\(e)".hasPrefix("clip.mp4: GPMF payload 1 (at 0.000 s), byte "), "\(e)")
        #expect("\(e)".contains("SCAL has 2 divisors for ACCL's 3 elements"), "\(e)")
    }

    /// A divisor of 0 (one for all elements, or one of three) is refused, naming the stream:
    /// the raw integers are never used as if they were scaled.
    @Test func aZeroDivisorIsRefused() throws {
        for scale in [[0], [10, 0, 1000]] {
            let items = try GPMFParser.parse(accelPayload(scale: scale), file: file, payload: payload)
            let e = try #require(throws: (any Error).self) { try GPMFPayloadStreams.read(items, keys: ["ACCL"], file: file, payload: payload) }
            #expect("\(e)".hasPrefix("clip.mp4: GPMF payload 1 (at 0.000 s), byte "), "\(e)")
            #expect("\(e)".contains("SCAL divisor \(scale.count == 1 ? 1 : 2) of ACCL is 0.0: its samples cannot be scaled"), "\(e)")
        }
    }

    @Test func everyBasicType() throws {
        let bytes = KLV.nest("STRM", [
            KLV.item("VALb", "b", size: 1, count: 2, [0xFF, 0x7F]),
            KLV.item("VALB", "B", size: 1, count: 1, [0xFF]),
            KLV.item("VALs", "s", size: 2, count: 1, KLV.be16(0xFFFE)),
            KLV.item("VALS", "S", size: 2, count: 1, KLV.be16(0xFFFE)),
            KLV.item("VALl", "l", size: 4, count: 1, KLV.be32(-5 & 0xFFFF_FFFF)),
            KLV.item("VALL", "L", size: 4, count: 1, KLV.be32(0xFFFF_FFFF)),
            KLV.item("VALf", "f", size: 4, count: 1, KLV.f32(1.5)),
            KLV.item("VALd", "d", size: 8, count: 1, KLV.f64(-2.25)),
            KLV.item("VALj", "j", size: 8, count: 1, KLV.be64(UInt64(bitPattern: -7))),
            KLV.item("VALJ", "J", size: 8, count: 1, KLV.be64(80577)),
            KLV.item("VALq", "q", size: 4, count: 1, KLV.be32(0x0001_8000)),
            KLV.item("VALQ", "Q", size: 8, count: 1, KLV.be64(0x0000_0002_4000_0000)),
            KLV.item("GPSU", "U", size: 16, count: 1, Array("191118234514.000".utf8)),
            KLV.text("SIUN", "m/s\u{B2}"),
        ])
        let items = try GPMFParser.parse(bytes, file: file, payload: payload)[0].children
        func value(_ key: String) throws -> [Double] {
            try #require(items.first { $0.key == key }).samples(file: file, payload: payload).flatMap { $0 }
        }
        #expect(try value("VALb") == [-1, 127])
        #expect(try value("VALB") == [255])
        #expect(try value("VALs") == [-2])
        #expect(try value("VALS") == [65534])
        #expect(try value("VALl") == [-5])
        #expect(try value("VALL") == [4_294_967_295])
        #expect(try value("VALf") == [1.5])
        #expect(try value("VALd") == [-2.25])
        #expect(try value("VALj") == [-7])
        #expect(try value("VALJ") == [80577])
        #expect(try value("VALq") == [1.5])
        #expect(try value("VALQ") == [2.25])
        #expect(items.first { $0.key == "GPSU" }?.text == "191118234514.000")
        #expect(items.first { $0.key == "SIUN" }?.text == "m/s²")
        // Text holds no numbers: an error naming the item.
        let e = try #require(throws: (any Error).self) { try items.first { $0.key == "SIUN" }!.samples(file: file, payload: payload) }
        #expect("\(e)".contains("SIUN of type c holds no numbers"), "\(e)")
    }

    /// A `?` structure laid out by the stream's TYPE, as HERO11's GPS9 ("lllllllSS").
    @Test func complexStructureByType() throws {
        let sample = KLV.be32(331_267_700) + KLV.be32(-1_173_273_436 & 0xFFFF_FFFF) + KLV.be32(-22959 & 0xFFFF_FFFF) + KLV.be32(1046)
            + KLV.be32(100) + KLV.be32(7262) + KLV.be32(85_514_000) + KLV.be16(154) + KLV.be16(3)
        let bytes = KLV.nest("DEVC", [KLV.nest("STRM", [
            KLV.item("TYPE", "c", size: 1, count: 9, Array("lllllllSS".utf8)),
            KLV.item("SCAL", "l", size: 4, count: 9, [10_000_000, 10_000_000, 1000, 1000, 100, 1, 1000, 100, 1].flatMap { KLV.be32($0) }),
            KLV.item("GPS9", "?", size: 32, count: 1, sample),
        ])])
        let streams = try GPMFPayloadStreams.read(try GPMFParser.parse(bytes, file: file, payload: payload), keys: ["GPS9"], file: file, payload: payload)
        let s = try #require(streams.streams("GPS9").first?.samples.first)
        #expect(s.count == 9)
        #expect(abs(s[0] - 33.12677) <= 1e-9)
        #expect(abs(s[1] - (-117.3273436)) <= 1e-9)
        #expect(abs(s[6] - 85514) <= 1e-9)
        #expect(abs(s[7] - 1.54) <= 1e-9)
        #expect(s[8] == 3)
        #expect(GPMFType.expand("f[3]L") == Array("fffL".utf8))
        #expect(GPMFType.expand("f[x]") == nil)
        #expect(GPMFType.expand("fZ") == nil)
    }

    /// GPMF pads each item to 4 bytes and a nest's end with zero words.
    @Test func paddingAndZeroWords() throws {
        let bytes = KLV.nest("STRM", [
            KLV.item("DMO1", "b", size: 1, count: 1, [5]),
            KLV.item("DMO2", "b", size: 1, count: 15, [UInt8](repeating: 1, count: 15)),
            KLV.item("DMO3", "L", size: 4, count: 1, KLV.be32(9)),
            [0, 0, 0, 0],
        ])
        let items = try GPMFParser.parse(bytes, file: file, payload: payload)[0].children
        #expect(items.map(\.key) == ["DMO1", "DMO2", "DMO3"])
        #expect(items.map(\.offset) == [8, 20, 44])
        #expect(try items[2].samples(file: file, payload: payload) == [[9]])
    }

    @Test func aTruncatedPayloadIsAnErrorNamingTheFileAndTheByte() throws {
        let bytes = accelPayload()
        // Cut 4 bytes short: the outer nest claims more than is left.
        let cutShort = try #require(throws: (any Error).self) { try GPMFParser.parse(Array(bytes.prefix(bytes.count - 4)), file: file, payload: payload) }
        #expect("\(cutShort)" == "clip.mp4: GPMF payload 1 (at 0.000 s), byte 0: DEVC claims 124 bytes (31 × 4), only 120 remain: the telemetry is truncated")
        // A nest whose claim fits but whose last item does not (ACCL at byte 112 claims 12 bytes).
        var inner = bytes
        inner[119] = 3  // ACCL's repeat: 3 samples of 6 bytes, 18 bytes, where 12 (and padding) are
        let lastItem = try #require(throws: (any Error).self) { try GPMFParser.parse(inner, file: file, payload: payload) }
        #expect("\(lastItem)" == "clip.mp4: GPMF payload 1 (at 0.000 s), byte 112: ACCL claims 18 bytes (3 × 6), only 12 remain: the telemetry is truncated")
        // Cut inside an item header.
        let header = try #require(throws: (any Error).self) { try GPMFParser.parse(Array(bytes.prefix(4)), file: file, payload: payload) }
        #expect("\(header)".hasPrefix("clip.mp4: GPMF payload 1 (at 0.000 s), byte 0: an item header needs 8 bytes, only 4 remain"), "\(header)")
    }

    @Test func damagedBytesAreErrorsNotCrashes() throws {
        var bytes = accelPayload()
        bytes[8] = 0x01  // DVID's key
        let key = try #require(throws: (any Error).self) { try GPMFParser.parse(bytes, file: file, payload: payload) }
        #expect("\(key)".contains("byte 8: \"\\x01VID\" is not a GPMF key"), "\(key)")
        var unknown = accelPayload()
        unknown[12] = UInt8(ascii: "x")  // DVID's type
        let type = try #require(throws: (any Error).self) { try GPMFParser.parse(unknown, file: file, payload: payload) }
        #expect("\(type)".contains("DVID has the unknown GPMF type 0x78"), "\(type)")
        // Every prefix of a payload is read or refused, never read past.
        let whole = accelPayload()
        for n in 0...whole.count { _ = try? GPMFParser.parse(Array(whole.prefix(n)), file: file, payload: payload) }
    }
}
