import Foundation

/// What a frame shows of how far its heading can be trusted (issue 26, item 5): the heading's
/// 68 % bound as a band on the compass tape, and, once it is wide enough that a card may
/// stand over the wrong place, cards faded and a "heading uncertain" badge on the tape.
///
/// "Wide enough": at `uncertainDeg` the bound is about a card's own width seen from the
/// camera (a 180 px card under a 720 px image's fx of about 800 px spans 13°): the place
/// a card points at may be its neighbour's. The fade deepens to `faintestOpacity` at
/// `faintestDeg`, where the card may point a fifth of a circle off.
public enum HeadingTrust {
    public static let uncertainDeg = 10.0
    public static let faintestDeg = 30.0
    public static let faintestOpacity = 0.4

    /// Whether a frame whose heading has the bound `sigma` (degrees) says so.
    public static func isUncertain(_ sigma: Double?) -> Bool { (sigma ?? 0) >= uncertainDeg }

    /// The factor a card's opacity is multiplied by: 1 up to `uncertainDeg`, falling linearly
    /// to `faintestOpacity` at `faintestDeg` and beyond.
    public static func cardOpacity(_ sigma: Double?) -> Double {
        guard let sigma, sigma > uncertainDeg else { return 1 }
        let f = min(1, (sigma - uncertainDeg) / (faintestDeg - uncertainDeg))
        return 1 - f * (1 - faintestOpacity)
    }

    /// The record's cards (single and cluster) faded by its heading's bound.
    static func fadeCards(_ record: inout FrameRecord) {
        let factor = cardOpacity(record.headingSigma)
        guard factor < 1 else { return }
        for k in record.annotations.indices where record.annotations[k].visible { record.annotations[k].opacity *= factor }
        for k in record.clusters.indices { record.clusters[k].opacity *= factor }
    }
}
