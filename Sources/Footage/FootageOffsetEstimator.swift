import POIARCore

/// Estimates the offset between footage and a sensor log from the camera's rotation, seen
/// twice: by the gyro and by the picture. For a candidate offset δ the gyro is integrated
/// exactly over each frame pair's interval moved onto the log's timeline, [tᵢ + δ, tᵢ₊₁ + δ],
/// and a linear map from those rotations to the measured image shifts is fitted (`ShiftFit`);
/// the cost is the fraction of image motion the map leaves unexplained. A coarse scan over
/// ±`searchRange` finds the valley; a fine scan across it with a fixed set of pairs, and a
/// parabola through the lowest three points, places its bottom to a millisecond or so; a
/// block bootstrap over the pairs gives the uncertainty. Pure: no I/O.
public struct FootageOffsetEstimator: Sendable {
    /// Tunables (units in the names or the comments).
    public struct Params: Sendable {
        /// Offsets looked at: −searchRange…+searchRange seconds. A camera and a logging app
        /// started by hand are a few seconds apart; a wider range costs time in proportion and
        /// lets the periodic sway of walking line up with itself a step or two away.
        public var searchRange = 3.0
        /// Step of the coarse scan, s: under a third of the valley's width for hand-held motion
        /// (the cost rises over ~0.05–0.1 s), so the scan cannot step over it.
        public var coarseStep = 0.01
        /// Step of the fine scan, s; the parabola interpolates below it.
        public var fineStep = 0.002
        /// Half-width of the fine scan around the coarse minimum, s: wide enough that the
        /// bootstrap's resampled minima are not clipped at its ends (their spread reaches 10 ms on
        /// a 10-second clip with one turn).
        public var fineHalfWidth = 0.05
        /// Pairs whose image shift is less clear than this are left out (a cut, blur).
        public var minQuality = 0.05
        /// A longer interval between gyro samples is a gap: no pair is integrated across it, s.
        /// Phone and camera gyros sample at 50–800 Hz; a tenth of a second missing is a
        /// dropout, and the rate across it is not known.
        public var maxGyroGap = 0.1
        /// Least rotation (degrees, as `FootageOffsetEstimate.rotationSeen`) to estimate from.
        public var minRotation = 10.0
        /// Least fraction of the image motion the gyro must explain at the best offset.
        public var minExplained = 0.5
        /// Least fraction of the pair-to-pair change of motion it must explain (stabilised
        /// footage keeps the slow pan and removes the shake, and with it the timing).
        public var minFastMotionExplained = 0.25
        /// A runner-up explaining at least this fraction of what the best explains makes the
        /// estimate ambiguous.
        public var maxRunnerUpRatio = 0.95
        /// Resamples of the bootstrap, and the length of its blocks, s (neighbouring pairs'
        /// errors are correlated over about a step of walking).
        public var bootstrapCount = 100
        public var bootstrapBlock = 1.0

        public init() {}
    }

    public var params: Params

    public init(params: Params = Params()) { self.params = params }

