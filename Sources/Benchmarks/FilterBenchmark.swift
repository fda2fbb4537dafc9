import Dispatch
import Foundation
import Fusion
import POIARCore
import Recordings
import SensorLog

/// `poiar pose --bench-filter N`: the filter's own speed. The log is read into memory once;
/// then N passes run the filter over it (a fresh filter each pass, the output attitude taken
/// after every gyro sample as `poiar pose` does), and the fastest pass counts.
public enum FilterBenchmark {
    public struct Result: Sendable {
        /// Sensor samples (gyro, accel and mag rows) per pass, and gyro samples among them.
        public var samples: Int
        public var gyroSamples: Int
        public var passes: Int
        /// Seconds of the fastest pass, and of all passes.
        public var bestSeconds: Double
        public var totalSeconds: Double
        public var samplesPerSecond: Double { Double(samples) / bestSeconds }
        public var gyroSamplesPerSecond: Double { Double(gyroSamples) / bestSeconds }

        public var report: String {
            String(format: "filter: %d samples (%d gyro) × %d passes: best pass %.4f s, %.2f M samples/s (%.2f M gyro samples/s), all passes %.3f s",
                   samples, gyroSamples, passes, bestSeconds, samplesPerSecond / 1e6, gyroSamplesPerSecond / 1e6, totalSeconds)
        }
    }

    /// The recording's gyro, accel and mag samples in time order.
    public static func load(_ recording: Recording) throws -> [FilterSample] {
        let reader = try recording.stream(notice: nil)
        var samples: [FilterSample] = []
        while let r = try reader.nextRecord() {
            if case .vector(let sensor, let t, let v) = r.sample { samples.append(FilterSample(sensor, time: t, value: v)) }
        }
        return samples
    }

    public static func run(samples: [FilterSample], params: ComplementaryFilterParams, passes: Int) -> Result {
        var best = Double.infinity, total = 0.0, checksum = 0.0
        for _ in 0..<max(1, passes) {
            let start = DispatchTime.now().uptimeNanoseconds
            var filter = ComplementaryFilter(params: params)
            var sum = 0.0
            filter.process(samples) { _, q in sum += q.w }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            checksum += sum
            best = min(best, seconds)
            total += seconds
        }
        // The checksum keeps the work observable (and is never NaN for a sound filter).
        precondition(!checksum.isNaN, "filter produced NaN")
        return Result(samples: samples.count, gyroSamples: samples.lazy.filter { $0.sensor == .gyro }.count,
                      passes: max(1, passes), bestSeconds: best, totalSeconds: total)
    }
}
