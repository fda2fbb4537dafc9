import Foundation
import Manifest
import Rendering
import Testing

/// `replay --report` and `poiar report`: the page in a real browser (headless Chromium from
/// Debian's packages): it loads without network and without console errors, and a
/// screenshot of the scrubber at a chosen frame shows that frame, pixel for pixel.
@Suite(.serialized) struct ReportCLITests {
    /// A short replay of the walk with its report (and the truth's errors).
    static func replayWithReport(_ dir: URL) throws -> (out: URL, frames: [ManifestFrame], stderr: String) {
        let log = try writeLog(try walkPrefix(seconds: 40), in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try runPoiar(["replay", log.path, "--filter", "cafe", "--size", "270x480", "--out", out.path,
                              "--progress-interval", "0", "--report", "--truth", sampleLogs.appendingPathComponent("walk.truth.csv").path])
        #expect(r.status == 0, "\(r.stderr)")
        return (out, try ManifestReader.frames(out.appendingPathComponent("frames.jsonl")), r.stderr)
    }

    /// Mean absolute difference (0…255, over RGB) between the screenshot's `rect` (inset by two
    /// pixels: the browser's smoothing at the edges) and the frame scaled to it, every `step`th
    /// pixel.
    func difference(_ shot: RasterImage, _ rect: [Int], _ frame: RasterImage, step: Int = 2) -> Double {
        let (rx, ry, rw, rh) = (rect[0], rect[1], rect[2], rect[3])
        guard rx + rw <= shot.width, ry + rh <= shot.height else { return .infinity }
        var sum = 0.0, n = 0
        for y in stride(from: ry + 2, to: ry + rh - 2, by: step) {
            for x in stride(from: rx + 2, to: rx + rw - 2, by: step) {
                let a = shot.pixel(x: x, y: y)
                let fx = min(frame.width - 1, Int((Double(x - rx) + 0.5) * Double(frame.width) / Double(rw)))
                let fy = min(frame.height - 1, Int((Double(y - ry) + 0.5) * Double(frame.height) / Double(rh)))
                let b = frame.pixel(x: fx, y: fy)
                sum += Double(abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))) / 3
                n += 1
            }
        }
        return n > 0 ? sum / Double(n) : .infinity
    }

    @Test(HeadlessChromium.required.trait)
    func scrubberAtAFrameShowsThatFrameInChromium() throws {
        let dir = try makeTempDir("poiar-report")
        defer { cleanUp(dir) }
        let (out, frames, stderr) = try Self.replayWithReport(dir)
        #expect(stderr.contains("report: wrote \(out.appendingPathComponent("report.html").path) (\(frames.count) frames; against the truth: heading RMSE"), "\(stderr)")
        let page = out.appendingPathComponent("report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: nothing fetched from anywhere but the folder.
        for outside in ["src=\"http", "href=\"http", "src=\"//", "@import", "url(http", "<link"] {
            #expect(!html.contains(outside), "report.html refers to \(outside)…")
        }

        let chosen = 57, other = 5
        var components = URLComponents(url: page, resolvingAgainstBaseURL: false)!
        components.fragment = "frame=\(chosen)"
        let dom = try HeadlessChromium.load(components.url!)
        #expect(dom.status == 0, "\(dom.log.suffix(2000))")
        #expect(HeadlessChromium.rootData(dom.stdout, "ready") == "1", "the page did not finish: \(dom.stdout.prefix(300))")
        #expect(HeadlessChromium.rootData(dom.stdout, "frame") == "\(chosen)")
        #expect(HeadlessChromium.rootData(dom.stdout, "errors") ?? "" == "", "page errors: \(HeadlessChromium.rootData(dom.stdout, "errors") ?? "")")
        #expect(dom.console.isEmpty, "console: \(dom.console)")
        let rect = try #require(HeadlessChromium.rootData(dom.stdout, "frame-rect")).split(separator: ",").compactMap { Int($0) }
        try #require(rect.count == 4 && rect[2] > 50 && rect[3] > 50, "frame rect \(rect)")

        let shotURL = dir.appendingPathComponent("shot.png")
        let shot = try HeadlessChromium.load(components.url!, screenshot: shotURL)
        #expect(shot.status == 0 && shot.console.isEmpty, "\(shot.console)")
        let screenshot = try loadStill(shotURL)
        try #require(screenshot.width == 1400 && rect[0] + rect[2] <= screenshot.width && rect[1] + rect[3] <= screenshot.height)
        // Chromium lays the page out in a shorter viewport while it loads (the DOM's rect) and
        // again at the window's full height for the screenshot, where the frame, fitted to the
        // height, is larger: same top-left corner and aspect, its width found by the best match.
        func bestDifference(_ frame: RasterImage) -> Double {
            let widths = rect[2]...(rect[2] * 3 / 2)
            let fit = { (w: Int) in [rect[0], rect[1], w, (w * frame.height + frame.width / 2) / frame.width] }
            let coarse = widths.min { difference(screenshot, fit($0), frame, step: 6) < difference(screenshot, fit($1), frame, step: 6) }!
            return (max(rect[2], coarse - 3)...(coarse + 3)).map { difference(screenshot, fit($0), frame) }.min()!
        }
        let same = bestDifference(try loadStill(out.appendingPathComponent(String(format: "frame_%06d.png", chosen))))
        let different = bestDifference(try loadStill(out.appendingPathComponent(String(format: "frame_%06d.png", other))))
        #expect(same < 6, "the screenshot's frame differs from frame \(chosen) by \(same) levels")
        #expect(different > 2 * same, "frame \(other) matches as well (\(different) vs \(same)): the test could not tell frames apart")
    }

    @Test(HeadlessChromium.required.trait)
    func missingFrameIsShownAsMissingWithoutErrors() throws {
        let dir = try makeTempDir("poiar-report")
        defer { cleanUp(dir) }
        let (out, _, _) = try Self.replayWithReport(dir)
        try FileManager.default.removeItem(at: out.appendingPathComponent("frame_000003.png"))
        // `poiar report` on the finished folder writes the page again (without the truth).
        let r = try runPoiar(["report", out.path])
        #expect(r.status == 0 && r.stderr.contains("report: wrote"), "\(r.stderr)")
        var components = URLComponents(url: out.appendingPathComponent("report.html"), resolvingAgainstBaseURL: false)!
        components.fragment = "frame=3"
        let dom = try HeadlessChromium.load(components.url!)
        #expect(HeadlessChromium.rootData(dom.stdout, "ready") == "1")
        #expect(HeadlessChromium.rootData(dom.stdout, "missing")?.contains("frame_000003.png") == true)
        #expect(HeadlessChromium.rootData(dom.stdout, "errors") ?? "" == "")
        #expect(dom.stdout.contains("frame_000003.png not found"))
    }

    /// Bad requests: a folder that is not a finished replay, a broken frames.jsonl line, a bad
    /// truth (refused before the replay draws anything), --truth without --report.
    @Test func badReportInputsGetOneLineErrors() throws {
        let dir = try makeTempDir("poiar-report")
        defer { cleanUp(dir) }
        var r = try runPoiar(["report", dir.path])
        #expect(r.status != 0 && r.stderr.contains("\(dir.path): no frames.jsonl"), "\(r.stderr)")

        try "{\"frame\": 1, \"time\": 0.5}\nnot json\n".write(to: dir.appendingPathComponent("frames.jsonl"), atomically: true, encoding: .utf8)
        r = try runPoiar(["report", dir.path])
        #expect(r.status != 0 && r.stderr.contains("frames.jsonl:1"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("report.html").path))

        let log = try writeLog(try walkPrefix(seconds: 5), in: dir)
        let badTruth = try writeFile("time,qw,qx,qy,qz\n0.0,1,0,0,zero\n", to: "truth.csv", in: dir)
        let out = dir.appendingPathComponent("out")
        r = try runPoiar(["replay", log.path, "--out", out.path, "--report", "--truth", badTruth.path])
        #expect(r.status != 0 && r.stderr.contains("truth.csv"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        r = try runPoiar(["replay", log.path, "--out", out.path, "--truth", badTruth.path])
        #expect(r.status != 0 && r.stderr.contains("--truth"), "\(r.stderr)")
    }
}
