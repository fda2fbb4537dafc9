import Foundation
import POIARCore

/// The magnetometer's distortion fitted over a whole recording: calibrated field
/// c = A·(m − b), with b the hard-iron offset (µT) and A the soft-iron correction and scale
/// (identity, a scale, or a symmetric matrix).
///
/// The fit (`fit`) works on the field's directions, not on time: samples are averaged in bins
/// of direction (a cube map of 6 × 8 × 8 cells), so that minutes at rest in one attitude weigh
/// no more than a quick turn through others. Then:
///
/// 1. **Coverage**: the covariance of the bins' unit directions; its eigenvalues say across
///    which axes the device turned (`magCalibrationMinCoverage`); two are needed. Along an
///    axis not reached the prior offset (the log's `# mag_hard_iron_ut:`, else zero) is kept.
/// 2. **Hard iron**: the sphere |m − b| = r by linear least squares (2m·b + (r² − |b|²) = |m|²),
///    b restricted to the covered axes; done twice, the second time with the coverage seen
///    through the first offset.
///    The offset is used only when it moves by at least `magNormThreshold` of the field (less
///    is within what the field itself changes by from place to place: left to the online fit)
///    or when the field is off the model (3).
/// 3. **Soft iron and scale**, when WMM2025's intensity is known and the hard-iron-calibrated
///    norm is further than `magNormThreshold` from it (a phone's case, a mount, an
///    uncalibrated sensor): across the covered axes the ellipsoid (three axes) or ellipse (two:
///    a device turned about gravity only, the field's vertical part as it is)
///    (m − b)ᵀQ(m − b) = 1, linear least squares around the hard-iron centre, made a sphere or
///    circle; then one scale brings the median norm to the model's intensity. A device that
///    turned about gravity only is compared with the model's horizontal and vertical parts
///    apart, and calibrated with them: the scale from the horizontal field, the offset along
///    gravity (which its turns could not find) from the vertical one.
/// 4. **Check**: at least `magCalibrationMinInliers` of the samples must have a calibrated norm
///    within `magNormThreshold` of the median. Otherwise the field was not one field through
///    one distortion (a magnet came or went, the steel of a vehicle), and the recording is left
///    uncalibrated: each pass's online hard-iron fit and disturbance rejection handle it.
public struct MagnetometerCalibration: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// No whole-recording calibration (the prior offset only).
        case none
        /// Hard iron (offset) only, perhaps with an isotropic scale.
        case hardIron = "hard iron"
        /// Hard and soft iron (offset and a symmetric matrix).
        case softIron = "hard and soft iron"
    }

    public var kind: Kind = .none
    /// b, µT.
    public var offset = Vector3.zero
    /// A (row-major); the identity when `kind` is `.none`.
    public var matrix = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    /// Eigenvalues of the coverage (ascending), 0…1/3 each for directions all over the sphere.
    public var coverage: [Double] = [0, 0, 0]
    /// Median norm of the field after the hard-iron offset, before any scale, µT (nil without
    /// samples): what the magnetometer measures, compared with WMM2025's intensity.
    public var measuredFieldUT: Double?
    /// The intensity the field was scaled to (WMM2025's), µT; nil when not scaled.
    public var scaledToUT: Double?
    /// Whether the calibrated field has WMM2025's intensity and dip (scaled to it with every
    /// axis pinned down, by turns or, for a level device, by the model's vertical field), so
    /// the model's field can serve as the disturbance check's reference.
    public var matchesModel = false
    /// Fraction of samples whose calibrated norm lies within `magNormThreshold` of the median.
    public var inlierFraction = 0.0
    /// Why a calibration (or a part of it) was not done, for the notice; nil when all was done.
    public var limitation: String?

    public init() {}

    /// c = A·(m − b).
    @inline(__always)
    public func apply(_ m: Vector3) -> Vector3 { matrix * (m - offset) }

    public var isIdentity: Bool { kind == .none }

    /// The bins of directions: 6 cube faces × `cells`².
    static let cells = 8
    /// Fewest samples for a bin to count (one sample is noise, not a direction visited).
    static let minBinSamples = 3
    /// Fewest bins (directions of about 11° seen) for a calibration: a half turn about one
    /// axis passes through 16. Fewer leave an offset and a radius barely told apart, however
    /// widely the few directions lie.
    static let minBins = 16

    /// Fits the calibration to `mag` (raw samples). `prior` is the offset known before (the
    /// log's), `expectedFieldUT` WMM2025's intensity when the log has a GPS fix.
    public static func fit(_ mag: SampleSeries, accel: SampleSeries, prior: Vector3?, expectedFieldUT: Double?,
                           expectedDipDeg: Double? = nil, params: ComplementaryFilterParams) -> MagnetometerCalibration {
        var result = MagnetometerCalibration()
        let b0 = prior ?? .zero
        result.offset = b0
        guard mag.count >= 10 else { result.limitation = "too few magnetometer samples"; return result }

        // Bin means (equal weight per direction visited).
        func binMeans(around centre: Vector3) -> [Vector3] {
            let cells = Self.cells
            var sums = [Vector3](repeating: .zero, count: 6 * cells * cells)
            var counts = [Int](repeating: 0, count: 6 * cells * cells)
            for i in 0..<mag.count {
                let m = mag.vector(i)
                guard m.isFinite, m.normSquared > 0 else { continue }
                let bin = Self.bin(m - centre)
                sums[bin] = sums[bin] + m
                counts[bin] += 1
            }
            var points: [Vector3] = []
            for k in 0..<sums.count where counts[k] >= Self.minBinSamples { points.append(sums[k] / Double(counts[k])) }
            return points
        }

        var points = binMeans(around: b0)
        if !points.isEmpty {
            let norms = points.map { ($0 - b0).norm }.sorted()
            result.measuredFieldUT = norms[norms.count / 2]
        }
        // The directions are the field's only around the right centre: a large offset bunches
        // them up. A first, unrestricted sphere fit gives the centre to look from, if its
        // radius could be the earth's field; else the prior.
        var centre = b0
        if let b = Self.sphereCentre(points, prior: b0, axes: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]),
           let r = Self.radius(points, centre: b), Self.plausibleFieldUT.contains(r) {
            centre = b
            points = binMeans(around: centre)
        }
        // A field direction that varies is not enough: it varies too where the field itself
        // changes (a vehicle, a building). Only turning the device moves the offset across the
        // field. A device that never tilted turned about gravity only, so along gravity the
        // offset cannot be told from the field's vertical part: the fit stays in the plane
        // across it.
        let level = Self.levelAxis(accel, minCoverage: params.magCalibrationMinCoverage)
        var strong: [Vector3] = []
        for pass in 0..<2 {
            let cov = Self.coverage(points, around: centre, across: level)
            result.coverage = cov.values
            strong = zip(cov.values, cov.vectors).filter { $0.0 >= params.magCalibrationMinCoverage }.map(\.1)
            guard points.count >= Self.minBins, strong.count >= 2, let b = Self.sphereCentre(points, prior: b0, axes: strong) else {
                result.limitation = "the device did not turn enough for a calibration"
                return result
            }
            centre = b
            if pass == 0 { points = binMeans(around: centre) }
        }
        guard let fitted = Self.radius(points, centre: centre), Self.plausibleFieldUT.contains(fitted) else {
            result.limitation = "no sphere of the earth's field's size fits the samples"
            return result
        }
        // The field's strength through the offset.
        let rawMeasured = result.measuredFieldUT
        let norms = points.map { ($0 - centre).norm }.sorted()
        let measured = norms[norms.count / 2]
        result.measuredFieldUT = measured
        let threshold = params.magNormThreshold
        var offFromModel = expectedFieldUT.map { $0 > 0 && abs(measured - $0) > threshold * $0 } ?? false
        // A level device: the part along gravity (its offset unknown) is compared apart.
        var levelModel: (up: Vector3, horizontal: Double, vertical: Double)?
        if let up = level, strong.count < 3, let f = expectedFieldUT, f > 0, let dip = expectedDipDeg {
            let model = (up: up, horizontal: f * cos(dip * radPerDeg), vertical: -f * sin(dip * radPerDeg))
            let (h, v) = Self.levelParts(points, centre: centre, up: up)
            offFromModel = abs(h - model.horizontal) > threshold * f || abs(v - model.vertical) > threshold * f
            levelModel = model
        }
        // An offset smaller than the disturbance threshold (a tenth of the field) is within
        // what the field itself changes by from place to place, which a fit over the
        // directions cannot tell from an offset: it is left to the online fit.
        guard offFromModel || (centre - b0).norm >= threshold * measured else {
            result.limitation = String(format: "the offset fitted (%.1f µT) is within the field's own variation", (centre - b0).norm)
            return result
        }
        result.kind = .hardIron
        result.offset = centre
        if strong.count < 3 { result.limitation = "turned about one axis only: calibrated across it" }
        if let model = levelModel, let expected = expectedFieldUT, offFromModel {
            // Turned about gravity only: the shape across it from the turns, the scale from the
            // model's horizontal field, the offset along gravity from its vertical one. The
            // offset across gravity is fitted again with the one along it set (the sphere fit
            // saw the wrong vertical part wherever the device tilted).
            var c = centre
            for _ in 0..<3 {
                let (h, v) = Self.levelParts(points, centre: c, up: model.up)
                guard h > 0 else { break }
                c = c + model.up * (v - model.vertical * h / model.horizontal)
                c = Self.sphereCentre(points, prior: c, axes: strong) ?? c
            }
            result.offset = c
            if let a = Self.softIron(points, centre: c, axes: strong) {
                result.kind = .softIron
                result.offset = a.centre
                result.matrix = a.matrix
            }
            let (h, v) = Self.levelParts(points.map { result.matrix * ($0 - result.offset) + result.offset },
                                         centre: result.offset, up: model.up)
            if h > 0 {
                let s = model.horizontal / h
                result.offset = result.offset + model.up * (v - model.vertical / s)
                let m = result.matrix
                result.matrix = Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s)
                result.scaledToUT = expected
                result.matchesModel = true
                result.limitation = "turned about gravity only: along it, the offset and the scale from WMM2025's field"
            }
        } else if let expected = expectedFieldUT, offFromModel {
            if let a = Self.softIron(points, centre: centre, axes: strong) {
                result.kind = .softIron
                result.offset = a.centre
                result.matrix = a.matrix
            } else {
                result.limitation = "no ellipse fits the field: hard iron and the scale only"
            }
            // The scale that brings the median calibrated norm to the model's intensity.
            let calibrated = points.map { (result.matrix * ($0 - result.offset)).norm }.sorted()
            let median = calibrated[calibrated.count / 2]
            if median > 0 {
                let s = expected / median
                let m = result.matrix
                result.matrix = Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s)
                result.scaledToUT = expected
                result.matchesModel = strong.count == 3
            }
        }

        // Check: one field through one distortion.
        result.inlierFraction = inliers(mag, result, threshold: params.magNormThreshold)
        if result.inlierFraction < params.magCalibrationMinInliers {
            var none = MagnetometerCalibration()
            none.offset = b0
            none.coverage = result.coverage
            none.measuredFieldUT = rawMeasured
            none.inlierFraction = result.inlierFraction
            none.limitation = String(format: "only %.0f%% of the samples fit one calibrated field (a magnet or a vehicle nearby?)",
                                     100 * result.inlierFraction)
            return none
        }
        return result
    }

    /// µT: radii a fitted field may have. The earth's is 22–67 µT (WMM2025); an uncalibrated
    /// scale may read it half as strong or half again as strong.
    static let plausibleFieldUT = 11.0...100.0

    /// Index of the bin of direction `d` (cube map).
    @inline(__always)
    static func bin(_ d: Vector3) -> Int {
        let ax = abs(d.x), ay = abs(d.y), az = abs(d.z)
        let face: Int, u: Double, v: Double
        if ax >= ay && ax >= az { face = d.x > 0 ? 0 : 1; u = d.y / ax; v = d.z / ax }
        else if ay >= az { face = d.y > 0 ? 2 : 3; u = d.x / ay; v = d.z / ay }
        else { face = d.z > 0 ? 4 : 5; u = d.x / az; v = d.y / az }
        let c = Double(cells)
        let i = min(cells - 1, max(0, Int((u + 1) * 0.5 * c))), j = min(cells - 1, max(0, Int((v + 1) * 0.5 * c)))
        return (face * cells + i) * cells + j
    }

    /// The mean direction of gravity (device frame) when the device never tilted (the
    /// covariance of its 1-second mean directions has no eigenvalue ≥ `minCoverage`); nil when
    /// it did, or without accelerometer samples.
    static func levelAxis(_ accel: SampleSeries, minCoverage: Double) -> Vector3? {
        guard accel.count > 1 else { return nil }
        var directions: [Vector3] = []
        var sum = Vector3.zero, n = 0, start = accel.times[0]
        for i in 0..<accel.count {
            if accel.times[i] - start >= 1 {
                if n > 0, sum.norm > 0 { directions.append(sum.normalized) }
                sum = .zero; n = 0; start = accel.times[i]
            }
            let a = accel.vector(i)
            if a.isFinite { sum = sum + a; n += 1 }
        }
        if n > 0, sum.norm > 0 { directions.append(sum.normalized) }
        guard directions.count >= 2 else { return nil }
        let cov = coverage(directions, around: .zero, across: nil)
        guard cov.values[2] < minCoverage else { return nil }
        var mean = Vector3.zero
        for d in directions { mean = mean + d }
        return mean.norm > 0 ? mean.normalized : nil
    }

    /// Fraction of samples whose calibrated norm is within `threshold` (relative) of the median.
    static func inliers(_ mag: SampleSeries, _ cal: MagnetometerCalibration, threshold: Double) -> Double {
        guard mag.count > 0 else { return 0 }
        // The median of the norms from a coarse histogram is enough for a ±10 % band: first a
        // sample of every k-th norm, sorted.
        let step = max(1, mag.count / 4096)
        var sample: [Double] = []
        sample.reserveCapacity(mag.count / step + 1)
        for i in stride(from: 0, to: mag.count, by: step) { sample.append(cal.apply(mag.vector(i)).norm) }
        sample.sort()
        let median = sample[sample.count / 2]
        guard median > 0 else { return 0 }
        var inside = 0
        for i in 0..<mag.count where abs(cal.apply(mag.vector(i)).norm - median) <= threshold * median { inside += 1 }
        return Double(inside) / Double(mag.count)
    }
}
