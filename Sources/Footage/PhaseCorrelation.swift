import CFFmpeg
import Foundation

/// How far the picture moved from one frame to the next, in pixels of the frames measured
/// (x right, y down), and how clearly.
public struct ImageShift: Sendable, Equatable {
    public var dx: Double
    public var dy: Double
    /// Height of the correlation peak over the height a perfect match gives, 0…1: about 1
    /// for a textured scene moved rigidly, under 0.1 when the frames have nothing in common
    /// (a cut, a blank wall, motion blur).
    public var quality: Double

    public init(dx: Double, dy: Double, quality: Double) {
        self.dx = dx; self.dy = dy; self.quality = quality
    }
}

/// Phase correlation (Kuglin & Hines 1975): the normalised cross-power spectrum of two frames
/// is a pure phase ramp whose inverse transform peaks at their relative shift. The frames'
/// centre (the largest power-of-two rectangle that fits) is Hann-windowed so the image edges
/// do not correlate as a stationary edge; the spectrum is weighted by a Gaussian, which makes
/// the peak a Gaussian of `peakSigma` pixels that a parabola through the logarithm of three
/// samples locates to a few hundredths of a pixel (and discounts the highest frequencies,
/// where compression noise and aliasing live). Transforms by libavutil's FFT (`av_tx`).
public final class PhaseCorrelator {
    /// The transform's size: the centre of each frame that is compared.
    public let width: Int, height: Int
    /// Size of the frames handed in.
    public let frameWidth: Int, frameHeight: Int
    /// Standard deviation of the correlation peak, pixels (see the type's comment).
    public static let peakSigma = 1.0

    /// A frame's windowed spectrum: `width × height` complex values, rows of the transform.
    public struct Spectrum {
        fileprivate var values: [AVComplexFloat]
    }

    private let window: [Float]
    private let frequencyWeight: [Float]
    private let weightSum: Double
    private var rowForward: FFT, columnForward: FFT, rowInverse: FFT, columnInverse: FFT

