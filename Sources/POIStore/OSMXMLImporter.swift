import Foundation
import POIARCore

/// Reads OpenStreetMap XML 0.6 (`.osm`, also as Overpass API answers and history files) as a
/// stream through libxml2 (`XMLPushParser`): memory holds the elements' positions and the
/// POIs, never the document. `<node>`, `<way>` and `<relation>` elements with their `<tag>`,
/// `<nd>` and `<member>` children; from Overpass, a way's or relation's `<center>` (`out
/// center`) and the coordinates `out geom` puts on `<nd>` and `<member>`; an Overpass
/// `<remark>` reporting a runtime error fails the import. Elements marked `action="delete"`
/// or `visible="false"` (JOSM files) are skipped; of a history file's versions of an object
/// the latest is read, or none when it is deleted (`OSMLatestVersion`). See
/// `OSMElementCollector` for which elements become POIs and where they are placed.
public enum OSMXMLImporter {
    /// Parses the OSM XML in `data` (plain, gzip or bzip2).
    /// - Parameter file: the name used in error messages.
    /// - Throws: `InputError` with the parser's line number for malformed XML, a document
    ///   that is not OSM XML, a bad id or coordinate, or an Overpass runtime error.
    public static func parse(_ data: Data, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        try parse(SourceStream(data: data, file: file), baseMap: baseMap)
    }

    /// Parses the OSM XML `source` delivers, chunk by chunk.
    static func parse(_ source: SourceStream, baseMap: Bool = false) throws -> ParsedPOIs {
        let file = source.file
        try checkEncoding(source.head(65_536), file: file)
        let reader = Reader(file: file, sink: OSMElementSink(baseMap: baseMap))
        try XMLPushParser(file: file, handler: reader).parse(source)
        guard reader.sawRoot else { throw InputError(file: file, "not OSM XML: empty document") }
        return reader.sink.finish()
    }

    /// Encodings libxml2 decodes itself. Others go through iconv, and there libxml2 2.9 (Debian
    /// 12's) dereferences a null pointer on some inputs: `encoding='UTF-7'` or `'EBCDIC-US'`
    /// followed by bytes that do not decode crashed the process (found by the osmxml fuzz target).
    /// OSM XML is UTF-8 (the API and every OSM tool write it), so nothing real is refused.
    static let readableEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1"]

