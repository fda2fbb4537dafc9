import Footage
import Foundation
import PhoneImport
import POIARCore
import SensorLog

/// `--footage-offset auto`: the footage's offset on the log's clock, estimated from the
/// images' motion against the log's gyro (`FootageSync` in Footage).
enum FootageAlignment {
    static func estimate(_ footage: RecordingFootage, logPath: String, notice: (String) -> Void) throws {
        throw InputError(file: footage.path, field: "--footage-offset", "auto is not available yet")
    }
}
