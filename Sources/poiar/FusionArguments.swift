import ArgumentParser
import Foundation
import Replay

/// How a command fuses a log: offline or causal, and its north. Shared by `pose`, `replay`,
/// `map` and `evaluate`.
struct FusionArguments: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Fuse causally: each pose from the samples up to its time only, as a live app could have shown it.",
        discussion: "By default poses are estimated offline, with the whole recording at hand: the magnetometer's hard and soft iron, its delay and the gyro bias calibrated over the recording, then the filter run forward and backward and the two combined."))
    var causal = false

    @Flag(help: "Keep magnetic north even when the log has GPS fixes (default: true north from WMM2025).")
    var magnetic = false

    @Option(help: "Date for the magnetic model, YYYY-MM-DD (for logs without start_utc; default: the log's start_utc, else today).")
    var date: String?

    func validate() throws {
        if let date, TrueNorth.parseDate(date) == nil { throw ValidationError("--date: expected YYYY-MM-DD, got \"\(date)\"") }
    }

    /// `--date` as a date (nil: not given).
    var magneticModelDate: Date? { date.flatMap(TrueNorth.parseDate) }
}
