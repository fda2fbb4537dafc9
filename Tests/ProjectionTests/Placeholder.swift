import Testing
@testable import Projection

