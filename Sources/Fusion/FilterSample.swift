import POIARCore

/// One sensor sample for `ComplementaryFilter.process` (a compact, in-memory form of a log).
public struct FilterSample: Sendable, Equatable {
    public var sensor: VectorSensor
    public var time: Double
    public var value: Vector3
    public init(_ sensor: VectorSensor, time: Double, value: Vector3) {
        self.sensor = sensor; self.time = time; self.value = value
    }
}

extension ComplementaryFilter {
    /// Takes one vector sensor's sample: the gyroscope's, the accelerometer's or the
    /// magnetometer's. Other sensors are not the filter's inputs and are passed over.
    @inline(__always)
    public mutating func update(_ sensor: VectorSensor, _ value: Vector3, time: Double) {
        if sensor == .gyro { updateGyro(value, time: time) }
        else if sensor == .accel { updateAccel(value, time: time) }
        else if sensor == .mag { updateMag(value, time: time) }
    }

    /// Feeds samples in order; after each gyro sample, `onPose` gets the time and the output
    /// attitude (`outputAttitude`) once the filter has one.
    public mutating func process(_ samples: [FilterSample], onPose: (Double, Quaternion) -> Void = { _, _ in }) {
        for s in samples {
            update(s.sensor, s.value, time: s.time)
            if s.sensor == .gyro, state.initialized { onPose(s.time, outputAttitude) }
        }
    }
}
