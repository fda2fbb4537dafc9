import Testing
@testable import POIARCore

@Suite struct NearMissTests {
    @Test func editDistanceCountsSwapsAsOneEdit() {
        #expect(NearMiss.editDistance("replay", "replay") == 0)
        #expect(NearMiss.editDistance("replya", "replay") == 1)   // two letters swapped
        #expect(NearMiss.editDistance("cafes", "cafe") == 1)
        #expect(NearMiss.editDistance("", "abc") == 3)
        #expect(NearMiss.editDistance("kitten", "sitting") == 3)
    }

    @Test func suggestsTheWordMeantForASlip() {
        let commands = ["replay", "pose", "project", "pois", "convert", "simulate", "evaluate", "map", "merge", "report"]
        #expect(NearMiss.suggestion(for: "replya", among: commands) == "replay")
        #expect(NearMiss.suggestion(for: "Simulat", among: commands) == "simulate")
        #expect(NearMiss.suggestion(for: "hid", among: ["hide", "dim", "off"]) == "hide")
        #expect(NearMiss.suggestion(for: "rest", among: ["restaurant", "cafe", "store"]) == "restaurant")
    }

    @Test func suggestsNothingWhenNothingIsNearOrTwoAreEquallyNear() {
        #expect(NearMiss.suggestion(for: "spaceport", among: ["cafe", "restaurant", "park"]) == nil)
        #expect(NearMiss.suggestion(for: "xyz", among: ["replay", "pose"]) == nil)
        // "pos" is one edit from both "pose" and "pois": no guess.
        #expect(NearMiss.suggestion(for: "pos", among: ["pose", "pois"]) == nil)
        #expect(NearMiss.suggestion(for: "", among: ["pose"]) == nil)
    }
}
