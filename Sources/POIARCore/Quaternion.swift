import Foundation

/// A quaternion w + xi + yj + zk. As an attitude it is a unit quaternion that
/// rotates device-frame vectors into the local ENU frame: v_enu = q ⊗ v_dev ⊗ q*.
public struct Quaternion: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about the unit `axis` (right-handed).
    public init(axis: Vector3, angle: Double) {
        let a = axis.normalized
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// Rotation by the rotation vector `r` (axis · angle, radians): the exponential map.
    public init(rotationVector r: Vector3) {
        let angle = r.norm
        if angle < 1e-12 {
            // Second-order series keeps tiny rotations accurate and exactly unit after normalising.
            self = Quaternion(w: 1, x: r.x / 2, y: r.y / 2, z: r.z / 2).normalized
        } else {
            self.init(axis: r / angle, angle: angle)
        }
    }

    /// The rotation vector of a unit quaternion (axis · angle, radians; the logarithm map, the
    /// inverse of `init(rotationVector:)`), taken with w ≥ 0 so the angle is at most π.
    public var rotationVector: Vector3 {
        let c = canonical
        let s = c.vector.norm
        if s < 1e-15 { return c.vector * 2 }
        return c.vector * (2 * atan2(s, c.w) / s)
    }

    public var vector: Vector3 { Vector3(x, y, z) }
    public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// The same rotation with w ≥ 0 (q and −q are the same rotation).
    public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// Hamilton product.
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates v: q ⊗ v ⊗ q*.
    public func rotate(_ v: Vector3) -> Vector3 {
        // t = 2 q×v; v' = v + w t + q×t  (standard efficient form)
        let qv = vector
        let t = 2 * qv.cross(v)
        return v + w * t + qv.cross(t)
    }

    /// The rotation matrix R with R·v = rotate(v).
    public var matrix: Matrix3 {
        let ww = w * w, xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(
            rows: Vector3(ww + xx - yy - zz, 2 * (xy - wz), 2 * (xz + wy)),
            Vector3(2 * (xy + wz), ww - xx + yy - zz, 2 * (yz - wx)),
            Vector3(2 * (xz - wy), 2 * (yz + wx), ww - xx - yy + zz))
    }

    /// The unit quaternion of a proper rotation matrix (Shepperd's method).
    public init(matrix r: Matrix3) {
        let trace = r[0, 0] + r[1, 1] + r[2, 2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(w: s / 4, x: (r[2, 1] - r[1, 2]) / s, y: (r[0, 2] - r[2, 0]) / s, z: (r[1, 0] - r[0, 1]) / s)
        } else if r[0, 0] > r[1, 1] && r[0, 0] > r[2, 2] {
            let s = (1 + r[0, 0] - r[1, 1] - r[2, 2]).squareRoot() * 2
            self.init(w: (r[2, 1] - r[1, 2]) / s, x: s / 4, y: (r[0, 1] + r[1, 0]) / s, z: (r[0, 2] + r[2, 0]) / s)
        } else if r[1, 1] > r[2, 2] {
            let s = (1 + r[1, 1] - r[0, 0] - r[2, 2]).squareRoot() * 2
            self.init(w: (r[0, 2] - r[2, 0]) / s, x: (r[0, 1] + r[1, 0]) / s, y: s / 4, z: (r[1, 2] + r[2, 1]) / s)
        } else {
            let s = (1 + r[2, 2] - r[0, 0] - r[1, 1]).squareRoot() * 2
            self.init(w: (r[1, 0] - r[0, 1]) / s, x: (r[0, 2] + r[2, 0]) / s, y: (r[1, 2] + r[2, 1]) / s, z: s / 4)
        }
        self = self.normalized.canonical
    }

    /// Angle of the rotation between two attitudes, radians (0...π).
    public func angle(to other: Quaternion) -> Double {
        let d = abs(w * other.w + x * other.x + y * other.y + z * other.z)
        return 2 * acos(min(1, d))
    }

    public var description: String { "[\(w), \(x), \(y), \(z)]" }
}
