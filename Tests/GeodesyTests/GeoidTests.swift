import Foundation
import Testing
@testable import Geodesy
import GeodesyData
import PoiarTestSupport

/// The machine's EGM96 grid, found as poiar finds it; a test failure saying how to install it
/// when it is missing (scripts/install-deps.sh installs Debian's proj-data).
func egm96() -> GeoidGrid? {
    switch GeoidFile.load(environment: ProcessInfo.processInfo.environment.filter { $0.key != GeoidFile.environmentKey }) {
    case .grid(let g): return g
    case .unavailable(let reason):
        Issue.record("the EGM96 geoid grid is needed: \(reason) — run bash scripts/install-deps.sh (it installs proj-data)")
        return nil
    }
}

@Suite struct GeoidGridTests {
    /// NGA's published check of its own 15′ grid interpolation (EGM96 `INTPT.F` run on
    /// `INPUT.DAT`, the output `OUTINTPT.DAT` in NGA's EGM96 readme): latitude, longitude (0…360),
    /// geoid height, m. NGA interpolates the 15′ grid with a 4 × 4 spline window; poiar, as PROJ,
    /// bilinearly between the 4 nodes around the point. The two differ by up to a few
    /// centimetres on these points (largest: 0.056 m at −23.6°, 133.9°), so 0.1 m is the
    /// tolerance: well inside the centimetres-to-a-metre error of any 15′ interpolation
    /// against the full model, and a thousandth of what a wrong sign, row order or longitude
    /// wrap would cost (tens of metres).
    static let ngaTestPoints: [(lat: Double, lon: Double, n: Double)] = [
        (38.6281550, 269.7791550, -31.628),
        (-14.6212170, 305.0211140, -2.969),
        (46.8743190, 102.4487290, -43.575),
        (-23.6174460, 133.8747120, 15.871),
        (38.6254730, 359.9995000, 50.066),
        (-0.4667440, 0.0023000, 17.329),
    ]

    /// The same points through PROJ 9.1 (`cs2cs EPSG:4979 EPSG:4326+5773`, which reads the same
    /// egm96_15.gtx bilinearly; H = −N for a point on the ellipsoid), m.
    static let projValues = [-31.6090, -2.9658, -43.6166, 15.9269, 50.0360, 17.3361]

    @Test("EGM96 at NGA's published test points, within 0.1 m, in 0…360 and −180…180 longitudes")
    func ngaTestPoints() throws {
        guard let grid = egm96() else { return }
        #expect(grid.rows == 721 && grid.columns == 1440 && grid.wrapsLongitude)
        for (k, p) in Self.ngaTestPoints.enumerated() {
            for lon in [p.lon, p.lon - 360] {
                let n = try #require(grid.undulation(latitude: p.lat, longitude: lon))
                #expect(abs(n - p.n) < 0.1, "N at \(p.lat), \(lon): \(n), NGA \(p.n)")
                #expect(abs(n - Self.projValues[k]) < 0.001, "N at \(p.lat), \(lon): \(n), PROJ \(Self.projValues[k])")
            }
        }
    }

    /// The sample walk's README gives the geoid as +17.5 m on the Esplanadi (the simulation's
    /// rounded figure); EGM96 there is 17.86 m (PROJ: 17.8613).
    @Test func helsinki() throws {
        guard let grid = egm96() else { return }
        let n = try #require(grid.undulation(latitude: 60.1689, longitude: 24.9517))
        #expect(abs(n - 17.5) < 0.5)
        #expect(abs(n - 17.8613) < 0.001)
    }

    /// Across the grid's seam (its columns run −180 … 179.75°, the 1440th wrapping to the
    /// first), at the poles, and for any way of writing a longitude.
    @Test func wrapAndPoles() throws {
        guard let grid = egm96() else { return }
        let a = try #require(grid.undulation(latitude: -16.9, longitude: 179.9))
        let b = try #require(grid.undulation(latitude: -16.9, longitude: -180.1))
        let c = try #require(grid.undulation(latitude: -16.9, longitude: 539.9))
        #expect(abs(a - b) < 1e-9 && abs(a - c) < 1e-9)
        // Between the last column (179.75°) and the first (−180°), continuous on both sides.
        let west = try #require(grid.undulation(latitude: 10, longitude: 179.75))
        let east = try #require(grid.undulation(latitude: 10, longitude: -180))
        let middle = try #require(grid.undulation(latitude: 10, longitude: 179.875))
        #expect(abs(middle - (west + east) / 2) < 1e-6)
        // EGM96 at the poles: +13.61 m north, −29.53 m south (NGA's grid values).
        #expect(abs(try #require(grid.undulation(latitude: 90, longitude: 12)) - 13.606) < 0.01)
        #expect(abs(try #require(grid.undulation(latitude: -90, longitude: -77)) - -29.534) < 0.01)
        #expect(grid.undulation(latitude: 90.5, longitude: 0) == nil)
        #expect(grid.undulation(latitude: .nan, longitude: 0) == nil)
        // The model's extremes: about −107 m south of India, +85 m over New Guinea.
        #expect(grid.range.lowerBound < -105 && grid.range.lowerBound > -108)
        #expect(grid.range.upperBound > 84 && grid.range.upperBound < 86)
    }

