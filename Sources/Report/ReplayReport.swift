import Evaluation
import Foundation
import Manifest
import POIARCore
import POIStore

/// `poiar report OUT_DIR` and `replay --report`: one self-contained `report.html` beside a
/// replay's frames (`ReportPage`: inline CSS, JavaScript and SVG, no network; the frames
/// referenced by their file names), made from the folder's `frames.jsonl` alone, so the report
/// of a finished folder is the same however it was made (one run, `--resume`, merged shards).
///
/// Per frame it takes the time, the image, the position and its accuracy, the pose's angles,
/// the cards drawn (single and cluster cards, as the run's `labels:` line counts them), the
/// POIs in view behind buildings, and the names on the cards; with a truth (`--truth`, a
/// pose CSV or a phone's own orientation as `poiar evaluate` reads it), the heading and
/// inclination errors of each frame's pose against the truth's row nearest in time.
public enum ReplayReport {
    public static let fileName = "report.html"

    public struct Summary: Sendable {
        public var url: URL
        public var frames: Int
        /// RMSE over the frames with a truth row, degrees.
        public var headingRMSE: Double?
        public var inclinationRMSE: Double?
        /// The base map's streets, buildings and areas near the frames (nil: none was given).
        public var baseMapNearby: Int? = nil
        public var description: String {
            var text = "report: wrote \(url.path) (\(frames) frames"
            if let headingRMSE, let inclinationRMSE {
                text += String(format: "; against the truth: heading RMSE %.2f°, inclination %.2f°", headingRMSE, inclinationRMSE)
            }
            if baseMapNearby == 0 {
                text += "; the base map has nothing within \(Int(ReportData.baseMapReach)) m of the frames, so the page's map has no streets: is it an extract of another place?"
            }
            return text + ")"
        }
    }

    /// Writes `dir/report.html` (atomically). `truth`: the poses to score the frames against
    /// (and the file's name, for the page); `log`: the recording, named on the page; `baseMap`:
    /// the streets and buildings the page's map draws under the track (those near it).
    public static func write(dir: URL, truth: (series: PoseSeries, file: String)? = nil, log: String? = nil,
                             baseMap: [MapFeature]? = nil) throws -> Summary {
        let manifest = dir.appendingPathComponent("frames.jsonl")
        guard FileManager.default.fileExists(atPath: manifest.path) else {
            throw InputError(file: dir.path, "no frames.jsonl: not the folder of a finished replay (shards: run poiar merge first)")
        }
        var data = ReportData()
        let reader = try ManifestReader(url: manifest)
        while let frame = try reader.nextFrame() { data.add(frame) }
        try FrameFiles.checkAny(dir: dir, images: data.frames.map(\.image))  // the page shows them
        guard !data.frames.isEmpty else { throw InputError(file: manifest.path, "no frames: nothing to report") }
        var errors: ReportData.TruthErrors?
        if let truth {
            try truth.series.checkUsable(file: truth.file, against: data.frames.first!.time...data.frames.last!.time, spanName: "the frames'")
            errors = data.truthErrors(truth.series, file: truth.file)
        }
        let title = dir.standardizedFileURL.lastPathComponent
        let html = ReportPage.html(title: title, dataJSON: data.json(title: title, log: log, truth: errors, baseMap: baseMap ?? []))
        let url = dir.appendingPathComponent(fileName)
        try AtomicFile.write(Data(html.utf8), to: url)
        return Summary(url: url, frames: data.frames.count, headingRMSE: errors?.headingRMSE, inclinationRMSE: errors?.inclinationRMSE,
                       baseMapNearby: baseMap.map { data.featuresNearFrames($0).count })
    }
}

/// What the report page shows, gathered from frames.jsonl lines.
struct ReportData {
    struct Frame {
        var index: Int
        var time: Double
        var image: String
        var latitude: Double, longitude: Double
        var accuracy: Double?
        /// A smoothed position's 68 % radius, m, and the raw fix beside it (frames.jsonl
        /// `location.sigma_m` and `location.gps`).
        var sigma: Double?
        var gps: (lat: Double, lon: Double)?
        var orientation: Quaternion?
        var heading: Double?, pitch: Double?, roll: Double?, facing: Double?
        /// The 68 % bound of the heading's error, degrees.
        var headingSigma: Double?
        var isMap: Bool
        var drawn: Int, occluded: Int, dots: Int, clusters: Int
        var labels: [String]
    }
    struct POIEntry {
        var name: String, category: String, latitude: Double, longitude: Double
        var shown: Bool
    }
    struct TruthErrors {
        var file: String
        var rows: [(time: Double, heading: Double, inclination: Double)]
        var headingRMSE: Double?
        var inclinationRMSE: Double?
    }
    var frames: [Frame] = []
    var pois: [String: POIEntry] = [:]
    var poiOrder: [String] = []
    var width = 0, height = 0

