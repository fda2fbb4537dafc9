import ArgumentParser
import Export
import Foundation
import Frames
import POIARCore
import Projection
import Recordings
import Replay

/// `--size WIDTHxHEIGHT` of the frames drawn, each side at most `ImageLimits.maxSide`.
struct PixelSize: CheckedArgument {
    let width: Int, height: Int
    init(checking text: String) throws(RefusedValue) {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        let sides = 1...ImageLimits.maxSide
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), sides.contains(w), sides.contains(h) else {
            throw RefusedValue("expected WIDTHxHEIGHT in pixels, each side 1…\(ImageLimits.maxSide), e.g. 1280x720")
        }
        width = w; height = h
    }
    var pair: (width: Int, height: Int) { (width, height) }
}

/// `--shard I/N`: shard I of N, 0 ≤ I < N.
extension ShardSpec: ExpressibleByArgument, CheckedArgument {
    public init?(argument: String) {
        guard let value = Self.checked(argument) else { return nil }
        self = value
    }
    init(checking text: String) throws(RefusedValue) {
        guard let shard = ShardSpec(parsing: text) else { throw RefusedValue("expected I/N with 0 ≤ I < N (e.g. 0/4 … 3/4)") }
        self = shard
    }
}

/// `--hud compass,gps,radar` (any of them, or none).
struct HUDList: CheckedArgument {
    let parts: HUDParts
    init(parts: HUDParts) { self.parts = parts }
    init(checking text: String) throws(RefusedValue) {
        let parsed = HUDParts.parse(text)
        if let unknown = parsed.unknown {
            throw RefusedValue("unknown HUD part \"\(unknown)\"; expected compass, gps, radar or none", typed: unknown,
                               among: HUDParts.names.map(\.0) + ["none"])
        }
        parts = parsed.parts
    }
    var defaultValueDescription: String {
        parts.isEmpty ? "none" : HUDParts.names.filter { parts.contains($0.1) }.map(\.0).joined(separator: ",")
    }
}

/// `--distance-offset none|auto|manual:THRESHOLD_M:PX_PER_M`: how labels are raised by
/// distance; `auto` is sized by the radius the command searches.
enum DistanceOffsetChoice: CheckedArgument {
    case none, auto
    case manual(threshold: Double, pixelsPerMetre: Double)

    init(checking text: String) throws(RefusedValue) {
        switch text {
        case "none": self = .none
        case "auto": self = .auto
        default:
            let parts = text.split(separator: ":")
            guard parts.count == 3, parts[0] == "manual", let t = Double(parts[1]), let k = Double(parts[2]),
                  t >= 0, k >= 0, t.isFinite, k.isFinite
            else {
                throw RefusedValue("expected none, auto or manual:THRESHOLD_M:PX_PER_M", typed: parts.first ?? "",
                                   among: parts.count > 1 ? ["manual"] : ["none", "auto", "manual"])
            }
            self = .manual(threshold: t, pixelsPerMetre: k)
        }
    }

    /// The offset for labels out to `radius` metres: `auto` lifts up to a quarter of the image.
    func offset(radius: Double) -> DistanceOffset {
        switch self {
        case .none: .none
        case .auto: .automatic(maxDistance: radius, fraction: 0.25)
        case .manual(let t, let k): .manual(threshold: t, pixelsPerMetre: k)
        }
    }

    var defaultValueDescription: String {
        switch self {
        case .none: "none"
        case .auto: "auto"
        case .manual(let t, let k): "manual:\(plainNumber(t)):\(plainNumber(k))"
        }
    }
}

/// `--footage-offset SECONDS|auto`.
extension FootageOffset: ExpressibleByArgument, CheckedArgument {
    public init?(argument: String) {
        guard let value = Self.checked(argument) else { return nil }
        self = value
    }
    init(checking text: String) throws(RefusedValue) {
        guard let offset = FootageOptions.parseOffset(text) else { throw RefusedValue("expected seconds (e.g. 0.35 or -1.2) or auto") }
        self = offset
    }
}

/// `--mcap-images png|jpeg|jpeg:Q`.
extension RecordingMCAP.ImageFormat: ExpressibleByArgument, CheckedArgument {
    public init?(argument: String) {
        guard let value = Self.checked(argument) else { return nil }
        self = value
    }
    init(checking text: String) throws(RefusedValue) {
        guard let format = Self(parsing: text) else {
            let word = text.split(separator: ":", omittingEmptySubsequences: false)[0]
            throw RefusedValue("expected png, jpeg or jpeg:Q with Q in 1…100", typed: word, among: word == text ? ["png", "jpeg"] : ["jpeg"])
        }
        self = format
    }
    public var defaultValueDescription: String {
        switch self {
        case .png: "png"
        case .jpeg(let quality): quality == 90 ? "jpeg" : "jpeg:\(quality)"
        }
    }
}

/// `--date YYYY-MM-DD`: the day the magnetic model is evaluated for.
struct ModelDate: CheckedArgument {
    let date: Date
    init(checking text: String) throws(RefusedValue) {
        guard let date = TrueNorth.parseDate(text) else { throw RefusedValue("expected YYYY-MM-DD") }
        self.date = date
    }
}

/// `--start-utc`: an ISO 8601 UTC time, fractional seconds allowed.
struct UTCTime: CheckedArgument {
    let date: Date
    init(checking text: String) throws(RefusedValue) {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { date = d; return }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let d = f.date(from: text) else { throw RefusedValue("expected an ISO 8601 UTC time like 2025-06-14T10:02:11Z") }
        date = d
    }
}

/// `--lang`: a language code, as OSM's name:<lang> tags use them.
struct LanguageCode: CheckedArgument {
    let code: String
    init(checking text: String) throws(RefusedValue) {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.count <= 16, t.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
            throw RefusedValue("expected a language code such as en, sv or zh-Hant")
        }
        code = t
    }
}

/// `--endpoint`, `--fetch-endpoint`: a web service's URL.
struct EndpointURL: CheckedArgument {
    let url: URL
    init(checking text: String) throws(RefusedValue) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw RefusedValue("expected an http:// or https:// URL")
        }
        self.url = url
    }
}
