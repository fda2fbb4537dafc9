import Foundation
import POIARCore
import Rendering

/// The report page (`poiar report`): fixed HTML, CSS and JavaScript; the data goes in as JSON.
///
/// One self-contained file beside a replay's frames: no network (inline style and script, SVG
/// drawn by the page's own script, system fonts), frames by relative path. The page is written
/// in `Resources/` (report.html with {{…}} slots, report.css, and the script in four parts:
/// report-series.js, report-map.js, report-plots.js, report-frame.js), files that web tooling
/// reads, compiled in by SwiftPM (`PackageResources`); `poiar report` on any replay's folder
/// builds a page to check in a browser.
///
/// report.html's first script catches errors before the main one runs, so that even a syntax
/// error in the script reaches `data-errors`, where the browser test reads it.
enum ReportPage {
    /// The whole page. `dataJSON` is the report's data, a JSON object (`title`, `log`, `image`,
    /// `frames`, `track`, `pois`, `truth`); `title` goes in <title> and the heading, HTML-escaped.
    static func html(title: String, dataJSON: String) -> String {
        let safeTitle = escapeHTML(title)
        let values = ["title": safeTitle, "style": style, "data": scriptSafe(dataJSON), "palette": scriptSafe(paletteJSON),
                      "script": script]
        var page = ""
        for piece in template { page += piece.slot.map { values[$0]! } ?? piece.text }
        return page
    }

    /// report.html cut at its slots (`{{title}}`, `{{style}}`, `{{data}}`, `{{palette}}`,
    /// `{{script}}`), once: the values go in by position, so text inside a value that looks like
    /// a slot stays as it is.
    static let template: [(text: String, slot: String?)] = {
        var pieces: [(text: String, slot: String?)] = []
        var rest = Substring(resource(PackageResources.report_html))
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            pieces.append((String(rest[..<open.lowerBound]), nil))
            pieces.append(("", String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        pieces.append((String(rest), nil))
        return pieces
    }()

    /// The style sheet and the script, each without the line break that ends its file (the
    /// template puts its own around them).
    static let style = withoutFinalLineBreak(resource(PackageResources.report_css))
    /// The script's four parts, in order (report.html wraps them in one function scope).
    static let script = withoutFinalLineBreak([PackageResources.report_series_js, PackageResources.report_map_js,
                                               PackageResources.report_plots_js, PackageResources.report_frame_js]
        .map(resource).joined())

    private static func resource(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    private static func withoutFinalLineBreak(_ text: String) -> String { text.hasSuffix("\n") ? String(text.dropLast()) : text }

    /// Text for an element's content or a quoted attribute.
    static func escapeHTML(_ text: String) -> String {
        text.escaped { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            default: return nil
            }
        }
    }

    /// JSON made safe inside a <script> element. "</" would end the element early, and "<!--"
    /// followed by "<script" makes the HTML parser pass over the real end tag; "<\/" and
    /// "<\u0021--" mean the same in a JSON string, the only place JSON has a "<".
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<!--", with: "<\\u0021--").replacingOccurrences(of: "</", with: "<\\/")
    }

    /// The frames' category colours (`CategoryPalette`), so the map's dots and the label chips
    /// match the cards on the frames: {"colours": {"cafe": "#6d4c41", …}, "other": "#757575"}.
    static var paletteJSON: String {
        func hex(_ c: RGBA8) -> String { String(format: "#%02x%02x%02x", c.r, c.g, c.b) }
        var w = JSONWriter()
        w.beginObject()
        w.beginObject("colours")
        // Sorted, so the same replay gives the same page byte for byte.
        for (category, colour) in CategoryPalette.colours.sorted(by: { $0.key < $1.key }) { w.string(category, hex(colour)) }
        w.endObject()
        w.string("other", hex(CategoryPalette.other))
        w.endObject()
        return w.text
    }
}
