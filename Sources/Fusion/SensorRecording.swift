import POIARCore

/// One sensor's samples held in memory for offline fusion, compactly: the time as a Double
/// (a phone's epoch-based clock needs its 53 bits) and the vector as three Float32 (24 bits of
/// mantissa: 6·10⁻⁸ relative, far below any sensor's noise). 20 bytes per sample.
public struct SampleSeries: Sendable, Equatable {
    public private(set) var times: [Double] = []
    /// x, y, z of each sample in turn.
    public private(set) var values: [Float] = []

    /// Bytes one sample takes (time + three Float32).
    public static let bytesPerSample = MemoryLayout<Double>.size + 3 * MemoryLayout<Float>.size

    public init() {}

    public var count: Int { times.count }
    public var isEmpty: Bool { times.isEmpty }

    @inline(__always)
    public mutating func append(time: Double, _ v: Vector3) {
        times.append(time)
        values.append(Float(v.x)); values.append(Float(v.y)); values.append(Float(v.z))
    }

    @inline(__always)
    public func vector(_ i: Int) -> Vector3 {
        Vector3(Double(values[3 * i]), Double(values[3 * i + 1]), Double(values[3 * i + 2]))
    }

    /// Replaces every vector by `transform(vector)` (a calibration).
    public mutating func transformVectors(_ transform: (Vector3) -> Vector3) {
        for i in 0..<count {
            let v = transform(vector(i))
            values[3 * i] = Float(v.x); values[3 * i + 1] = Float(v.y); values[3 * i + 2] = Float(v.z)
        }
    }

    /// Moves every time by `offset` seconds (a sensor's delay: its samples describe an earlier
    /// instant than their timestamps say).
    public mutating func shiftTimes(by offset: Double) {
        guard offset != 0 else { return }
        for i in 0..<count { times[i] += offset }
    }

    /// The span of times covered, s (0 for fewer than two samples).
    public var duration: Double { count > 1 ? times[count - 1] - times[0] : 0 }
}

/// The gyro, accelerometer and magnetometer samples of a whole recording, each in time order
/// (what `OfflineFusion` needs). Samples whose time steps back are the reader's business: the
/// pipeline hands them over in time order.
public struct SensorRecording: Sendable, Equatable {
    /// Each vector sensor's samples, by `VectorSensor.index`.
    public var series = [SampleSeries](repeating: SampleSeries(), count: VectorSensor.allCases.count)

    public init() {}

    public subscript(sensor: VectorSensor) -> SampleSeries {
        get { series[Int(sensor.index)] }
        _modify { yield &series[Int(sensor.index)] }
        set { series[Int(sensor.index)] = newValue }
    }

    public var gyro: SampleSeries { get { self[.gyro] } _modify { yield &self[.gyro] } }
    public var accel: SampleSeries { get { self[.accel] } _modify { yield &self[.accel] } }
    public var mag: SampleSeries { get { self[.mag] } _modify { yield &self[.mag] } }

    public var sampleCount: Int { series.reduce(0) { $0 + $1.count } }
    /// Bytes the samples take (`SampleSeries.bytesPerSample` each).
    public var sampleBytes: Int { sampleCount * SampleSeries.bytesPerSample }

    @inline(__always)
    public mutating func append(_ sensor: VectorSensor, time: Double, _ v: Vector3) {
        series[Int(sensor.index)].append(time: time, v)
    }
}
