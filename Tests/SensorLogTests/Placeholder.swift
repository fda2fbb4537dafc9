import Testing
@testable import SensorLog

