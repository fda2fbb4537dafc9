import Testing
@testable import Fusion

