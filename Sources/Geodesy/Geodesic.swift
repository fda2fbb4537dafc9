import Foundation
import POIARCore

/// Distance and initial azimuth between two points on the WGS84 ellipsoid (the geodesic
/// inverse problem), by Vincenty's iteration (T. Vincenty, "Direct and inverse solutions of
/// geodesics on the ellipsoid", Survey Review 23(176), 1975). Accurate to about 0.5 mm.
/// For nearly antipodal points, where Vincenty's series may not converge, it falls back to the
/// great-circle result on a sphere of the mean radius (error up to ~0.5%); poiar's radii are
/// kilometres, far from that case. Altitudes are ignored.
///
/// - Returns: distance in metres, initial azimuth in degrees clockwise from true north, 0..<360.
public func geodesicInverse(from p1: GeoCoordinate, to p2: GeoCoordinate) -> (distance: Double, azimuthDeg: Double) {
    let a = WGS84.semiMajorAxis, b = WGS84.semiMinorAxis, f = WGS84.flattening
    let L = radians(wrap180(p2.longitude - p1.longitude))
    let U1 = atan((1 - f) * tan(radians(p1.latitude)))
    let U2 = atan((1 - f) * tan(radians(p2.latitude)))
    let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)

    if p1.latitude == p2.latitude && L == 0 { return (0, 0) }

    var lambda = L
    var iterations = 0
    var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSqAlpha = 0.0, cos2SigmaM = 0.0
    var sinLambda = 0.0, cosLambda = 0.0
    var converged = false
    repeat {
        sinLambda = sin(lambda); cosLambda = cos(lambda)
        let t1 = cosU2 * sinLambda
        let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
        sinSigma = (t1 * t1 + t2 * t2).squareRoot()
        if sinSigma == 0 { return (0, 0) }  // coincident points
        cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
        sigma = atan2(sinSigma, cosSigma)
        let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
        cosSqAlpha = 1 - sinAlpha * sinAlpha
        cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0  // equatorial line
        let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
        let previous = lambda
        lambda = L + (1 - C) * f * sinAlpha
            * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        if abs(lambda - previous) < 1e-12 { converged = true; break }
        iterations += 1
    } while iterations < 200

    if !converged || abs(lambda) > .pi {
        return greatCircleInverse(from: p1, to: p2)
    }

    let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
    let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
    let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
    let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
        - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    let s = b * A * (sigma - deltaSigma)
    let alpha1 = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
    return (s, wrap360(degrees(alpha1)))
}

/// Mean Earth radius R1 = (2a + b)/3 (IUGG), metres.
public let meanEarthRadius = (2 * WGS84.semiMajorAxis + WGS84.semiMinorAxis) / 3

/// Great-circle distance and initial bearing on a sphere of the mean radius (haversine).
public func greatCircleInverse(from p1: GeoCoordinate, to p2: GeoCoordinate) -> (distance: Double, azimuthDeg: Double) {
    let phi1 = radians(p1.latitude), phi2 = radians(p2.latitude)
    let dPhi = phi2 - phi1, dLambda = radians(wrap180(p2.longitude - p1.longitude))
    let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    let d = 2 * meanEarthRadius * asin(min(1, h.squareRoot()))
    let y = sin(dLambda) * cos(phi2)
    let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
    return (d, wrap360(degrees(atan2(y, x))))
}
