import Foundation
import POIARCore

/// The geomagnetic field of a spherical-harmonic model (the World Magnetic Model 2025 by
/// default), evaluated as in "The US/UK World Magnetic Model for 2025–2030: Technical Report"
/// (NOAA NCEI / BGS, 2024), sections 1.2 and 1.3.
public struct WorldMagneticModel: Sendable {
    /// The field at a point, in the local geodetic frame.
    public struct Field: Sendable, Equatable {
        /// North (X), east (Y) and down (Z) components, nT.
        public var north: Double, east: Double, down: Double
        /// Horizontal intensity H = √(X² + Y²), nT.
        public var horizontal: Double { hypot(north, east) }
        /// Total intensity F, nT.
        public var total: Double { (north * north + east * east + down * down).squareRoot() }
        /// Inclination (dip) I = atan2(Z, H), degrees, positive downward.
        public var inclinationDeg: Double { degrees(atan2(down, horizontal)) }
        /// Declination D = atan2(Y, X), degrees east of true north.
        public var declinationDeg: Double { degrees(atan2(east, north)) }
        /// The field in ENU (x east, y north, z up), µT — the unit of poiar logs.
        public var enuMicrotesla: Vector3 { Vector3(east, north, -down) / 1000 }
    }

    /// Geomagnetic reference radius a, km.
    public static let referenceRadiusKm = 6371.2
    public let epoch: Double
    /// Validity in decimal years (WMM2025: 2025.0 ..< 2030.0).
    public let validFrom: Double, validUntil: Double
    public let maxDegree: Int
    private let g: [[Double]], h: [[Double]], gDot: [[Double]], hDot: [[Double]]

    /// WMM2025 (epoch 2025.0, valid 2025.0–2030.0).
    public static let wmm2025 = WorldMagneticModel(epoch: 2025.0, validFrom: 2025.0, validUntil: 2030.0,
                                                   coefficients: wmm2025Coefficients)

    public init(epoch: Double, validFrom: Double, validUntil: Double,
                coefficients: [(Int, Int, Double, Double, Double, Double)]) {
        self.epoch = epoch; self.validFrom = validFrom; self.validUntil = validUntil
        let n = coefficients.map(\.0).max() ?? 0
        maxDegree = n
        var g = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n + 1)
        var h = g, gd = g, hd = g
        for (nn, m, a, b, c, d) in coefficients {
            g[nn][m] = a; h[nn][m] = b; gd[nn][m] = c; hd[nn][m] = d
        }
        self.g = g; self.h = h; gDot = gd; hDot = hd
    }

    /// The field at geodetic `latitude`/`longitude` (degrees), `heightKm` above the WGS84
    /// ellipsoid, at decimal year `year`.
    public func field(latitude: Double, longitude: Double, heightKm: Double, year: Double) -> Field {
        // Geodetic → geocentric spherical (report eq. 7).
        let a = WGS84.semiMajorAxis / 1000, e2 = WGS84.eccentricitySquared
        let phi = radians(latitude), lambda = radians(longitude)
        let sinPhi = sin(phi)
        let rc = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let p = (rc + heightKm) * cos(phi)
        let z = (rc * (1 - e2) + heightKm) * sinPhi
        let r = (p * p + z * z).squareRoot()
        let phiC = asin(z / r)  // geocentric latitude φ′

        // Schmidt semi-normalised associated Legendre functions P(n,m)(sin φ′) and their
        // derivatives with respect to φ′, by the standard recursions (report eq. 13 uses the
        // same functions; recursions as in Holmes & Featherstone 2002, unnormalised form).
        let nMax = maxDegree
        let x = sin(phiC), y = cos(phiC)  // x = sin φ′ = cos θ, y = cos φ′ = sin θ
        var P = [[Double]](repeating: [Double](repeating: 0, count: nMax + 1), count: nMax + 1)
        var dP = P  // dP/dθ (colatitude)
        P[0][0] = 1
        for n in 1...nMax {
            for m in 0...n {
                if n == m {
                    P[n][m] = y * P[n - 1][m - 1]
                    dP[n][m] = y * dP[n - 1][m - 1] + x * P[n - 1][m - 1]
                } else if n == 1 || m == n - 1 {
                    P[n][m] = x * P[n - 1][m]
                    dP[n][m] = x * dP[n - 1][m] - y * P[n - 1][m]
                } else {
                    let k = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                    P[n][m] = x * P[n - 1][m] - k * P[n - 2][m]
                    dP[n][m] = x * dP[n - 1][m] - y * P[n - 1][m] - k * dP[n - 2][m]
                }
            }
        }
        // Gauss-normalised → Schmidt semi-normalised factors.
        var s = [[Double]](repeating: [Double](repeating: 0, count: nMax + 1), count: nMax + 1)
        s[0][0] = 1
        for n in 1...nMax {
            s[n][0] = s[n - 1][0] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let j: Double = m == 1 ? 2 : 1
                s[n][m] = s[n][m - 1] * (Double(n - m + 1) * j / Double(n + m)).squareRoot()
            }
        }

        let dt = year - epoch
        var bR = 0.0, bTheta = 0.0, bLambda = 0.0
        var ratio = (WorldMagneticModel.referenceRadiusKm / r) * (WorldMagneticModel.referenceRadiusKm / r)
        for n in 1...nMax {
            ratio *= WorldMagneticModel.referenceRadiusKm / r  // (a/r)^(n+2)
            for m in 0...n {
                let gnm = g[n][m] + dt * gDot[n][m], hnm = h[n][m] + dt * hDot[n][m]
                let cosM = cos(Double(m) * lambda), sinM = sin(Double(m) * lambda)
                let pnm = s[n][m] * P[n][m], dpnm = s[n][m] * dP[n][m]
                let t = gnm * cosM + hnm * sinM
                bR += Double(n + 1) * ratio * t * pnm
                bTheta -= ratio * t * dpnm
                bLambda += ratio * Double(m) * (gnm * sinM - hnm * cosM) * pnm
            }
        }
        // B = −∇V: radial out = bR, southward (θ) = bTheta, east = bLambda / sin θ.
        let northC = -bTheta
        let east = y > 1e-12 ? bLambda / y : 0
        let downC = -bR
        // Rotate from geocentric to geodetic north/down (report eq. 17).
        let psi = phiC - phi
        let north = northC * cos(psi) - downC * sin(psi)
        let down = northC * sin(psi) + downC * cos(psi)
        return Field(north: north, east: east, down: down)
    }

    /// WMM2025's field where (`place`, its altitude above the ellipsoid, 0 when unknown) and
    /// when (`date`) a recording was made: the one way poiar asks the model, for north, for the
    /// checks of a phone's orientation and a GoPro's magnetometer, and for the simulator.
    public static func field(at place: GeoCoordinate, on date: Date) -> Field {
        wmm2025.field(latitude: place.latitude, longitude: place.longitude, heightKm: (place.altitude ?? 0) / 1000,
                      year: decimalYear(date))
    }

    /// Decimal year of a date: year + (day of year − 1 + fraction of day) / days in the year.
    public static func decimalYear(_ date: Date) -> Double {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let year = cal.component(.year, from: date)
        let start = cal.date(from: DateComponents(year: year, month: 1, day: 1))!
        let next = cal.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        return Double(year) + date.timeIntervalSince(start) / next.timeIntervalSince(start)
    }
}
