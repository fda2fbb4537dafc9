import Foundation

/// `--footage-offset`: where the footage's time 0 falls on the log's clock.
public enum FootageOffset: Sendable, Equatable {
    /// Footage time = log time − this many seconds.
    case seconds(Double)
    /// Estimated from the images' motion against the gyro (`FootageSync`).
    case auto
}

/// The camera images a replay draws over, when they are not the log's `frame` rows.
public struct FootageOptions: Sendable {
    /// `--footage FILE|FOLDER`: a video, or a folder of stills named by capture time. nil: the
    /// log's `# footage:` line, a GoPro clip's own video, a phone export's `Camera/` stills.
    public var path: String?
    /// nil: the footage's own clock says (a video: its time 0 is the log's; stills named by
    /// capture time: the log's `start_utc`).
    public var offset: FootageOffset?
    /// `--fps` with footage: at most this many frames per second (nil: every footage frame).
    public var maxRate: Double?

    public init(path: String? = nil, offset: FootageOffset? = nil, maxRate: Double? = nil) {
        self.path = path; self.offset = offset; self.maxRate = maxRate
    }

    /// Parses `--footage-offset`: seconds, or `auto`.
    public static func parseOffset(_ text: String) -> FootageOffset? {
        if text.lowercased() == "auto" { return .auto }
        guard let v = Double(text), v.isFinite, abs(v) < 1e10 else { return nil }
        return .seconds(v)
    }
}
