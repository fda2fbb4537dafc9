import POIARCore

extension AttitudeSeries {
    /// The series with `extra` samples merged in by time (each after the series' samples at
    /// the same time); the series' own samples keep their stored values bit for bit, so
    /// whatever they write does not change.
    public func merging(_ extra: [(time: Double, orientation: Quaternion)]) -> AttitudeSeries {
        guard !extra.isEmpty else { return self }
        let added = extra.sorted { $0.time < $1.time }
        var newTimes: [Double] = [], newStorage: [Float] = []
        newTimes.reserveCapacity(count + added.count)
        newStorage.reserveCapacity(4 * (count + added.count))
        var j = 0
        func add(_ e: (time: Double, orientation: Quaternion)) {
            let q = e.orientation
            newTimes.append(e.time)
            newStorage += [Float(q.w), Float(q.x), Float(q.y), Float(q.z)]
        }
        for i in 0..<count {
            while j < added.count, added[j].time < times[i] { add(added[j]); j += 1 }
            newTimes.append(times[i])
            newStorage += storage[(4 * i)..<(4 * i + 4)]
        }
        while j < added.count { add(added[j]); j += 1 }
        return AttitudeSeries(times: newTimes, storage: newStorage, headingIsAbsolute: headingIsAbsolute,
                              maxInterpolationGap: maxInterpolationGap)
    }
}