    /// The offset for footage whose frames are at `frameTimes` (footage seconds, increasing)
    /// and moved by `shifts[i]` from frame i to frame i + 1, against `gyro` (log seconds),
    /// looked for within `around` ± `searchRange` (`around`: the offset the clocks imply, e.g.
    /// 0 for a clip whose time 0 is the log's, −start_utc for stills named by UTC time).
    public func estimate(frameTimes: [Double], shifts: [ImageShift], gyro: [GyroSample],
                         around: Double = 0) -> Result<FootageOffsetEstimate, FootageOffsetRefusal> {
        precondition(shifts.count == max(0, frameTimes.count - 1), "\(shifts.count) shifts for \(frameTimes.count) frames")
        let pairs = (0..<shifts.count).filter { i in
            let s = shifts[i]
            return s.quality >= params.minQuality && s.dx.isFinite && s.dy.isFinite && frameTimes[i + 1] > frameTimes[i]
        }.map { Pair(start: frameTimes[$0], end: frameTimes[$0 + 1], shift: shifts[$0]) }
        guard pairs.count >= 8 else { return .failure(.tooFewFrames(usable: pairs.count)) }
        let integral = GyroIntegral(gyro.sorted { $0.time < $1.time }, maxGap: params.maxGyroGap)

        // Coarse scan: each candidate with the pairs it covers, scored by the adjusted R² so
        // that candidates covering fewer pairs are not favoured for their fewer constraints.
        let steps = Int((params.searchRange / params.coarseStep).rounded())
        let minPairs = max(8, pairs.count / 4)
        var coarse: [(offset: Double, unexplained: Double)] = []
        var covered: [Double] = []
        for k in -steps...steps {
            let delta = around + Double(k) * params.coarseStep
            var fit = ShiftFit()
            for p in pairs {
                if let g = integral.rotation(from: p.start + delta, to: p.end + delta) { fit.add(rotation: g, shift: p.shift, weight: p.shift.quality) }
            }
            guard fit.count >= minPairs else { continue }
            covered.append(delta)
            // nil: a picture that never moved.
            if let u = fit.unexplained { coarse.append((delta, min(1, u * Double(fit.count - 1) / Double(fit.count - 5)))) }
        }
        guard !covered.isEmpty else {
            return .failure(.noOverlap(footage: frameTimes.first!...frameTimes.last!, gyro: integral.span, around: around, searchRange: params.searchRange))
        }
        guard let best = coarse.indices.min(by: { coarse[$0].unexplained < coarse[$1].unexplained }) else {
            let middle = covered[covered.count / 2]
            let seen = rotationSeen(pairs.compactMap { integral.rotation(from: $0.start + middle, to: $0.end + middle) })
            if seen < params.minRotation { return .failure(.tooLittleRotation(seen: seen, needed: params.minRotation)) }
            return .failure(.motionDoesNotMatch(explained: 0, fastMotionExplained: 0, needed: params.minExplained,
                                                fastNeeded: params.minFastMotionExplained))
        }

        // Fine scan across the valley, with the pairs covered over the whole window.
        let lo = coarse[best].offset - params.fineHalfWidth, hi = coarse[best].offset + params.fineHalfWidth
        let fineCount = Int(((hi - lo) / params.fineStep).rounded()) + 1
        let grid = (0..<fineCount).map { lo + Double($0) * params.fineStep }
        let used = pairs.filter { integral.rotation(from: $0.start + lo, to: $0.end + hi) != nil }
        guard used.count >= 8 else {
            return .failure(.noOverlap(footage: frameTimes.first!...frameTimes.last!, gyro: integral.span, around: around, searchRange: params.searchRange))
        }
        let rotations = grid.map { delta in used.map { integral.rotation(from: $0.start + delta, to: $0.end + delta)! } }
        let weights = used.map(\.shift.quality)
        guard let offset = bottom(grid: grid, rotations: rotations, pairs: used, weights: weights) else {
            return .failure(.tooFewFrames(usable: used.count))
        }

        // How much rotation there was to line up, at the chosen offset.
        let atOffset = used.map { integral.rotation(from: $0.start + offset, to: $0.end + offset) ?? .zero }
        let rotationSeen = rotationSeen(atOffset)
        guard rotationSeen >= params.minRotation else {
            return .failure(.tooLittleRotation(seen: rotationSeen, needed: params.minRotation))
        }
        var fit = ShiftFit(), fastFit = ShiftFit()
        for (i, p) in used.enumerated() {
            fit.add(rotation: atOffset[i], shift: p.shift, weight: weights[i])
            // The change from the previous pair (when it is the frame pair just before).
            if i > 0, used[i - 1].end == p.start {
                let q = used[i - 1].shift
                fastFit.add(rotation: atOffset[i] - atOffset[i - 1],
                            shift: ImageShift(dx: p.shift.dx - q.dx, dy: p.shift.dy - q.dy, quality: 1),
                            weight: min(weights[i], weights[i - 1]))
            }
        }
        let explained = 1 - (fit.unexplained ?? 1)
        let fastExplained = 1 - (fastFit.unexplained ?? 1)
        guard explained >= params.minExplained, fastExplained >= params.minFastMotionExplained else {
            return .failure(.motionDoesNotMatch(explained: explained, fastMotionExplained: fastExplained,
                                                needed: params.minExplained, fastNeeded: params.minFastMotionExplained))
        }

        let runnerUp = FootageOffsetEstimator.runnerUp(coarse, best: best)
        if let runnerUp, 1 - runnerUp.unexplained >= params.maxRunnerUpRatio * (1 - coarse[best].unexplained) {
            return .failure(.ambiguous(best: offset, runnerUp: runnerUp.offset,
                                       bestExplained: 1 - coarse[best].unexplained, runnerUpExplained: 1 - runnerUp.unexplained))
        }
        let uncertainty = bootstrapSpread(grid: grid, rotations: rotations, pairs: used, weights: weights)
        return .success(FootageOffsetEstimate(
            offset: offset, uncertainty: max(uncertainty, params.fineStep / 2), pairsUsed: used.count,
            rotationSeen: rotationSeen, explained: explained, fastMotionExplained: fastExplained,
            runnerUp: runnerUp.map { ($0.offset, 1 - $0.unexplained) }))
    }

