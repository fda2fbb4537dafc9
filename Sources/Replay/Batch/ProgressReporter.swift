import Foundation

/// How far rendering has come: frames handled (rendered, or skipped by `--resume`) of the
/// frames this process renders, and how many of them it actually drew.
public struct RenderProgress: Sendable, Equatable {
    public var handled: Int
    public var rendered: Int
    public var total: Int
    public init(handled: Int, rendered: Int, total: Int) {
        self.handled = handled; self.rendered = rendered; self.total = total
    }
}

/// Shows render progress on stderr: on a terminal a bar redrawn in place (at most ten times a
/// second) with the rate and the time left; otherwise (a log file, CI) a plain line every
/// `interval` seconds. The rate counts drawn frames only, so frames skipped by `--resume`
/// do not make the estimate optimistic.
public final class ProgressReporter: @unchecked Sendable {
    public let terminal: Bool
    public let interval: Double
    private let now: @Sendable () -> Double
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let start: Double
    private var lastOutput: Double
    private var drewBar = false
    /// Put before the plain line, e.g. the log's name when several are replayed.
    public var label: String?

    public init(terminal: Bool, interval: Double = 10,
                now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
                write: @escaping @Sendable (String) -> Void) {
        self.terminal = terminal
        self.interval = interval
        self.now = now
        self.write = write
        start = now()
        lastOutput = start
    }

    public func update(_ p: RenderProgress) {
        lock.lock(); defer { lock.unlock() }
        let t = now()
        let finished = p.handled >= p.total
        if terminal {
            guard finished || t - lastOutput >= 0.1 || !drewBar else { return }
            lastOutput = t
            drewBar = true
            write("\r" + ProgressReporter.bar(p, elapsed: t - start) + (finished ? "\n" : ""))
        } else {
            guard !finished, t - lastOutput >= interval else { return }
            lastOutput = t
            write("poiar: " + (label.map { "\($0): " } ?? "") + ProgressReporter.line(p, elapsed: t - start) + "\n")
        }
    }

    /// `[#########·········]  120/446  27%  35.2 frames/s  ETA 0:09`
    public static func bar(_ p: RenderProgress, elapsed: Double, width: Int = 24) -> String {
        let fraction = p.total > 0 ? min(1, Double(p.handled) / Double(p.total)) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        return "[\(bar)] " + stats(p, elapsed: elapsed) + " "
    }

    /// `frame 120/446 (27%), 35.2 frames/s, ETA 0:09`
    public static func line(_ p: RenderProgress, elapsed: Double) -> String {
        let (rate, eta) = rateAndETA(p, elapsed: elapsed)
        return String(format: "frame %d/%d (%d%%), %.1f frames/s, ETA ", p.handled, p.total, percent(p), rate)
            + (eta.map(clock) ?? "–")
    }

    static func stats(_ p: RenderProgress, elapsed: Double) -> String {
        let (rate, eta) = rateAndETA(p, elapsed: elapsed)
        return String(format: "%d/%d  %3d%%  %.1f frames/s  ETA ", p.handled, p.total, percent(p), rate)
            + (eta.map(clock) ?? "–")
    }

    static func percent(_ p: RenderProgress) -> Int { p.total > 0 ? p.handled * 100 / p.total : 100 }

    /// Drawn frames per second, and the seconds left at that rate (nil before the first frame).
    static func rateAndETA(_ p: RenderProgress, elapsed: Double) -> (Double, Double?) {
        guard p.rendered > 0, elapsed > 0 else { return (0, p.handled >= p.total ? 0 : nil) }
        let rate = Double(p.rendered) / elapsed
        return (rate, Double(p.total - p.handled) / rate)
    }

    /// "0:09", "12:34", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                         : String(format: "%d:%02d", s / 60, s % 60)
    }
}
