import Foundation
import POIARCore

/// Online hard-iron estimation. With R the 6D attitude (device → tilt-corrected earth frame,
/// heading from the gyro, so it drifts only slowly), the earth field h is constant in that frame
/// and a magnetometer with offset b reads m = Rᵀh + b, i.e. R·m = h + R·b: linear in (h, b).
/// The least-squares fit over a window needs only sums: n = Σw, S = ΣwR, Y₁ = ΣwR·m,
/// Y₂ = Σw·m, Q = Σw|m|² (w = the time each sample stands for). With M̄ = S/n:
///   ((1+μ)I − M̄ᵀM̄)·b = Y₂/n − M̄ᵀY₁/n + μ·b₀,   h = Y₁/n − M̄·b
/// where μ pulls toward the current offset b₀ (directions the device never turned about keep
/// their value). The sums are kept per block (a tenth of the window) in a ring, so the window
/// slides without storing samples.
struct HardIronFit: Sendable, Equatable {
    struct Sums: Sendable, Equatable {
        var n = 0.0, q = 0.0
        var s = Matrix9()
        var y1 = Vector3.zero, y2 = Vector3.zero

        mutating func add(_ o: Sums) {
            n += o.n; q += o.q; s.add(o.s, 1); y1 = y1 + o.y1; y2 = y2 + o.y2
        }
    }

    static let blocks = 10
    var current = Sums()
    var ring: [Sums] = []
    var next = 0

    /// The result of one fit.
    struct Result: Equatable {
        var offset: Vector3
        var field: Vector3
        /// RMS of R·(m − b) − h, µT.
        var residual: Double
        /// Middle eigenvalue of I − M̄ᵀM̄ (0…1): how well the turns pin the offset down in the
        /// two directions across the axis the device turned about most (the eigenvalue along
        /// that axis may be 0: turning about the vertical alone leaves the vertical offset,
        /// which the regularisation keeps, unknown and harmless to the heading).
        var excitation: Double
        /// Smallest eigenvalue of I − M̄ᵀM̄: how well the turns pin the offset down in every
        /// direction.
        var fullExcitation: Double
        /// RMS residual the prior offset leaves over the same window (with its best h), µT.
        var priorResidual: Double
    }

    @inline(__always)
    mutating func add(rotation r: Matrix9, field m: Vector3, rotated rm: Vector3, weight w: Double) {
        current.n += w
        current.q += w * m.normSquared
        current.s.add(r, w)
        current.y1 = current.y1 + rm * w
        current.y2 = current.y2 + m * w
    }

    /// Closes the current block once it holds `window`/10 s; then fits the whole window when it
    /// is (nearly) full. Returns nil while there is nothing new to report.
    mutating func closeBlockIfDue(window: Double, regularization mu: Double, prior b0: Vector3) -> Result? {
        guard current.n >= window / Double(Self.blocks) else { return nil }
        if ring.count < Self.blocks { ring.append(current) } else { ring[next] = current }
        next = (next + 1) % Self.blocks
        current = Sums()
        var total = Sums()
        for b in ring { total.add(b) }
        guard total.n >= 0.9 * window else { return nil }
        return Self.solve(total, mu: mu, prior: b0)
    }

    mutating func reset() { current = Sums(); ring.removeAll(keepingCapacity: true); next = 0 }

    static func solve(_ t: Sums, mu: Double, prior b0: Vector3) -> Result? {
        let inv = 1 / t.n
        var m = t.s
        m.add(m, inv - 1)  // m = S/n
        let y1 = t.y1 * inv, y2 = t.y2 * inv, q = t.q * inv
        // A = I − M̄ᵀM̄ (symmetric).
        let c0 = Vector3(m.a00, m.a10, m.a20), c1 = Vector3(m.a01, m.a11, m.a21), c2 = Vector3(m.a02, m.a12, m.a22)
        let a = SymmetricMatrix3(xx: 1 - c0.dot(c0), yy: 1 - c1.dot(c1), zz: 1 - c2.dot(c2),
                                 xy: -c0.dot(c1), xz: -c0.dot(c2), yz: -c1.dot(c2))
        let eig = a.eigenvalues()
        var reg = a
        reg.xx += mu; reg.yy += mu; reg.zz += mu
        let rhs = y2 - m.transposeTimes(y1) + b0 * mu
        guard let b = reg.solve(rhs) else { return nil }
        let h = y1 - m.times(b)
        // For an offset b and its best field h = y₁ − M̄b:
        // Σw|R(m − b) − h|²/n = q − 2b·y₂ + |b|² − |y₁ − M̄b|².
        func residual(_ b: Vector3) -> Double {
            (max(0, q - 2 * b.dot(y2) + b.normSquared - (y1 - m.times(b)).normSquared)).squareRoot()
        }
        return Result(offset: b, field: h, residual: residual(b), excitation: eig.1, fullExcitation: eig.0,
                      priorResidual: residual(b0))
    }
}
