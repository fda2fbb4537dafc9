import Foundation
import POIARCore

/// One three-axis stream of a clip (`ACCL`, `GYRO`, `MAGN`, `GRAV`) as vectors in the camera's
/// axes (`GoProAxes`), in SI units, at their times (`GoProTimeline`).
struct GoProVectorSeries {
    var key: String
    var times: [Double] = []
    var vectors: [Vector3] = []
    /// How the stored channels were mapped, each different mapping once (`ORIN "XzY"`).
    var axes: [String] = []
    var axesAssumed = false
    /// Elements per sample beyond the three read (MAX's MAGN has a fourth, undocumented).
    var extraElements = 0
    /// Samples the stream's `TSMP` counts that no payload holds (a gap in the recording).
    var missingSamples = 0
    /// The stream is stored compressed (type `#`), which poiar does not read.
    var compressed = false
    /// A unit poiar does not know, taken as SI (for a notice).
    var unknownUnit: String?
    var lastSpan = GoProTimeline.LastSpan.rate

    var isEmpty: Bool { vectors.isEmpty }

    /// Reads `key` from every payload. `mapping` gives a stream's axes (nil: the stream's own
    /// `ORIN`/`MTRX`, or the model's documented order); `unit` the SI factor of a `SIUN` text.
    static func read(_ key: String, from telemetry: GoProTelemetry, model: String?, file: String,
                     mapping: ((GPMFStreamPayload) -> GoProAxes?)? = nil) throws -> GoProVectorSeries {
        var out = GoProVectorSeries(key: key)
        let (payloads, lastSpan) = telemetry.series(key)
        out.lastSpan = lastSpan
        var previousTotal: Int?
        for (payload, stream, times) in payloads {
            guard let stream else { continue }
            if stream.compressed { out.compressed = true; continue }
            let axes = try mapping?(stream) ?? GoProAxes.of(stream, model: model, file: file, payload: payload.name)
            if !out.axes.contains(axes.source) { out.axes.append(axes.source) }
            out.axesAssumed = out.axesAssumed || axes.assumed
            let unit = stream.text("SIUN") ?? stream.text("UNIT")
            let factor = unit.map { u -> Double in
                guard let f = siFactor(u) else { out.unknownUnit = u; return 1 }
                return f
            } ?? 1
            for (k, s) in stream.samples.enumerated() {
                guard s.count >= 3 else {
                    throw InputError(file: file, "\(payload.name), byte \(stream.offset): \(key) has \(s.count) elements per sample, 3 (x, y, z) expected")
                }
                out.extraElements = max(out.extraElements, s.count - 3)
                out.times.append(times[k])
                out.vectors.append(axes.toCamera * Vector3(s[0], s[1], s[2]) * factor)
            }
            // TSMP counts every sample delivered: a jump larger than this payload's count is a gap.
            if let total = stream.totalSamples {
                if let previousTotal, total - previousTotal > stream.samples.count {
                    out.missingSamples += total - previousTotal - stream.samples.count
                }
                previousTotal = total
            }
        }
        return out
    }

    /// The SI factor of a unit GoPro writes (`SIUN`): 1 for m/s², rad/s, µT (and T's other
    /// multiples as µT), g → 9.80665, degrees per second → π/180; nil when unknown.
    static func siFactor(_ unit: String) -> Double? {
        let u = unit.replacingOccurrences(of: " ", with: "").lowercased()
        switch u {
        case "m/s²", "m/s2", "m/s^2", "rad/s", "µt", "ut", "μt", "": return 1
        case "g": return 9.80665
        case "deg/s", "°/s", "dps": return .pi / 180
        case "mt": return 1000
        case "nt": return 0.001
        default: return nil
        }
    }

    /// The vectors turned by `matrix` (camera → device).
    func turned(by matrix: Matrix3) -> [(time: Double, v: Vector3)] {
        zip(times, vectors).map { ($0, matrix * $1) }
    }
}
