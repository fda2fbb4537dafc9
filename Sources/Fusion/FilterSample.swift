import POIARCore

/// One sensor sample for `ComplementaryFilter.process` (a compact, in-memory form of a log).
public struct FilterSample: Sendable, Equatable {
    public enum Sensor: UInt8, Sendable { case gyro, accel, mag }
    public var sensor: Sensor
    public var time: Double
    public var value: Vector3
    public init(_ sensor: Sensor, time: Double, value: Vector3) {
        self.sensor = sensor; self.time = time; self.value = value
    }
}

extension ComplementaryFilter {
    /// Feeds samples in order; after each gyro sample, `onPose` gets the time and the output
    /// attitude (`outputAttitude`) once the filter has one.
    public mutating func process(_ samples: [FilterSample], onPose: (Double, Quaternion) -> Void = { _, _ in }) {
        for s in samples {
            switch s.sensor {
            case .gyro:
                updateGyro(s.value, time: s.time)
                if state.initialized { onPose(s.time, outputAttitude) }
            case .accel: updateAccel(s.value, time: s.time)
            case .mag: updateMag(s.value, time: s.time)
            }
        }
    }
}
