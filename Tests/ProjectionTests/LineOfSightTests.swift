import Foundation
import Testing
import Geodesy
import POIARCore
@testable import Projection

/// Buildings laid out in metres east and north of a point in Helsinki.
struct Block {
    static let origin = GeoCoordinate(latitude: 60.1678, longitude: 24.9450, altitude: 20)
    static let plane = LocalTangentPlane(origin: GeoCoordinate(latitude: 60.1678, longitude: 24.9450, altitude: 0))

    static func at(_ east: Double, _ north: Double, altitude: Double? = nil) -> GeoCoordinate {
        var c = plane.geodetic(enu: Vector3(east, north, 0))
        c.altitude = altitude
        return c
    }

    /// A rectangle from (x0, y0) to (x1, y1) metres.
    static func building(_ id: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                         height: Double = 20, minHeight: Double = 0, courtyard: (Double, Double, Double, Double)? = nil) -> Building {
        func ring(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [GeoCoordinate] {
            [at(a, b), at(c, b), at(c, d), at(a, d)]
        }
        return Building(id: id, outer: [ring(x0, y0, x1, y1)], inner: courtyard.map { [ring($0.0, $0.1, $0.2, $0.3)] } ?? [],
                        minHeight: minHeight, height: height, heightSource: .height)
    }
}

@Suite struct LineOfSightTests {
    let device = Block.at(0, 0, altitude: 21.5)

    func occluded(_ buildings: [Building], _ poi: GeoCoordinate, eye: Double = 1.5, from: GeoCoordinate? = nil) -> Bool {
        let sight = LineOfSight(buildings: buildings, origin: Block.origin)
        return sight.isOccluded(poi, from: sight.viewpoint(device: from ?? device, eyeHeight: eye))
    }

    @Test func aBuildingBetweenHidesAPlaceBehindIt() {
        let wall = Block.building("osm:way/1", 40, -20, 60, 20)
        #expect(occluded([wall], Block.at(100, 0)))
        #expect(!occluded([wall], Block.at(100, 80)))  // beside it
        #expect(!occluded([wall], Block.at(30, 0)))  // in front of it
    }

    @Test func aPlaceInsideABuildingIsSeenByItsFacadeButNotFromBehindAnother() {
        let own = Block.building("osm:way/own", 80, -10, 120, 10)
        #expect(!occluded([own], Block.at(100, 0)))
        let front = Block.building("osm:way/front", 40, -20, 60, 20, height: 25)
        #expect(occluded([own, front], Block.at(100, 0)))
        // A tower behind a low building: its top shows over it.
        let tower = Block.building("osm:way/tower", 80, -10, 120, 10, height: 80)
        let low = Block.building("osm:way/low", 40, -20, 60, 20, height: 6)
        #expect(!occluded([tower, low], Block.at(100, 0)))
    }

    @Test func aNodeMappedJustOutsideItsWallCountsAsInside() {
        let own = Block.building("osm:way/own", 80, -10, 120, 10)
        #expect(!occluded([own], Block.at(122, 0), eye: 1.5))  // 2 m outside the far wall: its own
        #expect(!occluded([own], Block.at(130, 0)))  // 10 m behind: its surroundings, not hidden
        #expect(occluded([own], Block.at(140, 0)))  // 20 m behind: hidden
    }

    @Test func theSightLineRisesOverLowBuildingsAndPassesUnderBridges() {
        let kiosk = Block.building("osm:way/kiosk", 40, -5, 50, 5, height: 2.5)
        // A POI on a hill 30 m up, 200 m away: the line is 7.5 m up at the kiosk.
        #expect(!occluded([kiosk], Block.at(200, 0, altitude: 20 - 1.5 + 30 + 21.5 - 20)))
        // At eye height the kiosk (2.5 m) hides it.
        #expect(occluded([kiosk], Block.at(200, 0)))
        // A skyway from 6 to 10 m: the line at eye height passes under it.
        let skyway = Block.building("osm:way/skyway", 40, -5, 50, 5, height: 10, minHeight: 6)
        #expect(!occluded([skyway], Block.at(200, 0)))
    }

    @Test func aBuildingOfUnknownHeightHidesAtAnyHeight() {
        // Tagged 6 m, a line to a 40 m tower's top passes over it; untagged (its 6 m a guess), not.
        let tower = Block.building("osm:way/tower", 180, -10, 220, 10, height: 40)
        let tagged = Block.building("osm:way/low", 40, -20, 60, 20, height: 6)
        var untagged = tagged
        untagged.heightSource = .assumed
        #expect(!occluded([tower, tagged], Block.at(200, 0)))
        #expect(occluded([tower, untagged], Block.at(200, 0)))
        // An untagged building's guessed top is still the line's end for a POI inside it.
        var own = Block.building("osm:way/own", 80, -10, 120, 10, height: 6)
        own.heightSource = .assumed
        #expect(!occluded([own], Block.at(100, 0)))
    }

    @Test func aCourtyardIsOpen() {
        let ring = Block.building("osm:relation/9", 20, -40, 100, 40, courtyard: (30, -30, 90, 30))
        // From inside the courtyard to a place inside it.
        #expect(!occluded([ring], Block.at(80, 0), from: Block.at(40, 0, altitude: 21.5)))
        // From outside, across the ring, to the courtyard.
        #expect(occluded([ring], Block.at(60, 0)))
    }

    @Test func theBuildingHoldingTheDeviceDoesNotHide() {
        // GPS puts the walker 2 m inside the facade of the building on their left.
        let facade = Block.building("osm:way/facade", -50, -2, 50, 30)
        #expect(!occluded([facade], Block.at(95, -12)))
        let across = Block.building("osm:way/across", 60, -30, 70, 10)
        #expect(occluded([facade, across], Block.at(95, -12)))
    }