    mutating func add(_ frame: ManifestFrame) {
        let camera = frame.camera.intrinsics
        if frames.isEmpty { width = camera.width; height = camera.height }
        var labels: [String] = []
        for a in frame.annotations {
            let label = POI.labelText(name: a.name, category: a.category)
            if pois[a.id] == nil {
                pois[a.id] = POIEntry(name: label, category: a.category, latitude: a.lat, longitude: a.lon, shown: false)
                poiOrder.append(a.id)
            }
            // A map frame draws no cards (as the run's labels: line counts).
            if a.visible && !frame.isMapView { labels.append(label); pois[a.id]!.shown = true }
        }
        let marks = frame.isMapView ? [] : frame.annotations.map { ($0.visible, $0.marker, $0.occluded, $0.anchor) }
        let figures = LabelFigures.of(marks, camera: camera)
        let clusters = frame.isMapView ? 0 : frame.clusters?.count ?? 0
        frames.append(Frame(index: frame.frame, time: frame.time, image: frame.image,
                            latitude: frame.location.lat, longitude: frame.location.lon, accuracy: frame.location.accuracy,
                            sigma: frame.location.sigmaM, gps: frame.location.gps.map { ($0.lat, $0.lon) },
                            orientation: frame.pose.orientation, heading: frame.pose.heading, pitch: frame.pose.pitch,
                            roll: frame.pose.roll, facing: frame.pose.facing, headingSigma: frame.pose.headingSigmaDeg,
                            isMap: frame.isMapView,
                            drawn: figures.cards + clusters, occluded: figures.occluded, dots: figures.dots, clusters: clusters,
                            labels: labels))
    }

    /// Each frame's pose against the truth's row nearest in time (within half the truth's
    /// median sample period, as `poiar evaluate` pairs them).
    func truthErrors(_ truth: PoseSeries, file: String) -> TruthErrors {
        var rows: [(time: Double, heading: Double, inclination: Double)] = []
        let times = truth.times
        let half = times.count > 1 ? 0.5 * median(zip(times.dropFirst(), times).map { $0 - $1 }) : 0
        for frame in frames {
            guard let q = frame.orientation, !times.isEmpty else { continue }
            guard let j = times.nearestIndex(to: frame.time),
                  abs(times[j] - frame.time) <= half * (1 + 1e-6) + 1e-9, let truthQ = truth.quaternions[j] else { continue }
            let angles = PoseScore.errorAngles(estimate: q, truth: truthQ)
            rows.append((frame.time, PoseScore.headingErrorDeg(estimate: q, truth: truthQ), degrees(angles.inclination)))
        }
        func rmse(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot()
        }
        return TruthErrors(file: file, rows: rows, headingRMSE: rmse(rows.map(\.heading)), inclinationRMSE: rmse(rows.map(\.inclination)))
    }

    /// The page's data (ReportPage): one JSON object.
    func json(title: String, log: String?, truth: TruthErrors?, baseMap: [MapFeature] = []) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.string("title", title)
        w.string("log", log)
        w.string("generator", "poiar")
        w.beginObject("image")
        w.int("width", width); w.int("height", height)
        w.endObject()
        w.beginArray("frames")
        for f in frames {
            w.beginObject()
            w.int("frame", f.index)
            w.number("time", f.time, decimals: 6)
            w.string("image", f.image)
            w.number("lat", f.latitude); w.number("lon", f.longitude)
            w.number("accuracy", f.accuracy, decimals: 3)
            if let sigma = f.sigma { w.number("sigma", sigma, decimals: 3) }
            w.number("heading", f.heading, decimals: 3); w.number("pitch", f.pitch, decimals: 3)
            w.number("roll", f.roll, decimals: 3); w.number("facing", f.facing, decimals: 3)
            w.number("heading_sigma", f.headingSigma, decimals: 3)
            w.string("view", f.isMap ? "map" : "camera")
            w.int("drawn", f.drawn); w.int("occluded", f.occluded); w.int("dots", f.dots); w.int("clusters", f.clusters)
            w.beginArray("labels")
            for name in f.labels { w.string(nil, name) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        // The raw GPS positions under a smoothed track: frames.jsonl has them at the frames'
        // times (`location.gps`, the fixes interpolated), each change once, as [[lat, lon], …].
        w.beginArray("track")
        var last: (lat: Double, lon: Double)?
        for f in frames {
            guard let g = f.gps, g.lat != last?.lat || g.lon != last?.lon else { continue }
            last = g
            w.beginArray(); w.number(nil, g.lat); w.number(nil, g.lon); w.endArray()
        }
        w.endArray()
        writeBaseMap(baseMap, into: &w)
        w.beginArray("pois")
        for id in poiOrder {
            let p = pois[id]!
            w.beginObject()
            w.string("name", p.name); w.string("category", p.category)
            w.number("lat", p.latitude); w.number("lon", p.longitude)
            w.bool("shown", p.shown)
            w.endObject()
        }
        w.endArray()
        if let truth {
            w.beginObject("truth")
            w.string("file", truth.file)
            w.number("heading_rmse", truth.headingRMSE, decimals: 4)
            w.number("inclination_rmse", truth.inclinationRMSE, decimals: 4)
            w.beginArray("errors")
            for r in truth.rows {
                w.beginObject()
                w.number("time", r.time, decimals: 6)
                w.number("heading", r.heading, decimals: 4)
                w.number("inclination", r.inclination, decimals: 4)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        } else {
            w.raw("truth", "null")
        }
        w.endObject()
        return w.text
    }
}
