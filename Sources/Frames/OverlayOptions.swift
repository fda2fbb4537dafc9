import Foundation
import Maps
import POIARCore
import Recordings
import Rendering
import SensorLog

/// The parts of the heads-up display (`--hud compass,gps,radar`).
public struct HUDParts: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The compass tape along the top.
    public static let compass = HUDParts(rawValue: 1)
    /// GPS accuracy and time.
    public static let gps = HUDParts(rawValue: 2)
    /// The radar in the bottom-left corner.
    public static let radar = HUDParts(rawValue: 4)
    public static let all: HUDParts = [.compass, .gps, .radar]

    /// The names `--hud` takes, in drawing order.
    public static let names: [(String, HUDParts)] = [("compass", .compass), ("gps", .gps), ("radar", .radar)]

    /// Parses "compass,gps,radar" (any order; "none" for nothing); nil with the first word
    /// that names no part.
    public static func parse(_ text: String) -> (parts: HUDParts, unknown: String?) {
        var parts: HUDParts = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            if word == "none" { continue }
            guard let part = names.first(where: { $0.0 == word })?.1 else { return ([], word) }
            parts.insert(part)
        }
        return (parts, nil)
    }
}

/// What the second line of a card shows after the distance (`--card-detail`).
public enum CardSecondLine: String, Sendable, CaseIterable {
    /// The distance only.
    case none
    /// The POI's street address (OSM `addr:*`, a source's address field).
    case address
    /// Its opening hours (OSM `opening_hours`, as written there).
    case hours
    /// The address, else the opening hours.
    case auto

    /// The extra text for `poi`, nil when it has none.
    func text(for poi: POI) -> String? {
        let text: String? = switch self {
        case .none: nil
        case .address: poi.address
        case .hours: poi.openingHours
        case .auto: poi.address ?? poi.openingHours
        }
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }
}

/// The second line of a POI's card: "85 m", or "85 m · Pohjoisesplanadi 19" with an extra.
public func cardDetail(for poi: POI, distance: Double, secondLine: CardSecondLine) -> String {
    let distanceText = formatDistance(distance)
    guard let extra = secondLine.text(for: poi) else { return distanceText }
    return "\(distanceText) · \(extra)"
}

/// What `replay` draws over its frames besides the cards, where it reads stills from, and
/// whether it writes a map (`ReplayOptions.overlay`).
public struct OverlayOptions: Sendable {
    /// HUD parts drawn on every frame (default: all).
    public var hud: HUDParts = .all
    /// Radar radius, metres; nil: chosen on each frame from what is around, up to
    /// `--max-distance`, else the search radius.
    public var radarRange: Double?
    /// Write `map.png` beside the frames (`--map`).
    public var map = false
    /// A view cone on the map every this many seconds.
    public var mapConeInterval = 5.0
    /// Stills folder (`--stills DIR`); nil: the log's `# stills:` folder, else the log's folder.
    public var stillsDirectory: String?
    /// The largest still read, in pixels (`--max-still-pixels`): checked from each still's
    /// header before anything is written, and again before decoding.
    public var maxStillPixels = defaultMaxStillPixels
    /// Behind frames without a picture (`--scene`); nil: the map scene when there are buildings.
    public var scene: SceneChoice?
    /// Over every frame's picture (`--overlay`).
    public var pictureOverlay = PictureOverlay.none

    public init() {}

    /// The folder stills are read from, and may not leave. A `# stills:` folder must be inside
    /// the log's folder (`LogFolderPath`); `--stills` may be anywhere.
    public func stillsFolder(metadata: LogMetadata, logFolder: URL, logPath: String? = nil) throws -> StillFolder {
        if let stillsDirectory {
            return StillFolder(URL(fileURLWithPath: stillsDirectory), role: "the stills folder (--stills)")
        }
        if let stills = metadata.stills {
            let folder = try LogFolderPath.resolve(stills, key: "stills", logFolder: logFolder, logPath: logPath)
            return StillFolder(folder, role: "the log's stills folder (# stills:)")
        }
        return StillFolder(logFolder, role: "the log's folder")
    }
}

