import Foundation
import POIARCore

// The fixed-size 3×3 matrices of the filter's per-sample path, their entries as stored
// properties and every product written out: no arrays, no loops. (The whole-recording
// calibrations use the general small solvers of SmallLinearAlgebra.swift.)

/// A symmetric 3×3 matrix (the bias covariance, the hard-iron fit's normal equations).
public struct SymmetricMatrix3: Sendable, Equatable {
    public var xx, yy, zz, xy, xz, yz: Double
    public init(xx: Double, yy: Double, zz: Double, xy: Double, xz: Double, yz: Double) {
        self.xx = xx; self.yy = yy; self.zz = zz; self.xy = xy; self.xz = xz; self.yz = yz
    }
    public init(diagonal d: Double) { self.init(xx: d, yy: d, zz: d, xy: 0, xz: 0, yz: 0) }
    public func times(_ v: Vector3) -> Vector3 {
        Vector3(xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z, xz * v.x + yz * v.y + zz * v.z)
    }

    /// The cofactors of the first row and the determinant, expanded along that row.
    @inline(__always)
    private var firstRowCofactors: (c00: Double, c01: Double, c02: Double, det: Double) {
        let c00 = yy * zz - yz * yz
        let c01 = xz * yz - xy * zz
        let c02 = xy * yz - xz * yy
        return (c00, c01, c02, xx * c00 + xy * c01 + xz * c02)
    }

    /// The inverse; nil when the determinant is 0 or not finite.
    func inverse() -> SymmetricMatrix3? {
        let (c00, c01, c02, det) = firstRowCofactors
        guard det != 0, det.isFinite else { return nil }
        let i = 1 / det
        return SymmetricMatrix3(xx: c00 * i, yy: (xx * zz - xz * xz) * i, zz: (xx * yy - xy * xy) * i,
                                xy: c01 * i, xz: c02 * i, yz: (xy * xz - xx * yz) * i)
    }

    /// Solves A·x = v for a positive definite A (Cramer's rule); nil when (nearly) singular.
    func solve(_ v: Vector3) -> Vector3? {
        let (c00, c01, c02, det) = firstRowCofactors
        guard abs(det) > 1e-18 else { return nil }
        let c11 = xx * zz - xz * xz
        let c12 = xy * xz - xx * yz
        let c22 = xx * yy - xy * xy
        let inv = 1 / det
        return Vector3((c00 * v.x + c01 * v.y + c02 * v.z) * inv,
                       (c01 * v.x + c11 * v.y + c12 * v.z) * inv,
                       (c02 * v.x + c12 * v.y + c22 * v.z) * inv)
    }

    /// A·B for symmetric A, B that commute (so the product is symmetric).
    static func product(_ a: SymmetricMatrix3, _ b: SymmetricMatrix3) -> SymmetricMatrix3 {
        SymmetricMatrix3(xx: a.xx * b.xx + a.xy * b.xy + a.xz * b.xz,
                         yy: a.xy * b.xy + a.yy * b.yy + a.yz * b.yz,
                         zz: a.xz * b.xz + a.yz * b.yz + a.zz * b.zz,
                         xy: a.xx * b.xy + a.xy * b.yy + a.xz * b.yz,
                         xz: a.xx * b.xz + a.xy * b.yz + a.xz * b.zz,
                         yz: a.xy * b.xz + a.yy * b.yz + a.yz * b.zz)
    }

    /// P − K·Q for K, Q that commute (symmetric result).
    static func subtractProduct(_ p: SymmetricMatrix3, _ k: SymmetricMatrix3, _ q: SymmetricMatrix3) -> SymmetricMatrix3 {
        let kp = product(k, q)
        return SymmetricMatrix3(xx: p.xx - kp.xx, yy: p.yy - kp.yy, zz: p.zz - kp.zz,
                                xy: p.xy - kp.xy, xz: p.xz - kp.xz, yz: p.yz - kp.yz)
    }

    /// The eigenvalues, ascending (the trigonometric closed form for a symmetric 3×3 matrix).
    func eigenvalues() -> (Double, Double, Double) {
        let p1 = xy * xy + xz * xz + yz * yz
        let q = (xx + yy + zz) / 3
        let dx = xx - q, dy = yy - q, dz = zz - q
        let p2 = dx * dx + dy * dy + dz * dz + 2 * p1
        guard p2 > 1e-30 else { return (q, q, q) }
        let p = (p2 / 6).squareRoot()
        // det((A − qI)/p) / 2
        let bxx = dx / p, byy = dy / p, bzz = dz / p, bxy = xy / p, bxz = xz / p, byz = yz / p
        let det = bxx * (byy * bzz - byz * byz) - bxy * (bxy * bzz - byz * bxz) + bxz * (bxy * byz - byy * bxz)
        let r = min(1, max(-1, det / 2))
        let phi = acos(r) / 3
        let largest = q + 2 * p * cos(phi), smallest = q + 2 * p * cos(phi + 2 * Double.pi / 3)
        return (smallest, 3 * q - largest - smallest, largest)
    }
}

/// A 3×3 matrix as nine stored values, row-major (fast element access for the hot path).
struct Matrix9: Sendable, Equatable {
    var a00 = 0.0, a01 = 0.0, a02 = 0.0
    var a10 = 0.0, a11 = 0.0, a12 = 0.0
    var a20 = 0.0, a21 = 0.0, a22 = 0.0

    init() {}

    /// The rotation matrix of a unit quaternion (R·v = q ⊗ v ⊗ q*).
    init(_ q: Quaternion) {
        let x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z
        let xx = q.x * x2, yy = q.y * y2, zz = q.z * z2
        let xy = q.x * y2, xz = q.x * z2, yz = q.y * z2
        let wx = q.w * x2, wy = q.w * y2, wz = q.w * z2
        a00 = 1 - yy - zz; a01 = xy - wz; a02 = xz + wy
        a10 = xy + wz; a11 = 1 - xx - zz; a12 = yz - wx
        a20 = xz - wy; a21 = yz + wx; a22 = 1 - xx - yy
    }

    @inline(__always) func times(_ v: Vector3) -> Vector3 {
        Vector3(a00 * v.x + a01 * v.y + a02 * v.z, a10 * v.x + a11 * v.y + a12 * v.z, a20 * v.x + a21 * v.y + a22 * v.z)
    }
    @inline(__always) func transposeTimes(_ v: Vector3) -> Vector3 {
        Vector3(a00 * v.x + a10 * v.y + a20 * v.z, a01 * v.x + a11 * v.y + a21 * v.z, a02 * v.x + a12 * v.y + a22 * v.z)
    }
    /// self += k · m.
    @inline(__always) mutating func add(_ m: Matrix9, _ k: Double) {
        a00 += k * m.a00; a01 += k * m.a01; a02 += k * m.a02
        a10 += k * m.a10; a11 += k * m.a11; a12 += k * m.a12
        a20 += k * m.a20; a21 += k * m.a21; a22 += k * m.a22
    }
}
