import Testing
@testable import Geodesy

