import Footage
import Foundation
import PoiarTestSupport
import POIARCore
import SensorLog
import Testing
@testable import PhoneImport

/// The sample clip's video is stabilised in the camera (IORI): the orientation rows are the
/// view's, IORI ⊗ CORI, and the picture shows it. The image's shift between video frames
/// follows the view's turn and not the body's, and the view's horizon stays level where the
/// body rolls.
@Suite struct GoProViewTests {
    var clip: String { sampleLogs.appendingPathComponent("gopro-walk.mp4").path }

    /// The import's rows (the view's) and the same clip's CORI converted without IORI (the body's).
    func read() throws -> (view: [(Double, Quaternion)], body: [(Double, Quaternion)], metadata: LogMetadata, notices: [String]) {
        let r = try GoProClipTests.read(clip)
        return (r.orientation, try r.body(clip), r.metadata, r.notices)
    }

    @Test func theRowsAreTheStabilisedViewsAndSaySo() throws {
        let c = try read()
        #expect(c.view.count == 316)
        #expect(c.metadata["import_orientation"]?.hasPrefix("the stabilised view's: IORI ⊗ CORI") ?? false, "\(c.metadata)")
        #expect(c.notices.contains { $0.contains("the video is stabilised in the camera (IORI): its image turns up to 19.4°") && $0.contains("the orientation rows are the view's") }, "\(c.notices)")
        // The view's horizon is level (HyperSmooth levels it) where the body rolls up to 11°.
        func roll(_ q: Quaternion) -> Double { asin(max(-1, min(1, q.rotate(Vector3(1, 0, 0)).z))) * 180 / .pi }
        #expect((c.view.map { abs(roll($0.1)) }.max() ?? 99) < 2)
        #expect((c.body.map { abs(roll($0.1)) }.max() ?? 0) > 8)
    }

    /// The picture's shift between consecutive frames (every third pair; block matching on
    /// frames shrunk 4×) against each series' turn between them: the pan (about the device's y)
    /// moves the picture across, the tilt (about x) up and down, by one focal length per radian.
    @Test func thePictureTurnsWithTheView() throws {
        let c = try read()
        let decoder = try VideoDecoder(path: clip)
        var shifts: [(index: Int, dx: Double, dy: Double)] = []
        var previous: GrayImage?
        for i in decoder.frameTimes.indices where i % 3 != 2 {
            let gray = GrayImage(try decoder.frame(at: i), shrink: 4)
            if let previous, i % 3 == 1 {
                let s = gray.shift(from: previous)
                shifts.append((i - 1, s.dx * 4, s.dy * 4))
            }
            previous = gray
        }
        #expect(shifts.count > 100)
        func fit(_ series: [(Double, Quaternion)]) -> (pan: Double, tilt: Double, focalPan: Double) {
            let turns = shifts.map { s -> Vector3 in
                let a = series[s.index].1, b = series[s.index + 1].1
                return (a.conjugate * b).normalized.canonical.vector * 2  // small turns: the rotation vector
            }
            let pan = Self.regression(shifts.map(\.dx), turns.map(\.y)), tilt = Self.regression(shifts.map(\.dy), turns.map(\.x))
            return (pan.r2, tilt.r2, pan.slope)
        }
        let view = fit(c.view), body = fit(c.body)
        #expect(view.pan > 0.95, "R² of the picture's pan on the view's")
        #expect(view.tilt > 0.9, "R² of the picture's tilt on the view's")
        #expect(body.pan < 0.7, "R² of the picture's pan on the body's")
        #expect(body.tilt < 0.7, "R² of the picture's tilt on the body's")
        #expect(abs(abs(view.focalPan) - 386) <= 40, "the lens's focal length in pixels")
    }

    /// Least squares y = a·x + b: a, and R².
    static func regression(_ y: [Double], _ x: [Double]) -> (slope: Double, r2: Double) {
        let n = Double(x.count), mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        let sxy = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }, sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        let syy = y.reduce(0) { $0 + ($1 - my) * ($1 - my) }
        return (sxy / sxx, sxy * sxy / (sxx * syy))
    }
}

/// A video frame in grey, shrunk by an integer factor, for block matching.
struct GrayImage {
    var width: Int, height: Int
    var pixels: [Double]

    init(_ frame: VideoFrame, shrink k: Int) {
        let w = frame.width / k, h = frame.height / k
        var out = [Double](repeating: 0, count: w * h)
        frame.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h * k {
                for x in 0..<w * k {
                    let o = (y * frame.width + x) * 4
                    out[(y / k) * w + x / k] += Double(p[o]) + 2 * Double(p[o + 1]) + Double(p[o + 2])
                }
            }
        }
        width = w; height = h; pixels = out
    }

    /// Where the picture of `earlier` moved to in this one, pixels (sub-pixel by a parabola
    /// through the best match's neighbours): the least mean absolute difference of the middle
    /// over shifts of up to `reach`.
    func shift(from earlier: GrayImage, reach: Int = 6) -> (dx: Double, dy: Double) {
        let m = reach + 2
        var cost = [[Double]](repeating: [Double](repeating: 0, count: 2 * reach + 1), count: 2 * reach + 1)
        let width = width, height = height
        pixels.withUnsafeBufferPointer { b in
            earlier.pixels.withUnsafeBufferPointer { a in
                for dy in -reach...reach {
                    for dx in -reach...reach {
                        var sum = 0.0
                        for y in m..<height - m {
                            for x in m..<width - m { sum += abs(a[y * width + x] - b[(y + dy) * width + x + dx]) }
                        }
                        cost[dy + reach][dx + reach] = sum
                    }
                }
            }
        }
        var best = (dy: 0, dx: 0)
        for i in cost.indices { for j in cost.indices where cost[i][j] < cost[best.dy][best.dx] { best = (i, j) } }
        func vertex(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
            let d = c0 - 2 * c1 + c2
            return d > 0 ? 0.5 * (c0 - c2) / d : 0
        }
        let (i, j) = best
        let sx = j > 0 && j < 2 * reach ? vertex(cost[i][j - 1], cost[i][j], cost[i][j + 1]) : 0
        let sy = i > 0 && i < 2 * reach ? vertex(cost[i - 1][j], cost[i][j], cost[i + 1][j]) : 0
        return (Double(j - reach) + sx, Double(i - reach) + sy)
    }
}
