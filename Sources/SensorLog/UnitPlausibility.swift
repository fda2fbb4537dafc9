import POIARCore

/// Catches logs written in the wrong units (the most common export mistake): acceleration in g
/// instead of m/s², magnetic field in nT or gauss instead of µT, angular rate in °/s instead
/// of rad/s. Single samples are checked against physical limits of phone sensors; the median
/// magnitude of the first samples is checked against Earth's gravity and field.
package struct UnitPlausibility {
    static let sampleCount = 200

    /// The first norms of each vector sensor, by `VectorSensor.index`.
    private var firstNorms = [FirstNorms](repeating: FirstNorms(), count: VectorSensor.allCases.count)
    /// Each sensor's `maxMagnitude`, and whether its first samples' median is judged, by index
    /// (held here so the per-sample check reads two arrays, not the sensors' properties).
    private let maxMagnitudes = VectorSensor.table.map(\.maxMagnitude)
    private let judgesMedian = VectorSensor.table.map { $0.minMedianMagnitude != nil }

    package init() {}

    /// Checks one sample against the sensor's physical limit, and once its first
    /// `sampleCount` samples are in, their median against Earth's gravity or field.
    @inline(__always)
    package mutating func check(_ sensor: VectorSensor, _ v: Vector3, line: Int, fail: (String) -> InputError) throws {
        let i = Int(sensor.index)
        let norm = v.norm
        if norm > maxMagnitudes[i] {
            throw fail("\(sensor.properties.quantity) \(norm) is \(sensor.properties.beyondHint)")
        }
        if judgesMedian[i], firstNorms[i].add(norm, line: line) { try judge(sensor, fail) }
    }

    /// Judges short logs once the end is reached.
    package mutating func finish(path: String) throws {
        for sensor in VectorSensor.allCases where firstNorms[Int(sensor.index)].isShortButEnough {
            try judge(sensor) { InputError(file: path, line: firstNorms[Int(sensor.index)].firstLine, field: "x", $0) }
        }
    }

    private func judge(_ sensor: VectorSensor, _ fail: (String) -> InputError) throws {
        guard let (least, hint) = sensor.properties.minMedianMagnitude else { return }
        let norms = firstNorms[Int(sensor.index)].norms
        let m = median(norms)
        if m < least {
            throw fail("\(sensor.name) magnitudes have median \(rounded(m)) over the first \(norms.count) samples: \(hint)")
        }
    }

    private func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
    private func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    /// The norms of one sensor's first `sampleCount` samples, and the line of the first.
    private struct FirstNorms {
        var norms: [Double] = []
        var firstLine = 0

        /// Keeps `norm` while fewer than `sampleCount` are kept; true when it is the last one
        /// kept (time to judge them).
        @inline(__always)
        mutating func add(_ norm: Double, line: Int) -> Bool {
            guard norms.count < UnitPlausibility.sampleCount else { return false }
            if norms.isEmpty { firstLine = line }
            norms.append(norm)
            return norms.count == UnitPlausibility.sampleCount
        }

        /// A log that ended before `sampleCount` samples but with enough (20) to judge.
        var isShortButEnough: Bool { norms.count >= 20 && norms.count < UnitPlausibility.sampleCount }
    }
}
