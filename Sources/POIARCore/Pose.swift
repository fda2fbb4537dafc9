import Foundation

/// Device attitude: the unit quaternion rotating device-frame vectors into ENU
/// (x east, y north, z up), with the people-facing angles of the contract
/// (docs/formats.md, section "Pose CSV").
///
/// R(q) = Rz(−heading) · R0 · Rx(pitch) · Rz(−roll), where R0 = Rx(+90°) is the
/// upright portrait device facing north (device x → east, y → up, z → south).
/// The quaternion is the authority; the angles are derived from it.
public struct Pose: Equatable, Sendable {
    public var orientation: Quaternion

    public init(_ orientation: Quaternion) {
        self.orientation = orientation.normalized.canonical
    }

    /// Builds the attitude from heading, pitch and roll in degrees.
    public init(headingDeg: Double, pitchDeg: Double, rollDeg: Double) {
        let zAxis = Vector3(0, 0, 1), xAxis = Vector3(1, 0, 0)
        let q = Quaternion(axis: zAxis, angle: -radians(headingDeg))
            * Quaternion(axis: xAxis, angle: radians(90 + pitchDeg))
            * Quaternion(axis: zAxis, angle: -radians(rollDeg))
        self.init(q)
    }

    /// Direction of the back camera's optical axis (device −z) in ENU.
    public var cameraAxis: Vector3 { orientation.rotate(Vector3(0, 0, -1)) }

    /// Azimuth of the back camera's optical axis, degrees clockwise from north, 0..<360.
    public var headingDeg: Double { angles.heading }
    /// Elevation of the optical axis above the horizon, degrees (+ up).
    public var pitchDeg: Double { angles.pitch }
    /// Rotation about the optical axis, degrees (+ clockwise as the user sees the screen).
    public var rollDeg: Double { angles.roll }

    /// (heading, pitch, roll) in degrees, inverting R = Rz(−h)·Rx(90°+p)·Rz(−r).
    public var angles: (heading: Double, pitch: Double, roll: Double) {
        let r = orientation.matrix
        // Optical axis c = R·(0,0,−1) = −(third column).
        let c = -r.column2
        let pitch = asin(max(-1, min(1, c.z)))
        var heading: Double
        if hypot(c.x, c.y) > 1e-9 {
            heading = atan2(c.x, c.y)
        } else {
            // Looking straight up or down: heading is that of the screen's top edge (device +y)
            // projected on the horizon, turned so that it is continuous with the general case.
            let up = r.column1
            heading = c.z > 0 ? atan2(-up.x, -up.y) : atan2(up.x, up.y)
        }
        // Rz(−r) = Rx(−(90°+p)) · Rz(h) · R; its first row is (cos r, sin r, 0) and equals
        // the first row of Rz(h)·R, because Rx leaves the first row alone.
        let ch = cos(heading), sh = sin(heading)
        let m00 = ch * r[0, 0] - sh * r[1, 0]
        let m01 = ch * r[0, 1] - sh * r[1, 1]
        let roll = atan2(m01, m00)
        return (wrap360(degrees(heading)), degrees(pitch), degrees(roll))
    }
}

extension Pose {
    /// The direction the user faces, degrees clockwise from north (0..<360): the azimuth of
    /// f_h + sin²(p)·û_h, where f_h is the horizontal part of the back camera's optical axis
    /// (its length cos p, p the camera's pitch), and û_h the horizontal direction of
    /// `imageUp`, the device axis that is up in the camera image ((0, 1, 0), the top edge,
    /// held in portrait). Upright (p = 0) it is exactly the camera's azimuth, whatever the
    /// roll; lying flat (p = ±90°) exactly the top edge's; in between the two blend without a
    /// jump, unlike the optical axis's azimuth alone (the pose CSV's `heading_deg`), which is
    /// ill-conditioned near ±90° pitch. Used for the HUD compass, the radar and the maps'
    /// view cones.
    public func facingAzimuth(imageUp: Vector3 = Vector3(0, 1, 0)) -> Double? {
        let f = orientation.rotate(Vector3(0, 0, -1)), u = orientation.rotate(imageUp)
        let sin2 = f.z * f.z  // sin²(pitch)
        var x = f.x, y = f.y
        let uh = hypot(u.x, u.y)
        if uh > 1e-12 { x += sin2 * u.x / uh; y += sin2 * u.y / uh }
        guard hypot(x, y) > 1e-12 else { return nil }
        return wrap360(degrees(atan2(x, y)))
    }
}