    /// Degrees: the sum of how far each pair's rotation is from the mean pair's.
    private func rotationSeen(_ rotations: [Vector3]) -> Double {
        guard !rotations.isEmpty else { return 0 }
        let mean = rotations.reduce(Vector3.zero, +) / Double(rotations.count)
        return rotations.reduce(0.0) { $0 + ($1 - mean).norm } * 180 / Double.pi
    }

    private struct Pair {
        var start: Double, end: Double
        var shift: ImageShift
    }

    /// The bottom of the cost over `grid` with the pairs weighted by `weights`: the lowest
    /// grid point moved to the vertex of the parabola through it and its neighbours.
    private func bottom(grid: [Double], rotations: [[Vector3]], pairs: [Pair], weights: [Double]) -> Double? {
        var costs: [Double] = []
        for g in grid.indices {
            var fit = ShiftFit()
            for i in pairs.indices where weights[i] > 0 { fit.add(rotation: rotations[g][i], shift: pairs[i].shift, weight: weights[i]) }
            guard let u = fit.unexplained else { return nil }
            costs.append(u)
        }
        let k = costs.indices.min { costs[$0] < costs[$1] }!
        guard k > 0, k < costs.count - 1 else { return grid[k] }
        let curvature = costs[k - 1] - 2 * costs[k] + costs[k + 1]
        guard curvature > 0 else { return grid[k] }
        return grid[k] + params.fineStep * 0.5 * (costs[k - 1] - costs[k + 1]) / curvature
    }

    /// Standard deviation of the bottom over resamples of the pairs in blocks of
    /// `bootstrapBlock` seconds (a fixed seed: the same input gives the same answer).
    private func bootstrapSpread(grid: [Double], rotations: [[Vector3]], pairs: [Pair], weights: [Double]) -> Double {
        var blocks: [[Int]] = []
        for i in pairs.indices {
            if let first = blocks.last?.first, pairs[i].start - pairs[first].start < params.bootstrapBlock {
                blocks[blocks.count - 1].append(i)
            } else {
                blocks.append([i])
            }
        }
        var random = SplitMix64(seed: 0x5EED_F00D)
        var offsets: [Double] = []
        for _ in 0..<params.bootstrapCount {
            var counts = [Double](repeating: 0, count: pairs.count)
            for _ in blocks.indices {
                for i in blocks[Int(random.next() % UInt64(blocks.count))] { counts[i] += 1 }
            }
            let resampled = zip(weights, counts).map { $0 * $1 }
            if let o = bottom(grid: grid, rotations: rotations, pairs: pairs, weights: resampled) { offsets.append(o) }
        }
        guard offsets.count > 1 else { return .infinity }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        return (offsets.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(offsets.count - 1)).squareRoot()
    }

    /// The lowest point of the coarse cost outside the best's valley: the valley is where the
    /// cost stays below halfway between the best and the median cost.
    static func runnerUp(_ coarse: [(offset: Double, unexplained: Double)], best: Int) -> (offset: Double, unexplained: Double)? {
        let sorted = coarse.map(\.unexplained).sorted()
        let level = (coarse[best].unexplained + sorted[sorted.count / 2]) / 2
        var left = best, right = best
        while left > 0, coarse[left - 1].unexplained < level { left -= 1 }
        while right < coarse.count - 1, coarse[right + 1].unexplained < level { right += 1 }
        // Local minima outside the valley.
        var candidate: (offset: Double, unexplained: Double)?
        for i in coarse.indices where i < left || i > right {
            let c = coarse[i].unexplained
            let isMinimum = (i == 0 || coarse[i - 1].unexplained >= c) && (i == coarse.count - 1 || coarse[i + 1].unexplained >= c)
            if isMinimum, c < level, c < candidate?.unexplained ?? .infinity { candidate = coarse[i] }
        }
        return candidate
    }
}
