import POIARCore

/// The least-squares linear map from the gyro's rotation over a frame pair to the image's
/// shift over it: shift = M · rotation + c, M 2×3, c 2×1, both fitted, so the camera's mount
/// (which gyro axis turns the picture which way), its focal length in pixels and the gyro's
/// bias over a frame interval need not be known. What the map cannot explain (translation
/// parallax, noise, a wrong time offset) is the residual.
struct ShiftFit {
    /// Σ w x xᵀ (by rows) and Σ w x yᵀ with x = (rotation, 1), y = (dx, dy).
    private var normal = [SIMD4<Double>](repeating: .zero, count: 4)
    private var crossX = SIMD4<Double>.zero, crossY = SIMD4<Double>.zero
    private var weightSum = 0.0, sumX = 0.0, sumY = 0.0, sumSquares = 0.0
    private(set) var count = 0

    mutating func add(rotation g: Vector3, shift: ImageShift, weight w: Double) {
        let x = SIMD4(g.x, g.y, g.z, 1)
        let wx = w * x
        for r in 0..<4 { normal[r] += wx[r] * x }
        crossX += wx * shift.dx
        crossY += wx * shift.dy
        weightSum += w
        sumX += w * shift.dx; sumY += w * shift.dy
        sumSquares += w * (shift.dx * shift.dx + shift.dy * shift.dy)
        count += 1
    }

    /// Fraction of the shifts' variance the map leaves unexplained (1 − R², 0…1); nil with
    /// fewer pairs than twice the map's unknowns or no variance to explain.
    var unexplained: Double? {
        guard count >= 8, weightSum > 0 else { return nil }
        let total = sumSquares - (sumX * sumX + sumY * sumY) / weightSum
        guard total > 0 else { return nil }
        var a = [Double](repeating: 0, count: 16)
        for r in 0..<4 { for c in 0..<4 { a[r * 4 + c] = normal[r][c] } }
        // A whisker of ridge: a gyro axis that never turned leaves the normal matrix singular.
        let trace = (0..<4).reduce(0.0) { $0 + a[$1 * 5] }
        for d in 0..<4 { a[d * 5] += 1e-12 * trace }
        let cx = (0..<4).map { crossX[$0] }, cy = (0..<4).map { crossY[$0] }
        guard let bx = ShiftFit.solve(a, cx), let by = ShiftFit.solve(a, cy) else { return nil }
        let explained = (0..<4).reduce(0.0) { $0 + bx[$1] * cx[$1] + by[$1] * cy[$1] }
        let residual = max(0, sumSquares - explained)
        return min(1, residual / total)
    }

    /// Solves the symmetric positive definite 4×4 system a · x = b by Cholesky.
    private static func solve(_ a: [Double], _ b: [Double]) -> [Double]? {
        var l = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0...i {
                var s = a[i * 4 + j]
                for k in 0..<j { s -= l[i * 4 + k] * l[j * 4 + k] }
                if i == j {
                    guard s > 0 else { return nil }
                    l[i * 4 + i] = s.squareRoot()
                } else {
                    l[i * 4 + j] = s / l[j * 4 + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: 4)
        for i in 0..<4 {
            var s = b[i]
            for k in 0..<i { s -= l[i * 4 + k] * y[k] }
            y[i] = s / l[i * 4 + i]
        }
        var x = [Double](repeating: 0, count: 4)
        for i in stride(from: 3, through: 0, by: -1) {
            var s = y[i]
            for k in (i + 1)..<4 { s -= l[k * 4 + i] * x[k] }
            x[i] = s / l[i * 4 + i]
        }
        return x
    }
}