    @Test("bilinear between the four nodes; a node without data gives nothing")
    func bilinearOnASmallGrid() throws {
        // 3 rows (50, 51, 52°N) × 3 columns (10, 11, 12°E): N = 2·lat + 0.5·lon − 100, bilinear
        // exactly; the south-east node has no data.
        var values: [Float] = []
        for r in 0..<3 { for c in 0..<3 { values.append(Float(2 * Double(50 + r) + 0.5 * Double(10 + c) - 100)) } }
        values[2] = GeoidGrid.noData
        let grid = try GeoidGrid(gtx: gtxBytes(south: 50, west: 10, latStep: 1, lonStep: 1, rows: 3, columns: 3, values: values), name: "small.gtx")
        #expect(!grid.wrapsLongitude)
        let n = try #require(grid.undulation(latitude: 51.25, longitude: 10.5))
        #expect(abs(n - (2 * 51.25 + 0.5 * 10.5 - 100)) < 1e-5)
        #expect(abs(try #require(grid.undulation(latitude: 52, longitude: 11)) - (104 + 5.5 - 100)) < 1e-5)
        #expect(abs(try #require(grid.undulation(latitude: 51, longitude: 370)) - (102 + 5 - 100)) < 1e-5)
        #expect(grid.undulation(latitude: 50.5, longitude: 11.5) == nil)  // next to the no-data node
        #expect(grid.undulation(latitude: 49.9, longitude: 11) == nil)
        #expect(grid.undulation(latitude: 51, longitude: 12.5) == nil)
        #expect(grid.undulation(latitude: 51, longitude: 9.5) == nil)
    }

    @Test("a grid around the globe wraps from its last column to its first")
    func wrapOnASmallGrid() throws {
        // Columns at 0, 90, 180, 270°E with N = 0, 10, 20, 30; two rows the same.
        let row: [Float] = [0, 10, 20, 30]
        let grid = try GeoidGrid(gtx: gtxBytes(south: -45, west: 0, latStep: 90, lonStep: 90, rows: 2, columns: 4, values: row + row),
                                 name: "ring.gtx")
        #expect(grid.wrapsLongitude)
        #expect(abs(try #require(grid.undulation(latitude: 0, longitude: 315)) - 15) < 1e-6)
        #expect(abs(try #require(grid.undulation(latitude: 0, longitude: -45)) - 15) < 1e-6)
        #expect(abs(try #require(grid.undulation(latitude: 0, longitude: 45)) - 5) < 1e-6)
    }

    @Test("a bad header, a short file or extra bytes: an error naming the file and what is wrong")
    func badFiles() {
        func error(_ data: Data) -> String {
            do { _ = try GeoidGrid(gtx: data, name: "/data/egm.gtx"); return "no error" } catch { return "\(error)" }
        }
        let good = gtxBytes(south: 50, west: 10, latStep: 1, lonStep: 1, rows: 2, columns: 2, values: [1, 2, 3, 4])
        #expect(error(good) == "no error")
        #expect(error(good.prefix(10)) == "/data/egm.gtx: 10 bytes: too short for the 40-byte GTX header")
        #expect(error(Data()).contains("0 bytes: too short"))
        #expect(error(good.prefix(52)) == "/data/egm.gtx: 52 bytes, but its header's 2 rows × 2 columns of 4 bytes make 56 with the header: the file is cut short")
        #expect(error(good + Data([0, 0])).contains("extra bytes after the grid"))
        #expect(error(gtxBytes(south: 50, west: 10, latStep: -1, lonStep: 1, rows: 2, columns: 2, values: [1, 2, 3, 4]))
            .contains("the steps must be positive"))
        #expect(error(gtxBytes(south: 50, west: 10, latStep: 1, lonStep: 1, rows: 0, columns: 2, values: []))
            .contains("at least 2 rows and 2 columns"))
        #expect(error(gtxBytes(south: 89, west: 10, latStep: 1, lonStep: 1, rows: 3, columns: 2, values: [1, 2, 3, 4, 5, 6]))
            .contains("beyond ±90°"))
        #expect(error(gtxBytes(south: .nan, west: 10, latStep: 1, lonStep: 1, rows: 2, columns: 2, values: [1, 2, 3, 4]))
            .contains("not a finite number"))
        #expect(error(gtxBytes(south: 0, west: 0, latStep: 1, lonStep: 1, rows: 2, columns: 400, values: [Float](repeating: 0, count: 800)))
            .contains("more than 360°"))
        // A little-endian header (a byte-swapped file) reads as nonsense, and is refused.
        var swapped = Data()
        for v in [50.0, 10.0, 1.0, 1.0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { swapped.append(contentsOf: $0) } }
        for v in [Int32(2), Int32(2)] { withUnsafeBytes(of: v.littleEndian) { swapped.append(contentsOf: $0) } }
        swapped.append(Data(count: 16))
        #expect(error(swapped).hasPrefix("/data/egm.gtx: GTX header"))
    }
}

