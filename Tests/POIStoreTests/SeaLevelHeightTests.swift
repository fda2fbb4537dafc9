import Foundation
import Geodesy
import POIARCore
import Testing
@testable import POIStore

/// `ele` (above sea level) becomes the POI's ellipsoidal altitude at import, in one place
/// (`ParsedPOIs.placeSeaLevelHeights`); altitudes the source gives as ellipsoidal are kept.
@Suite struct SeaLevelHeightTests {
    static let peakXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
          <node id="1" lat="45.8326" lon="6.8652"><tag k="natural" v="peak"/><tag k="name" v="Mont Blanc"/><tag k="ele" v="4805.6"/></node>
          <node id="2" lat="45.9" lon="6.9"><tag k="amenity" v="cafe"/><tag k="ele" v="1035 m"/></node>
          <node id="3" lat="45.9" lon="6.91"><tag k="amenity" v="cafe"/></node>
        </osm>
        """

    @Test func osmEleGetsTheGeoidsHeight() throws {
        let dir = try makeTempDir()
        let url = try write(Self.peakXML, to: "peaks.osm", in: dir)
        let (_, parsed) = try POIImport.parse(url, geoid: try constantGeoid(51.5))
        let byID = Dictionary(uniqueKeysWithValues: parsed.pois.map { ($0.id, $0) })
        let peak = try #require(byID["osm:node/1"])
        #expect(peak.category == "peak")
        #expect(peak.coordinate.altitude == 4805.6 + 51.5)
        #expect(peak.tags["ele"] == "4805.6")  // the source's value, as it was
        #expect(byID["osm:node/2"]?.coordinate.altitude == 1035 + 51.5)
        #expect(byID["osm:node/3"]?.coordinate.altitude == nil)
        #expect(parsed.unconvertedHeights == 0)
    }

    /// The real EGM96 grid (which scripts/install-deps.sh installs) at Mont Blanc: N = 51.53 m.
    @Test func withTheSystemGrid() throws {
        let dir = try makeTempDir()
        let url = try write(Self.peakXML, to: "peaks.osm", in: dir)
        guard Geoid.system.grid != nil else {
            Issue.record("no EGM96 grid (\(Geoid.system.availability)): run bash scripts/install-deps.sh (it installs proj-data)")
            return
        }
        let (_, parsed) = try POIImport.parse(url)
        let peak = try #require(parsed.pois.first { $0.id == "osm:node/1" })
        #expect(abs(try #require(peak.coordinate.altitude) - (4805.6 + 51.5327)) < 0.001)
    }

    @Test("a GeoJSON third coordinate and a CSV alt are ellipsoidal and kept; a CSV ele column is above sea level")
    func ellipsoidalAltitudesAreKept() throws {
        let dir = try makeTempDir()
        let geojson = try write("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [6.86, 45.83, 4860.0]},
               "properties": {"natural": "peak", "ele": "4805.6"}},
              {"type": "Feature", "id": "b", "geometry": {"type": "Point", "coordinates": [6.87, 45.84]},
               "properties": {"natural": "peak", "ele": "4000"}}]}
            """, to: "peaks.geojson", in: dir)
        let geoid = try constantGeoid(50)
        let fromJSON = try POIImport.parse(geojson, geoid: geoid).pois.pois
        #expect(fromJSON.map(\.coordinate.altitude) == [4860.0, 4050.0])
        let csv = try write("id,name,category,lat,lon,alt,ele\n1,Kept,peak,45.83,6.86,4860,4805.6\n2,Converted,peak,45.84,6.87,,4000\n3,None,peak,45.85,6.88,,\n",
                            to: "peaks.csv", in: dir)
        let fromCSV = try POIImport.parse(csv, geoid: geoid).pois.pois
        #expect(fromCSV.map(\.coordinate.altitude) == [4860.0, 4050.0, nil])
    }

    /// No grid at import: `ele` is taken as ellipsoidal, the report counts it and one notice
    /// says so; the cache remembers which geoid built it, and is rebuilt when that changes.
    @Test func withoutAGridAndTheCache() throws {
        let dir = try makeTempDir()
        let url = try write(Self.peakXML, to: "peaks.osm", in: dir)
        let missing = Geoid.unavailable("egm96_15.gtx is in none of /nowhere")
        var notices: [String] = [], reports: [ImportReport] = []
        var db = try openPOISource(url, geoid: missing, onImport: { reports.append($0) }, onNotice: { notices.append($0) })
        func peakAltitude() throws -> Double? {
            try db.query(near: GeoCoordinate(latitude: 45.8326, longitude: 6.8652), radius: 10).first?.poi.coordinate.altitude
        }
        #expect(try peakAltitude() == 4805.6)
        #expect(reports.count == 1 && reports[0].unconvertedHeights == 2)
        #expect("\(reports[0])".contains("; 2 ele heights taken as ellipsoidal (no geoid)"))
        #expect(notices == ["\(url.path): no geoid model: egm96_15.gtx is in none of /nowhere; heights above sea level (OSM ele, phyphox heights, …) are used as heights above the WGS84 ellipsoid, off by the geoid's height there (tens of metres in places; docs/altitude.md)"])
        try db.close()

        // Opened again, still without the grid: the cache is used, and says what it holds.
        notices = []
        db = try openPOISource(url, geoid: missing, onImport: { reports.append($0) }, onNotice: { notices.append($0) })
        #expect(reports.count == 1)
        #expect(notices == ["\(url.path): 2 ele heights (above sea level) taken as ellipsoidal: no geoid model: egm96_15.gtx is in none of /nowhere (docs/altitude.md)"])
        try db.close()

        // With a grid: rebuilt, converted, quiet.
        notices = []
        db = try openPOISource(url, geoid: try constantGeoid(51.5), onImport: { reports.append($0) }, onNotice: { notices.append($0) })
        #expect(reports.count == 2 && reports[1].unconvertedHeights == 0)
        #expect(try peakAltitude() == 4805.6 + 51.5)
        #expect(notices.isEmpty)
        try db.close()
    }
}
