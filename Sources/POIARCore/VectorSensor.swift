/// A sensor whose samples are one vector in the device frame (x, y, z) in one unit: the
/// gyroscope, the accelerometer, the magnetometer.
///
/// This is poiar's one sample-stream description. The log reader and writer, the unit checks,
/// the phone importers, the in-memory recording of offline fusion, the sample counts and the
/// MCAP export all go through a sensor's `properties` instead of switching over sensors, so a
/// new vector sensor (an uncalibrated magnetometer, gravity, linear acceleration) is one more
/// `static let` and one more row in `table`; only a consumer that has a use for it
/// (fusion, a notice) names it. A sensor is one byte, so a sample stays as small as before.
public struct VectorSensor: Hashable, Sendable, Comparable, CaseIterable {
    /// Its place in `allCases` and `table`.
    public let index: UInt8

    @usableFromInline init(_ index: UInt8) { self.index = index }

    // Computed and inlinable (not `static let`): a hot loop compares sensors for every sample,
    // and a stored static is a call with a once-check each time.
    @inlinable public static var gyro: VectorSensor { VectorSensor(0) }
    @inlinable public static var accel: VectorSensor { VectorSensor(1) }
    @inlinable public static var mag: VectorSensor { VectorSensor(2) }
    /// The magnetometer without the OS's calibration (Sensor Logger's
    /// `MagnetometerUncalibrated.csv`): a constant hard iron where the calibrated stream's
    /// bias is re-estimated in steps. Offline fusion prefers it when a log has it.
    @inlinable public static var magUncal: VectorSensor { VectorSensor(3) }
    public static let allCases: [VectorSensor] = table.indices.map { VectorSensor(UInt8($0)) }

    /// What poiar knows of one vector sensor.
    public struct Properties: Sendable {
        /// The `sensor` field of its poiar-log/1 rows (and the last part of its MCAP topic).
        public let name: String
        /// What the vector measures, for messages ("angular rate").
        public let quantity: String
        public let unit: String
        /// The unit in ASCII (MCAP metadata).
        public let asciiUnit: String
        /// The largest magnitude a phone's sensor gives: beyond it the unit must be wrong.
        public let maxMagnitude: Double
        /// What a magnitude beyond `maxMagnitude` suggests ("expected rad/s (is it °/s?)").
        public let beyondHint: String
        /// When set, the median magnitude of the first samples must reach `value` (Earth's
        /// gravity or field), else `hint` says which unit it looks like.
        public let minMedianMagnitude: (value: Double, hint: String)?
    }

    /// Phone gyroscopes saturate at ≈ 35 rad/s (2000 °/s), accelerometers at 8–16 g
    /// (≈ 160 m/s²), magnetometers at ≈ 2000–4900 µT.
    public static let table: [Properties] = [
        Properties(name: "gyro", quantity: "angular rate", unit: "rad/s", asciiUnit: "rad/s",
                    maxMagnitude: 40, beyondHint: "beyond any phone gyroscope: expected rad/s (is it °/s?)",
                    minMedianMagnitude: nil),
        Properties(name: "accel", quantity: "acceleration", unit: "m/s²", asciiUnit: "m/s^2",
                    maxMagnitude: 400, beyondHint: "beyond any phone accelerometer: expected m/s²",
                    minMedianMagnitude: (3, "expected m/s² with gravity (≈ 9.81 at rest), is it in g?")),
        Properties(name: "mag", quantity: "magnetic field", unit: "µT", asciiUnit: "uT",
                    maxMagnitude: 5000, beyondHint: "beyond any phone magnetometer: expected µT (is it nT?)",
                    minMedianMagnitude: (2, "expected µT (Earth's field is 25–65 µT), is it in gauss or mT?")),
        Properties(name: "mag_uncal", quantity: "uncalibrated magnetic field", unit: "µT", asciiUnit: "uT",
                    maxMagnitude: 5000, beyondHint: "beyond any phone magnetometer: expected µT (is it nT?)",
                    minMedianMagnitude: (2, "expected µT (Earth's field is 25–65 µT), is it in gauss or mT?")),
    ]

    public var properties: Properties { Self.table[Int(index)] }
    public var name: String { properties.name }

    /// The sensor whose rows are called `name`.
    public init?(name: String) {
        guard let i = Self.table.firstIndex(where: { $0.name == name }) else { return nil }
        self.init(UInt8(i))
    }

    @inlinable public static func < (a: VectorSensor, b: VectorSensor) -> Bool { a.index < b.index }
    @inlinable public static func == (a: VectorSensor, b: VectorSensor) -> Bool { a.index == b.index }
}
