import Foundation
import POIARCore
import Testing
@testable import POIStore

/// Tests/Fixtures/web and Tests/Fixtures/pois (see Tests/Fixtures/README.md).
let fixtures: URL = sharedOSMData.deletingLastPathComponent()

/// ../shared/data/osm beside the repository, when it is there (a fresh clone may not have it).
let realOSMData: URL = sharedOSMData.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/osm")

@Suite struct PBFImportTests {
    static let slice = sharedOSMData.appendingPathComponent("helsinki-slice.osm.pbf")

    @Test func importsTheHelsinkiSlice() throws {
        let (format, parsed) = try POIImport.parse(Self.slice)
        #expect(format == .osmPBF)
        let engel = try #require(parsed.pois.first { $0.id == "osm:node/307465178" })
        #expect(engel.name == "Cafe Engel")
        #expect(engel.categories == ["cafe"])
        // Coordinates come out exactly as the 7 decimals stored.
        #expect(engel.coordinate == GeoCoordinate(latitude: 60.1689130, longitude: 24.9517450))
        #expect(engel.address == "Aleksanterinkatu 26, 00170 Helsinki")
        #expect(engel.openingHours == "Mo-Fr 08:00-21:00; Sa 09:00-21:00; Su 10:00-19:00")
        #expect(parsed.pois.filter { $0.categories.contains("cafe") }.count == 89)
        // A cafe that is also a tea shop: two categories, the cafe first.
        let teemaa = try #require(parsed.pois.first { $0.id == "osm:node/311747780" })
        #expect(teemaa.category == "cafe")
        #expect(teemaa.categories == ["cafe", "store"])
        // Ways at their centroid, inside the building.
        let ateneum = try #require(parsed.pois.first { $0.id == "osm:way/8033120" })
        #expect(ateneum.category == "museum")
        #expect(ateneum.website == "http://www.vanhaylioppilastalo.fi/")
        #expect(geodesicDistance(ateneum.coordinate, GeoCoordinate(latitude: 60.17002, longitude: 24.94407)) < 5)
        // Multipolygon relations at the centroid of their outer rings (one of them joined from
        // several open ways).
        let hotel = try #require(parsed.pois.first { $0.id == "osm:relation/5608" })
        #expect(hotel.category == "hotel")
        #expect(geodesicDistance(hotel.coordinate, GeoCoordinate(latitude: 60.16754, longitude: 24.94097)) < 5)
        let mall = try #require(parsed.pois.first { $0.id == "osm:relation/9630" })
        #expect(mall.category == "store")
        #expect(geodesicDistance(mall.coordinate, GeoCoordinate(latitude: 60.16979, longitude: 24.94184)) < 5)
        #expect(parsed.skipped[SkipReason.noCategory, default: 0] > 0)
        // Names in other languages stay in the tags, for --lang.
        let kiasma = try #require(parsed.pois.first { $0.id == "osm:way/8042215" })
        #expect(kiasma.localized(to: "en").name == "Museum of Modern Art Kiasma")
        #expect(kiasma.localized(to: "xx").name == "Kiasma")
    }

    @Test func reimportingUpdates() throws {
        let db = try POIDatabase()
        let first = try POIImport.importFile(Self.slice, into: db)
        #expect(first.imported > 100 && first.updated == 0)
        #expect(first.description.contains("(OSM PBF)"))
        let second = try POIImport.importFile(Self.slice, into: db)
        #expect(second.imported == 0 && second.updated == first.imported)
        #expect(try db.count() == first.imported)
        let hits = try db.query(near: GeoCoordinate(latitude: 60.1664, longitude: 24.9378), radius: 50, categories: ["store"])
        #expect(hits.map(\.poi.id).contains("osm:node/311747780"))
    }

    static let sharedList = SharedData.required("osm/Helsinki.osm.pbf", "osm/Helsinki.cafe-restaurant.csv")

