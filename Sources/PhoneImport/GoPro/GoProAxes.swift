import Foundation
import POIARCore

/// How a GoPro's IMU samples become poiar's device frame.
///
/// **Stored order → the camera's axes.** Each camera model stores its accelerometer's and
/// gyroscope's channels in its own order; `ORIN` says which camera axis each channel is, upper
/// case positive, lower case negative (the GoPro MAX's "XzY": channel 0 is +X, channel 1 is −Z,
/// channel 2 is +Y), and `ORIO` the order GoPro's own parser outputs (HERO5's "ZXY", kept for
/// every later model). `MTRX` is the same mapping as a matrix (output = MTRX · stored, in
/// `ORIO`'s order); like GoPro's parser, poiar uses it only when it holds more than 0 and ±1
/// (a calibration), else `ORIN` (GPMF_parser.c, `GPMF_ScaledData`; issues #56 and #165 of
/// gopro/gpmf-parser). Cameras without `ORIN` (early firmware) get the order the README
/// documents for their model: HERO5 "ZXY", HERO6 and HERO7 "YxZ" (Y, −X, Z), Fusion "yXZ"
/// (−Y, X, Z); any other, HERO5's (GoPro's preserved order), with a notice.
///
/// **The camera's axes**, measured on the sample clip (a GoPro MAX walked with the lens ahead,
/// docs/gopro.md): Z up (+9.8 m/s² at rest, GoPro issue #132), Y toward the camera's back
/// (the lens pitched 7° down, as the image's horizon shows, puts +1.3 m/s² on +Y), X to the
/// left seen from behind (X = Y × Z; the camera's own orientation `CORI` and gravity `GRAV`
/// agree with the gyroscope only in this right-handed frame).
///
/// **poiar's device frame** (spec §1: x right of the image, y up in it, z toward the viewer):
/// x = −X, y = Z, z = Y, for a camera held or mounted upright. A camera mounted upside down
/// turns its image (GoPro's default "Auto" orientation), so the image's right is the camera's
/// left and its up the camera's down: x = X, y = −Z, z = Y.
public struct GoProAxes: Sendable, Equatable {
    /// Stored channels → camera axes (X, Y, Z): camera = `toCamera` · stored.
    public var toCamera: Matrix3
    /// Where the mapping came from, for the import's notes: `ORIN "XzY"`, `MTRX`, or the
    /// model's documented order.
    public var source: String
    /// Taken from the model's documentation or a default, not from the file.
    public var assumed: Bool

    /// Camera axes → device axes, upright.
    public static let uprightDevice = Matrix3(rows: Vector3(-1, 0, 0), Vector3(0, 0, 1), Vector3(0, 1, 0))
    /// Camera axes → device axes, mounted upside down with the image turned.
    public static let upsideDownDevice = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, -1), Vector3(0, 1, 0))

    /// The documented stored order of a model that writes no `ORIN`.
    public static func documentedOrder(model: String?) -> (order: String, said: String) {
        let m = (model ?? "").uppercased()
        if m.contains("FUSION") { return ("yXZ", "Fusion's documented order -Y,X,Z") }
        if m.contains("HERO6") || m.contains("HERO7") { return ("YxZ", "HERO6 and HERO7's documented order Y,-X,Z") }
        if m.contains("HERO5") || m == "CAMERA" { return ("ZXY", "HERO5's documented order Z,X,Y") }
        return ("ZXY", "HERO5's order Z,X,Y, which GoPro keeps as its output order")
    }

    /// The mapping of a stream (its `ORIN`, `ORIO`, `MTRX`), or the model's documented one.
    /// Throws when `ORIN` or `ORIO` is not an axis order, naming the file and payload.
    public static func of(_ stream: GPMFStreamPayload, model: String?, file: String, payload: String) throws -> GoProAxes {
        func fail(_ key: String, _ text: String) -> InputError {
            InputError(file: file, "\(payload): \(stream.key)'s \(key) \"\(text)\" is not an axis order (X, Y and Z once each, lower case negative)")
        }
        if let m = stream.numbers("MTRX"), m.count == 9, m.contains(where: { $0 != 0 && abs($0) != 1 }) {
            let orio = stream.text("ORIO") ?? "ZXY"
            guard let out = axisMatrix(orio) else { throw fail("ORIO", orio) }
            // MTRX gives the outputs (in ORIO's axes) from the stored channels; ORIO's matrix
            // takes camera axes to ORIO's, so its transpose takes them back.
            let mtrx = Matrix3(rows: Vector3(m[0], m[1], m[2]), Vector3(m[3], m[4], m[5]), Vector3(m[6], m[7], m[8]))
            return GoProAxes(toCamera: out.transposed * mtrx, source: "MTRX (a calibration) in ORIO \"\(orio)\"", assumed: false)
        }
        if let orin = stream.text("ORIN") {
            guard let m = axisMatrix(orin) else { throw fail("ORIN", orin) }
            return GoProAxes(toCamera: m.transposed, source: "ORIN \"\(orin)\"", assumed: false)
        }
        let documented = documentedOrder(model: model)
        return GoProAxes(toCamera: axisMatrix(documented.order)!.transposed, source: documented.said + " (no ORIN)", assumed: true)
    }

    /// The matrix whose row i is the signed unit camera axis that letter i names (`"XzY"`:
    /// rows +X, −Z, +Y): it takes camera axes to the order's channels; nil unless the text is
    /// X, Y and Z once each in either case.
    static func axisMatrix(_ order: String) -> Matrix3? {
        let letters = Array(order.trimmingCharacters(in: .whitespaces))
        guard letters.count == 3 else { return nil }
        var rows: [Vector3] = []
        var seen = Set<Character>()
        for c in letters {
            let sign: Double = c.isUppercase ? 1 : -1
            switch c.uppercased() {
            case "X": rows.append(Vector3(sign, 0, 0))
            case "Y": rows.append(Vector3(0, sign, 0))
            case "Z": rows.append(Vector3(0, 0, sign))
            default: return nil
            }
            seen.insert(Character(c.uppercased()))
        }
        guard seen.count == 3 else { return nil }
        return Matrix3(rows: rows[0], rows[1], rows[2])
    }
}

/// How the camera was mounted, from where gravity points over the clip: upright (the camera's
/// Z up, the usual), or upside down (Z down for most of the clip: on a helmet's chin, under a
/// drone), which GoPro's default "Auto" orientation turns the image for.
public enum GoProMount: String, Sendable {
    case upright
    case upsideDown = "upside down"

    /// Camera axes → device axes.
    public var toDevice: Matrix3 { self == .upright ? GoProAxes.uprightDevice : GoProAxes.upsideDownDevice }

    /// Upside down when the median of the up direction's Z component (camera axes, unit
    /// vectors) is below −0.5 (more than 120° from upright); upright otherwise.
    public static func from(upInCamera: [Vector3]) -> (mount: GoProMount, medianUpZ: Double?) {
        let z = upInCamera.compactMap { v -> Double? in
            let n = v.norm
            return n > 0 ? v.z / n : nil
        }.sorted()
        guard !z.isEmpty else { return (.upright, nil) }
        let median = z[z.count / 2]
        return (median < -0.5 ? .upsideDown : .upright, median)
    }
}
