import Foundation
import POIARCore

/// The least-squares shapes `MagnetometerCalibration.fit` fits to the field's bin means: the
/// coverage of directions (which axes the device turned about), the sphere (hard iron), the
/// ellipse or ellipsoid (soft iron), and the field's horizontal and vertical parts for a device
/// that stayed level. Plain geometry: which of them a recording gets, and when a fit is used,
/// is decided in `fit`.
extension MagnetometerCalibration {
    /// Medians of the horizontal norm and of the up component of `points − centre` (device
    /// frame, `up` the unit direction of gravity's reaction).
    static func levelParts(_ points: [Vector3], centre: Vector3, up: Vector3) -> (horizontal: Double, vertical: Double) {
        guard !points.isEmpty else { return (0, 0) }
        var h: [Double] = [], v: [Double] = []
        for p in points {
            let d = p - centre, u = d.dot(up)
            v.append(u)
            h.append((d - up * u).norm)
        }
        h.sort(); v.sort()
        return (h[h.count / 2], v[v.count / 2])
    }

    /// The median distance of the points from `centre`.
    static func radius(_ points: [Vector3], centre: Vector3) -> Double? {
        guard !points.isEmpty else { return nil }
        let d = points.map { ($0 - centre).norm }.sorted()
        return d[d.count / 2]
    }

    /// Eigen-decomposition of the covariance of the unit directions of `points − centre`
    /// (projected onto the plane across `across` when given: that axis then gets eigenvalue 0).
    static func coverage(_ points: [Vector3], around centre: Vector3, across: Vector3?) -> (values: [Double], vectors: [Vector3]) {
        var s = [[Double]](repeating: [0, 0, 0], count: 3)
        var mean = Vector3.zero
        var n = 0.0
        for p in points {
            var d = p - centre
            if let a = across { d = d - a * d.dot(a) }
            let l = d.norm
            guard l > 0 else { continue }
            let u = d / l
            mean = mean + u
            let c = [u.x, u.y, u.z]
            for i in 0..<3 { for j in 0..<3 { s[i][j] += c[i] * c[j] } }
            n += 1
        }
        guard n > 0 else { return ([0, 0, 0], [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]) }
        mean = mean / n
        let mc = [mean.x, mean.y, mean.z]
        for i in 0..<3 { for j in 0..<3 { s[i][j] = s[i][j] / n - mc[i] * mc[j] } }
        return symmetricEigen(s)
    }

    /// The sphere's centre b = prior + Σ βₖ·axisₖ (least squares over the points).
    static func sphereCentre(_ points: [Vector3], prior b0: Vector3, axes: [Vector3]) -> Vector3? {
        guard points.count >= axes.count + 2 else { return nil }
        // 2(p − b0)·(Σβ axis) + c = |p − b0|², with c = r² − |β|².
        var eq = NormalEquations(unknowns: axes.count + 1)
        for p in points {
            let d = p - b0
            var row = axes.map { 2 * d.dot($0) }
            row.append(1)
            eq.add(row, d.normSquared)
        }
        guard let x = eq.solve() else { return nil }
        var b = b0
        for (k, axis) in axes.enumerated() { b = b + axis * x[k] }
        return b.isFinite ? b : nil
    }

    /// The soft-iron fit across the covered `axes` (two or three orthonormal directions): the
    /// ellipse or ellipsoid yᵀQy + gᵀy = 1 through the points' coordinates y along the axes
    /// (around `centre`, algebraic least squares), turned into a circle or sphere of the same
    /// mean radius; along an axis not covered the field is left as it is. Returns A and the
    /// ellipse's centre; nil unless Q is positive definite.
    static func softIron(_ points: [Vector3], centre: Vector3, axes: [Vector3]) -> (matrix: Matrix3, centre: Vector3)? {
        let k = axes.count
        guard k == 2 || k == 3, points.count >= 4 * k else { return nil }
        // Coordinates scaled by the typical radius so the unknowns are of similar size.
        let r = points.map { ($0 - centre).norm }.reduce(0, +) / Double(points.count)
        guard r > 0 else { return nil }
        // Unknowns: the k(k+1)/2 entries of Q (diagonal, then off-diagonal), then g.
        let pairs: [(Int, Int)] = k == 2 ? [(0, 0), (1, 1), (0, 1)] : [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]
        var eq = NormalEquations(unknowns: pairs.count + k)
        for p in points {
            let d = (p - centre) / r
            let y = axes.map { d.dot($0) }
            var row = pairs.map { $0.0 == $0.1 ? y[$0.0] * y[$0.0] : 2 * y[$0.0] * y[$0.1] }
            row += y
            eq.add(row, 1)
        }
        guard let x = eq.solve() else { return nil }
        var q = [[Double]](repeating: [0, 0, 0], count: 3)
        for (n, (i, j)) in pairs.enumerated() { q[i][j] = x[n]; q[j][i] = x[n] }
        if k == 2 { q[2][2] = -1 }  // a placeholder, never used (negative: apart from the others)
        let g = (0..<k).map { x[pairs.count + $0] }
        let e = symmetricEigen(q)
        // Eigenpairs within the k axes (for k = 2 the placeholder's is the one along z).
        let inPlane = (0..<3).filter { k == 3 || abs(e.vectors[$0].z) < 0.5 }
        guard inPlane.count == k, inPlane.allSatisfy({ e.values[$0] > 0 }) else { return nil }
        // Centre c = −Q⁻¹g/2; then (y − c)ᵀQ(y − c) = 1 + cᵀQc.
        var c = [Double](repeating: 0, count: k)
        for n in inPlane {
            let v = [e.vectors[n].x, e.vectors[n].y, e.vectors[n].z]
            var vg = 0.0
            for i in 0..<k { vg += v[i] * g[i] }
            for i in 0..<k { c[i] += -0.5 * v[i] * vg / e.values[n] }
        }
        var cqc = 0.0
        for i in 0..<k { for j in 0..<k { cqc += c[i] * q[i][j] * c[j] } }
        let scale = 1 + cqc
        guard scale > 0 else { return nil }
        // √(Q/scale) maps the ellipse to the unit circle; times the geometric mean of its
        // semi-axes keeps the mean radius: a shape correction, the scale is set apart.
        var logRadius = 0.0
        for n in inPlane { logRadius -= 0.5 * log(e.values[n] / scale) }
        let radius = exp(logRadius / Double(k)) * r
        // A = Σ (in the axes' frame) √(λ/scale)·radius/r · v vᵀ, plus the identity across them.
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        for n in inPlane {
            let f = (e.values[n] / scale).squareRoot() * radius / r
            let vLocal = [e.vectors[n].x, e.vectors[n].y, e.vectors[n].z]
            var v = Vector3.zero
            for i in 0..<k { v = v + axes[i] * vLocal[i] }
            let vc = [v.x, v.y, v.z]
            for i in 0..<3 { for j in 0..<3 { a[i][j] += f * vc[i] * vc[j] } }
        }
        if k == 2 {
            let w = axes[0].cross(axes[1]).normalized
            let wc = [w.x, w.y, w.z]
            for i in 0..<3 { for j in 0..<3 { a[i][j] += wc[i] * wc[j] } }
        }
        var shift = Vector3.zero
        for i in 0..<k { shift = shift + axes[i] * (c[i] * r) }
        let newCentre = centre + shift
        guard newCentre.isFinite, a.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { return nil }
        return (Matrix3(rows: Vector3(a[0][0], a[0][1], a[0][2]), Vector3(a[1][0], a[1][1], a[1][2]),
                        Vector3(a[2][0], a[2][1], a[2][2])), newCentre)
    }
}