/// Everything besides a frame's record that its drawing needs: the HUD parts and facts about
/// the whole replay.
public struct FrameOverlay: Sendable {
    public var hud: HUDParts
    /// UTC time of the log's time 0 (`# start_utc:`), for the HUD clock.
    public var startUTC: Date?
    /// Radar range, metres: the range itself when `radarRangeFixed`, else the most it may be
    /// (the range is then chosen on each frame from what is around, `RadarDrawing.rangeAround`).
    public var radarRange: Double
    /// The radar's range was given (`--radar-range`).
    public var radarRangeFixed: Bool
    /// Show the time beside the GPS accuracy (false for a single pose, which has no clock).
    public var clock: Bool
    /// The map frames show while the phone points at the ground; nil: always the camera view.
    public var flatMap: FlatPhoneMap?
    /// The buildings drawn: the scene behind frames without a picture, outlines over pictures.
    public var scenery: Scenery?

    public init(hud: HUDParts = [], startUTC: Date? = nil, radarRange: Double = 1500, radarRangeFixed: Bool = true, clock: Bool = true) {
        self.hud = hud; self.startUTC = startUTC; self.radarRange = radarRange; self.radarRangeFixed = radarRangeFixed
        self.clock = clock
    }

    /// The areas of a `width` × `height` frame (drawn at `scale`) that cards and edge arrows keep
    /// out of: those of the frame's layers (the HUD's parts, with a small margin). Where a part
    /// sits depends only on whether it is on, so blank parts stand in for a frame's.
    func keepOut(width: Int, height: Int, scale: Double) throws -> [Rect] {
        let blank = HUDDrawing(compass: hud.contains(.compass) ? CompassTapeDrawing(heading: 0, fx: 1, cx: 0) : nil,
                               status: hud.contains(.gps) ? StatusDrawing(accuracy: nil, time: "") : nil,
                               radar: hud.contains(.radar) ? RadarDrawing(heading: 0, halfFieldOfView: 0, range: radarRange, blips: []) : nil)
        return try FrameDrawing(width: width, height: height, background: .synthetic(horizon: nil, skyAbove: true), cards: [],
                                hud: blank).keepOut(scale: scale)
    }

    /// The HUD of one frame; nil when no part is on.
    func hudDrawing(for record: FrameRecord) -> HUDDrawing? {
        guard !hud.isEmpty else { return nil }
        let camera = record.camera
        // Where the user faces: the camera's heading when upright, the top edge's when flat.
        let heading = record.facingAzimuth ?? record.pose.angles.heading
        var drawing = HUDDrawing()
        if hud.contains(.compass) {
            let marks = record.annotations.filter(\.visible).map { (bearing: $0.bearing, category: $0.poi.category) }
            drawing.compass = CompassTapeDrawing(heading: heading, fx: camera.fx, cx: camera.cx, marks: marks,
                                                 fisheye: camera.distortion?.model == .fisheye ? camera.distortion : nil,
                                                 headingSigma: record.headingSigma, uncertain: HeadingTrust.isUncertain(record.headingSigma))
        }
        if hud.contains(.gps) {
            // The smoothed position's 68 % radius when the track is smoothed, else the fix's.
            drawing.status = StatusDrawing(accuracy: record.positionSigma ?? record.location.horizontalAccuracy,
                                           time: clock ? clockText(record.time) : "")
        }
        if hud.contains(.radar) {
            let halfFOV = camera.halfHorizontalFOVDeg
            let blips = record.annotations.map {
                RadarBlip(bearing: $0.bearing, distance: $0.distance, category: $0.poi.category, labelled: $0.visible)
            }
            let range = radarRangeFixed ? radarRange : RadarDrawing.rangeAround(blips, reach: radarRange)
            drawing.radar = RadarDrawing(heading: heading, halfFieldOfView: halfFOV, range: range, blips: blips)
        }
        return drawing
    }

    /// "10:02:41 UTC" from the log's start time, else the log's own clock "t 12.5 s".
    func clockText(_ time: Double) -> String {
        guard let startUTC else { return String(format: "t %.1f s", time) }
        let date = startUTC.addingTimeInterval(time)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d UTC", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
