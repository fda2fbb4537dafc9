import Foundation
import Testing

/// A mountain peak's label sits on the peak: heights as real data gives them — the device's
/// GPS altitude above the WGS84 ellipsoid, the summit's `ele` above sea level — and the anchor
/// row `poiar project` prints against one computed here from first principles, with the
/// geoid's height N added to `ele` (docs/altitude.md).
@Suite struct AltitudeCLITests {
    /// Mont Blanc (Tests/Fixtures/pois/mont-blanc.csv): `ele` 4805.59 m above sea level.
    static let summit = (lat: 45.832622, lon: 6.865175, ele: 4805.59)
    /// The Aiguille du Midi's upper terrace, 5.4 km north-north-east: 3777 m above sea level,
    /// a phone held 1.6 m above it, N = 51.4235 there: the GPS says 3777 + 1.6 + 51.42 m above
    /// the ellipsoid.
    static let viewer = (lat: 45.8786, lon: 6.8873, h: 3830.0)
    /// EGM96's N at the summit by PROJ 9.1 (`cs2cs EPSG:4979 EPSG:4326+5773`, bilinear in the same
    /// egm96_15.gtx): independent of poiar's reader.
    static let summitN = 51.5325
    static let width = 1920.0, height = 1080.0, hfov = 40.0

    /// ECEF of a geodetic point (WGS84, NIMA TR8350.2), written out here on purpose.
    static func ecef(_ lat: Double, _ lon: Double, _ h: Double) -> (Double, Double, Double) {
        let a = 6_378_137.0, f = 1 / 298.257223563, e2 = f * (2 - f)
        let phi = lat * .pi / 180, lambda = lon * .pi / 180
        let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        return ((n + h) * cos(phi) * cos(lambda), (n + h) * cos(phi) * sin(lambda), (n * (1 - e2) + h) * sin(phi))
    }

    /// The summit at ellipsoidal height `h` in the viewer's east-north-up frame.
    static func enu(summitHeight h: Double) -> (e: Double, n: Double, u: Double) {
        let p = ecef(summit.lat, summit.lon, h), o = ecef(viewer.lat, viewer.lon, viewer.h)
        let d = (p.0 - o.0, p.1 - o.1, p.2 - o.2)
        let phi = viewer.lat * .pi / 180, lambda = viewer.lon * .pi / 180
        return (-sin(lambda) * d.0 + cos(lambda) * d.1,
                -sin(phi) * cos(lambda) * d.0 - sin(phi) * sin(lambda) * d.1 + cos(phi) * d.2,
                cos(phi) * cos(lambda) * d.0 + cos(phi) * sin(lambda) * d.1 + sin(phi) * d.2)
    }

    /// The pinhole's row of the summit at height `h` for a camera at `heading`, `pitch` (roll
    /// 0): right r = (cos ψ, −sin ψ, 0), up u = (−sin ψ sin θ, −cos ψ sin θ, cos θ), forward
    /// f = (sin ψ cos θ, cos ψ cos θ, sin θ); v = cy + fy·(−d·u)/(d·f), fy = (w/2)/tan(hfov/2).
    static func row(summitHeight h: Double, heading: Double, pitch: Double) -> Double {
        let d = enu(summitHeight: h)
        let psi = heading * .pi / 180, theta = pitch * .pi / 180
        let up = -sin(psi) * sin(theta) * d.e - cos(psi) * sin(theta) * d.n + cos(theta) * d.u
        let forward = sin(psi) * cos(theta) * d.e + cos(psi) * cos(theta) * d.n + sin(theta) * d.u
        let fy = (width / 2) / tan(hfov / 2 * .pi / 180)
        return height / 2 + fy * (-up / forward)
    }

    /// Runs `project` toward the summit (2° right of it and 1.5° under it, so it is neither at
    /// the centre nor off the image) without refraction (a pure geometric check), and returns
    /// the peak's annotation, the pose used and stderr.
    static func project(environment: [String: String]? = nil) throws -> (annotation: [String: Any], heading: Double, pitch: Double, stderr: String) {
        let dir = try makeTempDir()
        let pois = dir.appendingPathComponent("mont-blanc.csv")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Tests/Fixtures/pois/mont-blanc.csv"), to: pois)
        let d = enu(summitHeight: summit.ele + summitN)
        let heading = atan2(d.e, d.n) * 180 / .pi - 2
        let pitch = atan2(d.u, (d.e * d.e + d.n * d.n).squareRoot()) * 180 / .pi - 1.5
        var env = environment
        if env != nil { env!["TMPDIR"] = TestTemporaryRoot.url.path }
        let r = try runPoiar(["project", "--at", "\(viewer.lat),\(viewer.lon),\(viewer.h)",
                              "--heading", "\(heading)", "--pitch", "\(pitch)", "--roll", "0",
                              "--size", "\(Int(width))x\(Int(height))", "--hfov", "\(hfov)", "--refraction", "0",
                              "--pois", pois.path, "--radius", "10000"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let annotations = try #require(obj["annotations"] as? [[String: Any]])
        let peak = try #require(annotations.first { $0["id"] as? String == "csv:mont-blanc" })
        return (peak, heading, pitch, r.stderr)
    }

    @Test("the summit's anchor row is the one its ele + the geoid's height gives, tens of pixels from ele alone")
    func thePeaksLabelSitsOnThePeak() throws {
        let run = try Self.project()
        let anchorY = try #require(run.annotation["anchor_y"] as? Double)
        let expected = Self.row(summitHeight: Self.summit.ele + Self.summitN, heading: run.heading, pitch: run.pitch)
        let unconverted = Self.row(summitHeight: Self.summit.ele, heading: run.heading, pitch: run.pitch)
        // 0.1 px: the difference between poiar's bilinear N and PROJ's (< 1 mm) and rounding.
        #expect(abs(anchorY - expected) < 0.1, "anchor_y \(anchorY), expected \(expected)")
        // Without the geoid the label would float 25 px under the summit.
        #expect(unconverted - expected > 20, "ele alone: \(unconverted), with N: \(expected)")
        // The manifest's alt is the summit's height above the ellipsoid (docs/formats.md).
        let alt = try #require(run.annotation["alt"] as? Double)
        #expect(abs(alt - (Self.summit.ele + Self.summitN)) < 0.001)
        #expect(run.annotation["category"] as? String == "peak")
        #expect(!run.stderr.contains("geoid"))
    }

    /// With no grid (`POIAR_GEOID=none`) poiar says so once and takes `ele` as ellipsoidal: the
    /// row is then the unconverted one, and nothing fails.
    @Test func withoutTheGridANoticeAndEleAsItIs() throws {
        var env = ProcessInfo.processInfo.environment
        env["POIAR_GEOID"] = "none"
        let run = try Self.project(environment: env)
        let anchorY = try #require(run.annotation["anchor_y"] as? Double)
        #expect(abs(anchorY - Self.row(summitHeight: Self.summit.ele, heading: run.heading, pitch: run.pitch)) < 0.1)
        #expect(run.annotation["alt"] as? Double == Self.summit.ele)
        let notices = run.stderr.split(separator: "\n").filter { $0.contains("no geoid model") }
        #expect(notices.count == 1, "\(run.stderr)")
        #expect(notices.first?.contains("$POIAR_GEOID is \"none\"; heights above sea level (OSM ele, phyphox heights, …) are used as heights above the WGS84 ellipsoid") == true)
    }
}
