import Dispatch
import Foundation
import POIARCore
import Rendering

/// `poiar bench-render`: the cost of one frame over a camera still, in process, against the
/// floor of the same codecs. Each iteration runs both, alternately, so background load hits
/// them alike:
/// - frame: decode the JPEG (libjpeg-turbo), draw `labels` cards over it (Cairo, FreeType),
///   encode the PNG (libpng, zlib at `level`) to a file — what `replay` does per frame;
/// - floor: decode the same JPEG and encode it unchanged with the same PNG settings.
public enum RenderBenchmark {
    public struct Result: Sendable {
        public var width: Int
        public var height: Int
        public var labels: Int
        public var iterations: Int
        /// Median seconds per frame of each stage.
        public var decode: Double
        public var draw: Double
        public var encode: Double
        public var frame: Double
        public var floorDecode: Double
        public var floorEncode: Double
        public var floor: Double
        public var frameBytes: Int
        public var floorBytes: Int

        public var report: String {
            String(format: "bench-render: %d×%d, %d labels, %d iterations (medians): frame %.2f ms (decode %.2f, draw %.2f, encode %.2f; PNG %d bytes); floor decode + encode %.2f ms (decode %.2f, encode %.2f; PNG %d bytes); frame / floor %.3f",
                   width, height, labels, iterations, frame * 1e3, decode * 1e3, draw * 1e3, encode * 1e3, frameBytes,
                   floor * 1e3, floorDecode * 1e3, floorEncode * 1e3, floorBytes, frame / floor)
        }
    }

    /// `count` cards in a grid over a `width`×`height` frame, each with a leader to an anchor
    /// below it; sizes from `style`, so they are what `replay` would draw.
    public static func cards(count: Int, width: Int, height: Int, style: CardStyle) -> [CardDrawing] {
        let columns = 4, rows = (count + columns - 1) / columns
        let names = ["Café Engel", "Kappeli", "Robert's Coffee", "Fazer Café Kluuvikatu", "Espresso House",
                     "Café Esplanad", "Starbucks", "Strindberg", "Ekberg 1852", "Café Aalto"]
        let categories = ["cafe", "restaurant", "cafe", "bar", "cafe"]
        return (0..<count).map { i in
            let name = names[i % names.count] + (i >= names.count ? " \(i / names.count + 1)" : "")
            let detail = formatDistance(Double(40 + 97 * i))
            let size = style.labelSize(name: name, detail: detail)
            let cellW = Double(width) / Double(columns), cellH = Double(height) * 0.8 / Double(rows)
            let x = Double(i % columns) * cellW + (cellW - size.width) / 2
            let y = Double(i / columns) * cellH + 0.04 * Double(height)
            let box = Rect(x: x, y: y, width: size.width, height: size.height)
            return CardDrawing(box: box, anchor: Point2(box.midX, box.maxY + 0.45 * cellH), name: name, detail: detail,
                               category: categories[i % categories.count])
        }
    }

    /// The cards as JSON, for a reference implementation to draw the same.
    public static func cardsJSON(_ cards: [CardDrawing]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for c in cards {
            w.beginObject()
            w.number("x", c.box.x.rounded()); w.number("y", c.box.y.rounded())
            w.number("w", c.box.width.rounded()); w.number("h", c.box.height.rounded())
            w.number("anchor_x", c.anchor?.x, decimals: 2); w.number("anchor_y", c.anchor?.y, decimals: 2)
            w.string("name", c.name); w.string("detail", c.detail); w.string("category", c.category)
            w.endObject()
        }
        w.endArray()
        return w.text
    }

    /// The files `run` writes in its folder.
    public static let fileNames = ["labels.json", "bench-frame.png", "bench-floor.png"]

    public static func run(still: URL, labels: Int, iterations: Int, level: Int, outDir: URL,
                           fontPath: String? = nil, boldFontPath: String? = nil) throws -> Result {
        let probe = try loadStill(still)
        let style = try CardStyle(imageWidth: probe.width, imageHeight: probe.height, fontPath: fontPath, boldFontPath: boldFontPath)
        let cards = cards(count: labels, width: probe.width, height: probe.height, style: style)
        try AtomicFile.write(Data(cardsJSON(cards).utf8), to: outDir.appendingPathComponent("labels.json"))
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        var decode: [Double] = [], draw: [Double] = [], encode: [Double] = [], frame: [Double] = []
        var floorDecode: [Double] = [], floorEncode: [Double] = [], floor: [Double] = []
        let frameURL = outDir.appendingPathComponent("bench-frame.png"), floorURL = outDir.appendingPathComponent("bench-floor.png")
        for _ in 0..<max(1, iterations) {
            var t0 = now()
            let image = try loadStill(still)
            var t1 = now()
            let drawn = try renderFrame(FrameDrawing(width: image.width, height: image.height, background: .still(image),
                                                     cards: cards, attribution: "© OpenStreetMap contributors"), style: style)
            let t2 = now()
            try writePNG(drawn, to: frameURL, compressionLevel: level)
            let t3 = now()
            decode.append(t1 - t0); draw.append(t2 - t1); encode.append(t3 - t2); frame.append(t3 - t0)

            t0 = now()
            let plain = try loadStill(still)
            t1 = now()
            try writePNG(plain, to: floorURL, compressionLevel: level)
            let t4 = now()
            floorDecode.append(t1 - t0); floorEncode.append(t4 - t1); floor.append(t4 - t0)
        }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
        func bytes(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0 }
        return Result(width: probe.width, height: probe.height, labels: labels, iterations: max(1, iterations),
                      decode: median(decode), draw: median(draw), encode: median(encode), frame: median(frame),
                      floorDecode: median(floorDecode), floorEncode: median(floorEncode), floor: median(floor),
                      frameBytes: bytes(frameURL), floorBytes: bytes(floorURL))
    }
}
