import Foundation
import POIARCore
import Rendering

/// The report page (`poiar report`): fixed HTML, CSS and JavaScript; the data goes in as JSON.
///
/// One self-contained file beside a replay's frames: no network (inline style and script, SVG
/// drawn by the page's own script, system fonts), frames by relative path. The template exists
/// only in these Swift literals (ReportPage, ReportStyle, ReportScript); `poiar report` on any
/// replay's folder builds a page to check in a browser.
enum ReportPage {
    /// The whole page. `dataJSON` is the report's data, a JSON object (`title`, `log`, `image`,
    /// `frames`, `track`, `pois`, `truth`); `title` goes in <title> and the heading, HTML-escaped.
    static func html(title: String, dataJSON: String) -> String {
        let safeTitle = escapeHTML(title)
        let safeData = scriptSafe(dataJSON)
        let safePalette = scriptSafe(paletteJSON)
        return [pageHead, safeTitle, pageStyle, style, pageBody, safeTitle, pageData, safeData, pagePalette, safePalette, pageScript, script, pageEnd].joined()
    }

    /// Text for an element's content or a quoted attribute.
    static func escapeHTML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
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

    // The page around the style, the data and the script. `html` joins these with the escaped
    // title, the data and the palette in between.

    static let pageHead = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="poiar report">
<title>
"""#

    // Errors are caught by a script of their own before the main one, so that even a syntax
    // error in the main script reaches `data-errors`, where the browser test reads it.
    static let pageStyle = #"""
</title>
<script>
(function () {
  var root = document.documentElement;
  function note(text) {
    root.dataset.errors = (root.dataset.errors ? root.dataset.errors + '\n' : '') + text;
    console.error('report: ' + text);
  }
  window.addEventListener('error', function (e) {
    note((e.message || 'error') + (e.filename ? ' (' + e.filename + ':' + e.lineno + ':' + e.colno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (e) {
    var r = e.reason;
    note('unhandled rejection: ' + (r && r.message ? r.message : String(r)));
  });
})();
</script>
<style>

"""#

    static let pageBody = #"""

</style>
</head>
<body>
<header id="top">
<h1 id="title">
"""#

    static let pageData = #"""
</h1>
<p id="summary"></p>
</header>
<main id="main">
<section id="frame-panel" aria-label="Frame">
<div id="frame-box">
<img id="frame-image" alt="">
<div id="frame-missing" hidden></div>
</div>
<div id="controls">
<button type="button" id="prev" title="Previous frame (&#8592;, Shift: 10 frames)">&#9664;&#xFE0E;</button>
<button type="button" id="play" title="Play / pause (Space)">Play</button>
<button type="button" id="next" title="Next frame (&#8594;, Shift: 10 frames)">&#9654;&#xFE0E;</button>
<input id="scrubber" type="range" min="1" max="1" value="1" step="1" aria-label="Frame">
<select id="speed" title="Playback speed">
<option value="0.25">0.25&#215;</option>
<option value="0.5">0.5&#215;</option>
<option value="1" selected>1&#215;</option>
<option value="2">2&#215;</option>
<option value="4">4&#215;</option>
<option value="8">8&#215;</option>
<option value="16">16&#215;</option>
</select>
</div>
<div id="frame-caption">
<label>Frame <input id="frame-number" type="number" min="1" step="1"></label>
<span id="frame-of"></span>
<span id="frame-time"></span>
</div>
</section>
<section id="charts">
<div id="overview">
<div id="map-panel" class="panel">
<div class="panel-head">
<h2>Map</h2>
<span class="hint">wheel: zoom &#183; drag: pan &#183; click the path: go to the frame</span>
<button type="button" id="map-follow" aria-pressed="false" title="Keep the current position in the middle">Follow</button>
<button type="button" id="map-fit" title="Show the whole path">Fit</button>
</div>
<div id="map-wrap">
<svg id="map" role="img" aria-label="Track, POIs and the current position"></svg>
<div id="map-tip" hidden></div>
</div>
<div id="map-legend"></div>
</div>
<div id="info-panel" class="panel">
<div class="panel-head"><h2 id="info-title">Frame</h2></div>
<dl id="info"></dl>
<h3>Labels drawn</h3>
<ul id="labels"></ul>
</div>
</div>
<div id="plots"></div>
</section>
</main>
<script id="poiar-data" type="application/json">
"""#

    static let pagePalette = #"""
</script>
<script id="poiar-palette" type="application/json">
"""#

    static let pageScript = #"""
</script>
<script>

"""#

    static let pageEnd = #"""

</script>
</body>
</html>

"""#
}
