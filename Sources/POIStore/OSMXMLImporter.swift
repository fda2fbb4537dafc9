import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import POIARCore

/// Reads OpenStreetMap XML 0.6 (`.osm`) with Foundation's streaming `XMLParser`: `<node>`,
/// `<way>` and `<relation>` elements with their `<tag>`, `<nd>` and `<member>` children.
/// Elements marked `action="delete"` or `visible="false"` (JOSM / history files) are skipped.
/// See `OSMElementCollector` for which elements become POIs and where they are placed.
public enum OSMXMLImporter {
    /// Parses the OSM XML in `data`.
    /// - Parameter file: the name used in error messages.
    /// - Throws: `InputError` with the parser's line number for malformed XML, a document
    ///   that is not OSM XML, or a bad id or coordinate.
    public static func parse(_ data: Data, file: String, baseMap: Bool = false) throws -> ParsedPOIs {
        try checkEncoding(data, file: file)
        let parser = XMLParser(data: paddingEmptyProcessingInstructions(data))
        let reader = Reader(file: file, parser: parser)
        reader.collector = OSMElementCollector(baseMap: baseMap)
        parser.delegate = reader
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = reader.error { throw error }
        // libxml2-based parsers (Linux) recover from some errors and return true, but still
        // report them; any report makes the file malformed.
        if !ok || parser.parserError != nil {
            let line = parser.lineNumber > 0 ? parser.lineNumber : nil
            let detail = parser.parserError.map { Self.describe($0 as NSError) } ?? "unknown error"
            throw InputError(file: file, line: line, "malformed XML: \(detail)")
        }
        guard reader.sawRoot else { throw InputError(file: file, "not OSM XML: empty document") }
        return reader.collector.finish()
    }

    /// Encodings libxml2 decodes itself. Others go through iconv, and there libxml2 2.9 (Debian
    /// 12's) dereferences a null pointer on some inputs: `encoding='UTF-7'` or `'EBCDIC-US'`
    /// followed by bytes that do not decode crashed the process (found by the osmxml fuzz target).
    /// OSM XML is UTF-8 (the API and every OSM tool write it), so nothing real is refused.
    static let readableEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1"]

    /// Refuses, before libxml2 sees it, a document in UTF-16 or UTF-32 or one whose XML
    /// declaration names an encoding other than `readableEncodings`.
    static func checkEncoding(_ data: Data, file: String) throws {
        var head = data.prefix(65_536)
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

    /// `data` with a space before the `?>` of each processing instruction that has no data
    /// (`<?name?>`). libxml2 reports such an instruction with a null data pointer, which
    /// FoundationXML hands to `strlen` before any delegate sees it: a crash on a 7-byte file
    /// (found by the osmxml fuzz target). With the space the instruction's data is empty; poiar
    /// ignores processing instructions, and line numbers do not change.
    static func paddingEmptyProcessingInstructions(_ data: Data) -> Data {
        var positions: [Int] = []
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            let n = raw.count
            var i = 0
            while i < n - 1, let hit = memchr(base + i, 0x3C, n - 1 - i) {  // '<'
                let lt = base.distance(to: UnsafeRawPointer(hit))
                i = lt + 1
                guard raw[i] == 0x3F else { continue }  // '?'
                var j = i + 1
                while j < n, ![0x20, 0x09, 0x0A, 0x0D, 0x3F, 0x3E, 0x3C].contains(raw[j]) { j += 1 }
                if j > i + 1, j + 1 < n, raw[j] == 0x3F, raw[j + 1] == 0x3E { positions.append(j) }
            }
        }
        guard !positions.isEmpty else { return data }
        var padded = Data(capacity: data.count + positions.count)
        var from = data.startIndex
        for p in positions {
            padded.append(data[from..<(data.startIndex + p)])
            padded.append(0x20)
            from = data.startIndex + p
        }
        padded.append(data[from...])
        return padded
    }

