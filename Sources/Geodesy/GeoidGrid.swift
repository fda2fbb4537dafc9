import Foundation

/// A geoid model as a grid of undulations: N, the height of the geoid above the WGS84
/// ellipsoid, at the nodes of a regular latitude/longitude grid, read from PROJ's GTX format
/// (NOAA/NGS's "vertical datum transformation" grids; PROJ's `egm96_15.gtx` is EGM96 every
/// 15′). Pure: it is parsed from bytes; `GeoidFile` (module GeodesyData) finds and reads the
/// file.
///
/// GTX (as PROJ's reader, `gtxfile.cpp`, and NGS's VDatum document it): a 40-byte big-endian
/// header — the south-west node's latitude and longitude, the latitude and longitude steps
/// (IEEE float64, degrees), the number of rows and of columns (int32) — then rows × columns
/// big-endian IEEE float32 undulations in metres, row by row from south to north, each row
/// from west to east. −88.8888 marks a node without a value.
///
/// **Accuracy.** `undulation` interpolates bilinearly between the four nodes around the
/// point, as PROJ does for GTX grids (it agrees with PROJ's `cs2cs EPSG:4979 EPSG:4326+5773`
/// to 0.1 mm). Against the EGM96 spherical harmonic model itself, bilinear interpolation of
/// the 15′ grid errs by a few centimetres typically and up to about a metre in the steepest
/// geoid (GeographicLib's geoid documentation quotes maxima for its bilinear 15′ grid of that
/// order); on NGA's six published test points the error is at most 0.06 m.
public struct GeoidGrid: Sendable {
    /// The value GTX grids carry at a node without data.
    public static let noData: Float = -88.8888
    /// The header's size, bytes.
    static let headerSize = 40
    /// The finest step taken, degrees (about 0.1 m).
    static let minimumStep = 1e-6

    /// What the grid is called in messages (the file name).
    public let name: String
    /// Latitude and longitude of the south-west node, degrees.
    public let southLatitude: Double, westLongitude: Double
    /// Spacing of the nodes, degrees.
    public let latitudeStep: Double, longitudeStep: Double
    public let rows: Int, columns: Int
    /// True when the columns go once around the globe (columns × step = 360°): the node after
    /// the last column is the first column again.
    public let wrapsLongitude: Bool
    /// Undulations in metres, `rows` rows of `columns`, south row first.
    private let heights: [Float]

