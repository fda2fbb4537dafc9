import CLibXML2
import Foundation
import POIARCore

/// An XML document read with libxml2's SAX push parser: the content is fed in chunks as a
/// `SourceStream` delivers it, and each element reaches the handler as it starts and ends.
/// Nothing is kept of an element once the handler has seen it, so memory does not grow with
/// the document. (Given a whole document as one buffer, libxml2 refuses one over 10,000,000
/// bytes unless told `XML_PARSE_HUGE`; fed in chunks it has no limit on the document's size,
/// while its limits on one name, attribute value or text node stay.)
///
/// External entities and DTDs are never loaded; internal entities are checked by libxml2's
/// amplification limit (an "XML bomb" stops with a plain message).
final class XMLPushParser {
    /// An element's attributes as libxml2's SAX2 interface hands them over (valid during the
    /// callback only): five pointers each — local name, prefix, URI, value start, value end.
    struct Attributes {
        fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        fileprivate let count: Int

        /// The raw bytes of attribute `name`'s value. libxml2 leaves entities unexpanded
        /// (poiar never loads them), and so passes a `&` from `&amp;` on as `&#38;`.
        private func rawValue(_ name: String) -> UnsafeBufferPointer<UInt8>? {
            guard let base else { return nil }
            return name.withCString { wanted in
                for i in 0..<count {
                    let p = base + 5 * i
                    guard let local = p[0], let start = p[3], let end = p[4] else { continue }
                    if strcmp(wanted, UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self)) == 0 {
                        return UnsafeBufferPointer(start: start, count: end - start)
                    }
                }
                return nil
            }
        }

        func has(_ name: String) -> Bool { rawValue(name) != nil }

        subscript(_ name: String) -> String? {
            guard let raw = rawValue(name) else { return nil }
            let text = String(decoding: raw, as: UTF8.self)
            return raw.contains(UInt8(ascii: "&")) ? text.replacingOccurrences(of: "&#38;", with: "&") : text
        }

        /// The value's bytes as a C string, to a number parser.
        private func parse<T>(_ name: String, _ body: (UnsafePointer<CChar>) -> T?) -> T? {
            guard let raw = rawValue(name), !raw.isEmpty, raw.count < 64 else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: raw.count + 1) { buffer in
                for (i, byte) in raw.enumerated() { buffer[i] = CChar(bitPattern: byte) }
                buffer[raw.count] = 0
                return body(buffer.baseAddress!)
            }
        }

        /// The value as a finite Double, when it is one written whole.
        func double(_ name: String) -> Double? {
            parse(name) { s in
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(s, &end)
                guard let end, end.pointee == 0, value.isFinite else { return nil }
                return value
            }
        }

        /// The value as an Int64, when it is one written whole.
        func integer(_ name: String) -> Int64? {
            parse(name) { s in
                errno = 0
                var end: UnsafeMutablePointer<CChar>?
                let value = strtoll(s, &end, 10)
                guard let end, end.pointee == 0, errno == 0 else { return nil }
                return Int64(value)
            }
        }
    }

    /// What the document's elements are handed to. A handler stops the parse by throwing.
    protocol Handler: AnyObject {
        func start(_ name: String, _ attributes: Attributes, line: Int) throws
        func end(_ name: String, line: Int) throws
        /// Character data, for handlers that asked for it (`wantsText`).
        func text(_ bytes: UnsafeRawBufferPointer)
        var wantsText: Bool { get }
    }

    let file: String
    private unowned let handler: any Handler
    private var context: xmlParserCtxtPtr?
    private var failure: (any Error)?

    init(file: String, handler: any Handler) {
        self.file = file
        self.handler = handler
    }

    /// Parses the whole of `source`.
    /// - Throws: what the handler threw, or `InputError` with the line for malformed XML.
    func parse(_ source: SourceStream) throws {
        // libxml2's own SAX2 handlers keep the DTD's entity declarations (so references are
        // checked, and expansion stays within its amplification limit); the element and text
        // callbacks are poiar's, and nothing else builds a tree.
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        sax.startElementNs = { user, name, _, _, _, _, count, _, attributes in
            guard let name else { return }
            guard let parser = XMLPushParser.of(user) else { return }
            parser.run {
                try parser.handler.start(String(cString: name), Attributes(base: attributes, count: Int(count)), line: parser.line)
            }
        }
        sax.endElementNs = { user, name, _, _ in
            guard let name else { return }
            guard let parser = XMLPushParser.of(user) else { return }
            parser.run { try parser.handler.end(String(cString: name), line: parser.line) }
        }
        let text: charactersSAXFunc = { user, bytes, count in
            guard let bytes, count > 0 else { return }
            guard let parser = XMLPushParser.of(user) else { return }
            if parser.handler.wantsText { parser.handler.text(UnsafeRawBufferPointer(start: bytes, count: Int(count))) }
        }
        sax.characters = text
        sax.cdataBlock = text
        sax.ignorableWhitespace = nil
        sax.comment = nil
        sax.processingInstruction = nil
        sax.reference = nil
        sax.serror = { user, error in
            guard let error else { return }
            guard let parser = XMLPushParser.of(user) else { return }
            parser.report(error.pointee)
        }

        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // The first bytes go in with the context, so libxml2 can tell the encoding from them.
        let first = try chunk.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<4])) }
        context = chunk.withUnsafeBytes { b in
            xmlCreatePushParserCtxt(&sax, nil, b.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(first), nil)
        }
        guard let context else { throw InputError(file: file, "cannot start the XML parser") }
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        defer {
            // The document node libxml2's start-of-document handler made (it holds the DTD).
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        while failure == nil {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            _ = chunk.withUnsafeBytes { b in
                xmlParseChunk(context, b.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(n), n == 0 ? 1 : 0)
            }
            if n == 0 { break }
        }
        if let failure { throw failure }
    }

    /// The parser whose callback this is: libxml2's own SAX2 handlers need the parser context
    /// as their first argument, so that is what every callback gets, with `self` in its
    /// `_private`.
    private static func of(_ context: UnsafeMutableRawPointer?) -> XMLPushParser? {
        guard let p = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<XMLPushParser>.fromOpaque(p).takeUnretainedValue()
    }

    /// The line libxml2 is on.
    private var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

    /// Runs a handler callback; its error stops the parse.
    private func run(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do { try body() } catch {
            failure = error
            if let context { xmlStopParser(context) }
        }
    }

    private func report(_ error: xmlError) {
        guard failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        failure = InputError(file: file, line: error.line > 0 ? Int(error.line) : nil,
                             "malformed XML: \(Self.describe(code: Int(error.code), message: message))")
        if let context { xmlStopParser(context) }
    }

    /// Plain words for the parser errors malformed files commonly cause. The codes are
    /// libxml2's `xmlParserErrors`.
    static func describe(code: Int, message: String?) -> String {
        switch code {
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
        // libxml2 stops expanding entities that refer to each other in a loop or expand past
        // its amplification limit (an "XML bomb"): the parse stops there, memory stays small.
        case 89: return "entities refer to each other in a loop or expand too much"
        default:
            // libxml2 reads no attribute, name or text over 10,000,000 bytes without
            // XML_PARSE_HUGE, which poiar leaves off (it also lifts the entity limits above).
            if let message, message.contains("Huge input lookup") || message.contains("too long") || message.contains("huge text") {
                return "an attribute, name or text longer than 10 MB, more than libxml2 reads in one value (\(message)): OSM XML has no such values; is the file damaged?"
            }
            if let message, !message.isEmpty { return message }
            return "XML parser error \(code)"
        }
    }
}
