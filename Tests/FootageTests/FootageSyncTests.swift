import Footage
import Foundation
import PoiarTestSupport
import POIARCore
import Testing

/// `--footage-offset auto` on synthetic footage: a textured scene panned by a synthetic
/// gyro's rotation, delayed by a known offset.
@Suite struct FootageSyncTests {
    @Test func recoversAKnownDelayToAFewMilliseconds() throws {
        for offset in [0.237, -0.412] {
            let scene = PannedScene(offset: offset)
            let estimate = try FootageSync.estimate(frames: scene, gyro: scene.gyro)
            #expect(abs(estimate.offset - offset) <= 0.003, "\(estimate)")
            #expect(estimate.uncertainty < 0.003, "\(estimate)")
            #expect(estimate.explained > 0.95, "\(estimate)")
            #expect(estimate.fastMotionExplained > 0.9, "\(estimate)")
            #expect(estimate.pairsUsed == scene.frameTimes.count - 1)
        }
    }

    @Test func aRollingShutterPutsTheOffsetAtTheMiddleRow() throws {
        // Rows read out over 20 ms: the middle row is seen 10 ms after the first.
        let scene = PannedScene(offset: 0.1, readout: 0.020)
        let estimate = try FootageSync.estimate(frames: scene, gyro: scene.gyro)
        #expect(abs(estimate.offset - (0.1 + 0.010)) <= 0.003, "\(estimate)")
    }

    @Test func aStaticSceneIsRefused() throws {
        let scene = PannedScene(offset: 0.2, amplitude: 0)
        let error = try #require(throws: (any Error).self) { try FootageSync.estimate(frames: scene, gyro: scene.gyro) }
        let text = "\(error)"
        #expect(text.hasPrefix("synthetic pan: cannot estimate the footage offset: too little rotation: "), "\(text)")
        #expect(text.contains("at least 10° needed"), "\(text)")
    }

    @Test func aGyroLogThatMissesTheFootageIsRefused() throws {
        let times = (0..<100).map { Double($0) / 30 }
        let shifts = [ImageShift](repeating: ImageShift(dx: 1, dy: 0, quality: 1), count: 99)
        let gyro = (0..<200).map { (time: 100 + Double($0) / 100, rate: Vector3(0.1, 0, 0)) }
        let result = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: gyro)
        #expect("\(result)" == "failure(cannot estimate the footage offset: no overlap between footage (0.000–3.300 s) and the log's gyro (100.000–101.990 s) for any offset within 0.000 ± 3.0 s)")
        // Looked for around where the clocks put it, it is found.
        guard case .failure(.tooLittleRotation) = FootageOffsetEstimator().estimate(frameTimes: times, shifts: shifts, gyro: gyro, around: 99) else {
            Issue.record("a constant turn is too little rotation to time")
            return
        }
    }

    @Test func phaseCorrelationFindsASubPixelShift() throws {
        let scene = PannedScene(offset: 0)
        let correlator = try #require(PhaseCorrelator(frameWidth: scene.size.width, frameHeight: scene.size.height))
        #expect(correlator.width == 256)
        #expect(correlator.height == 128)
        let a = correlator.spectrum(of: scene.render(position: (0, 0), time: 0))
        let b = correlator.spectrum(of: scene.render(position: (3.3, -1.7), time: 0))
        let shift = correlator.shift(from: a, to: b)
        // Within 0.05 px but for the scene's own bilinear resampling, which moves fine detail by
        // a few hundredths of a pixel depending on the fraction.
        #expect(abs(shift.dx - 3.3) <= 0.08)
        #expect(abs(shift.dy - (-1.7)) <= 0.08)
        #expect(shift.quality > 0.5)
    }
}

/// Footage of a smooth random texture seen through a 256×144 window that the camera's
/// rotation pans: the picture moves by `pixelsPerRadian` per radian about the gyro's y and x
/// axes (a mount and a focal length the estimator is not told), and frame i at footage time
/// tᵢ shows the rotation at log time tᵢ + offset (+ a row's share of `readout`).
struct PannedScene: GreyFrameSource {
    let size = (width: 256, height: 144)
    let frameTimes: [Double]
    let gyro: [GyroSample]
    let path = "synthetic pan"
    private let offset: Double, readout: Double
    private var texture: [Float] { PannedScene.texture }
    private var textureSide: Int { PannedScene.textureSide }
    private let angles: [(time: Double, x: Double, y: Double)]
    static let pixelsPerRadian = 240.0

