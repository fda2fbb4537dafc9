import ArgumentParser
import Foundation
import Maps
import POIARCore
import Replay
import Report

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write OUT_DIR/report.html for a replay's output: a frame scrubber, the map, and plots over time of the pose, GPS accuracy, labels and (with --truth) the pose's error.",
        discussion: "One self-contained page (no network): open it in a browser from the folder, beside the frames. docs/report.md")

    @Argument(help: "A replay's output folder (frames and frames.jsonl).")
    var dir: String

    @Option(help: "Score each frame's pose against this truth: time,qw,qx,qy,qz[,movement] (plain or .gz), or a phone's own orientation (a Sensor Logger export or its Orientation.csv). (default: none)")
    var truth: String?

    @Option(help: "The recording, named on the page. (default: none)")
    var log: String?

    @Option(help: "An OSM extract (PBF, XML, Overpass JSON) whose streets and buildings the page's map draws under the track. (default: none)")
    var basemap: String?

    func run() throws {
        try reportingErrors {
            try checkOutputs(writes: [(URL(fileURLWithPath: dir).appendingPathComponent(ReplayReport.fileName).path, "the report")],
                             reads: [(truth, "the truth"), (log, "the recording"), (basemap, "the base map")])
            let series = try truth.map { (series: try readTruth($0, log: log, trueNorthAdvice: nil), file: $0) }
            let baseMap = try basemap.map(TrackMap.osmBaseMap)
            // The page names the log as the run's recording: it must be that.
            let folder = URL(fileURLWithPath: dir)
            if let log, FileManager.default.fileExists(atPath: folder.appendingPathComponent("frames.jsonl").path) {
                try RunLogCheck.check(log: log, dir: folder)
            }
            printNotice(try ReplayReport.write(dir: folder, truth: series, log: log, baseMap: baseMap).description)
        }
    }
}