    @Test func longSightLinesVisitEveryCellOnTheWay() {
        // A thin wall far along a diagonal line, in a cell only the walk reaches.
        let wall = Block.building("osm:way/wall", 700, 690, 702, 720)
        #expect(occluded([wall], Block.at(800, 800)))
        let cells = LineOfSight.cells(along: Point2(0, 0), Point2(800, 800), 25)
        #expect(cells.first == LineOfSight.Cell(x: 0, y: 0) && cells.last == LineOfSight.Cell(x: 32, y: 32))
        for (a, b) in zip(cells, cells.dropFirst()) { #expect(abs(Int(a.x - b.x)) + abs(Int(a.y - b.y)) == 1) }
    }

    @Test func withoutAltitudesThePOIIsAtEyeHeightOrItsRoof() {
        var device = self.device
        device.altitude = nil
        let wall = Block.building("osm:way/1", 40, -20, 60, 20, height: 10)
        let tower = Block.building("osm:way/tower", 180, -10, 220, 10, height: 60)
        #expect(occluded([wall], Block.at(100, 0), from: device))
        #expect(!occluded([wall, tower], Block.at(200, 0), from: device))  // the tower's top shows over the wall
    }
}

@Suite struct DeclutterTests {
    func candidate(_ id: String, _ distance: Double, _ x: Double, category: String = "cafe", occluded: Bool = false) -> LabelCandidate {
        LabelCandidate(id: id, name: id, detail: "", distance: distance, anchor: Point2(x, 500), category: category, occluded: occluded)
    }

    @Test func theNearestGetCardsTheRestDots() {
        var options = DeclutterOptions()
        options.maxCards = 3
        let cs = (0..<6).map { candidate("p\($0)", Double(10 + $0 * 10), Double($0) * 150) }
        let plan = Declutter(options: options).plan(cs, eligible: cs.map { _ in true }, hadCard: { _ in false }, reserved: 0, dimOccluded: false)
        #expect(plan.cards == [0, 1, 2])
        #expect(plan.markers == [3: .dot, 4: .dot, 5: .dot])
    }

    @Test func aCardIsKeptUntilANewcomerIsClearlyNearer() {
        var options = DeclutterOptions()
        options.maxCards = 1
        let cs = [candidate("old", 100, 100), candidate("new", 90, 400)]
        let keep = Declutter(options: options).plan(cs, eligible: [true, true], hadCard: { $0 == "old" }, reserved: 0, dimOccluded: false)
        #expect(keep.cards == [0])
        let cs2 = [candidate("old", 100, 100), candidate("new", 70, 400)]
        let take = Declutter(options: options).plan(cs2, eligible: [true, true], hadCard: { $0 == "old" }, reserved: 0, dimOccluded: false)
        #expect(take.cards == [1])
    }

    @Test func landmarksOutweighShops() {
        var options = DeclutterOptions()
        options.maxCards = 1
        let cs = [candidate("shop", 200, 100, category: "store"), candidate("museum", 350, 400, category: "museum")]
        #expect(Declutter(options: options).plan(cs, eligible: [true, true], hadCard: { _ in false }, reserved: 0, dimOccluded: false).cards == [1])
    }

    @Test func occludedPOIsGetNoCardAndADimMarkerOnlyWhenAsked() {
        let cs = [candidate("behind", 50, 100, occluded: true), candidate("seen", 80, 300)]
        let hide = Declutter(options: DeclutterOptions()).plan(cs, eligible: [true, true], hadCard: { _ in false }, reserved: 0, dimOccluded: false)
        #expect(hide.cards == [1] && hide.markers.isEmpty)
        let dim = Declutter(options: DeclutterOptions()).plan(cs, eligible: [true, true], hadCard: { _ in false }, reserved: 0, dimOccluded: true)
        #expect(dim.cards == [1] && dim.markers == [0: .dim])
    }

    @Test func farDenseGroupsBecomeOneClusterCard() {
        var options = DeclutterOptions()
        options.maxCards = 3
        // Two near cafes, then five far ones within 60 px of each other, and a far restaurant there too.
        var cs = [candidate("n1", 40, 100), candidate("n2", 60, 600)]
        for k in 0..<5 { cs.append(candidate("f\(k)", 300 + Double(k) * 30, 400 + Double(k) * 12)) }
        cs.append(candidate("r", 320, 420, category: "restaurant"))
        let plan = Declutter(options: options).plan(cs, eligible: cs.map { _ in true }, hadCard: { _ in false }, reserved: 0, dimOccluded: false)
        #expect(plan.cards == [0, 1])  // the third place went to the cluster
        #expect(plan.clusters.count == 1)
        let c = plan.clusters[0]
        #expect(c.members == [2, 3, 4, 5, 6] && c.name == "5 cafes" && c.detail == "300–420 m")
        #expect(c.id == "cluster:cafe:f0")
        #expect(plan.markers[7] == .dot && plan.markers[2] == .cluster)
    }

    @Test func cardSizesFollowDistanceInSteps() {
        let size = CardSizeByDistance()
        #expect(size.factor(distance: 10) == 1.2 && size.factor(distance: 25) == 1.2)
        #expect(size.factor(distance: 500) == 0.8 && size.factor(distance: 3000) == 0.8)
        let mid = size.factor(distance: 112)
        #expect(mid > 0.8 && mid < 1.2 && (mid * 20).rounded() == mid * 20)
        #expect(LabelCluster.plural("cafe") == "cafes" && LabelCluster.plural("bus_station") == "bus stations"
                && LabelCluster.plural("pharmacy") == "pharmacies")
    }
}
