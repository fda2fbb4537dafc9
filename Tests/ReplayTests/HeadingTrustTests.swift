import Foundation
import Testing
@testable import Frames

/// What a frame makes of its heading's bound: cards fade past `HeadingTrust.uncertainDeg`.
@Suite("HeadingTrust: cards fade and the badge shows when the heading is uncertain")
struct HeadingTrustTests {
    @Test func opacityFallsFromTheThresholdToTheFaintest() {
        #expect(HeadingTrust.cardOpacity(nil) == 1)
        #expect(HeadingTrust.cardOpacity(3) == 1)
        #expect(HeadingTrust.cardOpacity(HeadingTrust.uncertainDeg) == 1)
        let middle = HeadingTrust.cardOpacity((HeadingTrust.uncertainDeg + HeadingTrust.faintestDeg) / 2)
        #expect(abs(middle - (1 + HeadingTrust.faintestOpacity) / 2) < 1e-9)
        #expect(HeadingTrust.cardOpacity(90) == HeadingTrust.faintestOpacity)
        #expect(!HeadingTrust.isUncertain(nil) && !HeadingTrust.isUncertain(9.9) && HeadingTrust.isUncertain(10))
    }
}
