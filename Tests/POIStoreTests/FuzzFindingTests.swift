import Foundation
import POIARCore
import Testing
@testable import POIStore

/// Inputs the fuzz targets (fuzz/, docs/robustness.md "Fuzzing") found that crashed or misled a
/// POI reader. The files are kept in Tests/Fixtures/fuzz/<target>/; each must now give valid
/// POIs or a one-line `InputError` naming the file.
@Suite struct POIStoreFuzzFindingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static func inputs(_ target: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [URL] {
        try FuzzCorpus.files(target, sourceLocation: sourceLocation)
    }

    /// Runs `parse` on `data`: valid POIs, or an `InputError` on one line that names `file`.
    static func expectResultOrOneLineError(_ file: String, _ parse: () throws -> ParsedPOIs,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let parsed = try parse()
            for poi in parsed.pois {
                #expect(poi.coordinate.isValid, "\(file): \(poi.id) at \(poi.coordinate)", sourceLocation: sourceLocation)
            }
        } catch let error as InputError {
            let line = error.description
            #expect(!line.contains { $0.isNewline }, "\(line)", sourceLocation: sourceLocation)
            #expect(line.hasPrefix(file), "\(line)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(file): not an InputError: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyPBFFindingGivesPOIsOrAnError() throws {
        for url in try Self.inputs("pbf") {
            let data = try Data(contentsOf: url)
            Self.expectResultOrOneLineError(url.lastPathComponent) {
                try PBFImporter.parse(data, file: url.lastPathComponent, baseMap: true)
            }
        }
    }

    /// Every POI reader's finding also goes through `POIImport` as `poiar pois import` reads a
    /// file (the format told from the content, then its reader): the OSM XML ones killed it.
    @Test func everyPOIFindingImportsOrGivesAnError() throws {
        for url in try Self.inputs("pbf") + Self.inputs("osmxml") {
            Self.expectResultOrOneLineError(url.path) { try POIImport.parse(url).pois }
        }
    }

    /// The json target's corpus (its fuzzer found nothing; the inputs are made by
    /// tools/make_fuzz_corpora.py): each through all three JSON readers, as the target does.
    @Test func everyJSONInputGivesPOIsOrAnError() throws {
        for url in try Self.inputs("json") {
            let data = try Data(contentsOf: url), name = url.lastPathComponent
            Self.expectResultOrOneLineError(name) { try OverpassJSONImporter.parse(data, file: name, baseMap: true) }
            Self.expectResultOrOneLineError(name) { try GeoJSONImporter.parse(data, file: name) }
            Self.expectResultOrOneLineError(name) { try GooglePlacesImporter.parse(data, file: name) }
        }
    }

    /// The source target's corpus: any file as `poiar pois import` reads it (gzip and bzip2
    /// undone, the format told from the content, CSV included).
    @Test func everySourceInputImportsOrGivesAnError() throws {
        for url in try Self.inputs("source") {
            Self.expectResultOrOneLineError(url.path) { try POIImport.parse(url).pois }
        }
    }

    /// An `OSMHeader` whose required feature holds a line break printed a two-line error.
    @Test func aRequiredFeatureWithALineBreakIsReportedOnOneLine() throws {
        let file = PBFBuilder.file([PBFBuilder.blob("OSMHeader", PBFBuilder.header(["OsmSchema-V0.6", "Dense\nNodes\r"]))])
        let error = try #require(inputError { _ = try PBFImporter.parse(Data(file), file: "feature.osm.pbf") })
        #expect(error.description == #"feature.osm.pbf (blob 1 at byte offset 0): corrupt OSMHeader block: required feature "Dense\nNodes\r" is not supported (poiar reads DenseNodes, HistoricalInformation, OsmSchema-V0.6)"#)
    }

    /// A self-intersecting way (a ring whose two lobes' signed areas nearly cancel) was placed at
    /// its area centroid: latitude 221.5° for way 8042215 of the fuzzed Helsinki slice.
    @Test func aSelfIntersectingWayIsPlacedAmongItsVertices() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("pbf/way-centroid-outside-the-globe.osm.pbf"))
        let parsed = try PBFImporter.parse(data, file: "fuzzed.osm.pbf")
        let way = try #require(parsed.pois.first { $0.id == "osm:way/8042215" })
        // Its vertices are mutated Helsinki nodes, spread between 59.9° and 90° north.
        #expect(way.coordinate.isValid && way.coordinate.latitude > 59, "\(way.coordinate)")

        // A bow-tie whose lobes differ by 0.1 %: the shoelace centroid is 333° of longitude away.
        let ring = [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.001), (0.0, 0.0)]
            .map { GeoCoordinate(latitude: $0.1, longitude: $0.0) }
        let c = try #require(Centroid.ofRings([ring]))
        #expect((0...1).contains(c.longitude) && (0...1.001).contains(c.latitude), "\(c)")
        // A simple polygon keeps its area centroid.
        let square = [(0.0, 0.0), (0.002, 0.0), (0.002, 0.001), (0.0, 0.001), (0.0, 0.0)]
            .map { GeoCoordinate(latitude: $0.1, longitude: $0.0) }
        let s = try #require(Centroid.ofRings([square]))
        #expect(abs(s.longitude - 0.001) < 1e-12 && abs(s.latitude - 0.0005) < 1e-12)
    }

    // MARK: Limits the fuzz targets lean on

    /// Entities that expand exponentially (an "XML bomb", 16⁷ × 48 bytes here): libxml2 stops at
    /// its amplification limit, and the message says so in words.
    @Test func anXMLBombStopsWithAPlainMessage() throws {
        var doctype = "<!ENTITY a \"\(String(repeating: "a", count: 48))\">\n"
        for (name, previous) in zip("bcdefgh", "abcdefg") {
            doctype += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 16))\">\n"
        }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE osm [\n\(doctype)]>\n<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"amenity\" v=\"&h;\"/></node></osm>\n"
        let error = try #require(inputError { _ = try OSMXMLImporter.parse(Data(xml.utf8), file: "bomb.osm") })
        #expect(error.description == "bomb.osm:12: malformed XML: entities refer to each other in a loop or expand too much")
    }

    /// JSON nested deeper than the decoder's 512 levels is refused, not recursed into.
    @Test func deeplyNestedJSONIsAnError() throws {
        let json = "{\"elements\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let error = try #require(inputError { _ = try OverpassJSONImporter.parse(Data(json.utf8), file: "deep.json") })
        #expect(error.description.hasPrefix("deep.json:1: invalid JSON"), "\(error.description)")
    }

    @Test func everyOSMXMLFindingGivesPOIsOrAnError() throws {
        for url in try Self.inputs("osmxml") {
            let data = try Data(contentsOf: url)
            Self.expectResultOrOneLineError(url.lastPathComponent) {
                try OSMXMLImporter.parse(data, file: url.lastPathComponent, baseMap: true)
            }
        }
    }

    /// libxml2 2.9 dereferenced a null pointer (SIGSEGV, `poiar pois import` exit 139) on an XML
    /// declaration naming an encoding it decodes through iconv, followed by bytes that do not
    /// decode. Such encodings are refused before libxml2 starts; UTF-8 and Latin-1 still read.
    @Test func encodingsLibxml2CannotReadSafelyAreRefused() throws {
        let fuzzed = try Data(contentsOf: Self.folder.appendingPathComponent("osmxml/utf-7-declaration-segfault.osm"))
        let error = try #require(inputError { _ = try OSMXMLImporter.parse(fuzzed, file: "fuzzed.osm") })
        #expect(error.description == #"fuzzed.osm:1 (encoding): encoding "UTF-7" is not supported: poiar reads OSM XML in UTF-8 (or US-ASCII, ISO-8859-1)"#)

        let body = #"<osm version="0.6"><node id="1" lat="60.1" lon="24.9"><tag k="amenity" v="cafe"/><tag k="name" v="Caf\#u{E9}"/></node></osm>"#
        func document(_ declaration: String, _ bytes: [UInt8]? = nil) -> Data {
            Data(declaration.utf8) + Data(bytes ?? Array(body.utf8))
        }
        for encoding in ["EBCDIC-US", "ebcdic-us", "UTF-7", "Shift_JIS", "UTF-16", "x"] {
            let e = try #require(inputError { _ = try OSMXMLImporter.parse(document("<?xml version=\"1.0\" encoding = '\(encoding)'?>\n"), file: "e.osm") })
            #expect(e.location == InputLocation(file: "e.osm", line: 1, field: "encoding"))
        }
        let e16 = try #require(inputError { _ = try OSMXMLImporter.parse(Data("<osm/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), file: "u16.osm") })
        #expect(e16.description == "u16.osm: is UTF-16 or UTF-32 text: poiar reads OSM XML in UTF-8")

        let utf8 = try OSMXMLImporter.parse(document("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), file: "ok.osm")
        #expect(utf8.pois.map(\.name) == ["Caf\u{E9}"])
        let latin1Body = Array(body.utf8).split(separator: 0xC3, omittingEmptySubsequences: false)
        #expect(latin1Body.count == 2)
        let latin1Bytes = Array(latin1Body[0]) + [0xE9] + Array(latin1Body[1].dropFirst())
        let latin1 = try OSMXMLImporter.parse(document("<?xml version='1.0' encoding='ISO-8859-1'?>\n", latin1Bytes), file: "latin1.osm")
        #expect(latin1.pois.map(\.name) == ["Caf\u{E9}"])
    }

    /// `<?tga?>`, a processing instruction without data, crashed FoundationXML (strlen of a null
    /// pointer). poiar now drives libxml2 itself and ignores processing instructions.
    @Test func aProcessingInstructionWithoutDataIsRead() throws {
        let fuzzed = try Data(contentsOf: Self.folder.appendingPathComponent("osmxml/processing-instruction-without-data.osm"))
        #expect(fuzzed == Data("<?tga?>".utf8))
        let error = try #require(inputError { _ = try OSMXMLImporter.parse(fuzzed, file: "pi.osm") })
        #expect(error.location.file == "pi.osm" && error.message.hasPrefix("malformed XML"))

        let xml = "<?xml version=\"1.0\"?>\n<?josm?>\n<osm version=\"0.6\"><?x?><node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"amenity\" v=\"cafe\"/></node><?y data?>\n<?tga ?></osm>\n<?z?>"
        let parsed = try OSMXMLImporter.parse(Data(xml.utf8), file: "pis.osm")
        #expect(parsed.pois.map(\.id) == ["osm:node/1"])
        let bad = "<?a?>\n<osm version=\"0.6\">\n<node id=\"x\" lat=\"1\" lon=\"2\"/></osm>"
        let e = try #require(inputError { _ = try OSMXMLImporter.parse(Data(bad.utf8), file: "bad.osm") })
        #expect(e.location.line == 3, "\(e)")
    }
}
