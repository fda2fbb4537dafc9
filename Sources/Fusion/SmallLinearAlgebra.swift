import Foundation
import POIARCore

/// Small dense linear algebra for the whole-recording calibrations (a handful of unknowns, a
/// few hundred equations): normal equations accumulated row by row and solved by Cholesky,
/// and the eigen-decomposition of a symmetric 3×3 matrix by Jacobi rotations.
struct NormalEquations {
    let n: Int
    /// AᵀA, row-major n×n (only the upper triangle is accumulated, mirrored on solving).
    var ata: [Double]
    /// Aᵀb.
    var atb: [Double]

    init(unknowns n: Int) {
        self.n = n
        ata = [Double](repeating: 0, count: n * n)
        atb = [Double](repeating: 0, count: n)
    }

    /// Adds the equation row·x = rhs with weight w.
    mutating func add(_ row: [Double], _ rhs: Double, weight w: Double = 1) {
        for i in 0..<n {
            let ri = row[i] * w
            guard ri != 0 else { continue }
            atb[i] += ri * rhs
            for j in i..<n { ata[i * n + j] += ri * row[j] }
        }
    }

    /// The least-squares solution, nil when AᵀA is not positive definite (an unknown the
    /// equations do not determine).
    func solve() -> [Double]? {
        var a = ata
        for i in 0..<n { for j in 0..<i { a[i * n + j] = a[j * n + i] } }
        // Cholesky: A = L·Lᵀ (L stored in the lower triangle).
        var scale = 0.0
        for i in 0..<n { scale = max(scale, abs(a[i * n + i])) }
        guard scale > 0, scale.isFinite else { return nil }
        for j in 0..<n {
            var d = a[j * n + j]
            for k in 0..<j { d -= a[j * n + k] * a[j * n + k] }
            guard d > 1e-13 * scale else { return nil }
            let l = d.squareRoot()
            a[j * n + j] = l
            for i in (j + 1)..<max(j + 1, n) {
                var s = a[i * n + j]
                for k in 0..<j { s -= a[i * n + k] * a[j * n + k] }
                a[i * n + j] = s / l
            }
        }
        var y = atb
        for i in 0..<n {
            for k in 0..<i { y[i] -= a[i * n + k] * y[k] }
            y[i] /= a[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            for k in (i + 1)..<max(i + 1, n) { y[i] -= a[k * n + i] * y[k] }
            y[i] /= a[i * n + i]
        }
        return y.allSatisfy(\.isFinite) ? y : nil
    }
}

/// Eigenvalues (ascending) and unit eigenvectors of a symmetric 3×3 matrix given as
/// [[a00, a01, a02], [a01, a11, a12], [a02, a12, a22]] (cyclic Jacobi rotations; converges to
/// machine precision in a few sweeps).
func symmetricEigen(_ m: [[Double]]) -> (values: [Double], vectors: [Vector3]) {
    var a = m
    var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    for _ in 0..<50 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
        if off < 1e-30 * max(1e-300, a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) { break }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
            let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
            let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot(), s = t * c
            for k in 0..<3 {  // A ← Jᵀ·A·J
                let akp = a[k][p], akq = a[k][q]
                a[k][p] = c * akp - s * akq
                a[k][q] = s * akp + c * akq
            }
            for k in 0..<3 {
                let apk = a[p][k], aqk = a[q][k]
                a[p][k] = c * apk - s * aqk
                a[q][k] = s * apk + c * aqk
            }
            for k in 0..<3 {
                let vkp = v[k][p], vkq = v[k][q]
                v[k][p] = c * vkp - s * vkq
                v[k][q] = s * vkp + c * vkq
            }
        }
    }
    let order = [0, 1, 2].sorted { a[$0][$0] < a[$1][$1] }
    return (order.map { a[$0][$0] }, order.map { Vector3(v[0][$0], v[1][$0], v[2][$0]) })
}