    /// Refuses, before libxml2 sees it, a document in UTF-16 or UTF-32 or one whose XML
    /// declaration names an encoding other than `readableEncodings`.
    static func checkEncoding(_ head: Data, file: String) throws {
        var head = head
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.prefix(4).contains(0) {
            throw InputError(file: file, "is UTF-16 or UTF-32 text: poiar reads OSM XML in UTF-8")
        }
        head = head.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard head.starts(with: Array("<?xml".utf8)) else { return }
        let declaration = String(decoding: head.prefix { $0 != UInt8(ascii: ">") }, as: UTF8.self)
        guard let match = declaration.firstMatch(of: #/encoding\s*=\s*(["'])([^"']*)\1/#) else { return }
        let encoding = String(match.output.2)
        guard readableEncodings.contains(encoding.lowercased()) else {
            throw InputError(file: file, line: 1, field: "encoding",
                             "encoding \"\(encoding)\" is not supported: poiar reads OSM XML in UTF-8 (or US-ASCII, ISO-8859-1)")
        }
    }

    /// Builds each element from its start tag and children and hands it on at its end tag.
    private final class Reader: XMLPushParser.Handler {
        let file: String
        var sink: OSMElementSink
        var sawRoot = false

        private var kind: String?          // "node", "way" or "relation" being read
        private var id: Int64 = 0
        private var visible = true
        private var version: Int64?
        private var coordinate: GeoCoordinate?
        private var center: GeoCoordinate?
        private var tags: [String: String] = [:]
        private var refs: [Int64] = []
        /// `out geom`: the way's vertices given on its `<nd>`s.
        private var inlineVertices: [GeoCoordinate] = []
        private var members: [OSMElementCollector.Member] = []
        /// `out geom`: each relation member's own coordinates, when it has any.
        private var memberPoints: [(role: String, points: [GeoCoordinate])] = []
        private var inMember = false
        private var remark: (line: Int, text: [UInt8])?

        var wantsText: Bool { remark != nil }

        init(file: String, sink: OSMElementSink) {
            self.file = file
            self.sink = sink
        }

        func start(_ name: String, _ attributes: XMLPushParser.Attributes, line: Int) throws {
            func fail(_ field: String?, _ message: String) -> InputError {
                InputError(file: file, line: line > 0 ? line : nil, field: field, message)
            }
            /// The `lat`/`lon` attributes as a position: nil when both are absent, an error
            /// when they are not numbers or out of range.
            func position(_ field: String) throws -> GeoCoordinate? {
                if !attributes.has("lat") && !attributes.has("lon") { return nil }
                guard let lat = attributes.double("lat"), let lon = attributes.double("lon") else {
                    throw fail(field, "expected numeric lat and lon attributes")
                }
                let c = GeoCoordinate(latitude: lat, longitude: lon)
                guard c.isValid else { throw fail(field, "coordinate \(lat),\(lon) is out of range") }
                return c
            }
            if !sawRoot {
                sawRoot = true
                guard name == "osm" || name == "osmChange" else {
                    throw fail(nil, "not OSM XML: the root element is <\(name)>, expected <osm>")
                }
                return
            }
            switch name {
            case "node", "way", "relation":
                guard kind == nil else { throw fail(name, "<\(name)> nested inside <\(kind!)>") }
                guard let parsed = attributes.integer("id") else {
                    throw fail("\(name) id", "expected an integer id, got \(attributes["id"].map { "\"\($0)\"" } ?? "none")")
                }
                kind = name; id = parsed; tags = [:]; refs = []; members = []; coordinate = nil; center = nil
                inlineVertices = []; memberPoints = []
                visible = attributes["action"] != "delete" && attributes["visible"] != "false"
                version = attributes.integer("version")
                if name == "node", visible { coordinate = try position("node \(parsed)") }
            case "tag":
                guard kind != nil else { return }
                guard let key = attributes["k"] else { throw fail("tag", "<tag> without k attribute") }
                tags[key] = attributes["v"] ?? ""
            case "nd":
                if kind == "relation", inMember {
                    if let c = try position("\(kind!) \(id) member nd") { memberPoints[memberPoints.count - 1].points.append(c) }
                    return
                }
                guard kind == "way" else { return }
                guard let ref = attributes.integer("ref") else { throw fail("nd ref", "expected an integer node reference") }
                refs.append(ref)
                if let c = try position("way \(id) nd \(ref)") { inlineVertices.append(c) }
            case "member":
                guard kind == "relation" else { return }
                guard let type = attributes["type"], let ref = attributes.integer("ref") else {
                    throw fail("member", "expected type and integer ref attributes")
                }
                let role = attributes["role"] ?? ""
                members.append(.init(type: type, ref: ref, role: role))
                memberPoints.append((role, try position("relation \(id) member \(ref)").map { [$0] } ?? []))
                inMember = true
            case "center":
                guard kind == "way" || kind == "relation" else { return }
                center = try position("\(kind!) \(id) center")
            case "remark":
                remark = (line, [])
            default:
                return  // bounds, meta, note, changeset, osmChange's create/modify/delete wrappers, …
            }
        }

        func text(_ bytes: UnsafeRawBufferPointer) {
            if remark != nil, remark!.text.count < 4096 { remark!.text += bytes }
        }

        func end(_ name: String, line: Int) throws {
            if name == "member" { inMember = false; return }
            if name == "remark", let (remarkLine, text) = remark {
                remark = nil
                if let failure = OverpassAnswer.failure(remark: String(decoding: text, as: UTF8.self)) {
                    throw InputError(file: file, line: remarkLine, field: "remark", failure)
                }
                return
            }
            guard name == kind else { return }
            kind = nil
            let element: OSMElement
            switch name {
            case "node":
                element = .node(id: id, coordinate: coordinate, tags: tags)
                if visible && coordinate == nil {
                    // Overpass `out tags` / `out ids`: a node without a position.
                    if !tags.isEmpty { sink.skip(SkipReason.noGeometry) }
                    return
                }
            case "way":
                element = .way(id: id, refs: refs, tags: tags, geometry: inlineVertices.isEmpty ? nil : inlineVertices,
                               center: center)
            default:
                let inline = memberPoints.contains { !$0.points.isEmpty }
                element = .relation(id: id, members: members, tags: tags,
                                    center: center ?? (inline ? OverpassAnswer.relationPosition(memberPoints) : nil))
            }
            sink.add(element, version: version, visible: visible)
        }
    }
}

extension OSMXMLImporter: POISourceReader {
    static let format = POISourceFormat("OSM XML", isOSM: true)

    /// Markup: `<` first.
    static func recognises(_ head: SourceHead) -> Bool { head.firstCharacter == UInt8(ascii: "<") }

    static func read(_ source: SourceStream, options: ImportOptions) throws -> ParsedPOIs { try parse(source) }

    static func readBaseMap(_ source: SourceStream) throws -> [MapFeature]? { try parse(source, baseMap: true).baseMap }
}
