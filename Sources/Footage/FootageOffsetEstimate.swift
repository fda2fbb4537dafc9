import Foundation

/// The time offset between footage and a sensor log, estimated from their motion:
/// footage time = log time − `offset`.
public struct FootageOffsetEstimate: Sendable, Equatable, CustomStringConvertible {
    /// Seconds; footage time = log time − offset. It is the time of the frames' middle row: a
    /// rolling shutter's readout and the exposure are inside it.
    public var offset: Double
    /// One standard deviation of `offset`, seconds, from a block bootstrap over the frame
    /// pairs (how far the best offset moves when the pairs are resampled).
    public var uncertainty: Double
    /// Frame pairs whose image shift and gyro rotation were compared.
    public var pairsUsed: Int
    /// How much the gyro turned over those pairs, degrees: the sum over pairs of how far each
    /// pair's rotation is from the average pair's (a steady bias or pan counts for nothing,
    /// because it carries no timing).
    public var rotationSeen: Double
    /// Fraction of the image motion's variance the gyro explains at `offset` (R², 0…1).
    public var explained: Double
    /// The same for the change of motion from one pair to the next (fast shake): near 1 for
    /// footage whose picture turns with the camera, near 0 for stabilised footage.
    public var fastMotionExplained: Double
    /// The best offset outside the valley of the chosen one, and what it explains: a
    /// repetitive motion (the sway of walking) leaves such a second valley.
    public var runnerUp: (offset: Double, explained: Double)?

    public var description: String {
        var text = String(format: "footage offset %+.3f s ± %.3f s (%d frame pairs, %.0f° of rotation, the gyro explains %.0f %% of the image motion)",
                          offset, uncertainty, pairsUsed, rotationSeen, 100 * explained)
        if let runnerUp {
            text += String(format: "; next best %+.3f s (%.0f %%)", runnerUp.offset, 100 * runnerUp.explained)
        }
        return text
    }

    public static func == (a: FootageOffsetEstimate, b: FootageOffsetEstimate) -> Bool {
        a.offset == b.offset && a.uncertainty == b.uncertainty && a.pairsUsed == b.pairsUsed
            && a.rotationSeen == b.rotationSeen && a.explained == b.explained
            && a.fastMotionExplained == b.fastMotionExplained
            && a.runnerUp?.offset == b.runnerUp?.offset && a.runnerUp?.explained == b.runnerUp?.explained
    }
}

/// Why no offset is estimated: the recording cannot tell it.
public enum FootageOffsetRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer than two frames, or no frame pair whose picture could be compared.
    case tooFewFrames(usable: Int)
    /// No candidate offset in the search range puts enough frame pairs inside the gyro samples.
    case noOverlap(footage: ClosedRange<Double>, gyro: ClosedRange<Double>?, around: Double, searchRange: Double)
    /// The camera hardly turned: nothing to line up.
    case tooLittleRotation(seen: Double, needed: Double)
    /// The gyro explains too little of the picture's motion at any offset (or of its fast
    /// part: the sign of electronic stabilisation).
    case motionDoesNotMatch(explained: Double, fastMotionExplained: Double, needed: Double, fastNeeded: Double)
    /// Another offset fits about as well as the best.
    case ambiguous(best: Double, runnerUp: Double, bestExplained: Double, runnerUpExplained: Double)

    public var description: String {
        switch self {
        case .tooFewFrames(let usable):
            return "cannot estimate the footage offset: \(usable) frame pair(s) with a measurable image shift; at least 8 needed"
        case .noOverlap(let footage, let gyro, let around, let range):
            let log = gyro.map { String(format: "%.3f–%.3f s", $0.lowerBound, $0.upperBound) } ?? "none"
            return String(format: "cannot estimate the footage offset: no overlap between footage (%.3f–%.3f s) and the log's gyro (%@) for any offset within %.3f ± %.1f s",
                          footage.lowerBound, footage.upperBound, log, around, range)
        case .tooLittleRotation(let seen, let needed):
            return String(format: "cannot estimate the footage offset: too little rotation: %.1f° over the overlap; at least %.0f° needed (turn the camera a few times, or give --footage-offset)",
                          seen, needed)
        case .motionDoesNotMatch(let explained, let fast, let needed, let fastNeeded):
            if explained >= needed {
                return String(format: "cannot estimate the footage offset: the picture does not shake with the gyro (%.0f %% of its fast motion explained; at least %.0f %% needed): is the footage stabilised (electronic stabilisation, HyperSmooth)? Turn stabilisation off, or give --footage-offset",
                              100 * fast, 100 * fastNeeded)
            }
            return String(format: "cannot estimate the footage offset: the gyro explains at most %.0f %% of the image motion (at least %.0f %% needed): is this the log of this footage?",
                          100 * explained, 100 * needed)
        case .ambiguous(let best, let runnerUp, let e1, let e2):
            return String(format: "cannot estimate the footage offset: %+.3f s and %+.3f s fit about as well (the gyro explains %.0f %% and %.0f %%); give --footage-offset",
                          best, runnerUp, 100 * e1, 100 * e2)
        }
    }
}
