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

    init(times: [Double], storage: [Float], headingIsAbsolute: Bool, maxInterpolationGap: Double) {
        precondition(storage.count == 4 * times.count)
        self.times = times; self.storage = storage
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
