import Export
import Foundation
import Frames
import Fusion
import POIARCore
import Projection
import Recordings
import SensorLog

/// Everything `poiar replay` can be told.
public struct ReplayOptions: Sendable {
    public var logPath: String
    /// Output folder; nil: `Output/<log name without extension>/`.
    public var outputDir: String?
    /// Categories to show; nil: all.
    public var categories: [String]?
    /// POI SOURCE; nil: the log's `# pois:` line.
    public var poiSource: String?
    /// `--buildings SOURCE`: the footprints for line of sight; nil: the POI source's, when it
    /// holds buildings. Resolved, when the replay starts, to the pipeline's `buildings`
    /// (`BuildingSource`).
    public var buildings: String?
    /// Language code: POI names from their `name:<language>` tag when they have one.
    public var language: String?
    public var camera = CameraSetup()
    /// Search radius around the device, metres (default 1500, the original app's).
    public var radius = 1500.0
    /// Frames per second for logs without frame rows.
    public var fps = 2.0
    /// Which of the frames are drawn (`--from`, `--to`, `--every`, `--fps` on frame rows).
    public var selection = FrameSelection()
    /// The camera images to draw over when they are not the log's frame rows (`--footage`).
    public var footage = FootageOptions()
    public var jobs = 1
    public var magnetic = false
    /// Date for the magnetic model (`--date`); nil: the log's start_utc, else today.
    public var date: Date?
    /// Fuse causally (`--causal`); default: offline (`FusionPass`).
    public var causal = false
    /// Where the attitude comes from (`--pose-source`).
    public var poseSource = PoseSource.auto
    public var fontPath: String?
    public var boldFontPath: String?
    public var pngCompressionLevel = 6
    public var filterParams = ComplementaryFilterParams()
    /// Label layout (`--max-visible`, distance offset, stack cap, max distance, calm-over-time
    /// constants); lengths are at 720 px and scale with the image.
    public var layout = LayoutOptions()
    /// Refraction and off-screen indicators.
    public var annotation = AnnotationOptions()
    /// Keep labels calm from frame to frame (hysteresis and easing); off gives each frame the
    /// plain stateless layout.
    public var calm = true
    /// What is drawn over the frames besides the cards (HUD, card second line), where the
    /// stills are read from, and whether a map is written beside the frames.
    public var overlay = OverlayOptions()
    /// Output scale, video, contact sheet, resume and sharding (docs/batch.md).
    public var batch = BatchOptions()
    /// Where the device was for the whole recording (`--at`), instead of its GPS fixes: for
    /// recordings without location, or to override it.
    public var fixedPosition: GeoCoordinate?
    /// Draw a map instead of the camera view while the phone points at the ground
    /// (`FlatViewSwitch`; `--no-flat-map` turns it off).
    public var flatMap = true
    /// `--mcap FILE`: also write the recording and its frames as an MCAP file (docs/mcap.md).
    public var mcap: URL?
    /// How the MCAP file holds the frames (`--mcap-images`).
    public var mcapImages = RecordingMCAP.ImageFormat.png
    /// `--truth`, read by the report after the run: only checked against the outputs here.
    public var truthPath: String?

    public init(logPath: String) { self.logPath = logPath }

    /// What the user said about north (`--magnetic`, `--date`, `--at`).
    public var northChoice: NorthChoice { NorthChoice(magnetic: magnetic, date: date, at: fixedPosition) }

    /// `Output/<log name without .csv/.csv.gz>`.
    public var resolvedOutputDir: URL {
        if let outputDir { return URL(fileURLWithPath: outputDir) }
        var name = URL(fileURLWithPath: logPath).lastPathComponent
        for ext in [".zip", ".gz", ".csv", ".mp4", ".MP4", ".mov", ".MOV"] where name.hasSuffix(ext) { name.removeLast(ext.count) }
        return URL(fileURLWithPath: "Output").appendingPathComponent(name)
    }
}

public struct ReplaySummary: Sendable {
    public var frames: Int
    public var outputDir: URL
    public var seconds: Double
    public var north: NorthReference
    public var rejectedFixes: Int
    /// How calm the labels were (`--stats`).
    public var stats: CalmStats.Summary
    /// What the frames showed, and why those without a label had none.
    public var outcomes: FrameOutcomes
    /// Cards, cluster cards, dots and POIs behind buildings over the frames.
    public var labels: LabelCounts
    /// Time spent drawing the frames this process drew, summed over threads.
    public var drawingSeconds: Double
    /// Frames this process drew, and frames it left as they were (`--resume`).
    public var rendered: Int
    public var skipped: Int
    /// The manifest written: `frames.jsonl`, or the shard's part.
    public var manifestName: String
    /// The streets and buildings of the POI source the replay read, parsed once for the map
    /// and the report.
    public var baseMap: SourceBaseMap
    /// The MCAP file written (`--mcap`).
    public var mcap: RecordingMCAP.Summary?
    /// The frames written as PNG files (false with `--no-frames`: in the video only).
    public var pngFrames = true
    /// A line per extra file written (map, contact sheet, video).
    public var extras: [String] = []
    /// The shard this process drew (`--shard`): the outcomes and labels are of its frames.
    public var shard: ShardSpec?
}


extension OverlayOptions {
    /// The radar's radius, metres: `--radar-range`, else at most as far as labels reach
    /// (`--max-distance`), else the search radius, chosen on each frame from what is around
    /// (`replay` and `project` alike).
    public func radarRange(maxDistance: Double?, radius: Double) -> (range: Double, fixed: Bool) {
        (radarRange ?? maxDistance ?? radius, radarRange != nil)
    }
}

extension FrameOverlay {
    /// The overlay a replay with `options` draws: its HUD parts and second line, the radar
    /// reaching at most as far as labels do (`--max-distance`, else `--radius`).
    public init(options: ReplayOptions, startUTC: Date?) {
        let radar = options.overlay.radarRange(maxDistance: options.layout.maxDistance, radius: options.radius)
        self.init(hud: options.overlay.hud, startUTC: startUTC, radarRange: radar.range, radarRangeFixed: radar.fixed)
    }
}
