import Foundation
import POIARCore

/// Where the offline passes can be trusted to know the gyro bias, and where they fall back to
/// the live filter's settings.
///
/// The offline heading time constant (`offlineTauMag`, twice the live one) is safe only while
/// the bias is known: a bias error e lags each pass's heading by e·τ, and the forward and
/// backward lags cancel only when both passes carry the same error. A recording that rests
/// (a phone set down, BROAD's rests) measures the bias there, and both passes start from it.
/// A phone held still by hand never rests: its slow drift passes the rest detector for a second
/// or two at a time, and the mean rate of such a "rest" is the hand's, not the bias (a tenth to
/// half a degree per second). Seeded from it, or left to learn the vertical bias from the field
/// alone — slowly, each pass from its own past, so their errors differ — the offline pass lagged
/// twice as far as the causal filter (still-held phone, simulated: 4.1° against 2.8°).
///
/// So a rest counts as a measurement of the bias (a seed for the passes) only when it lasts
/// `offlineRestTrustTime`; and where the device was held still (`heldStill`: the
/// accelerometer steady, for 2·`offlineTauMag` or more) beyond `2·biasForgettingTime` of such a
/// rest (the bias's random walk would reach about 1.4·σ_motion), the passes fall back to the
/// live filter's τ_mag: the heading there is the causal filter's, from both directions.
/// (A walk keeps the long τ: its turns and steps let each pass learn the bias, and the sample
/// walk's offline heading is 0.27° with it, 0.44° without.)
///
/// A hand can hold a phone still enough for the rest detector for five seconds and more, yet
/// turn it slowly about the vertical, which the detector cannot see (`RestFieldCheck`): a rest
/// over which the field's azimuth turned is not a measurement of the bias either. And in the
/// fallback spans the passes take no rest for one: each "rest" there is the hand's, and its
/// mean rate, taken for the bias, lagged each pass by that rate times τ_mag (a still-held phone
/// held 300 s, simulated: offline 1.2° against causal 1.1°; with the rests left out 0.16°).
/// The bias is learnt there from the accelerometer and the field, as in motion.
public struct OfflineTrust: Sendable, Equatable {
    /// The spans (s, recording time, in order) held still with no long rest near: the passes
    /// use the live filter's τ_mag there.
    public private(set) var fallback: [ClosedRange<Double>] = []
    /// The rests long enough to measure the bias.
    public private(set) var rests: [RestBiasSurvey.Rest] = []
    /// How many rests were long enough but the field turned over them (a hand's, not a rest).
    public private(set) var handRests = 0

    /// No fallback anywhere (a recording without a magnetometer: its heading is the gyro's).
    static let none = OfflineTrust()
    private init() {}

    /// The spans of `start…end` where the device was held still (`heldStill`) without a long
    /// rest of `survey` within reach, or held in a hand: one of the span's rests turned with
    /// the field (`RestFieldCheck`), so none of its rests measures the bias.
    public init(_ survey: RestBiasSurvey, accel: SampleSeries, mag: SampleSeries = SampleSeries(), start: Double, end: Double, params p: ComplementaryFilterParams) {
        let held = Self.heldStill(accel, params: p)
        let turned = survey.rests.filter { RestFieldCheck.turned($0, accel: accel, mag: mag, params: p) }
        let inHand = held.filter { span in turned.contains { span.overlaps($0.start...$0.end) } }
        let long = survey.rests.filter { $0.end - $0.start >= p.offlineRestTrustTime }
        rests = long.filter { r in !turned.contains(r) && !inHand.contains { $0.overlaps(r.start...r.end) } }
        handRests = long.count - rests.count
        guard end > start, p.offlineTauMag != p.tauMag else { return }
        let reach = 2 * p.biasForgettingTime
        let near = rests.map { max(start, $0.start - reach)...min(end, $0.end + reach) }
        for span in held where span.upperBound > start && span.lowerBound < end {
            // A span in a hand wholly; else the held-still span less the reach of the long rests.
            var pieces = [max(start, span.lowerBound)...min(end, span.upperBound)]
            if inHand.contains(span) { fallback += pieces; continue }
            for r in near {
                pieces = pieces.flatMap { piece -> [ClosedRange<Double>] in
                    guard r.overlaps(piece) else { return [piece] }
                    var out: [ClosedRange<Double>] = []
                    if piece.lowerBound < r.lowerBound { out.append(piece.lowerBound...r.lowerBound) }
                    if piece.upperBound > r.upperBound { out.append(r.upperBound...piece.upperBound) }
                    return out
                }
            }
            fallback += pieces.filter { $0.upperBound - $0.lowerBound >= 2 * p.offlineTauMag }
        }
    }

