import Foundation
import Manifest
import POIARCore
@testable import POIStore
import Testing

/// The bad-input catalogue (docs/robustness.md, "Bad-input catalogue"): every reader, fed
/// broken input through the `poiar` CLI. Each case makes its input files in a fresh folder,
/// runs one command there and expects
///
/// - a non-zero exit status,
/// - exactly one error line on stderr, `poiar: error: FILE:LINE (FIELD): message`, naming
///   the right file and line or field (`location`, a regular expression) and saying what is
///   wrong (`message`, a substring),
/// - nothing half-written: no temporary files anywhere in the folder, no output folder when
///   the run failed before writing (every check comes first), and no file listed in `absent`.
struct BadInput: Sendable, CustomTestStringConvertible {
    var name: String
    /// Makes the case's files in the folder.
    var make: @Sendable (URL) throws -> Void
    var arguments: [String]
    /// `FILE:LINE (FIELD)`, as a regular expression matched right after "poiar: error: ".
    var location: String
    var message: String
    var status: Int32 = 1
    /// Paths (relative to the folder) that must not exist after the run.
    var absent: [String] = ["out"]

    var testDescription: String { name }
}

// MARK: - Input makers

/// A POI CSV with two cafés near the log's position.
let cataloguePOIs = "id,name,category,lat,lon\n1,Kappeli,cafe,60.1675,24.9495\n2,Strindberg,cafe,60.1679,24.9450\n"

/// Rows 4–8 of every catalogue log (after two metadata lines and the header): enough for a
/// pose and a position. Extra rows start at line 9.
let catalogueRows = ["0.0,accel,0,9.8,0,", "0.0,mag,0,20,-40,", "0.0,gps,60.16787,24.94926,20,5",
                     "0.1,gyro,0,0,0,", "0.5,gyro,0,0,0,"]

func catalogueLog(_ extra: [String] = [], meta: [String] = ["# pois: pois.csv", "# camera_hfov_deg: 60"],
                  rows: [String] = catalogueRows) -> String {
    (meta + ["time,sensor,x,y,z,accuracy"] + rows + extra).joined(separator: "\n") + "\n"
}

func put(_ text: String, _ name: String, in dir: URL) throws {
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

func put(_ data: Data, _ name: String, in dir: URL) throws {
    try data.write(to: dir.appendingPathComponent(name))
}

/// The POI CSV and a log with `extra` rows (and `meta` lines) as log.csv.
func logCase(_ extra: [String], meta: [String] = ["# pois: pois.csv", "# camera_hfov_deg: 60"],
             rows: [String] = catalogueRows) -> @Sendable (URL) throws -> Void {
    { dir in
        try put(cataloguePOIs, "pois.csv", in: dir)
        try put(catalogueLog(extra, meta: meta, rows: rows), "log.csv", in: dir)
    }
}

/// A valid 64×48 RGB PNG (zlib through gzip's deflate is not at hand, so stored blocks).
func smallPNG(width: Int = 64, height: Int = 48) -> Data {
    func be32(_ v: Int) -> [UInt8] { bigEndian32(UInt32(truncatingIfNeeded: v)) }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        return be32(body.count) + t + body + be32(Int(crc32(t + body)))
    }
    var raw: [UInt8] = []
    let row: [UInt8] = [0] + Array([[UInt8]](repeating: [0x50, 0x90, 0xC0], count: width).joined())
    for _ in 0..<height { raw += row }
    // zlib stream of stored deflate blocks (RFC 1950/1951), with its Adler-32.
    var z: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65535, raw.count - offset)
        let final: UInt8 = offset + n == raw.count ? 1 : 0
        let header: [UInt8] = [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
        z += header
        z += raw[offset..<offset + n]
        offset += n
    } while offset < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    z += be32(Int(b << 16 | a))
    let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", z) + chunk("IEND", []))
}

/// A PNG whose header says `width`×`height`, with a token of image data.
func pngHeader(width: Int, height: Int) -> Data {
    var png = smallPNG(width: 2, height: 2)
    png.replaceSubrange(16..<24, with: bigEndian32(UInt32(width)) + bigEndian32(UInt32(height)))
    png.replaceSubrange(29..<33, with: bigEndian32(crc32(Array(png[12..<29]))))
    return png
}

func bigEndian32(_ v: UInt32) -> [UInt8] {
    [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        c ^= UInt32(byte)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~c
}

/// A protobuf varint.
func varint(_ n: Int) -> [UInt8] {
    var n = n, out: [UInt8] = []
    repeat {
        let low = UInt8(n & 0x7F)
        n >>= 7
        out.append(n > 0 ? low | 0x80 : low)
    } while n > 0
    return out
}

/// An OSM PBF whose first BlobHeader announces a blob of `size` bytes, followed by 3 bytes.
func pbfAnnouncing(_ size: Int) -> Data {
    let header: [UInt8] = [0x0A, 0x09] + Array("OSMHeader".utf8) + [0x18] + varint(size)
    let length = header.count
    return Data([0, 0, UInt8(length >> 8), UInt8(length & 255)] + header + [1, 2, 3])
}

/// `text` gzip-compressed by the system's gzip.
func gzipped(_ text: String) throws -> Data {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "gzip -c"]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return data
}

let fixtureFolder = packageRoot.appendingPathComponent("Tests/Fixtures")
let lundStill = fixtureFolder.appendingPathComponent("stills/lund-01.jpg")
let walkCamera = #"{"width": 720, "height": 1280, "fx": 808.6, "fy": 808.6, "cx": 360.0, "cy": 640.0}"#

/// `replay log.csv --out out` with `more` arguments.
func replay(_ more: String...) -> [String] { ["replay", "log.csv", "--out", "out"] + more }