    /// Plain words for the parser errors malformed files commonly cause. The codes are
    /// libxml2's `xmlParserErrors` (Darwin's `NSXMLParserError` uses the same numbers; the
    /// `XMLParser.ErrorCode` cases of swift-corelibs-foundation are numbered differently, so
    /// the numbers are matched, not the cases).
    static func describe(_ error: NSError) -> String {
        switch error.code {
        case 4: return "empty document"
        case 5: return "the document ends early or has content after its root element"
        case 9: return "invalid character"
        case 23: return "an entity reference without its ';' (an unescaped '&'?)"
        case 26: return "undeclared entity (an unescaped '&'?)"
        case 38: return "'<' inside an attribute value"
        case 39, 41: return "malformed attribute"
        case 42: return "an attribute is given twice"
        case 44: return "an attribute value is not closed (missing quote)"
        case 68: return "expected an element name"
        case 72: return "expected '<'"
        case 73: return "expected '>'"
        case 76: return "an end tag does not match the open element"
        case 77: return "unfinished tag"
        default:
            // libxml2's XML_ERR_ENTITY_LOOP (89), which it also raises when entities expand past
            // its amplification limit (an "XML bomb"): the parse stops there, memory stays small.
            if error.code == 89 { return "entities refer to each other in a loop or expand too much" }
            if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty { return text }
            return "XML parser error \(error.code)"
        }
    }

    /// The `XMLParser` delegate: builds each element from its start tag and children and hands
    /// it to the collector at its end tag. Used on one thread, for one parse.
    private final class Reader: NSObject, XMLParserDelegate {
        let file: String
        weak var parser: XMLParser?
        var collector = OSMElementCollector()
        var error: InputError?
        var sawRoot = false

        private var kind: String?          // "node", "way" or "relation" being read
        private var id: Int64 = 0
        private var coordinate: GeoCoordinate?
        private var dropped = false
        private var tags: [String: String] = [:]
        private var refs: [Int64] = []
        private var members: [OSMElementCollector.Member] = []

        init(file: String, parser: XMLParser) {
            self.file = file
            self.parser = parser
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if !sawRoot {
                sawRoot = true
                if name != "osm" && name != "osmChange" {
                    return fail(parser, field: nil, "not OSM XML: the root element is <\(name)>, expected <osm>")
                }
                return
            }
            switch name {
            case "node", "way", "relation":
                guard kind == nil else { return fail(parser, field: name, "<\(name)> nested inside <\(kind!)>") }
                guard let value = attributes["id"], let parsed = Int64(value) else {
                    return fail(parser, field: "\(name) id", "expected an integer id, got \(attributes["id"].map { "\"\($0)\"" } ?? "none")")
                }
                kind = name; id = parsed; tags = [:]; refs = []; members = []; coordinate = nil
                dropped = attributes["action"] == "delete" || attributes["visible"] == "false"
                if name == "node", !dropped {
                    guard let lat = attributes["lat"].flatMap(Double.init),
                          let lon = attributes["lon"].flatMap(Double.init) else {
                        return fail(parser, field: "node \(parsed)", "expected numeric lat and lon attributes")
                    }
                    let c = GeoCoordinate(latitude: lat, longitude: lon)
                    guard c.isValid else {
                        return fail(parser, field: "node \(parsed)", "coordinate \(lat),\(lon) is out of range")
                    }
                    coordinate = c
                }
            case "tag":
                guard kind != nil else { return }
                guard let key = attributes["k"] else { return fail(parser, field: "tag", "<tag> without k attribute") }
                tags[key] = attributes["v"] ?? ""
            case "nd":
                guard kind == "way" else { return }
                guard let ref = attributes["ref"].flatMap(Int64.init) else {
                    return fail(parser, field: "nd ref", "expected an integer node reference")
                }
                refs.append(ref)
            case "member":
                guard kind == "relation" else { return }
                guard let type = attributes["type"], let ref = attributes["ref"].flatMap(Int64.init) else {
                    return fail(parser, field: "member", "expected type and integer ref attributes")
                }
                members.append(.init(type: type, ref: ref, role: attributes["role"] ?? ""))
            default:
                return  // bounds, changeset, osmChange's create/modify/delete wrappers, …
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
                    qualifiedName: String?) {
            guard name == kind else { return }
            kind = nil
            if dropped {
                if !tags.isEmpty { collector.skip(SkipReason.deleted) }
                return
            }
            switch name {
            case "node": collector.addNode(id: id, coordinate: coordinate!, tags: tags)
            case "way": collector.addWay(id: id, nodeRefs: refs, tags: tags)
            default: collector.addRelation(id: id, members: members, tags: tags)
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            // Stop at the first error, so the line number reported is where it is.
            guard error == nil else { return }
            let line = parser.lineNumber > 0 ? parser.lineNumber : nil
            error = InputError(file: file, line: line, "malformed XML: \(OSMXMLImporter.describe(parseError as NSError))")
            parser.abortParsing()
        }

        private func fail(_ parser: XMLParser, field: String?, _ message: String) {
            guard error == nil else { return }
            error = InputError(file: file, line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                               field: field, message)
            parser.abortParsing()
        }
    }
}
