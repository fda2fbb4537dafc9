import POIARCore

/// `--footage-offset auto`: the offset between footage and its sensor log, from the
/// footage's pictures and the log's gyro (method, assumptions and measured accuracy:
/// docs/footage-sync.md).
///
///     let estimate = try FootageSync.estimate(footage: FootageSource(path: clip), gyro: gyro)
///     // footage time = log time − estimate.offset
public enum FootageSync {
    /// Offsets looked at by default: ±3 s around the clocks' own (see
    /// `FootageOffsetEstimator.Params.searchRange`).
    public static let defaultSearchRange = FootageOffsetEstimator.Params().searchRange

    /// The offset of `footage` (a video, or stills) against `gyro` (log seconds, rad/s), looked
    /// for within `around` ± `searchRange` seconds: `around` is the offset the clocks imply
    /// (0 for a clip whose time 0 is the log's; −start_utc for stills named by UTC time).
    /// Throws `InputError` naming the footage when the recording cannot tell the offset (too
    /// little rotation, no overlap, stabilised footage, an ambiguous fit) or a frame cannot be
    /// decoded.
    public static func estimate(footage: FootageSource, gyro: [GyroSample], around: Double = 0,
                                searchRange: Double = defaultSearchRange) throws -> FootageOffsetEstimate {
        try estimate(frames: greyFrames(of: footage), gyro: gyro, around: around, searchRange: searchRange)
    }

    /// The same for any frame source (synthetic footage in tests; a caller's own stills).
    public static func estimate(frames: some GreyFrameSource, gyro: [GyroSample], around: Double = 0,
                                searchRange: Double = defaultSearchRange) throws -> FootageOffsetEstimate {
        let shifts = try measureShifts(frames: frames)
        var params = FootageOffsetEstimator.Params()
        params.searchRange = searchRange
        switch FootageOffsetEstimator(params: params).estimate(frameTimes: frames.frameTimes, shifts: shifts, gyro: gyro, around: around) {
        case .success(let estimate): return estimate
        case .failure(let refusal): throw InputError(file: frames.path, "\(refusal)")
        }
    }

    /// `footage`'s frames as small grey images, decoded in order.
    public static func greyFrames(of footage: FootageSource) -> any GreyFrameSource {
        if let video = footage.video { return GreyVideoFrames(video: video) }
        return GreyStillFrames(folder: footage.path, files: footage.frames.indices.map { footage.stillURL($0)!.path },
                               frameTimes: footage.frames.map(\.time))
    }

    /// The shift from each frame to the next (`frameTimes.count − 1` of them).
    public static func measureShifts(frames: some GreyFrameSource) throws -> [ImageShift] {
        let count = frames.frameTimes.count
        guard count >= 2 else { return [] }
        let first = try frames.greyFrame(at: 0)
        guard let correlator = PhaseCorrelator(frameWidth: first.width, frameHeight: first.height) else {
            throw InputError(file: frames.path, "frames of \(first.width)×\(first.height) are too small to measure motion on (16 px a side at least)")
        }
        var previous = correlator.spectrum(of: first)
        var shifts: [ImageShift] = []
        shifts.reserveCapacity(count - 1)
        for i in 1..<count {
            let frame = try frames.greyFrame(at: i)
            guard frame.width == first.width, frame.height == first.height else {
                throw InputError(file: frames.path, "frame \(i + 1) is \(frame.width)×\(frame.height), the first \(first.width)×\(first.height): all frames must be one size")
            }
            let spectrum = correlator.spectrum(of: frame)
            shifts.append(correlator.shift(from: previous, to: spectrum))
            previous = spectrum
        }
        return shifts
    }
}
