/// A 3-vector of doubles. Used for sensor samples (device frame) and for
/// local ENU offsets (x east, y north, z up).
public struct Vector3: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x; self.y = y; self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    public var norm: Double { (x * x + y * y + z * z).squareRoot() }
    public var normSquared: Double { x * x + y * y + z * z }
    public var normalized: Vector3 { let n = norm; return n > 0 ? self / n : self }
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
    public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }

    public var description: String { "(\(x), \(y), \(z))" }
}

/// A row-major 3×3 matrix, used for rotation matrices.
public struct Matrix3: Equatable, Sendable {
    /// rows[i][j] = element at row i, column j.
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        m = (r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z)
    }

    public subscript(i: Int, j: Int) -> Double {
        switch i * 3 + j {
        case 0: return m.0
        case 1: return m.1
        case 2: return m.2
        case 3: return m.3
        case 4: return m.4
        case 5: return m.5
        case 6: return m.6
        case 7: return m.7
        default: return m.8
        }
    }

    public var row0: Vector3 { Vector3(m.0, m.1, m.2) }
    public var row1: Vector3 { Vector3(m.3, m.4, m.5) }
    public var row2: Vector3 { Vector3(m.6, m.7, m.8) }
    public var column0: Vector3 { Vector3(m.0, m.3, m.6) }
    public var column1: Vector3 { Vector3(m.1, m.4, m.7) }
    public var column2: Vector3 { Vector3(m.2, m.5, m.8) }

    public var transposed: Matrix3 { Matrix3(rows: column0, column1, column2) }

    public static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.row0.dot(v), a.row1.dot(v), a.row2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let c0 = b.column0, c1 = b.column1, c2 = b.column2
        return Matrix3(rows: Vector3(a.row0.dot(c0), a.row0.dot(c1), a.row0.dot(c2)),
                       Vector3(a.row1.dot(c0), a.row1.dot(c1), a.row1.dot(c2)),
                       Vector3(a.row2.dot(c0), a.row2.dot(c1), a.row2.dot(c2)))
    }

    public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.row0 == b.row0 && a.row1 == b.row1 && a.row2 == b.row2
    }
}