    /// 6.7 s at 30000/1001 fps; the gyro at 200 Hz from −1 s to 10.5 s log time, turning about
    /// all three axes with a sum of sines (0.4–3 Hz, `amplitude` rad/s each).
    init(offset: Double, readout: Double = 0, amplitude: Double = 0.25) {
        self.offset = offset; self.readout = readout
        frameTimes = (0..<200).map { Double($0) * 1001 / 30000 }
        var rng = SplitMix64(seed: 7)
        let waves = (0..<12).map { _ in (axis: Int(rng.uniform() * 3) % 3, frequency: 0.4 + 2.6 * rng.uniform(), phase: 2 * Double.pi * rng.uniform()) }
        func rate(_ t: Double) -> Vector3 {
            var r = [0.0, 0.0, 0.0]
            for w in waves { r[w.axis] += amplitude * sin(2 * Double.pi * w.frequency * t + w.phase) }
            return Vector3(r[0], r[1], r[2])
        }
        let dt = 0.005
        // A gyro's white noise, 0.003 rad/s (0.17°/s) a sample, as a phone's.
        gyro = (0...Int(11.5 / dt)).map { k in
            let t = -1 + Double(k) * dt
            let noise = Vector3(rng.uniform() - 0.5, rng.uniform() - 0.5, rng.uniform() - 0.5) * (0.003 * 12.0.squareRoot())
            return (time: t, rate: rate(t) + noise)
        }
        // The rotation angle about x and y, integrated finely so the picture's position is exact.
        var ax = 0.0, ay = 0.0
        var angles: [(time: Double, x: Double, y: Double)] = [(-1, 0, 0)]
        let fine = 0.0005
        var t = -1.0
        while t < 10.5 {
            let r0 = rate(t), r1 = rate(t + fine)
            ax += 0.5 * (r0.x + r1.x) * fine; ay += 0.5 * (r0.y + r1.y) * fine
            t += fine
            angles.append((t, ax, ay))
        }
        self.angles = angles
    }

    static let textureSide = 512
    /// Smooth noise: random values on coarse grids (64, 16 and 6 px), bilinearly interpolated
    /// and summed.
    static let texture: [Float] = {
        var rng = SplitMix64(seed: 11)
        var tex = [Float](repeating: 0, count: textureSide * textureSide)
        for cell in [64, 16, 6] {
            let n = textureSide / cell + 2
            let grid = (0..<(n * n)).map { _ in Float(rng.uniform()) }
            for y in 0..<textureSide {
                for x in 0..<textureSide {
                    let fx = Double(x) / Double(cell), fy = Double(y) / Double(cell)
                    let ix = Int(fx), iy = Int(fy)
                    let u = Float(fx - Double(ix)), v = Float(fy - Double(iy))
                    let a = grid[iy * n + ix], b = grid[iy * n + ix + 1], c = grid[(iy + 1) * n + ix], d = grid[(iy + 1) * n + ix + 1]
                    tex[y * textureSide + x] += (a * (1 - u) + b * u) * (1 - v) + (c * (1 - u) + d * u) * v
                }
            }
        }
        return tex
    }()

    /// The picture's shift at log time `t`, pixels.
    func position(at t: Double) -> (Double, Double) {
        let k = min(max(Int((t + 1) / 0.0005), 0), angles.count - 2)
        let a = angles[k], b = angles[k + 1]
        let u = (t - a.time) / (b.time - a.time)
        let ax = a.x + (b.x - a.x) * u, ay = a.y + (b.y - a.y) * u
        // Turning about y pans the picture sideways, about x up and down (an arbitrary mount).
        return (-PannedScene.pixelsPerRadian * ay, PannedScene.pixelsPerRadian * ax)
    }

    func greyFrame(at index: Int) throws -> GreyFrame {
        var frame = render(position: nil, time: frameTimes[index] + offset)
        frame.time = frameTimes[index]
        // Sensor noise: ±2 grey levels.
        var rng = SplitMix64(seed: UInt64(index) + 1000)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(max(0, min(255, Double(frame.pixels[i]) + 4 * (rng.uniform() - 0.5)))) }
        return frame
    }

    /// The window at the picture position of log time `time` (or at `position`), each row at
    /// its own time when the shutter rolls.
    func render(position fixed: (Double, Double)?, time: Double) -> GreyFrame {
        var pixels = [UInt8](repeating: 0, count: size.width * size.height)
        for y in 0..<size.height {
            let (px, py) = fixed ?? position(at: time + readout * Double(y) / Double(size.height))
            for x in 0..<size.width {
                // Content moves by +p: the pixel shows the texture at (x − p).
                let sx = Double(x) - px + 128, sy = Double(y) - py + 184
                let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
                let u = Float(sx - Double(ix)), v = Float(sy - Double(iy))
                func t(_ x: Int, _ y: Int) -> Float { texture[min(max(y, 0), textureSide - 1) * textureSide + min(max(x, 0), textureSide - 1)] }
                let value = (t(ix, iy) * (1 - u) + t(ix + 1, iy) * u) * (1 - v) + (t(ix, iy + 1) * (1 - u) + t(ix + 1, iy + 1) * u) * v
                pixels[y * size.width + x] = UInt8(max(0, min(255, value * 85)))
            }
        }
        return GreyFrame(width: size.width, height: size.height, pixels: pixels, time: time)
    }
}
