import Foundation
import POIARCore

/// σ's floor, learned from the fixes' residuals against the track (`SmoothedPositions`): the
/// error the track's covariance does not hold, added to it in quadrature.
///
/// **The unseen error.** A fix's stated accuracy is the whole of its error, the slow wander with
/// the rest. What the track can average away shows in the fixes' residuals against it; what it
/// cannot (a wander slower than the model's, which over a walk is a common offset of every fix)
/// leaves the residuals small while the fixes still state it. So where the fixes sit closer to
/// the track than they claim, the claim's remainder is taken as unseen: with ρ the residuals'
/// 68 % radius over the stated accuracy (robustly: 1.28 × the median of |residual| / accuracy
/// over `windowSeconds` around the estimate; causally, before it), the floor is
/// `max(minimumShare, unseenShare · √(1 − ρ²)) · accuracy`.
///
/// **The jumps the causal filter took in.** The forward filter alone softens a fix far off
/// (`PositionSmoother.Gating.soften`) but still moves toward it, and a burst of such fixes can
/// carry it all the way onto the burst, where its residuals are small again. It has no second
/// opinion to say which was right, so for `jumpSeconds` after a fix more than `jumpGate` × its
/// accuracy off, the floor holds `jumpShare` × that residual (the largest in the window).
///
/// Both are learned from the recording, not tuned to one error model: docs/position.md gives
/// the coverage across the simulator's models and their parameters.
enum SigmaFloor {
    /// The least share of the stated accuracy σ keeps (0.35 before the rest was learned).
    static let minimumShare = 0.25
    /// How much of the unseen remainder is taken (all of it counts again the wander the
    /// model's own covariance holds: 91–93 % of the `wander` walks' fixes within σ).
    static let unseenShare = 0.75
    /// The residuals judged together, s (the model's wander correlation time).
    static let windowSeconds = 30.0
    /// The 68 % radius of a 2-D Gaussian over the median of its radius (1.5096 / 1.1774).
    static let radius68PerMedian = 1.2822
    /// A residual beyond this many stated accuracies is a jump (a fix as good as it states is
    /// that far off once in 30 000).
    static let jumpGate = 3.0
    /// The share of a jump's residual σ holds after it, and for how long, s.
    static let jumpShare = 0.6
    static let jumpSeconds = 20.0

    /// The floor (m) at each estimate: `times` in order, `residuals` each fix's |residual| (m;
    /// nil for an epoch that is no fix), `accuracies` the stated accuracy at each estimate.
    static func floors(times: [Double], residuals: [Double?], accuracies: [Double], causal: Bool) -> [Double] {
        let ratios = zip(residuals, accuracies).map { r, a in r.map { $0 / a } }
        return times.indices.map { k in
            let lo = times.lowerBound(of: times[k] - windowSeconds)
            let hi = causal ? k + 1 : times.upperBound(of: times[k] + windowSeconds, by: { $0 })
            let seen = ratios[lo..<hi].compactMap { $0 }
            var share = minimumShare
            if !seen.isEmpty {
                let rho = radius68PerMedian * median(seen)
                share = max(share, unseenShare * max(0, 1 - rho * rho).squareRoot())
            }
            let unseen = share * accuracies[k]
            guard causal else { return unseen }
            let since = times.lowerBound(of: times[k] - jumpSeconds)
            let jump = (since...k).compactMap { j in residuals[j].flatMap { $0 > jumpGate * accuracies[j] ? $0 : nil } }.max() ?? 0
            return (unseen * unseen + pow(jumpShare * jump, 2)).squareRoot()
        }
    }
}