/// A replay with POI source `source` (made by `make`) instead of the log's.
func poiSourceCase(_ name: String, _ source: String, location: String, message: String,
                   make: @escaping @Sendable (URL) throws -> Void) -> BadInput {
    BadInput(name: name, make: { dir in try logCase([])(dir); try make(dir) },
             arguments: replay("--pois", source), location: location, message: message)
}

/// A replay over stills: frame rows at 0.3 s and 0.4 s (lines 9 and 10) showing `stills`.
func stillCase(_ name: String, _ stills: [String], location: String, message: String, more: [String] = [],
               make: @escaping @Sendable (URL) throws -> Void) -> BadInput {
    let rows = stills.enumerated().map { "0.\($0.offset + 3),frame,\($0.element),,," }
    return BadInput(name: name, make: { dir in try logCase(rows)(dir); try make(dir) },
                    arguments: replay() + more, location: location, message: message)
}

/// A replay with camera JSON `json` as cam.json.
/// The catalogue's log replayed with `--footage FOOTAGE` (and `more`), the footage made by `make`.
func footageCase(_ name: String, _ footage: String, more: [String] = [], location: String, message: String,
                 make: @escaping @Sendable (URL) throws -> Void) -> BadInput {
    BadInput(name: name, make: { dir in try logCase([])(dir); try make(dir) },
             arguments: replay("--footage", footage) + more, location: location, message: message)
}

func cameraCase(_ name: String, _ json: String, location: String, message: String, stills: Bool = false) -> BadInput {
    BadInput(name: name, make: { dir in
        try logCase(stills ? ["0.3,frame,still.png,,,"] : [])(dir)
        try put(json, "cam.json", in: dir)
        if stills { try put(smallPNG(), "still.png", in: dir) }
    }, arguments: replay("--camera", "cam.json"), location: location, message: message)
}

// MARK: - The catalogue