@Suite struct GeoidConversionTests {
    static func constantGrid(_ n: Float) throws -> GeoidGrid { try GeoidGrid(gtx: constantGTX(n), name: "constant.gtx") }

    @Test func aboveSeaLevelPlusTheGeoid() throws {
        let geoid = Geoid(grid: try Self.constantGrid(51.5))
        #expect(geoid.ellipsoidalHeight(aboveSeaLevel: 4805.6, latitude: 45.83, longitude: 6.86) == 4805.6 + 51.5)
        #expect(geoid.takeNotice() == nil && geoid.unconvertedHeights == 0)
        #expect(geoid.identity == "constant.gtx 3x4")
    }

    /// Without a grid the height is used as it is, and said once.
    @Test func withoutAGridOneNotice() {
        let geoid = Geoid.unavailable("egm96_15.gtx is in none of /nowhere")
        #expect(geoid.takeNotice() == nil)  // nothing left unconverted yet
        var notices: [String] = []
        for h in [100.0, 200.0] {
            #expect(geoid.ellipsoidalHeight(aboveSeaLevel: h, latitude: 10, longitude: 20) { notices.append($0) } == h)
        }
        #expect(notices.count == 1)
        #expect(notices.first?.contains("no geoid model: egm96_15.gtx is in none of /nowhere; heights above sea level") == true)
        #expect(geoid.unconvertedHeights == 2 && geoid.identity == "none")
    }

    @Test("the file is looked for in $POIAR_GEOID, then $PROJ_DATA and $PROJ_LIB, then /usr/share/proj")
    func searchOrder() throws {
        #expect(GeoidFile.candidates(environment: ["POIAR_GEOID": "none", "PROJ_DATA": "/a"]) == nil)
        #expect(GeoidFile.candidates(environment: ["POIAR_GEOID": "/g/egm08_25.gtx"]) == ["/g/egm08_25.gtx"])
        #expect(GeoidFile.candidates(environment: ["PROJ_DATA": "/a:/b", "PROJ_LIB": "/c"]) ==
                ["/a/egm96_15.gtx", "/b/egm96_15.gtx", "/c/egm96_15.gtx", "/usr/share/proj/egm96_15.gtx", "/usr/local/share/proj/egm96_15.gtx"])
        guard case .unavailable(let why) = GeoidFile.load(environment: ["POIAR_GEOID": "/no/such/grid.gtx"]) else {
            Issue.record("a missing $POIAR_GEOID file loaded"); return
        }
        #expect(why.contains("/no/such/grid.gtx: cannot read the geoid grid"))
        guard case .unavailable(let none) = GeoidFile.load(environment: ["POIAR_GEOID": "none"]) else {
            Issue.record("POIAR_GEOID=none loaded a grid"); return
        }
        #expect(none == "$POIAR_GEOID is \"none\"")
        // A file that is not a grid: the parse error, naming it.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poiar-geoid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("egm96_15.gtx")
        try Data("not a grid".utf8).write(to: bad)
        guard case .unavailable(let parse) = GeoidFile.load(environment: ["PROJ_DATA": dir.path]) else {
            Issue.record("a bad grid loaded"); return
        }
        #expect(parse == "\(bad.path): 10 bytes: too short for the 40-byte GTX header")
    }
}
