import Foundation
import Geodesy

/// The bytes of a GTX geoid grid (PROJ's format, docs/altitude.md): the 40-byte big-endian
/// header (south-west node, steps in degrees, rows, columns), then `values`, south row first,
/// as big-endian float32.
public func gtxBytes(south: Double, west: Double, latStep: Double, lonStep: Double, rows: Int, columns: Int,
                     values: [Float]) -> Data {
    var d = Data()
    for v in [south, west, latStep, lonStep] { withUnsafeBytes(of: v.bitPattern.bigEndian) { d.append(contentsOf: $0) } }
    for v in [Int32(rows), Int32(columns)] { withUnsafeBytes(of: v.bigEndian) { d.append(contentsOf: $0) } }
    for v in values { withUnsafeBytes(of: v.bitPattern.bigEndian) { d.append(contentsOf: $0) } }
    return d
}

/// A GTX grid over the whole globe (3 × 4 nodes, 90° apart) whose undulation is `n` everywhere.
public func constantGTX(_ n: Float) -> Data {
    gtxBytes(south: -90, west: -180, latStep: 90, lonStep: 90, rows: 3, columns: 4, values: [Float](repeating: n, count: 12))
}

/// A geoid whose undulation is `n` everywhere (`constantGTX`), its grid named `name`.
public func constantGeoid(_ n: Float, name: String = "constant.gtx") throws -> Geoid {
    Geoid(grid: try GeoidGrid(gtx: constantGTX(n), name: name))
}