enum BadInputCatalogue {
    static let logs: [BadInput] = [
        BadInput(name: "log: empty file", make: { try put("", "log.csv", in: $0) },
                 arguments: replay("--pois", "log.csv"), location: #"log\.csv"#, message: "empty file, expected a poiar-log/1 log"),
        BadInput(name: "log: an MP4 file with no more than its ftyp box",
                 make: { try put(Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 16)), "clip.mp4", in: $0) },
                 arguments: ["replay", "clip.mp4", "--pois", "pois.csv", "--out", "out"], location: #"clip\.mp4"#,
                 message: "is an MP4/MOV whose index (its moov box) cannot be read"),
        BadInput(name: "log: a video without GoPro telemetry (an MP4 without a gpmd track)",
                 make: { try put(minimalMP4WithoutTelemetry(), "phone.mp4", in: $0) },
                 arguments: ["replay", "phone.mp4", "--pois", "pois.csv", "--out", "out"], location: #"phone\.mp4"#,
                 message: "no GPMF telemetry track (GoPro's gpmd): give a sensor log and this clip as --footage"),
        BadInput(name: "log: a GoPro clip cut short (its index lost)",
                 make: { dir in
                     let clip = try Data(contentsOf: sampleLogs.appendingPathComponent("gopro-walk.mp4"))
                     try put(clip.prefix(clip.count - 1000), "cut.mp4", in: dir)
                 },
                 arguments: ["pose", "cut.mp4", "--out", "out"], location: #"cut\.mp4"#, message: "cannot be read (", status: 1),
        BadInput(name: "log: metadata and header, no rows", make: logCase([]) >> { try put(catalogueLog(rows: []), "log.csv", in: $0) },
                 arguments: replay(), location: #"log\.csv"#, message: "no frames: the log has no samples to replay"),
        BadInput(name: "log: wrong header", make: { dir in try put("# pois: pois.csv\ntime,sensor,x,y\n0,gyro,0,0\n", "log.csv", in: dir) },
                 arguments: replay(), location: #"log\.csv:2"#, message: "unknown column layout \"time,sensor,x,y\""),
        BadInput(name: "log: data row before the header", make: { try put("# pois: pois.csv\n0.0,gyro,0,0,0,\n", "log.csv", in: $0) },
                 arguments: replay(), location: #"log\.csv:2"#, message: "data row before the header"),
        BadInput(name: "log: a missing column", make: logCase(["0.7,gyro,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9"#, message: "expected 6 columns (time,sensor,x,y,z,accuracy), found 5"),
        BadInput(name: "log: an extra column", make: logCase(["0.7,gyro,0,0,0,,1"]),
                 arguments: replay(), location: #"log\.csv:9"#, message: "found 7"),
        BadInput(name: "log: a value that is not a number", make: logCase(["0.7,gyro,0,abc,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(y\)"#, message: "\"abc\" is not a number"),
        BadInput(name: "log: a time that is not a number", make: logCase(["t1,gyro,0,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(time\)"#, message: "\"t1\" is not a number"),
        BadInput(name: "log: NaN", make: logCase(["0.7,accel,nan,9.8,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(x\)"#, message: "value must be finite, found nan"),
        BadInput(name: "log: infinite time", make: logCase(["inf,gyro,0,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(time\)"#, message: "time must be finite"),
        BadInput(name: "log: a number too large for a double (1e999)", make: logCase(["0.7,mag,1e999,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(x\)"#, message: "value must be finite"),
        BadInput(name: "log: time going back within a sensor", make: logCase(["0.2,gyro,0,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(time\)"#, message: "gyro time steps back from 0.5 (line 8) to 0.2"),
        BadInput(name: "log: a row more than 5 s older than rows handed on", make: logCase(["7.0,gyro,0,0,0,", "12.5,gyro,0,0,0,", "1.0,accel,0,9.8,0,"]),
                 arguments: replay(), location: #"log\.csv:11 \(time\)"#, message: "time 1.0 is more than 5.0 s before rows already read"),
        BadInput(name: "log: a two-hour jump", make: logCase(["7200.5,gyro,0,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(time\)"#, message: "time jumps 7200.0 s from 0.5 (line 8) to 7200.5"),
        BadInput(name: "log: GPS rows on the Unix clock", make: logCase(["1750000000.0,gps,60.16787,24.94926,20,5"]),
                 arguments: replay(), location: #"log\.csv:9 \(time\)"#, message: "two recordings joined, or rows on different clocks"),
        BadInput(name: "log: a GPS fix at latitude 91", make: logCase(["0.7,gps,91,24.9,20,5"]),
                 arguments: replay(), location: #"log\.csv:9 \(x \(latitude\)\)"#, message: "latitude 91.0 is outside −90…90°"),
        BadInput(name: "log: a GPS fix at longitude 181", make: logCase(["0.7,gps,60.1,181,20,5"]),
                 arguments: replay(), location: #"log\.csv:9 \(y \(longitude\)\)"#, message: "longitude 181.0 is outside"),
        BadInput(name: "log: a negative GPS accuracy", make: logCase(["0.7,gps,60.1,24.9,20,-3"]),
                 arguments: replay(), location: #"log\.csv:9 \(accuracy\)"#, message: "horizontal accuracy must be ≥ 0 m"),
        BadInput(name: "log: gzip cut short", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     try put(try gzipped(catalogueLog()).prefix(60), "log.csv.gz", in: dir)
                 }, arguments: ["replay", "log.csv.gz", "--out", "out"], location: #"log\.csv\.gz:\d+"#,
                 message: "gzip data is truncated"),
        BadInput(name: "log: gzip magic, corrupt stream", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     try put(Data([0x1F, 0x8B, 0x08, 0x00] + Array("garbage garbage garbage".utf8)), "log.csv.gz", in: dir)
                 }, arguments: ["replay", "log.csv.gz", "--out", "out"], location: #"log\.csv\.gz:1"#, message: "read failed"),
        BadInput(name: "log: named .gz, not gzip (nor a log)", make: { try put("hello,world\n", "log.csv.gz", in: $0) },
                 arguments: ["replay", "log.csv.gz", "--out", "out", "--pois", "log.csv.gz"], location: #"log\.csv\.gz:1"#,
                 message: "unknown column layout \"hello,world\""),
        BadInput(name: "log: CRLF line ends keep line numbers and values", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     try put(catalogueLog(["0.7,gyro,0,x,0,"]).replacingOccurrences(of: "\n", with: "\r\n"), "log.csv", in: dir)
                 }, arguments: replay(), location: #"log\.csv:9 \(y\)"#, message: "\"x\" is not a number"),
        BadInput(name: "log: a UTF-8 byte-order mark", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     try put("\u{FEFF}" + catalogueLog(["0.7,gyro,0,x,0,"]), "log.csv", in: dir)
                 }, arguments: replay(), location: #"log\.csv:9 \(y\)"#, message: "\"x\" is not a number"),
        BadInput(name: "log: a 10 MB line", make: logCase([String(repeating: "a", count: 10 << 20)]),
                 arguments: replay(), location: #"log\.csv:9"#, message: "line longer than 1048576 bytes"),
        BadInput(name: "log: an unknown format", make: logCase([], meta: ["# format: poiar-log/2", "# pois: pois.csv"]),
                 arguments: replay(), location: #"log\.csv \(format\)"#, message: "unsupported format \"poiar-log/2\""),
        BadInput(name: "log: gyro in °/s", make: logCase(["0.7,gyro,57.3,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(x\)"#, message: "expected rad/s (is it °/s?)"),
        BadInput(name: "log: magnetometer in nT", make: logCase(["0.7,mag,20000,0,-40000,"]),
                 arguments: replay(), location: #"log\.csv:9 \(x\)"#, message: "expected µT (is it nT?)"),
        BadInput(name: "log: a frame row with more than a path", make: logCase(["0.7,frame,a.png,1,,"]),
                 arguments: replay(), location: #"log\.csv:9 \(y\)"#, message: "frame rows have only a still path"),
        BadInput(name: "log: no sensor name", make: logCase(["0.7,,0,0,0,"]),
                 arguments: replay(), location: #"log\.csv:9 \(sensor\)"#, message: "missing sensor name"),
        BadInput(name: "log: a hard-iron line without three numbers", make: logCase([], meta: ["# pois: pois.csv", "# mag_hard_iron_ut: 1, 2"]),
                 arguments: replay(), location: #"log\.csv \(mag_hard_iron_ut\)"#, message: "expected three numbers"),
        BadInput(name: "log: no usable GPS fix", make: logCase([], rows: catalogueRows.map { $0.hasSuffix(",5") ? "0.0,gps,60.16787,24.94926,20,500" : $0 }),
                 arguments: replay(), location: #"log\.csv"#, message: "no usable GPS fix"),
        BadInput(name: "log: no such file", make: { try put(cataloguePOIs, "pois.csv", in: $0) },
                 arguments: ["replay", "nope.csv", "--out", "out", "--pois", "pois.csv"], location: #"nope\.csv"#, message: "no such file"),
        BadInput(name: "pose: a bad row writes no pose file", make: logCase(["0.7,gyro,0,x,0,"]) >> { try put("", "posed/keep", in: $0) },
                 arguments: ["pose", "log.csv", "--out", "posed/pose.csv"], location: #"log\.csv:9 \(y\)"#,
                 message: "\"x\" is not a number", absent: ["posed/pose.csv"]),
    ]

    static let poiSources: [BadInput] = [
        poiSourceCase("POIs: PBF cut short", "slice.osm.pbf", location: #"slice\.osm\.pbf \(blob 2 at byte offset \d+\)"#,
                      message: "truncated OSM PBF") { dir in
            try put(try Data(contentsOf: fixtureFolder.appendingPathComponent("osm/helsinki-slice.osm.pbf")).prefix(3000), "slice.osm.pbf", in: dir)
        },
        poiSourceCase("POIs: PBF BlobHeader size out of range", "bad.osm.pbf", location: #"bad\.osm\.pbf \(blob 1 at byte offset 0\)"#,
                      message: "BlobHeader size 2147483647 is out of range") { dir in
            try put(Data([0x7F, 0xFF, 0xFF, 0xFF, 0, 0]), "bad.osm.pbf", in: dir)
        },
        poiSourceCase("POIs: PBF blob larger than the file", "bad.osm.pbf", location: #"bad\.osm\.pbf \(blob 1 at byte offset 0\)"#,
                      message: "the OSMHeader blob needs 1000000 bytes, 3 left") { dir in
            try put(pbfAnnouncing(1_000_000), "bad.osm.pbf", in: dir)
        },
        poiSourceCase("POIs: PBF blob size over 32 MiB", "bad.osm.pbf", location: #"bad\.osm\.pbf \(blob 1 at byte offset 0\)"#,
                      message: "blob size 67108864 is out of range") { dir in
            try put(pbfAnnouncing(64 << 20), "bad.osm.pbf", in: dir)
        },
        poiSourceCase("POIs: JSON cut short", "cut.json", location: #"cut\.json:1"#,
                      message: "invalid JSON: unexpected end of file") { dir in
            try put(#"{"elements": [{"type": "node", "id": 1, "lat": 60.1675, "lon": 24.9495}, {"type": "no"#, "cut.json", in: dir)
        },
        poiSourceCase("POIs: a JSON syntax error on line 3", "bad.geojson", location: #"bad\.geojson:3"#,
                      message: "invalid JSON: unexpected '}'") { dir in
            try put("{\n \"type\": \"FeatureCollection\",\n \"features\": [}\n", "bad.geojson", in: dir)
        },
        poiSourceCase("POIs: JSON of no known kind", "other.json", location: #"other\.json"#, message: "unrecognised JSON") { dir in
            try put(#"{"foo": 1}"#, "other.json", in: dir)
        },
        poiSourceCase("POIs: GeoJSON with an empty geometry", "empty.geojson",
                      location: #"empty\.geojson \(features\[0\]\.geometry\.coordinates\)"#, message: "expected a linear ring") { dir in
            try put(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","properties":{"amenity":"cafe"},"geometry":{"type":"Polygon","coordinates":[]}}]}"#,
                    "empty.geojson", in: dir)
        },
        poiSourceCase("POIs: GeoJSON point off the globe", "far.geojson",
                      location: #"far\.geojson \(features\[0\]\.geometry\.coordinates\)"#, message: "out of range (expected [lon, lat])") { dir in
            try put(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","properties":{"amenity":"cafe"},"geometry":{"type":"Point","coordinates":[24.9,95]}}]}"#,
                    "far.geojson", in: dir)
        },
        // Inputs the fuzzers found crashing poiar (docs/robustness.md, "Runs and findings").
        poiSourceCase("POIs (fuzz finding): OSM XML declaring UTF-7, then bytes that do not decode (libxml2 segfaulted)",
                      "f.osm", location: #"f\.osm:1 \(encoding\)"#, message: "encoding \"UTF-7\" is not supported") { dir in
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("fuzz/osmxml/utf-7-declaration-segfault.osm"),
                                             to: dir.appendingPathComponent("f.osm"))
        },
        poiSourceCase("POIs (fuzz finding): OSM XML of a processing instruction without data (FoundationXML segfaulted)",
                      "f.osm", location: #"f\.osm:1"#, message: "malformed XML") { dir in
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("fuzz/osmxml/processing-instruction-without-data.osm"),
                                             to: dir.appendingPathComponent("f.osm"))
        },
        poiSourceCase("POIs: Places answer OVER_QUERY_LIMIT", "places.json", location: #"places\.json \(status\)"#,
                      message: "OVER_QUERY_LIMIT") { dir in
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("web/google-over-query-limit.json"),
                                             to: dir.appendingPathComponent("places.json"))
        },
        poiSourceCase("POIs: Places answer REQUEST_DENIED", "places.json", location: #"places\.json \(status\)"#,
                      message: "REQUEST_DENIED") { dir in
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("web/google-request-denied.json"),
                                             to: dir.appendingPathComponent("places.json"))
        },
        poiSourceCase("POIs: CSV with a latitude that is not a number", "bad.csv", location: #"bad\.csv:3 \(lat\)"#,
                      message: "expected a finite number, got \"abc\"") { dir in
            try put("id,name,category,lat,lon\n1,A,cafe,60.1,24.9\n2,B,cafe,abc,24.9\n", "bad.csv", in: dir)
        },
        poiSourceCase("POIs: OSM XML with a mismatched end tag", "bad.osm", location: #"bad\.osm:5"#,
                      message: "malformed XML: an end tag does not match the open element") { dir in
            try put("<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n<node id=\"1\" lat=\"60.1\" lon=\"24.9\">\n<tag k=\"amenity\" v=\"cafe\"/>\n</osm>\n",
                    "bad.osm", in: dir)
        },
        poiSourceCase("POIs: bzip2 cut short", "cut.osm.bz2", location: #"cut\.osm\.bz2"#, message: "bzip2 data is truncated") { dir in
            try put(try Data(contentsOf: fixtureFolder.appendingPathComponent("osm/West-Oakland.osm.bz2")).prefix(2000), "cut.osm.bz2", in: dir)
        },
        poiSourceCase("POIs: no such source", "nope.osm", location: #"nope\.osm"#, message: "no such POI source") { _ in },
        // Sources from the wild (issue 15).
        poiSourceCase("POIs: an Overpass XML answer that timed out", "answer.osm", location: #"answer\.osm:4 \(remark\)"#,
                      message: "Overpass did not finish the query: runtime error: Query timed out") { dir in
            try put("<?xml version=\"1.0\"?>\n<osm version=\"0.6\" generator=\"Overpass API\">\n<node id=\"1\" lat=\"60.1675\" lon=\"24.9495\"><tag k=\"amenity\" v=\"cafe\"/></node>\n<remark> runtime error: Query timed out in \"query\" at line 3 after 26 seconds. </remark>\n</osm>\n",
                    "answer.osm", in: dir)
        },
        poiSourceCase("POIs: an Overpass JSON answer out of memory", "answer.json", location: #"answer\.json \(remark\)"#,
                      message: "Overpass did not finish the query: runtime error: Query ran out of memory") { dir in
            try put(#"{"elements":[{"type":"node","id":1,"lat":60.1675,"lon":24.9495,"tags":{"amenity":"cafe"}}],"remark":"runtime error: Query ran out of memory in \"query\" at line 1."}"#,
                    "answer.json", in: dir)
        },
        poiSourceCase("POIs: an Overpass element whose center is not numbers", "answer.json",
                      location: #"answer\.json \(elements\[0\]\.center\)"#, message: "expected numeric lat and lon") { dir in
            try put(#"{"elements":[{"type":"way","id":1,"center":{"lat":"north","lon":24.9},"tags":{"amenity":"cafe"}}]}"#, "answer.json", in: dir)
        },
        poiSourceCase("POIs: a GeoJSONSeq feature with one coordinate, on line 2", "seq.geojson",
                      location: #"seq\.geojson:2 \(features\[1\]\.geometry\.coordinates\)"#, message: "expected a position [lon, lat]") { dir in
            try put("\u{1E}{\"type\":\"Feature\",\"properties\":{\"amenity\":\"cafe\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[24.9495,60.1675]}}\n"
                    + "\u{1E}{\"type\":\"Feature\",\"properties\":{\"amenity\":\"cafe\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[24.9]}}\n",
                    "seq.geojson", in: dir)
        },
        poiSourceCase("POIs: a semicolon CSV without a longitude column", "pois.csv", location: #"pois\.csv:1 \(header\)"#,
                      message: "missing column(s) lon") { dir in
            try put("id;name;category;latitude;easting\n1;Kappeli;cafe;60.1675;24.9495\n", "pois.csv", in: dir)
        },
        poiSourceCase("POIs: a Places (New) place with a location that is not numbers", "place.json",
                      location: #"place\.json \(place\.location\)"#, message: "expected numeric latitude and longitude") { dir in
            try put(#"{"id":"ChIJ1","displayName":{"text":"Kappeli"},"types":["cafe"],"location":{"latitude":"60.1675","longitude":24.9495}}"#,
                    "place.json", in: dir)
        },
    ]

    static let stills: [BadInput] = [
        stillCase("stills: a missing still", ["missing.png"], location: #"log\.csv:9 \(x \(still\)\)"#,
                  message: "missing.png does not exist") { _ in },
        stillCase("stills: a truncated PNG after a good one", ["ok.png", "cut.png"], location: #"cut\.png"#,
                  message: "not a readable PNG: file is truncated") { dir in
            try put(smallPNG(), "ok.png", in: dir)
            try put(smallPNG().prefix(100), "cut.png", in: dir)
        },
        stillCase("stills: a truncated JPEG after a good one", ["ok.jpg", "cut.jpg"], location: #"cut\.jpg"#,
                  message: "not a readable JPEG: file is truncated (the image data has no end marker) (still of log.csv:10)") { dir in
            let jpeg = try Data(contentsOf: lundStill)
            try put(jpeg, "ok.jpg", in: dir)
            try put(jpeg.prefix(jpeg.count / 2), "cut.jpg", in: dir)
        },
        stillCase("stills: a text file named .png", ["text.png"], location: #"text\.png"#,
                  message: "not a PNG or JPEG image (unrecognised first bytes") { dir in
            try put("not an image\n", "text.png", in: dir)
        },
        stillCase("stills: an empty file", ["empty.jpg"], location: #"empty\.jpg"#, message: "image file is empty") { dir in
            try put(Data(), "empty.jpg", in: dir)
        },
        stillCase("stills: 30000×30000 pixels", ["ok.png", "huge.png"], location: #"huge\.png"#,
                  message: "image is 30000×30000 pixels, over the limit of 100 megapixels (still of log.csv:10)") { dir in
            try put(smallPNG(), "ok.png", in: dir)
            try put(pngHeader(width: 30000, height: 30000), "huge.png", in: dir)
        },
        stillCase("stills: over --max-still-pixels", ["ok.png"], location: #"ok\.png"#,
                  message: "image is 64×48 pixels, over the limit of 3000 pixels", more: ["--max-still-pixels", "3000"]) { dir in
            try put(smallPNG(), "ok.png", in: dir)
        },
        stillCase("stills: a path with .. out of the folder", ["../outside.png"], location: #"log\.csv:9 \(x \(still\)\)"#,
                  message: "still path \"../outside.png\" leaves the log's folder") { _ in },
        stillCase("stills: an absolute path", ["/etc/passwd"], location: #"log\.csv:9 \(x \(still\)\)"#,
                  message: "still path \"/etc/passwd\" leaves the log's folder") { _ in },
        stillCase("stills: a symbolic link out of the folder", ["link.png"], location: #"log\.csv:9 \(x \(still\)\)"#,
                  message: "still path \"link.png\" leaves the log's folder") { dir in
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.png").path, withDestinationPath: "/etc/passwd")
        },
        stillCase("stills: a folder", ["sub"], location: #"log\.csv:9 \(x \(still\)\)"#, message: "does not exist") { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        },
    ]

    static let cameras: [BadInput] = [
        cameraCase("camera: fx = 0", #"{"width": 720, "height": 1280, "fx": 0, "fy": 808.6, "cx": 360, "cy": 640}"#,
                   location: #"cam\.json \(fx\)"#, message: "focal length must be > 0 px, found 0.0"),
        cameraCase("camera: fy < 0", #"{"width": 720, "height": 1280, "fx": 808.6, "fy": -1, "cx": 360, "cy": 640}"#,
                   location: #"cam\.json \(fy\)"#, message: "focal length must be > 0 px, found -1.0"),
        cameraCase("camera: size not the stills' aspect ratio", walkCamera, location: #"cam\.json \(width/height\)"#,
                   message: "the camera is 720×1280 but the stills are 64×48", stills: true),
        cameraCase("camera: a JSON syntax error on line 2", "{\"width\": 720, \"height\": 1280,\n \"fx\": 800 \"fy\": 800}",
                   location: #"cam\.json:2"#, message: "not valid JSON: unexpected '\"' at column 12"),
        cameraCase("camera: a missing key", #"{"width": 720, "height": 1280, "fx": 800, "fy": 800, "cx": 360}"#,
                   location: #"cam\.json \(cy\)"#, message: "missing"),
        cameraCase("camera: a width that is not whole", #"{"width": 720.5, "height": 1280, "fx": 800, "fy": 800, "cx": 360, "cy": 640}"#,
                   location: #"cam\.json \(width\)"#, message: "expected a whole number of pixels"),
        BadInput(name: "camera: no such file", make: logCase([]), arguments: replay("--camera", "nope.json"),
                 location: #"nope\.json"#, message: "cannot read the camera file"),
    ]

    /// `--footage`: the camera images of any log (docs/footage.md). The catalogue's log spans
    /// 0…0.5 s; its `start_utc` is added where stills named by capture time need it.
    static let footage: [BadInput] = [
        footageCase("footage: a still whose name is no capture time", "stills", location: #"stills/IMG_0001\.jpg"#,
                    message: "the name is not a capture time") { dir in try put("x", "stills/IMG_0001.jpg", in: dir) },
        footageCase("footage: two stills with the same capture time", "stills", location: #"stills/1749895331000\.png"#,
                    message: "has the same capture time as 1749895331000.jpg") { dir in
            try put("x", "stills/1749895331000.jpg", in: dir)
            try put("x", "stills/1749895331000.png", in: dir)
        },
        footageCase("footage: a folder without stills", "stills", location: #"stills"#, message: "no stills (.jpg, .jpeg, .png") { dir in
            try put("notes", "stills/README.txt", in: dir)
        },
        footageCase("footage: stills by capture time, a log without start_utc", "stills", location: #"stills"#,
                    message: "the log has no start_utc to place them: give --footage-offset") { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("stills"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent("stills/lund-01.jpg"),
                                             to: dir.appendingPathComponent("stills/1749895331200.jpg"))
        },
        footageCase("footage: a clip cut short (its index lost)", "cut.mp4", location: #"cut\.mp4"#, message: "cannot be read (") { dir in
            let clip = try Data(contentsOf: sampleLogs.appendingPathComponent("gopro-walk.mp4"))
            try put(clip.prefix(200_000), "cut.mp4", in: dir)
        },
        footageCase("footage: a file that is not a video", "notes.mp4", location: #"notes\.mp4"#,
                    message: "not a video file libavformat can read") { dir in try put("just text", "notes.mp4", in: dir) },
        footageCase("footage: an offset that leaves no frame within the log", "clip.mp4", more: ["--footage-offset", "100"],
                    location: #"clip\.mp4"#, message: "no footage frame falls within the log") { dir in
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("clip.mp4"),
                                                       withDestinationURL: sampleLogs.appendingPathComponent("gopro-walk.mp4"))
        },
        footageCase("footage: no such file", "missing.mp4", location: #"missing\.mp4"#, message: "no such file or folder") { _ in },
    ]

    static let databases: [BadInput] = [
        BadInput(name: "DB: a corrupt file", make: { dir in
                     try logCase([])(dir)
                     try put(Data("SQLite format 3\0".utf8) + Data(repeating: 0xAB, count: 2000), "corrupt.sqlite", in: dir)
                 }, arguments: replay("--pois", "corrupt.sqlite"), location: #"corrupt\.sqlite"#, message: "not a poiar POI database"),
        BadInput(name: "DB: a newer schema", make: { dir in
                     try logCase([])(dir)
                     let db = try POIDatabase(path: dir.appendingPathComponent("new.sqlite").path)
                     try db.setMetaValue("99", forKey: "schema_version")
                     try db.close()
                 }, arguments: replay("--pois", "new.sqlite"), location: #"new\.sqlite \(schema_version\)"#,
                 message: "POI database schema version 99 is newer than this poiar supports"),
        BadInput(name: "DB: read-only, imported into", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     let path = dir.appendingPathComponent("ro.sqlite").path
                     try POIDatabase(path: path).close()
                     try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
                 }, arguments: ["pois", "import", "pois.csv", "--db", "ro.sqlite"], location: #"ro\.sqlite"#,
                 message: "the POI database is read-only", absent: ["ro.sqlite-journal", "ro.sqlite-wal"]),
        BadInput(name: "DB: a query of a missing database", make: { _ in },
                 arguments: ["pois", "query", "--db", "nope.sqlite", "--near", "60.1,24.9"], location: #"nope\.sqlite"#,
                 message: "no such POI source", absent: ["nope.sqlite"]),
    ]

    /// `--buildings SOURCE` (replay, project and map share it).
    static let buildings: [BadInput] = [
        BadInput(name: "buildings: no such file", make: logCase([]), arguments: replay("--buildings", "nope.osm.pbf"),
                 location: #"nope\.osm\.pbf"#, message: "no such building source", absent: ["out", "nope.osm.pbf.poiar.sqlite"]),
        BadInput(name: "buildings: a folder", make: logCase([]) >> { try FileManager.default.createDirectory(at: $0.appendingPathComponent("dir"), withIntermediateDirectories: true) },
                 arguments: replay("--buildings", "dir"), location: #"dir"#, message: "is a folder, expected a poiar database or a building source file"),
        BadInput(name: "buildings: not OSM data (a POI CSV)", make: logCase([]), arguments: replay("--buildings", "pois.csv"),
                 location: #"pois\.csv"#, message: "is CSV, not OSM data: --buildings reads OSM PBF, OSM XML or Overpass JSON"),
        BadInput(name: "buildings: a PBF cut short", make: logCase([]) >> { dir in
                     try put(try Data(contentsOf: fixtureFolder.appendingPathComponent("osm/helsinki-buildings.osm.pbf")).prefix(2000), "b.osm.pbf", in: dir)
                 }, arguments: replay("--buildings", "b.osm.pbf"), location: #"b\.osm\.pbf \(blob \d+ at byte offset \d+\)"#,
                 message: "truncated OSM PBF", absent: ["out", "b.osm.pbf.poiar.sqlite"]),
        BadInput(name: "buildings: malformed OSM XML", make: logCase([]) >> { try put("<osm version=\"0.6\">\n<way id=\"1\">\n</osm>\n", "b.osm", in: $0) },
                 arguments: ["project", "--at", "60.1679,24.9493", "--heading", "0", "--pitch", "0", "--size", "64x48", "--hfov", "60",
                             "--pois", "pois.csv", "--buildings", "b.osm"],
                 location: #"b\.osm:3"#, message: "malformed XML", absent: ["b.osm.poiar.sqlite"]),
        BadInput(name: "buildings: not a poiar database", make: logCase([]) >> { dir in
                     try put(Data("SQLite format 3\0".utf8) + Data(repeating: 0xAB, count: 2000), "b.sqlite", in: dir)
                 }, arguments: ["map", "log.csv", "--out", "map.png", "--buildings", "b.sqlite"], location: #"b\.sqlite"#,
                 message: "not a poiar POI database", absent: ["map.png"]),
        BadInput(name: "buildings: --scene map without any", make: logCase([]), arguments: replay("--scene", "map"),
                 location: #"log\.csv"#, message: "--scene map draws buildings, and there are none"),
        BadInput(name: "buildings: --overlay buildings without any", make: logCase([]),
                 arguments: ["project", "--at", "60.1679,24.9493", "--heading", "0", "--pitch", "0", "--size", "64x48", "--hfov", "60",
                             "--pois", "pois.csv", "--overlay", "buildings", "--png", "p.png"],
                 location: #"pois\.csv"#, message: "--overlay buildings draws buildings, and there are none", absent: ["p.png"]),
    ]

    /// Paths a log names must stay in its folder (docs/security.md).
    static let logPaths: [BadInput] = [
        BadInput(name: "paths: # pois: out of the log's folder", make: { dir in
                     try put(cataloguePOIs, "pois.csv", in: dir)
                     try put(catalogueLog(meta: ["# pois: ../pois.csv"]), "sub/log.csv", in: dir)
                 }, arguments: ["replay", "sub/log.csv", "--out", "out", "--hfov", "60"], location: #"sub/log\.csv \(pois\)"#,
                 message: "the log's path \"../pois.csv\" leaves the log's folder", absent: ["out", "pois.csv.poiar.sqlite"]),
        BadInput(name: "paths: # camera: absolute", make: logCase([], meta: ["# pois: pois.csv", "# camera: /etc/hostname"]),
                 arguments: replay(), location: #"log\.csv \(camera\)"#, message: "the log's path \"/etc/hostname\" leaves the log's folder"),
        BadInput(name: "paths: # stills: a link out of the folder", make: { dir in
                     try logCase(["0.3,frame,passwd,,,"], meta: ["# pois: pois.csv", "# stills: etc"])(dir)
                     try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("etc").path, withDestinationPath: "/etc")
                 }, arguments: replay("--hfov", "60"), location: #"log\.csv \(stills\)"#, message: "the log's path \"etc\" leaves the log's folder"),
        BadInput(name: "output: --out is a file", make: logCase([]) >> { try put("", "out", in: $0) },
                 arguments: replay(), location: #"out"#, message: "is a file, not a folder: --out names the output folder", absent: []),
    ]

    static let all = logs + poiSources + stills + cameras + footage + databases + buildings + logPaths
}

/// Runs two makers in turn.
func >> (a: @escaping @Sendable (URL) throws -> Void, b: @escaping @Sendable (URL) throws -> Void) -> @Sendable (URL) throws -> Void {
    { try a($0); try b($0) }
}

// MARK: - The suite

@Suite("Bad-input catalogue")
struct BadInputCatalogueTests {
    @Test func theCatalogueHasAtLeastFiftyCasesWithDistinctNames() {
        #expect(BadInputCatalogue.all.count >= 50)
        #expect(Set(BadInputCatalogue.all.map(\.name)).count == BadInputCatalogue.all.count)
    }

    @Test(arguments: BadInputCatalogue.all)
    func refused(_ c: BadInput) throws {
        let dir = try makeTempDir("poiar-bad-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        try c.make(dir)
        let before = try allFiles(in: dir)
        let result = try runPoiar(c.arguments, cwd: dir)
        try expectRefused(c, result, dir: dir, before: before)
    }

    /// A database another process is writing to: the import waits its busy timeout (5 s),
    /// then says so; nothing is added.
    @Test func aLockedDatabase() throws {
        let dir = try makeTempDir("poiar-bad-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        try put(cataloguePOIs, "pois.csv", in: dir)
        let path = dir.appendingPathComponent("locked.sqlite").path
        let holder = try POIDatabase(path: path)
        let c = BadInput(name: "DB: locked by another process", make: { _ in }, arguments: ["pois", "import", "pois.csv", "--db", "locked.sqlite"],
                         location: #"locked\.sqlite"#, message: "the database is locked by another process", absent: [])
        let before = try allFiles(in: dir)
        var result: RunResult?
        try holder.write { db in
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('holding', 'the write lock')")
            result = try runPoiar(c.arguments, cwd: dir)
        }
        try expectRefused(c, try #require(result), dir: dir, before: before.filter { !$0.hasPrefix("locked.sqlite-") })
        #expect(try holder.count() == 0)
    }

    /// Inputs next to the catalogue's that are fine: a GeoJSON polygon with a hole is a POI
    /// at its outer ring's centroid, a feature without geometry is skipped with a count, and
    /// a 600 s pause is not a jump.
    @Test func nearMissesAreAccepted() throws {
        let dir = try makeTempDir("poiar-bad-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        try put(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"h","properties":{"amenity":"cafe","name":"Holed"},"geometry":{"type":"Polygon","coordinates":[[[24.94,60.16],[24.95,60.16],[24.95,60.17],[24.94,60.16]],[[24.946,60.162],[24.948,60.162],[24.948,60.164],[24.946,60.162]]]}},{"type":"Feature","id":"n","properties":{"amenity":"cafe"},"geometry":null}]}"#,
                "holes.geojson", in: dir)
        try put(catalogueLog(["600.5,gyro,0,0,0,"], meta: ["# pois: holes.geojson", "# camera_hfov_deg: 60"]), "log.csv", in: dir)
        let result = try runPoiar(["replay", "log.csv", "--out", "out", "--fps", "0.01", "--size", "320x240"], cwd: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 new, 0 updated POIs; skipped 1 (no geometry: 1)"))
        let frames = try ManifestReader.frames(dir.appendingPathComponent("out/frames.jsonl"))
        #expect(frames.count == 7)  // 0, 100, …, 600 s
        let ids = frames[0].annotations.map(\.id)
        #expect(ids == ["geojson:h"])
    }

    /// `pois query --limit N` never prints more than N POIs, and exactly N when more are in
    /// range (nearest first); without --limit, all of them.
    @Test func aQueryNeverReturnsMoreThanItsLimit() throws {
        let dir = try makeTempDir("poiar-bad-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: sampleLogs.appendingPathComponent("helsinki-esplanadi.osm"),
                                         to: dir.appendingPathComponent("pois.osm"))
        func count(_ extra: [String]) throws -> [Double] {
            let r = try runPoiar(["pois", "query", "--db", "pois.osm", "--near", "60.16787,24.94926", "--radius", "2000"] + extra, cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
            return array.compactMap { $0["distance_m"] as? Double }
        }
        let all = try count([])
        #expect(all.count > 1000)
        for limit in [0, 1, 7, 100, 5000] {
            let got = try count(["--limit", String(limit)])
            #expect(got.count == min(limit, all.count), "--limit \(limit): \(got.count)")
            #expect(got == Array(all.prefix(limit)))
        }
    }

    // MARK: Checks

    func expectRefused(_ c: BadInput, _ result: RunResult, dir: URL, before: Set<String>,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.status == c.status, "\(c.name): exit status \(result.status)\n\(result.stderr)", sourceLocation: sourceLocation)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("poiar: error: ") }
        #expect(errors.count == 1, "\(c.name): \(errors.count) error lines\n\(result.stderr)", sourceLocation: sourceLocation)
        let pattern = "^poiar: error: (.*/)?" + c.location + ": .*" + NSRegularExpression.escapedPattern(for: c.message)
        let regex = try NSRegularExpression(pattern: pattern)
        let line = String(errors.first ?? "")
        let matched = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        #expect(matched, "\(c.name): expected /\(c.location): …\(c.message)…/, got: \(line)", sourceLocation: sourceLocation)
        // Nothing half-written: no temporary files, nothing the run should not have made.
        let after = try allFiles(in: dir)
        let temporaries = after.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.hasPrefix(".") || name.hasSuffix(".tmp") || name.hasSuffix("-journal")
        }
        #expect(temporaries.isEmpty, "\(c.name): temporary files left: \(temporaries)", sourceLocation: sourceLocation)
        for path in c.absent {
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path),
                    "\(c.name): \(path) was written", sourceLocation: sourceLocation)
        }
        // Besides a POI cache (a whole database, renamed into place), no new files.
        let new = after.subtracting(before).filter { !$0.hasSuffix(".poiar.sqlite") }
        #expect(new.isEmpty, "\(c.name): new files \(new.sorted())", sourceLocation: sourceLocation)
    }

    /// Every file and folder under `dir`, relative to it (symbolic links not followed).
    func allFiles(in dir: URL) throws -> Set<String> {
        var out = Set<String>()
        var stack = [""]
        while let rel = stack.popLast() {
            let url = rel.isEmpty ? dir : dir.appendingPathComponent(rel)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                let child = rel.isEmpty ? name : rel + "/" + name
                out.insert(child)
                var isDir: ObjCBool = false
                let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(child).path)
                if attributes[.type] as? FileAttributeType == .typeDirectory,
                   FileManager.default.fileExists(atPath: dir.appendingPathComponent(child).path, isDirectory: &isDir) {
                    stack.append(child)
                }
            }
        }
        return out
    }
}
