import Foundation
import POIARCore

/// The estimated attitude of a whole recording: one device → ENU quaternion per gyro sample
/// (from the first pose on), before it is written as pose rows or given to frames. A value:
/// a later step may change it (align a relative heading to the GPS course, say) and every
/// output follows.
///
/// Stored compactly: the time as a Double and the quaternion as four Float32 (24 bytes per
/// sample; the Float32 rounding is below 10⁻⁷ rad). Read back, quaternions are normalised.
public struct AttitudeSeries: Sendable, Equatable {
    public private(set) var times: [Double]
    /// w, x, y, z of each sample in turn.
    var storage: [Float]
    /// The 68 % bound of each sample's heading error, degrees (`HeadingUncertainty`); empty
    /// when the attitude's source gives none (the phone's own orientation).
    public internal(set) var headingSigmas: [Float] = []
    /// Whether the heading is referenced to the field (north: magnetic, or true with the
    /// declination). False for a recording without a magnetometer: azimuth 0 is then the
    /// device's facing direction (`ComplementaryFilter.facingAxis`) at the first pose, and the
    /// heading drifts with the gyro.
    public var headingIsAbsolute: Bool
    /// Longest step between samples across which `orientation(at:)` interpolates (s); across
    /// a longer gap (the gyro stopped) the nearer sample is held.
    public var maxInterpolationGap: Double

    public init(times: [Double] = [], orientations: [Quaternion] = [], headingIsAbsolute: Bool = true,
                maxInterpolationGap: Double = 0.5) {
        precondition(times.count == orientations.count)
        self.times = times
        storage = []
        storage.reserveCapacity(4 * orientations.count)
        for q in orientations { storage += [Float(q.w), Float(q.x), Float(q.y), Float(q.z)] }
        self.headingIsAbsolute = headingIsAbsolute
        self.maxInterpolationGap = maxInterpolationGap
    }

    init(times: [Double], storage: [Float], headingIsAbsolute: Bool, maxInterpolationGap: Double, headingSigmas: [Float] = []) {
        precondition(storage.count == 4 * times.count && (headingSigmas.isEmpty || headingSigmas.count == times.count))
        self.times = times; self.storage = storage; self.headingSigmas = headingSigmas
        self.headingIsAbsolute = headingIsAbsolute; self.maxInterpolationGap = maxInterpolationGap
    }

    public var count: Int { times.count }
    public var isEmpty: Bool { times.isEmpty }

    /// The attitude of sample i (device → ENU, unit).
    public subscript(i: Int) -> Quaternion {
        get {
            let q = Quaternion(w: Double(storage[4 * i]), x: Double(storage[4 * i + 1]),
                               y: Double(storage[4 * i + 2]), z: Double(storage[4 * i + 3]))
            return ComplementaryFilter.normalize(q)
        }
        set {
            storage[4 * i] = Float(newValue.w); storage[4 * i + 1] = Float(newValue.x)
            storage[4 * i + 2] = Float(newValue.y); storage[4 * i + 3] = Float(newValue.z)
        }
    }

    /// The 68 % bound of sample i's heading error, degrees: 180 (any) while the heading is
    /// relative, nil when the series has none.
    public func headingSigma(_ i: Int) -> Double? {
        guard !headingSigmas.isEmpty else { return nil }
        return headingIsAbsolute ? Double(headingSigmas[i]) : 180
    }

    /// The heading's 68 % bound at time t, degrees: as `orientation(at:)` takes the attitude
    /// (the larger of the two samples around t, the nearer one across a gap).
    public func headingSigma(at t: Double) -> Double? {
        guard !headingSigmas.isEmpty, !times.isEmpty else { return nil }
        if t <= times[0] { return headingSigma(0) }
        if t >= times[count - 1] { return headingSigma(count - 1) }
        let lo = times.interpolationInterval(for: t), hi = lo + 1
        if times[hi] - times[lo] > maxInterpolationGap { return headingSigma(t - times[lo] <= times[hi] - t ? lo : hi) }
        return max(headingSigma(lo)!, headingSigma(hi)!)
    }

    /// Adds `varianceDeg2` (degrees²) to every sample's heading uncertainty: a heading turned
    /// by a correction that is itself this uncertain (the GPS course's alignment).
    public mutating func widenHeadingSigmas(byVariance varianceDeg2: Double) {
        for i in headingSigmas.indices {
            let s = Double(headingSigmas[i])
            headingSigmas[i] = Float(min((s * s + varianceDeg2).squareRoot(), 180))
        }
    }

    /// The attitude at time t: interpolated (slerp) between the samples around it, the first
    /// or last one outside the series, the nearer one across a gap. nil when empty.
    public func orientation(at t: Double) -> Quaternion? {
        guard !times.isEmpty else { return nil }
        if t <= times[0] { return self[0] }
        if t >= times[count - 1] { return self[count - 1] }
        // The last sample at or before t.
        let lo = times.interpolationInterval(for: t), hi = lo + 1
        let step = times[hi] - times[lo]
        if step > maxInterpolationGap { return t - times[lo] <= times[hi] - t ? self[lo] : self[hi] }
        guard step > 0 else { return self[lo] }
        return Self.slerp(self[lo], self[hi], (t - times[lo]) / step)
    }

    /// Spherical linear interpolation from a (f = 0) to b (f = 1) along the shorter arc.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ f: Double) -> Quaternion {
        var b = b
        var d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z
        if d < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z); d = -d }
        let wa: Double, wb: Double
        if d > 0.9995 {
            wa = 1 - f; wb = f
        } else {
            let theta = acos(d), s = sin(theta)
            wa = sin((1 - f) * theta) / s; wb = sin(f * theta) / s
        }
        return ComplementaryFilter.normalize(Quaternion(w: wa * a.w + wb * b.w, x: wa * a.x + wb * b.x,
                                                        y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z))
    }
}
