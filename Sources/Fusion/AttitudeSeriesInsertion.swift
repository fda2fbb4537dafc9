import POIARCore

extension AttitudeSeries {
    /// The series with `extra` samples merged in by time (each after the series' samples at
    /// the same time); the series' own samples keep their stored values bit for bit, so
    /// whatever they write does not change. An added sample's heading uncertainty grows from
    /// the nearer of the series' samples by `addedSigmaGrowth` per second away from it: its
    /// heading comes from elsewhere than the gyro (the GPS course across a gyro gap).
    public func merging(_ extra: [(time: Double, orientation: Quaternion)]) -> AttitudeSeries {
        guard !extra.isEmpty else { return self }
        let added = extra.sorted { $0.time < $1.time }
        var newTimes: [Double] = [], newStorage: [Float] = [], newSigmas: [Float] = []
        newTimes.reserveCapacity(count + added.count)
        newStorage.reserveCapacity(4 * (count + added.count))
        let sigmas = !headingSigmas.isEmpty
        if sigmas { newSigmas.reserveCapacity(count + added.count) }
        var j = 0
        func add(_ e: (time: Double, orientation: Quaternion), before i: Int) {
            let q = e.orientation
            newTimes.append(e.time)
            newStorage += [Float(q.w), Float(q.x), Float(q.y), Float(q.z)]
            guard sigmas else { return }
            // The nearer of the samples around it (i − 1 before, i after).
            let before = i > 0 ? e.time - times[i - 1] : .infinity, after = i < count ? times[i] - e.time : .infinity
            let near = before <= after ? i - 1 : i
            let s = Double(headingSigmas[near]), grown = Self.addedSigmaGrowth * min(before, after)
            newSigmas.append(Float(min((s * s + grown * grown).squareRoot(), 180)))
        }
        for i in 0..<count {
            while j < added.count, added[j].time < times[i] { add(added[j], before: i); j += 1 }
            newTimes.append(times[i])
            newStorage += storage[(4 * i)..<(4 * i + 4)]
            if sigmas { newSigmas.append(headingSigmas[i]) }
        }
        while j < added.count { add(added[j], before: count); j += 1 }
        return AttitudeSeries(times: newTimes, storage: newStorage, headingIsAbsolute: headingIsAbsolute,
                              maxInterpolationGap: maxInterpolationGap, headingSigmas: newSigmas)
    }

    /// Degrees per second (default 1): how fast an added sample's heading uncertainty grows
    /// away from the series' own samples (a course-bridged gap: the holding offset may change,
    /// the course lags the turns; the 86 s gap of the Android drive reaches ±43° at its middle).
    public static let addedSigmaGrowth = 1.0
}
