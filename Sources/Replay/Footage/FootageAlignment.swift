import Footage
import Foundation
import PhoneImport
import POIARCore
import Recordings
import SensorLog

/// `--footage-offset auto`: the footage's offset on the log's clock, estimated from the images'
/// motion against the recording's rotation (`FootageSync`, docs/footage-sync.md), searched
/// around the offset the footage's clock implies.
///
/// The rotation is the gyro's — unless the recording carries the camera's own orientation
/// (`orientation_source: camera`: a GoPro clip's, which is the stabilised picture's), which is
/// what the picture follows: a stabilised picture does not turn with the body the gyro is on.
enum FootageAlignment {
    static func estimate(_ footage: RecordingFootage, recording: Recording, notice: (String) -> Void) throws {
        // A reading of its own, at full precision (the pass's holds the samples as Float); the
        // fusion pass that follows says the recording's notices.
        let reader = try recording.secondReading()
        let logPath = recording.path
        var gyro: [GyroSample] = []
        var orientations: [(time: Double, attitude: Quaternion)] = []
        while let record = try reader.nextRecord() {
            switch record.sample {
            case .vector(.gyro, let t, let rate): gyro.append((t, rate))
            case .orientation(let t, let q): orientations.append((t, q))
            default: break
            }
        }
        let useCamera = reader.metadata.orientationSource == .camera && orientations.count >= 2
        let rotation = useCamera ? rates(orientations) : gyro
        guard rotation.count >= 2 else {
            throw InputError(file: logPath, field: "--footage-offset",
                             "auto compares the images' motion with the recording's rotation, and the recording has no gyro samples: give the offset in seconds")
        }
        let estimate = try FootageSync.estimate(footage: footage.source, gyro: rotation, around: footage.offset)
        let source = useCamera ? "the camera's own orientation (the picture's, as the camera stabilised it)" : "the gyro"
        footage.setEstimatedOffset(estimate.offset, reason: String(format: "estimated from the images against %@, ± %.3f s", source, estimate.uncertainty))
        notice("footage sync: \(estimate), against \(source)")
    }

    /// Rates (device axes, rad/s) at the midpoints of consecutive attitudes: the rotation from
    /// one to the next over the time between them.
    static func rates(_ attitudes: [(time: Double, attitude: Quaternion)]) -> [GyroSample] {
        zip(attitudes, attitudes.dropFirst()).compactMap { a, b in
            let dt = b.time - a.time
            guard dt > 0 else { return nil }
            return ((a.time + b.time) / 2, (a.attitude.conjugate * b.attitude).rotationVector / dt)
        }
    }
}
