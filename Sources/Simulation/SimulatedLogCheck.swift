import Foundation
import POIARCore
import SensorLog

/// What `poiar simulate` writes is a log poiar reads, and every setting asked for is in it.
/// Options without a physical bound (`--gyro-noise 1e10`, `--hard-iron 1e300,0,0`) made logs
/// the reader then refused ("beyond any phone gyroscope"), exit status 0; and a span wholly
/// outside the log (`--gyro-outage 10,20` of a 6 s log) changed nothing, without a word.
struct SimulatedLogCheck {
    /// The reader's own unit checks (`UnitPlausibility`): the same limits, one place.
    private var units = UnitPlausibility()

    /// Checks a sample about to be written against the limits the log reader applies.
    mutating func check(_ sample: SensorSample) throws {
        guard case .vector(let sensor, let time, let value) = sample else { return }
        try units.check(sensor, value, line: 0) { message in
            InputError(file: SimulatedLogCheck.options(of: sensor),
                       "the simulated \(sensor.name) sample at \(String(format: "%.3f", time)) s: \(message): poiar would refuse the log; give smaller values")
        }
    }

    /// The settings that make a sensor's samples (also a script file's `sensors`).
    static func options(of sensor: VectorSensor) -> String {
        switch sensor {
        case .gyro: "--gyro-noise, --gyro-bias"
        case .accel: "--accel-noise"
        default: "--mag-noise, --hard-iron, --mag-disturbance"
        }
    }

    /// Refuses a span that lies wholly outside the log's `duration` seconds: it would change nothing.
    static func checkSpans(_ c: SimulationConfig, duration: Double) throws {
        let spans: [(String, [(Double, Double)])] = [
            ("--gps-outage", c.gpsOutages.map { ($0.t0, $0.t1) }), ("--gyro-outage", c.gyroOutages.map { ($0.t0, $0.t1) }),
            ("--gps-bad", c.badGPSFixes.map { ($0.t0, $0.t1) }), ("--mag-disturbance", c.magDisturbances.map { ($0.t0, $0.t1) }),
        ]
        for (option, list) in spans {
            for (t0, t1) in list where t1 < 0 || t0 > duration {
                throw InputError(file: option, String(format: "%g,%g lies outside the log (0 to %.1f s): it would change nothing; give a span within the log", t0, t1, duration))
            }
        }
    }
}