    /// Parses a GTX file's bytes.
    /// - Parameter name: the file as messages name it.
    /// - Throws: `GeoidGridError` for a short header, a header that describes no grid on the
    ///   globe, or a size that is not the header's 40 bytes + rows × columns × 4.
    public init(gtx data: Data, name: String) throws {
        guard data.count >= Self.headerSize else {
            throw GeoidGridError(file: name, "\(data.count) bytes: too short for the 40-byte GTX header")
        }
        let header = data.withUnsafeBytes { raw -> (Double, Double, Double, Double, Int, Int) in
            func double(_ offset: Int) -> Double {
                Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            }
            func int(_ offset: Int) -> Int {
                Int(Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
            }
            return (double(0), double(8), double(16), double(24), int(32), int(36))
        }
        let (south, west, dLat, dLon, rows, columns) = header
        func bad(_ why: String) -> GeoidGridError {
            GeoidGridError(file: name, "GTX header (south \(south)°, west \(west)°, steps \(dLat)° × \(dLon)°, \(rows) rows × \(columns) columns): \(why)")
        }
        guard [south, west, dLat, dLon].allSatisfy(\.isFinite) else { throw bad("a field is not a finite number") }
        // No geoid grid is finer than a few metres; the bound also keeps rows × columns × 4 (at
        // most 180°/step + 1 rows, 360°/step + 1 columns) far from overflowing.
        guard dLat >= Self.minimumStep, dLon >= Self.minimumStep else {
            throw bad("the steps must be positive, at least \(Self.minimumStep)°")
        }
        guard rows >= 2, columns >= 2 else { throw bad("at least 2 rows and 2 columns are needed to interpolate") }
        let north = south + Double(rows - 1) * dLat
        // A millionth of a step of slack for steps like 1/60° that are not exact in binary.
        let slack = 1e-6
        guard south >= -90 - slack * dLat, north <= 90 + slack * dLat else {
            throw bad("its rows span latitudes \(south)° to \(north)°, beyond ±90°")
        }
        guard west >= -360, west <= 360, Double(columns - 1) * dLon <= 360 + slack * dLon else {
            throw bad("its columns span more than 360° of longitude or start beyond ±360°")
        }
        let expected = Self.headerSize + rows * columns * 4
        guard data.count == expected else {
            throw GeoidGridError(file: name, "\(data.count) bytes, but its header's \(rows) rows × \(columns) columns of 4 bytes make \(expected) with the header: \(data.count < expected ? "the file is cut short" : "extra bytes after the grid")")
        }
        var values = [Float](repeating: 0, count: rows * columns)
        data.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer { out in
                for i in 0..<out.count {
                    let bits = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: Self.headerSize + 4 * i, as: UInt32.self))
                    out[i] = Float(bitPattern: bits)
                }
            }
        }
        self.name = name
        southLatitude = south; westLongitude = west; latitudeStep = dLat; longitudeStep = dLon
        self.rows = rows; self.columns = columns
        wrapsLongitude = abs(Double(columns) * dLon - 360) <= slack * dLon
        heights = values
    }

    /// N at a point: the geoid's height above the WGS84 ellipsoid there, metres, interpolated
    /// bilinearly; nil outside the grid or next to a node without data. Any longitude is
    /// taken (−180…180, 0…360, …): it is brought into the grid's own range.
    public func undulation(latitude: Double, longitude: Double) -> Double? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        let y = (latitude - southLatitude) / latitudeStep
        let slack = 1e-9
        guard y >= -slack, y <= Double(rows - 1) + slack else { return nil }
        // The longitude east of the west edge, 0 ..< 360°.
        var east = (longitude - westLongitude).truncatingRemainder(dividingBy: 360)
        if east < 0 { east += 360 }
        var x = east / longitudeStep
        // Just west of the west edge (a rounding of −0.000001° into 359.999999°) is the edge.
        if !wrapsLongitude, x > Double(columns - 1) + slack, 360 - east <= slack * longitudeStep { x = 0 }
        guard wrapsLongitude || x <= Double(columns - 1) + slack else { return nil }

        let row = min(max(Int(y.rounded(.down)), 0), rows - 2)
        let fy = min(max(y - Double(row), 0), 1)
        var column = Int(x.rounded(.down))
        var fx = x - Double(column)
        let nextColumn: Int
        if wrapsLongitude {
            column %= columns
            nextColumn = (column + 1) % columns
        } else {
            column = min(max(column, 0), columns - 2)
            fx = min(max(x - Double(column), 0), 1)
            nextColumn = column + 1
        }
        func node(_ r: Int, _ c: Int) -> Double? {
            let h = heights[r * columns + c]
            return h.isFinite && abs(h - Self.noData) > 1e-3 ? Double(h) : nil
        }
        guard let sw = node(row, column), let se = node(row, nextColumn),
              let nw = node(row + 1, column), let ne = node(row + 1, nextColumn) else { return nil }
        let south = sw + (se - sw) * fx, north = nw + (ne - nw) * fx
        return south + (north - south) * fy
    }

    /// The smallest and largest undulation of the grid's nodes with data, metres.
    public var range: ClosedRange<Double> {
        var low = Float.infinity, high = -Float.infinity
        for h in heights where h.isFinite && abs(h - Self.noData) > 1e-3 {
            low = min(low, h); high = max(high, h)
        }
        return low <= high ? Double(low)...Double(high) : 0...0
    }
}

/// A GTX file that is not a geoid grid poiar can read: the file and what is wrong.
public struct GeoidGridError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public init(file: String, _ reason: String) { self.file = file; self.reason = reason }
    public var description: String { "\(file): \(reason)" }
}