    @Test(sharedList.trait)
    func matchesTheSharedCafeRestaurantList() throws {
        try Self.sharedList.check()
        let (_, parsed) = try POIImport.parse(realOSMData.appendingPathComponent("Helsinki.osm.pbf"))
        let byID = Dictionary(uniqueKeysWithValues: parsed.pois.map { ($0.id, $0) })
        let csv = try String(contentsOf: realOSMData.appendingPathComponent("Helsinki.cafe-restaurant.csv"), encoding: .utf8)
        var rows = 0
        for line in csv.split(separator: "\n").dropFirst() {
            // id,category,name,lat,lon — names may hold commas, so read from both ends.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let id = fields[0], category = fields[1]
            let lat = Double(fields[fields.count - 2])!, lon = Double(fields[fields.count - 1])!
            let poi = try #require(byID[id], "\(id)")
            #expect(poi.categories.contains(category), "\(id)")
            #expect(poi.coordinate == GeoCoordinate(latitude: lat, longitude: lon), "\(id)")
            rows += 1
        }
        #expect(rows == 303)
        let nodes = parsed.pois.filter { $0.id.hasPrefix("osm:node/") }
        #expect(nodes.filter { $0.categories.contains("cafe") }.count == 89)
        #expect(nodes.filter { $0.categories.contains("restaurant") && $0.tags["amenity"] == "restaurant" }.count == 214)
    }

    // MARK: Bad input

