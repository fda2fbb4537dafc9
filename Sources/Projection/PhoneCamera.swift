import Foundation
import POIARCore

/// The camera poiar assumes for a phone recording that names none: the phone's main (wide)
/// camera, held the way the recording shows it was held.
///
/// Most phones since about 2019 (iPhone 11 to 16, Pixel 4 to 9, Galaxy S10 to S24) have a
/// main camera of 24–26 mm 35-mm-equivalent focal length on a 4:3 sensor; video and preview
/// frames use the sensor's full width. With 26 mm the 4:3 sensor's long side (0.8 of the
/// 43.27 mm full-frame diagonal, 34.6 mm) spans 2·atan(17.3 / 26) = 67.3°, so a 16:9 frame
/// spans 67.3° along its long side and 41.0° across its short side.
public enum PhoneCamera {
    /// 35-mm-equivalent focal length of a phone's main camera, mm.
    public static let equivalentFocalLengthMM = 26.0
    /// The full-frame (36 × 24 mm) diagonal, mm: what "35-mm-equivalent" is measured against.
    static let fullFrameDiagonalMM = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
    /// Field of view along the image's long side, degrees (67.3°).
    public static var longSideFOVDeg: Double {
        2 * atan(0.8 * fullFrameDiagonalMM / 2 / equivalentFocalLengthMM) * 180 / .pi
    }
    /// The output size when nothing gives one: 720 p, long side along the device's long edge.
    public static let defaultLongSide = 1280
    public static let defaultShortSide = 720

    /// The camera for frames of `width` × `height` (nil: 720×1280 held in portrait,
    /// 1280×720 in landscape), square pixels, centred, the long side spanning
    /// `longSideFOVDeg`.
    public static func intrinsics(holding: DeviceOrientation, size: (width: Int, height: Int)? = nil) -> CameraIntrinsics {
        let (w, h) = size ?? (holding == .portrait ? (defaultShortSide, defaultLongSide) : (defaultLongSide, defaultShortSide))
        let f = Double(max(w, h)) / 2 / tan(longSideFOVDeg * .pi / 360)
        return CameraIntrinsics(width: w, height: h, fx: f, fy: f, cx: Double(w) / 2, cy: Double(h) / 2,
                                orientation: holding)
    }
}

/// How a phone was held over a recording, from where gravity points in the device frame:
/// up (R(q)ᵀ·ẑ, the device-frame vertical) along +y is portrait, along +x landscape-left
/// (the top edge toward the user's left), along −x landscape-right. Each frame votes with the
/// length of that vector's screen-plane part, so frames with the phone lying flat (which
/// say little about it) hardly count.
public struct PhoneHolding: Sendable, Equatable {
    public var orientation: DeviceOrientation
    /// Frames whose screen was within `flatTiltDeg` of horizontal (lying flat, face up or
    /// down), as a fraction of all.
    public var flatFraction: Double
    /// The winning orientation's share of the screen-plane votes (0…1).
    public var confidence: Double
    /// Frames upside down in portrait (top edge down, not lying flat), as a fraction of all:
    /// a camera image then stands on its head; poiar draws it as portrait.
    public var upsideDownFraction: Double

    /// The screen within this many degrees of horizontal counts as lying flat.
    public static let flatTiltDeg = 30.0

    /// The holding over `poses`; portrait when there are none or every one lies flat (the
    /// top edge then points where the user walks).
    public static func estimate<S: Sequence>(_ poses: S) -> PhoneHolding where S.Element == Pose {
        var votes: [DeviceOrientation: Double] = [:]
        var n = 0, flat = 0, upsideDown = 0
        let flatSine = sin(flatTiltDeg * .pi / 180)
        for pose in poses {
            n += 1
            let up = pose.orientation.matrix.row2  // ẑ in device coordinates
            let inPlane = hypot(up.x, up.y)
            let isFlat = inPlane < flatSine
            if isFlat { flat += 1 }
            let vote: DeviceOrientation
            if abs(up.y) >= abs(up.x) {
                vote = .portrait
                if up.y < 0 && !isFlat { upsideDown += 1 }
            } else {
                vote = up.x > 0 ? .landscapeLeft : .landscapeRight
            }
            votes[vote, default: 0] += inPlane
        }
        let total = votes.values.reduce(0, +)
        let best = DeviceOrientation.allCases.max { (votes[$0] ?? 0) < (votes[$1] ?? 0) } ?? .portrait
        let winner = total > 1e-9 ? best : .portrait
        return PhoneHolding(orientation: winner, flatFraction: n > 0 ? Double(flat) / Double(n) : 0,
                            confidence: total > 1e-9 ? (votes[winner] ?? 0) / total : 0,
                            upsideDownFraction: n > 0 ? Double(upsideDown) / Double(n) : 0)
    }

    /// "portrait (94% of the frames' tilt), lying flat in 12% of frames"; mostly flat: "lying flat
    /// in 99% of frames, else portrait (93% of the others' tilt)", so the holding is not said
    /// of frames that lay flat.
    public var description: String {
        let held = "\(orientation.rawValue) (\(Int((confidence * 100).rounded()))% of the \(flatFraction >= 0.5 ? "others'" : "frames'") tilt)"
        let flat = "lying flat in \(Int((flatFraction * 100).rounded()))% of frames"
        var s = flatFraction >= 0.5 ? "\(flat), else \(held)" : held
        if flatFraction >= 0.005 && flatFraction < 0.5 { s += ", \(flat)" }
        if upsideDownFraction >= 0.05 { s += ", upside down in \(Int((upsideDownFraction * 100).rounded()))%" }
        return s
    }
}
