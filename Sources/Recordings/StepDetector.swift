import Foundation
import Fusion
import POIARCore

/// What the accelerometer says of a walker's motion at one time: stepping (with the step rate),
/// standing still, or neither that can be told (a car, a bike, a phone handled).
public struct MotionSample: Sendable, Equatable {
    public var time: Double
    /// Steps per second while walking; nil when no steady stepping is seen.
    public var cadence: Double?
    /// The device is not carried anywhere: the accelerometer's magnitude barely moves.
    public var still: Bool
    /// The direction the user faces (`Pose.facingAzimuth`), degrees from true north; filled
    /// once the attitude is known.
    public var azimuth: Double?
}

/// Steps from the accelerometer, as the sensor samples stream by (the same detector for the
/// causal pass and the offline one, which feeds it the recorded samples).
///
/// The magnitude of the specific force (attitude-free: a phone in a hand, a pocket or a bag
/// bounces the same way at every step) is averaged into 20 ms bins; every 0.25 s the last
/// 2.56 s of bins are judged. Walking: the detrended signal swings by at least
/// `minStepSwing` and repeats itself at one step's lag (normalised autocorrelation at least
/// `minRepeat` at a lag of 0.3–0.8 s, i.e. 1.25–3.3 steps per second: a walker's and a
/// jogger's; the stride, twice the lag, is not taken for a step). Still: the signal's
/// standard deviation is below `maxStillSwing` (a phone held while looking around; a car
/// on a smooth road can look the same, which the smoother rules out by the GPS speed).
public struct StepDetector: Sendable {
    public static let binSeconds = 0.02
    static let windowBins = 128
    static let hopSeconds = 0.25
    static let minLagBins = 15, maxLagBins = 40
    /// m/s²: the standard deviation of the detrended magnitude.
    static let minStepSwing = 0.2
    static let maxStillSwing = 0.12
    static let minRepeat = 0.5

    private var bins: [Double] = []
    private var binStart: Double?
    private var binSum = 0.0, binCount = 0
    private var nextJudgement: Double?
    public private(set) var samples: [MotionSample] = []

    public init() {}

    /// Adds one accelerometer sample (m/s², device frame), in time order.
    public mutating func add(time: Double, force: Vector3) {
        guard time.isFinite, force.x.isFinite, force.y.isFinite, force.z.isFinite else { return }
        if binStart == nil { binStart = time; nextJudgement = time + Self.hopSeconds }
        while time >= binStart! + Self.binSeconds {
            closeBin()
            binStart! += Self.binSeconds
            if binStart! >= nextJudgement! {
                judge(at: binStart!)
                nextJudgement! += Self.hopSeconds
            }
            // A gap in the samples: start again rather than fill seconds of bins.
            if time - binStart! > 1 { bins.removeAll(); binStart = time; nextJudgement = time + Self.hopSeconds }
        }
        binSum += force.norm; binCount += 1
    }

    private mutating func closeBin() {
        // An empty bin (a sample rate under 50 Hz) repeats the bin before.
        let value = binCount > 0 ? binSum / Double(binCount) : (bins.last ?? 9.81)
        bins.append(value)
        if bins.count > Self.windowBins { bins.removeFirst(bins.count - Self.windowBins) }
        binSum = 0; binCount = 0
    }

    private mutating func judge(at time: Double) {
        let n = bins.count
        guard n == Self.windowBins else { return }
        // Detrend with a straight line (a slow tilt of the magnitude is not a step).
        let meanT = Double(n - 1) / 2, mean = bins.reduce(0, +) / Double(n)
        var stt = 0.0, sty = 0.0
        for (i, y) in bins.enumerated() { stt += (Double(i) - meanT) * (Double(i) - meanT); sty += (Double(i) - meanT) * (y - mean) }
        let slope = sty / stt
        let x = bins.enumerated().map { i, y in y - mean - slope * (Double(i) - meanT) }
        let energy = x.reduce(0) { $0 + $1 * $1 }
        let swing = (energy / Double(n)).squareRoot()
        // The time judged is the window's middle.
        let middle = time - Double(n) * Self.binSeconds / 2
        var cadence: Double?
        if swing >= Self.minStepSwing {
            var best = (lag: 0, r: -1.0)
            var r = [Double](repeating: 0, count: Self.maxLagBins + 2)
            for lag in (Self.minLagBins - 1)...(Self.maxLagBins + 1) {
                var s = 0.0
                for i in 0..<(n - lag) { s += x[i] * x[i + lag] }
                r[lag] = s / energy * Double(n) / Double(n - lag)
                if lag >= Self.minLagBins, lag <= Self.maxLagBins, r[lag] > best.r { best = (lag, r[lag]) }
            }
            if best.r >= Self.minRepeat {
                // A parabola through the peak and its neighbours: the lag between bins.
                let a = r[best.lag - 1], b = r[best.lag], c = r[best.lag + 1]
                let d = a - 2 * b + c
                let shift = d < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / d)) : 0
                cadence = 1 / ((Double(best.lag) + shift) * Self.binSeconds)
            }
        }
        samples.append(MotionSample(time: middle, cadence: cadence, still: cadence == nil && swing < Self.maxStillSwing))
    }

    /// The samples with the direction faced filled in from `attitude` (nil where it has none).
    public func motion(attitude: (Double) -> Pose?) -> [MotionSample] {
        samples.map { s in
            var s = s
            s.azimuth = attitude(s.time)?.facingAzimuth()
            return s
        }
    }

    /// Runs the detector over recorded accelerometer samples.
    public static func detect(_ accel: SampleSeries) -> StepDetector {
        var d = StepDetector()
        for i in 0..<accel.count { d.add(time: accel.times[i], force: accel.vector(i)) }
        return d
    }
}