    func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: Self.slice)) }

    /// The byte offsets of the blobs (their 4-byte header length) in a PBF.
    func blobOffsets(_ b: [UInt8]) -> [Int] {
        var offsets: [Int] = [], i = 0
        while i + 4 <= b.count {
            offsets.append(i)
            let headerLength = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            // datasize is the varint after field 3's key (0x18) in the header.
            let header = Array(b[(i + 4)..<(i + 4 + headerLength)])
            let k = header.lastIndex(of: 0x18)!
            var size = 0, shift = 0, j = k + 1
            while true { size |= Int(header[j] & 0x7F) << shift; if header[j] < 0x80 { break }; shift += 7; j += 1 }
            i += 4 + headerLength + size
        }
        return offsets
    }

    func parseError(_ b: [UInt8], name: String = "bad.osm.pbf") -> InputError? {
        inputError { _ = try PBFImporter.parse(Data(b), file: name) }
    }

    @Test func truncatedFilesNameTheBlob() throws {
        let b = try bytes()
        let offsets = blobOffsets(b)
        #expect(offsets.count == 4)
        // Cut inside the second blob's data.
        let cut = Array(b[..<(offsets[2] - 100)])
        let error = try #require(parseError(cut))
        #expect(error.location.file == "bad.osm.pbf")
        #expect(error.location.field == "blob 2 at byte offset \(offsets[1])")
        #expect(error.message.hasPrefix("truncated OSM PBF"))
        // Cut inside a header length.
        let e2 = try #require(parseError(Array(b[..<(offsets[3] + 2)])))
        #expect(e2.location.field == "blob 4 at byte offset \(offsets[3])")
        #expect(e2.message.contains("stray byte"))
    }

    @Test func corruptZlibDataIsAnError() throws {
        var b = try bytes()
        let offsets = blobOffsets(b)
        // Scribble over the middle of the first data blob's compressed bytes.
        let middle = (offsets[1] + offsets[2]) / 2
        for i in middle..<(middle + 16) { b[i] ^= 0x5A }
        let error = try #require(parseError(b))
        #expect(error.location.field == "blob 2 at byte offset \(offsets[1])")
        #expect(error.message.contains("zlib"))
    }

    @Test func wrongSizesAreErrors() throws {
        let b = try bytes()
        // A header length far beyond the 64 KiB limit.
        var huge = b
        huge[0] = 0x7F
        let e1 = try #require(parseError(huge))
        #expect(e1.location.field == "blob 1 at byte offset 0")
        #expect(e1.message.contains("BlobHeader size"))
        // A blob that claims more bytes than the file has.
        let first = PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6"]))
        let body = PBFBuilder.bytesField(1, PBFBuilder.block(strings: [""], dense: []))
        let header = PBFBuilder.bytesField(1, Array("OSMData".utf8)) + PBFBuilder.varintField(3, UInt64(body.count + 1000))
        let long = first + [0, 0, 0, UInt8(header.count)] + header + body
        let e2 = try #require(parseError(long))
        #expect(e2.location.field == "blob 2 at byte offset \(first.count)")
        #expect(e2.message == "truncated OSM PBF: the OSMData blob needs \(body.count + 1000) bytes, \(body.count) left")
        // A raw_size that does not match the zlib data is caught by the inflater.
    }

    @Test func notAPBFAndUnsupportedFeatures() throws {
        // A .pbf file that is text.
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let text = try write("hello\n", to: "x.osm.pbf", in: folder)
        let e1 = try #require(inputError { _ = try POIImport.parse(text) })
        #expect(e1.location.file == text.path)
        #expect(e1.message.contains("PBF") || e1.message.contains("BlobHeader"))
        // A feature poiar does not read.
        let other = PBFBuilder.file([PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6", "Sort.Type_then_ID"]))])
        let e2 = try #require(parseError(other))
        #expect(e2.message.contains("Sort.Type_then_ID"))
        // A first blob that is not a header.
        let noHeader = PBFBuilder.file([PBFBuilder.blob("OSMData", [])])
        #expect(parseError(noHeader)?.message.contains("expected \"OSMHeader\"") == true)
        // lzma-compressed data.
        let lzma = PBFBuilder.file([PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6"])),
                                    PBFBuilder.rawBlob("OSMData", PBFBuilder.bytesField(4, [1, 2, 3]))])
        let e3 = try #require(parseError(lzma))
        #expect(e3.location.field == "blob 2 at byte offset \(PBFBuilder.lastOffset(lzma))")
        #expect(e3.message.contains("lzma"))
    }

    @Test func badElementsAreErrors() throws {
        let header = PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6", "DenseNodes"]))
        // A node whose tag points past the string table.
        let badString = PBFBuilder.file([header, PBFBuilder.blob("OSMData", PBFBuilder.block(
            strings: ["", "amenity"], dense: [(id: 1, lat: 600_000_000, lon: 240_000_000, tags: [(1, 7)])]))])
        #expect(parseError(badString)?.message.contains("string index 7 is out of range") == true)
        // A latitude beyond 90°.
        let badLat = PBFBuilder.file([header, PBFBuilder.blob("OSMData", PBFBuilder.block(
            strings: [""], dense: [(id: 5, lat: 950_000_000, lon: 0, tags: [])]))])
        let error = try #require(parseError(badLat))
        #expect(error.message.contains("node 5"))
        #expect(error.message.contains("out of range"))
        // A good one, for contrast: read with the granularity default of 100 nanodegrees.
        let good = PBFBuilder.file([header, PBFBuilder.blob("OSMData", PBFBuilder.block(
            strings: ["", "amenity", "cafe", "name", "Kahvila"], dense: [(id: 9, lat: 601_234_567, lon: 249_876_543, tags: [(1, 2), (3, 4)])]))])
        let parsed = try PBFImporter.parse(Data(good), file: "good.pbf")
        #expect(parsed.pois.map(\.id) == ["osm:node/9"])
        #expect(parsed.pois[0].coordinate == GeoCoordinate(latitude: 60.1234567, longitude: 24.9876543))
        #expect(parsed.pois[0].name == "Kahvila")
        // A duplicate node id is counted, not imported twice.
        let duplicate = PBFBuilder.file([header, PBFBuilder.blob("OSMData", PBFBuilder.block(
            strings: ["", "amenity", "cafe"], dense: [(id: 9, lat: 1, lon: 1, tags: [(1, 2)]), (id: 9, lat: 2, lon: 2, tags: [(1, 2)])]))])
        let dup = try PBFImporter.parse(Data(duplicate), file: "dup.pbf")
        #expect(dup.pois.count == 1)
        #expect(dup.skipped[SkipReason.duplicateID] == 1)
    }

    @Test func compressedXMLSources() throws {
        for name in ["West-Oakland.osm.bz2", "West-Oakland.osm.gz"] {
            let (format, parsed) = try POIImport.parse(sharedOSMData.appendingPathComponent(name))
            #expect(format == .osmXML)
            #expect(parsed.pois.contains { $0.id == "osm:node/1747162566" && $0.name == "Revolution Cafe" })
        }
        let db = try POIDatabase()
        let report = try POIImport.importFile(sharedOSMData.appendingPathComponent("West-Oakland.osm.bz2"), into: db)
        #expect(report.description.contains("(OSM XML, bzip2)"))
        // A damaged bzip2 file.
        var b = [UInt8](try Data(contentsOf: sharedOSMData.appendingPathComponent("West-Oakland.osm.bz2")))
        for i in 200..<240 { b[i] ^= 0xFF }
        let folder = try makeTemporaryFolder()
        defer { cleanUp(folder) }
        let bad = folder.appendingPathComponent("bad.osm.bz2")
        try Data(b).write(to: bad)
        let error = try #require(inputError { _ = try POIImport.parse(bad) })
        #expect(error.location.file == bad.path)
        #expect(error.message.contains("bzip2"))
        let cut = folder.appendingPathComponent("cut.osm.bz2")
        try Data(b.prefix(100)).write(to: cut)
        #expect(inputError { _ = try POIImport.parse(cut) }?.message.contains("bzip2") == true)
    }
}

/// Writes small PBF files for tests (the format as in PBFImporter's documentation).
enum PBFBuilder {
    static func varint(_ v: UInt64) -> [UInt8] {
        var v = v, out: [UInt8] = []
        repeat {
            var byte = UInt8(v & 0x7F)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            out.append(byte)
        } while v != 0
        return out
    }
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func varintField(_ field: Int, _ v: UInt64) -> [UInt8] { varint(UInt64(field << 3)) + varint(v) }
    static func bytesField(_ field: Int, _ b: [UInt8]) -> [UInt8] { varint(UInt64(field << 3 | 2)) + varint(UInt64(b.count)) + b }
    static func packed(_ field: Int, _ values: [UInt64]) -> [UInt8] { bytesField(field, values.flatMap(varint)) }

    static func header(_ features: [String]) -> [UInt8] { features.flatMap { bytesField(4, Array($0.utf8)) } }

    /// A PrimitiveBlock with one DenseNodes group (with DenseInfo's versions and `visible`
    /// flags, as in a history file, when given).
    static func block(strings: [String], dense: [(id: Int64, lat: Int64, lon: Int64, tags: [(UInt64, UInt64)])],
                      versions: [UInt64]? = nil, visible: [Bool]? = nil) -> [UInt8] {
        let table = bytesField(1, strings.flatMap { bytesField(1, Array($0.utf8)) })
        var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = [], kv: [UInt64] = []
        var pid: Int64 = 0, plat: Int64 = 0, plon: Int64 = 0
        for n in dense {
            ids.append(zigzag(n.id - pid)); lats.append(zigzag(n.lat - plat)); lons.append(zigzag(n.lon - plon))
            pid = n.id; plat = n.lat; plon = n.lon
            for (k, v) in n.tags { kv += [k, v] }
            kv.append(0)
        }
        let info = versions == nil && visible == nil ? []
            : bytesField(5, (versions.map { packed(1, $0) } ?? []) + (visible.map { flags in packed(6, flags.map { $0 ? 1 : 0 }) } ?? []))
        let group = bytesField(2, packed(1, ids) + info + packed(8, lats) + packed(9, lons) + packed(10, kv))
        return table + bytesField(2, group)
    }

    /// A blob holding `payload` uncompressed (`raw`).
    static func blob(_ type: String, _ payload: [UInt8]) -> [UInt8] { rawBlob(type, bytesField(1, payload)) }

    /// A blob whose Blob message is `body` as given.
    static func rawBlob(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let header = bytesField(1, Array(type.utf8)) + varintField(3, UInt64(body.count))
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + body
    }

    static func file(_ blobs: [[UInt8]]) -> [UInt8] { blobs.flatMap { $0 } }

    /// The offset of the second blob (after the first one).
    static func lastOffset(_ b: [UInt8]) -> Int {
        let headerLength = Int(b[3])
        let header = Array(b[4..<(4 + headerLength)])
        let k = header.lastIndex(of: 0x18)!
        var size = 0, shift = 0, j = k + 1
        while true { size |= Int(header[j] & 0x7F) << shift; if header[j] < 0x80 { break }; shift += 7; j += 1 }
        return 4 + headerLength + size
    }
}