    /// For frames of `frameWidth × frameHeight`; nil when a side is under 16 pixels.
    public init?(frameWidth: Int, frameHeight: Int) {
        func powerOfTwo(atMost n: Int) -> Int { n < 1 ? 0 : 1 << (Int.bitWidth - 1 - n.leadingZeroBitCount) }
        let w = powerOfTwo(atMost: frameWidth), h = powerOfTwo(atMost: frameHeight)
        guard w >= 16, h >= 16,
              let rf = FFT(length: w, inverse: false), let cf = FFT(length: h, inverse: false),
              let ri = FFT(length: w, inverse: true), let ci = FFT(length: h, inverse: true) else { return nil }
        self.frameWidth = frameWidth; self.frameHeight = frameHeight
        width = w; height = h
        rowForward = rf; columnForward = cf; rowInverse = ri; columnInverse = ci
        func hann(_ n: Int) -> [Float] { (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * (Double($0) + 0.5) / Double(n))) } }
        let hx = hann(w), hy = hann(h)
        window = (0..<(w * h)).map { hy[$0 / w] * hx[$0 % w] }
        // A Gaussian peak of σ pixels is the transform of a Gaussian of N / (2π σ) frequency bins.
        let sx = Double(w) / (2 * Double.pi * PhaseCorrelator.peakSigma)
        let sy = Double(h) / (2 * Double.pi * PhaseCorrelator.peakSigma)
        var weights = [Float](repeating: 0, count: w * h)
        var sum = 0.0
        for ky in 0..<h {
            let fy = Double(ky <= h / 2 ? ky : ky - h)
            for kx in 0..<w {
                let fx = Double(kx <= w / 2 ? kx : kx - w)
                let g = exp(-0.5 * (fx * fx / (sx * sx) + fy * fy / (sy * sy)))
                weights[ky * w + kx] = Float(g)
                sum += g
            }
        }
        frequencyWeight = weights
        weightSum = sum
    }

    /// The windowed spectrum of `frame`'s centre (computed once per frame, used for the pairs on
    /// both sides of it).
    public func spectrum(of frame: GreyFrame) -> Spectrum {
        precondition(frame.width == frameWidth && frame.height == frameHeight,
                     "frame of \(frame.width)×\(frame.height), correlator made for \(frameWidth)×\(frameHeight)")
        let x0 = (frameWidth - width) / 2, y0 = (frameHeight - height) / 2
        var mean = 0.0
        for y in 0..<height {
            for x in 0..<width { mean += Double(frame.pixels[(y0 + y) * frameWidth + x0 + x]) }
        }
        mean /= Double(width * height)
        var values = [AVComplexFloat](repeating: AVComplexFloat(re: 0, im: 0), count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let v = Double(frame.pixels[(y0 + y) * frameWidth + x0 + x]) - mean
                values[y * width + x].re = Float(v) * window[y * width + x]
            }
        }
        transform(&values, rows: rowForward, columns: columnForward)
        return Spectrum(values: values)
    }

    /// The shift that carries frame `a`'s content to where it is in frame `b`.
    public func shift(from a: Spectrum, to b: Spectrum) -> ImageShift {
        var cross = [AVComplexFloat](repeating: AVComplexFloat(re: 0, im: 0), count: width * height)
        var magnitudeSum = 0.0
        for i in 0..<cross.count {
            let p = b.values[i], q = a.values[i]
            // b · conj(a): for b(x) = a(x − s) this is |a|² e^{−2πi k·s}, whose inverse peaks at s.
            let re = p.re * q.re + p.im * q.im, im = p.im * q.re - p.re * q.im
            cross[i] = AVComplexFloat(re: re, im: im)
            magnitudeSum += Double((re * re + im * im).squareRoot())
        }
        // A floor under the magnitudes, so frequencies with no energy in either frame (a flat
        // sky) add no amplified noise.
        let floor = Float(1e-3 * magnitudeSum / Double(cross.count)) + .leastNormalMagnitude
        for i in 0..<cross.count {
            let c = cross[i]
            let scale = frequencyWeight[i] / ((c.re * c.re + c.im * c.im).squareRoot() + floor)
            cross[i] = AVComplexFloat(re: c.re * scale, im: c.im * scale)
        }
        transform(&cross, rows: rowInverse, columns: columnInverse)
        var best = 0
        for i in 1..<cross.count where cross[i].re > cross[best].re { best = i }
        let px = best % width, py = best / width
        func at(_ x: Int, _ y: Int) -> Double {
            Double(cross[((y + height) % height) * width + (x + width) % width].re)
        }
        let peak = at(px, py)
        let dx = PhaseCorrelator.peakOffset(at(px - 1, py), peak, at(px + 1, py))
        let dy = PhaseCorrelator.peakOffset(at(px, py - 1), peak, at(px, py + 1))
        // The surface is periodic: peaks past half the size are negative shifts.
        var sx = Double(px) + dx, sy = Double(py) + dy
        if sx > Double(width) / 2 { sx -= Double(width) }
        if sy > Double(height) / 2 { sy -= Double(height) }
        return ImageShift(dx: sx, dy: sy, quality: max(0, min(1, peak / weightSum)))
    }

    /// Where the top of a peak lies, −0.5…0.5 from the middle sample, from three samples: the
    /// parabola through their logarithms (exact for a Gaussian), or through the values when a
    /// neighbour is not positive.
    static func peakOffset(_ left: Double, _ middle: Double, _ right: Double) -> Double {
        var l = left, m = middle, r = right
        if l > 0, m > 0, r > 0 { l = log(l); m = log(m); r = log(r) }
        let curvature = l - 2 * m + r
        guard curvature < 0 else { return 0 }
        return max(-0.5, min(0.5, 0.5 * (l - r) / curvature))
    }

    /// The 2-D transform in place: every row, then every column.
    private func transform(_ values: inout [AVComplexFloat], rows: FFT, columns: FFT) {
        var input = [AVComplexFloat](repeating: AVComplexFloat(re: 0, im: 0), count: max(width, height))
        var output = input
        for y in 0..<height {
            for x in 0..<width { input[x] = values[y * width + x] }
            rows.run(&input, into: &output)
            for x in 0..<width { values[y * width + x] = output[x] }
        }
        for x in 0..<width {
            for y in 0..<height { input[y] = values[y * width + x] }
            columns.run(&input, into: &output)
            for y in 0..<height { values[y * width + x] = output[y] }
        }
    }
}

/// One complex single-precision FFT of a fixed length from libavutil (unnormalised both ways).
private final class FFT {
    private var context: OpaquePointer?
    private let function: av_tx_fn

    init?(length: Int, inverse: Bool) {
        var ctx: OpaquePointer?
        var fn: av_tx_fn?
        var scale: Float = 1
        // Unaligned: Swift arrays are not promised the 32-byte alignment the SIMD code wants.
        guard av_tx_init(&ctx, &fn, AV_TX_FLOAT_FFT, inverse ? 1 : 0, Int32(length), &scale, UInt64(AV_TX_UNALIGNED.rawValue)) == 0,
              let ctx, let fn else { return nil }
        context = ctx
        function = fn
    }

    deinit { av_tx_uninit(&context) }

    /// Transforms the first `length` values of `input` into `output`.
    func run(_ input: inout [AVComplexFloat], into output: inout [AVComplexFloat]) {
        input.withUnsafeMutableBytes { i in
            output.withUnsafeMutableBytes { o in
                function(context, o.baseAddress, i.baseAddress, MemoryLayout<AVComplexFloat>.stride)
            }
        }
    }
}