    /// The spans (at least 2·`offlineTauMag` long) where the device was held still: every
    /// second's accelerometer samples within `restAccelThreshold`/2 of their mean (standard
    /// deviation, each axis). A walk's steps, a vehicle's bumps and a turning hand shake the
    /// accelerometer more; a hand holding the phone still does not — yet turns it slowly.
    static func heldStill(_ a: SampleSeries, params p: ComplementaryFilterParams) -> [ClosedRange<Double>] {
        guard a.count > 1 else { return [] }
        let limit = p.restAccelThreshold / 2
        var spans: [ClosedRange<Double>] = []
        var i = 0
        var open: Double?, last = a.times[0]
        while i < a.count {
            let t0 = a.times[i]
            var j = i, sum = Vector3.zero, sum2 = Vector3.zero
            while j < a.count && a.times[j] < t0 + 1 {
                let v = a.vector(j)
                sum = sum + v; sum2 = sum2 + Vector3(v.x * v.x, v.y * v.y, v.z * v.z)
                j += 1
            }
            let n = Double(j - i), m = sum / n
            let variance = sum2 / n - Vector3(m.x * m.x, m.y * m.y, m.z * m.z)
            let still = j - i >= 5 && max(variance.x, variance.y, variance.z) < limit * limit
            let t1 = a.times[j - 1]
            if still, open == nil || t0 - last <= 1 {
                if open == nil { open = t0 }
            } else if let o = open {
                spans.append(o...last)
                open = still ? t0 : nil
            }
            if still { last = t1 }
            i = j
        }
        if let o = open { spans.append(o...last) }
        return spans.filter { $0.upperBound - $0.lowerBound >= 2 * p.offlineTauMag }
    }

    /// Whether time `t` lies in a fallback span.
    public func fallsBack(at t: Double) -> Bool { fallback.contains { $0.contains(t) } }

    /// The survey with only the long rests, to seed the passes from.
    public func seeds(_ survey: RestBiasSurvey) -> RestBiasSurvey {
        var s = survey
        s.rests = rests
        return s
    }

    /// The notice saying where the passes fell back (nil: nowhere).
    public func notice(start: Double, end: Double, params p: ComplementaryFilterParams) -> String? {
        guard !fallback.isEmpty else { return nil }
        let total = fallback.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let whole = total >= 0.999 * (end - start)
        let spans = fallback.prefix(3).map { String(format: "%.0f–%.0f s", $0.lowerBound - start, $0.upperBound - start) }
            .joined(separator: ", ") + (fallback.count > 3 ? ", …" : "")
        let what = whole ? "the whole recording" : String(format: "%.0f s of the recording (%@)", total, spans)
        return String(format: "offline fusion: the device was held still without a rest of %.0f s or more to measure the gyro bias "
                      + "for %@ (a phone held by hand never rests): its heading is fused with the live filter's τ_mag %.0f s, as --causal, in both directions, "
                      + "and the hand's still moments there are not taken for rests%@",
                      p.offlineRestTrustTime, what, p.tauMag,
                      handRests > 0 ? String(format: " (%d of %.0f s or more: the field turned over them, or over another in the same hold)", handRests, p.offlineRestTrustTime) : "")
    }

    /// Walks the fallback spans in time order (`forward`) or against it, for a pass: `update`
    /// answers, for each sample time in the pass's order, whether it falls back, looking only
    /// at the next boundary.
    struct Cursor {
        let bounds: [Double]  // fallback spans' ends, flattened, in the pass's order
        let forward: Bool
        var next = 0
        var inside = false

        init(_ trust: OfflineTrust, forward: Bool) {
            let flat = trust.fallback.flatMap { [$0.lowerBound, $0.upperBound] }
            bounds = forward ? flat : flat.reversed()
            self.forward = forward
        }

        /// Whether `t` falls back; true when that changed from the previous sample in `changed`.
        @inline(__always)
        mutating func update(_ t: Double) -> (fallsBack: Bool, changed: Bool) {
            var changed = false
            while next < bounds.count && (forward ? t >= bounds[next] : t <= bounds[next]) {
                inside.toggle(); next += 1; changed.toggle()
            }
            return (inside, changed)
        }
    }
}

extension ComplementaryFilter {
    /// Changes τ_mag mid-pass (a fallback span begins or ends); the gains follow at each
    /// sensor's next sample.
    mutating func setTauMag(_ tau: Double) {
        guard tau != params.tauMag else { return }
        params.tauMag = tau
        coefficients = ComplementaryFilterCoefficients()
    }

    /// Enters (`fallsBack`) or leaves a fallback span: the live τ_mag, and no bias from the
    /// hand's still moments (the rest detector still runs: the disturbance check uses it).
    mutating func setFallback(_ fallsBack: Bool, offline p: ComplementaryFilterParams, liveTauMag: Double) {
        setTauMag(fallsBack ? liveTauMag : p.tauMag)
        params.restBiasEstimation = fallsBack ? false : p.restBiasEstimation
    }
}
